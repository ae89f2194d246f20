package preclean_test

import (
	"fmt"
	"os"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/preclean"
	"golang.org/x/net/html"
)

// Clean removes what a reader does not see (here a script, a comment, a
// hidden menu and a button) and splits the paragraph written with <br><br>
// in two, so that package blocks finds one block per visible paragraph.
func Example() {
	page := `<html><head><title>Notes</title><script>track()</script></head><body>
<!-- menu -->
<div style="display: none">Menu</div>
<button>Search</button>
<p>First paragraph.<br><br>Second paragraph.</p>
</body></html>`
	p, err := load.Bytes("page.html", []byte(page), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := preclean.Clean(p.Doc); err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks.Find(p.Doc) {
		fmt.Println(b.Text)
	}
	// Output:
	// First paragraph.
	// Second paragraph.
}

// CleanStats reports what Clean did; rendering the document shows the
// result.
func ExampleCleanStats() {
	page := `<p>Text<script>x()</script><!-- note --></p><p hidden>Secret</p><div>One<br><br>Two</div>`
	p, err := load.Bytes("page.html", []byte(page), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := preclean.CleanStats(p.Doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("removed %d elements (%d hidden) and %d comment; split %d run of <br>\n",
		st.Elements, st.Hidden, st.Comments, st.Paragraphs)
	html.Render(os.Stdout, p.Doc)
	// Output:
	// removed 2 elements (1 hidden) and 1 comment; split 1 run of <br>
	// <html><head><meta charset="utf-8"/></head><body><p>Text</p><div><p>One</p><p>Two</p></div></body></html>
}

// Options.KeepHidden keeps elements hidden by the hidden attribute or an
// inline style, for pages whose scripts reveal them.
func ExampleCleanWith() {
	page := `<p>Shown.</p><p style="display:none">Revealed by a script.</p>`
	p, err := load.Bytes("page.html", []byte(page), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := preclean.CleanWith(p.Doc, preclean.Options{KeepHidden: true}); err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks.Find(p.Doc) {
		fmt.Println(b.Text)
	}
	// Output:
	// Shown.
	// Revealed by a script.
}
