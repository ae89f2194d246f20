package blocks_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/fiasco-project/fiasco/blocks"
	"golang.org/x/net/html"
)

// Find returns the text blocks of a page in document order. Inline
// elements such as <a> and <b> are transparent: the paragraph with a link
// stays one block. The <div> is a block too: its own text ("Posted by
// Ann.") is more than 10% of the text in its subtree. Find expects a
// precleaned document (package preclean); this one has nothing to remove.
func Example() {
	doc, err := html.Parse(strings.NewReader(`<body>
<h1>Rain in <b>Spain</b></h1>
<div>Posted by Ann. <p>The rain in Spain falls mainly on the plain, <a href="/more">read more</a> about it in our archive.</p></div>
<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
</body>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks.Find(doc) {
		fmt.Printf("%d <%s> parent %d: %s\n", b.ID, b.Node.Data, b.Parent, b.Text)
	}
	// Output:
	// 0 <h1> parent -1: Rain in Spain
	// 1 <div> parent -1: Posted by Ann.
	// 2 <p> parent 1: The rain in Spain falls mainly on the plain, read more about it in our archive.
	// 3 <li> parent -1: Home
	// 4 <li> parent -1: News
}

// A block whose text is interrupted by a nested block has several runs:
// Runs gives the page text in reading order, while Block.Text joins each
// block's own text.
func ExampleRuns() {
	doc, err := html.Parse(strings.NewReader(`<table><tr><td>He wrote:
<blockquote>Nothing is lost.</blockquote>
and left the room.</td></tr></table>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	bs := blocks.Find(doc)
	for _, r := range blocks.Runs(bs) {
		fmt.Printf("block %d: %s\n", r.Block, r.Text)
	}
	fmt.Printf("%q\n", bs[0].Text)
	// Output:
	// block 0: He wrote:
	// block 1: Nothing is lost.
	// block 0: and left the room.
	// "He wrote:\nand left the room."
}

// Mark labels every block element with its ID, so that a browser
// rendering the document can tell the blocks apart.
func ExampleMark() {
	doc, err := html.Parse(strings.NewReader(`<h1>Title</h1><p>Some <i>text</i>.</p>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	blocks.Mark(blocks.Find(doc))
	html.Render(os.Stdout, doc)
	// Output:
	// <html><head></head><body><h1 data-fiasco-block="0">Title</h1><p data-fiasco-block="1">Some <i>text</i>.</p></body></html>
}
