package export_test

import (
	"fmt"
	"os"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/preclean"
)

// A page goes through load, preclean and blocks; a classifier decides
// which blocks to keep (here a stand-in drops the blocks that are mostly
// link text), and Write writes them. In CleanEval's format the URL comes
// first, then each segment on a line of its own, typed <h> (heading), <l> (list item)
// or <p>.
func Example() {
	in := `<text id="http://example.com/story" title="Story">
<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<h1>Rain in Spain</h1>
<p>The rain in Spain falls mainly on the plain.</p>
<ul><li>Madrid</li><li>Seville</li></ul>
<p><b>Weather</b></p>
<p>Tomorrow it will be sunny.</p>
<p><a href="/about">About us</a> | <a href="/contact">Contact</a></p>
</text>`
	page, err := load.Bytes("story.html", []byte(in), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := preclean.Clean(page.Doc); err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	keep := make([]bool, len(bs))
	for i, b := range bs {
		keep[i] = 2*b.LinkChars < b.Chars
	}
	if err := export.Write(os.Stdout, export.CleanEval, page, bs, keep, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// URL: http://example.com/story
	// <h> Rain in Spain
	// <p> The rain in Spain falls mainly on the plain.
	// <l> Madrid
	// <l> Seville
	// <h> Weather
	// <p> Tomorrow it will be sunny.
}

// The Text format writes plain paragraphs separated by blank lines; a nil
// keep keeps every block.
func ExampleWrite_text() {
	page, err := load.Bytes("page.html", []byte(`<h1>Rain</h1><p>It rains.</p><p>Then it stops.</p>`), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	if err := export.Write(os.Stdout, export.Text, page, bs, nil, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Rain
	//
	// It rains.
	//
	// Then it stops.
}

// The HTML format prunes the document: dropped blocks lose their text,
// and elements left empty go.
func ExampleWrite_html() {
	page, err := load.Bytes("page.html", []byte(`<div><a href="/">Home</a></div><p>It rains.</p>`), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	keep := []bool{false, true} // drop the <div>, keep the <p>
	if err := export.Write(os.Stdout, export.HTML, page, bs, keep, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <html><head></head><body><p>It rains.</p></body></html>
}

// The JSON format writes every block, kept or not, with its label and the
// classifier's decision value.
func ExampleWrite_json() {
	page, err := load.Bytes("page.html", []byte(`<div><a href="/">Home</a></div><p>It rains.</p>`), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	score := []float64{-1.5, 0.75}
	if err := export.Write(os.Stdout, export.JSON, page, bs, []bool{false, true}, score); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//  "name": "page.html",
	//  "text": "It rains.",
	//  "blocks": [
	//   {
	//    "id": 0,
	//    "label": "dirty",
	//    "value": -1.5,
	//    "type": "p",
	//    "tag": "div",
	//    "text": "Home"
	//   },
	//   {
	//    "id": 1,
	//    "label": "clean",
	//    "value": 0.75,
	//    "type": "p",
	//    "tag": "p",
	//    "text": "It rains."
	//   }
	//  ]
	// }
}

// Segments gives the kept text in reading order with its CleanEval
// types, for writing a format of one's own. A short bold paragraph is
// typed as a heading.
func ExampleSegments() {
	page, err := load.Bytes("page.html", []byte(`<p><b>Cities</b></p><ul><li>Madrid</li><li>Seville</li></ul><p>Both are in Spain.</p>`), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	for _, s := range export.Segments(bs, func(i int) bool { return true }) {
		fmt.Printf("%c %s\n", s.Kind, s.Text)
	}
	// Output:
	// h Cities
	// l Madrid
	// l Seville
	// p Both are in Spain.
}
