package gold_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/preclean"
)

// A data set is a directory with html/<id>.html and gold/<id>.*; this one
// holds one page and its CleanEval gold standard. Pairs lists the pages;
// each page goes through load, preclean and blocks, and Label and Labels
// mark its blocks clean or dirty by the gold text.
func Example() {
	dir, err := os.MkdirTemp("", "dataset")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	os.Mkdir(filepath.Join(dir, "html"), 0o755) // errors ignored for brevity
	os.Mkdir(filepath.Join(dir, "gold"), 0o755)
	os.WriteFile(filepath.Join(dir, "html", "1.html"), []byte(`<div><a href="/">Home</a> | <a href="/news">News</a></div>
<h1>Rain in Spain</h1><p>The rain in Spain falls mainly on the plain.</p>
<p>Copyright 2007 Example Inc.</p>`), 0o644)
	os.WriteFile(filepath.Join(dir, "gold", "1.txt"), []byte(`URL: http://example.com/
<h> Rain in Spain
<p> The rain in Spain falls mainly on the plain.
`), 0o644)

	pairs, err := gold.Pairs(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pairs {
		page, err := load.File(p.HTML, load.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := preclean.Clean(page.Doc); err != nil {
			fmt.Println(err)
			return
		}
		bs := blocks.Find(page.Doc)
		g, err := gold.Read(p.Gold, p.Format)
		if err != nil {
			fmt.Println(err)
			return
		}
		clean := gold.Labels(gold.Label(bs, g), gold.Threshold)
		fmt.Println("page", p.ID, "gold", p.Format)
		for i, b := range bs {
			fmt.Printf("%-5v %s\n", clean[i], b.Text)
		}
	}
	// Output:
	// page 1 gold cleaneval
	// false Home | News
	// true  Rain in Spain
	// true  The rain in Spain falls mainly on the plain.
	// false Copyright 2007 Example Inc.
}

// Parse reads a gold file from memory. CleanEval gold text opens each
// segment with <p>, <h> or <l>; comments are dropped and character
// references resolved.
func ExampleParse() {
	data := []byte(`URL: http://example.com/recipes
<h>Pancakes <!-- title -->
<p>Mix flour, eggs &amp; milk.
<l>200 g flour
<l>2 eggs
`)
	g, err := gold.Parse(data, gold.Unknown, gold.Options{}) // Unknown: detect the format
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Format, g.URL, len(g.Words), "words")
	for _, s := range g.Segments {
		fmt.Printf("%c %s\n", s.Kind, s.Text)
	}
	// Output:
	// cleaneval http://example.com/recipes 11 words
	// h Pancakes
	// p Mix flour, eggs & milk.
	// l 200 g flour
	// l 2 eggs
}

// Label gives each block the share of its words that the gold text
// holds (the page's words are aligned with the gold words in reading
// order); Labels cuts the shares at Threshold.
func ExampleLabel() {
	page, err := load.Bytes("page.html", []byte(`<p><a href="/">Home</a> <a href="/news">News</a></p>
<p>The rain in Spain falls mainly on the plain.</p>
<p>Photo by Ann Lee. Click to enlarge.</p>`), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(page.Doc)
	g, err := gold.Parse([]byte("URL:\n<p>The rain in Spain falls mainly on the plain.\n<p>Photo by Ann Lee.\n"), gold.CleanEval, gold.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	shares := gold.Label(bs, g)
	clean := gold.Labels(shares, gold.Threshold)
	for i, b := range bs {
		fmt.Printf("%.2f %-5v %s\n", shares[i], clean[i], b.Text)
	}
	// Output:
	// 0.00 false Home News
	// 1.00 true  The rain in Spain falls mainly on the plain.
	// 0.57 true  Photo by Ann Lee. Click to enlarge.
}
