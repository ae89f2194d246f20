package blocks

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden runs Find on every testdata/*.html and compares a listing of
// the blocks and of the page's runs with testdata/*.golden.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test pages: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := listing(t, f)
			golden := strings.TrimSuffix(f, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("blocks of %s:\n%s\nwant:\n%s", f, got, want)
			}
		})
	}
}

func listing(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	bs := Find(doc)
	var b strings.Builder
	total := 0
	for _, x := range bs {
		fmt.Fprintf(&b, "%d parent=%d <%s> depth=%d chars=%d link=%d offset=%d: %q\n",
			x.ID, x.Parent, x.Node.Data, x.Depth, x.Chars, x.LinkChars, x.Offset, x.Text)
		total += x.Chars
	}
	// The blocks partition the page's text.
	if want := countText(doc); total != want {
		t.Errorf("blocks hold %d characters, the page %d", total, want)
	}
	b.WriteString("runs:\n")
	for _, r := range Runs(bs) {
		fmt.Fprintf(&b, "%d: %q\n", r.Block, r.Text)
	}
	return b.String()
}

func countText(n *html.Node) int {
	if n.Type == html.ElementNode && n.Data == "head" {
		return 0
	}
	c := 0
	if n.Type == html.TextNode {
		c = nonSpace(n.Data)
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c += countText(k)
	}
	return c
}

func TestMark(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<p>one</p><p>two</p>`))
	bs := Find(doc)
	Mark(bs)
	var sb strings.Builder
	if err := html.Render(&sb, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<p data-fiasco-block="0">one</p>`, `<p data-fiasco-block="1">two</p>`} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("marked document lacks %s:\n%s", want, sb.String())
		}
	}
}

func TestEmpty(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<html><body>  <img src=x> </body></html>`))
	if bs := Find(doc); len(bs) != 0 {
		t.Errorf("%d blocks in a page without text", len(bs))
	}
}

// TestBlankOnly: a paragraph whose text is only characters that show
// nothing (bidirectional marks, the braille blank, a Hangul filler) is no
// block; the same characters inside a text count as before.
func TestBlankOnly(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<html><body><p>\u200e</p><p> \u202c\u2066\u2069 </p><p>\u2800</p><p>\u3164</p>" +
		"<p>\u200fשלום עולם, this is the text.\u200e</p></body></html>"))
	bs := Find(doc)
	if len(bs) != 1 || !strings.Contains(bs[0].Text, "this is the text") {
		t.Errorf("blocks %d: %v", len(bs), bs)
	}
	if n := nonSpace("\u200fab\u200e"); n != 4 {
		t.Errorf("nonSpace counts %d, want 4: marks inside a text count", n)
	}
}
