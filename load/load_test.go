package load

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// docText returns the text of all text nodes of n, joined.
func docText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// TestCharsetChain loads every page listed in testdata/charset/cases.tsv and
// checks the chosen charset, the deciding link of the chain, a piece of
// decoded text and the wrapper's URL and title.
func TestCharsetChain(t *testing.T) {
	f, err := os.Open("testdata/charset/cases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		for len(col) < 7 {
			col = append(col, "")
		}
		file, ctype, wantEnc, wantSrc, wantText, wantURL, wantTitle := col[0], col[1], col[2], col[3], col[4], col[5], col[6]
		if ctype == "-" {
			ctype = ""
		}
		n++
		t.Run(file+"/"+ctype, func(t *testing.T) {
			p, err := File(filepath.Join("testdata/charset", file), Options{ContentType: ctype})
			if err != nil {
				t.Fatal(err)
			}
			if p.Encoding != wantEnc || p.EncodingSource != wantSrc {
				t.Errorf("got %s from %s, want %s from %s", p.Encoding, p.EncodingSource, wantEnc, wantSrc)
			}
			if txt := docText(p.Doc); !strings.Contains(txt, wantText) {
				t.Errorf("decoded text lacks %q:\n%s", wantText, txt)
			}
			if p.URL != wantURL || p.Title != wantTitle {
				t.Errorf("wrapper URL, title = %q, %q; want %q, %q", p.URL, p.Title, wantURL, wantTitle)
			}
			if p.Wrapped != (wantURL != "") {
				t.Errorf("Wrapped = %v", p.Wrapped)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("only %d cases read", n)
	}
}
