package preclean

import (
	"github.com/fiasco-project/fiasco/internal/shared"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/load"
	"golang.org/x/net/html"
)

// words returns the white-space separated words of the text below n,
// outside <head>.
func words(n *html.Node) []string { return wordsOf(n, nil) }

// wordsOf is words with fix applied to each text node's text first.
func wordsOf(n *html.Node, fix func(string) string) []string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "head" {
			return
		}
		if n.Type == html.TextNode {
			if fix != nil {
				b.WriteString(fix(n.Data))
			} else {
				b.WriteString(n.Data)
			}
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Fields(b.String())
}

// isSubsequence reports whether a is a subsequence of b.
func isSubsequence(a, b []string) bool {
	i := 0
	for _, w := range b {
		if i < len(a) && a[i] == w {
			i++
		}
	}
	return i == len(a)
}

// TestRealPages cleans the CleanEval dev and CleanPortalEval pages: the
// cleaned text is a subsequence of the original (nothing added or
// reordered), the document is stable under rendering and parsing, and
// blocks.Find finds blocks in it.
func TestRealPages(t *testing.T) {
	root := shared.Path(t, "")
	for _, set := range []string{"cleaneval-en-dev", "cleanportaleval"} {
		files, _ := filepath.Glob(filepath.Join(root, set, "html", "*.html"))
		var total Stats
		before, after := 0, 0
		for _, f := range files {
			p, err := load.File(f, load.Options{})
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			w0 := words(p.Doc)
			st, err := CleanStats(p.Doc)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			w1 := words(p.Doc)
			if !isSubsequence(w1, w0) {
				t.Errorf("%s: cleaned text is not a subsequence of the original", f)
			}
			assertStable(t, render(t, p.Doc))
			if len(w1) > 0 && len(blocks.Find(p.Doc)) == 0 {
				t.Errorf("%s: no blocks", f)
			}
			before += len(w0)
			after += len(w1)
			total.Elements += st.Elements
			total.Hidden += st.Hidden
			total.Comments += st.Comments
			total.Paragraphs += st.Paragraphs
		}
		t.Logf("%s: %d pages, words %d -> %d, removed %d elements (%d hidden), %d comments, %d paragraphs from <br> runs",
			set, len(files), before, after, total.Elements, total.Hidden, total.Comments, total.Paragraphs)
	}
}
