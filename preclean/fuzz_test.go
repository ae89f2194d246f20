package preclean

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/internal/mojibake"
)

// FuzzPreclean cleans arbitrary parsed HTML: no panic or error, the text
// left is a subsequence of the original (of a document with a
// declarative shadow root, whose slots take the host's children in
// their order, a part of its characters; of one with an <iframe srcdoc>,
// whose document's text comes from the attribute, not checked), and a document that was stable
// under rendering and parsing stays stable.
func FuzzPreclean(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*.html")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("<p>a<br><br>b<br> <br>c</p>"))
	f.Add([]byte("<div><b>a<br><br><i>b<br><br>c</i></b></div>"))
	// An object is a scope boundary: the fallback it keeps may hold what
	// its parent could not.
	f.Add([]byte("<!DOCTYPE html><p>a <object data=x.swf><div>fb</div></object> b</p>"))
	f.Add([]byte("<li>a <object><li>inner</li></object></li><a href=ad>x <object type=application/x-shockwave-flash><a href=get>Get Flash</a></object></a>"))
	f.Add([]byte("<p><applet code=C.class><div>No Java<br><br>at all</div></applet></p><h1>a <object><h2>x</h2></object></h1>"))
	f.Add([]byte("<div><span>a<br><br>b<map><area></map></span> c<span style=float:left>T</span>he <pre>x<b style=float:right>y</b>z</pre></div>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		before := render(t, doc)
		d2, err := html.Parse(strings.NewReader(before))
		stable := err == nil && render(t, d2) == before
		// The words as Clean leaves them: each text node's mojibake
		// repaired and the characters that show nothing dropped
		// (stripInvisible), which may stand inside a word.
		w0 := wordsOf(doc, func(s string) string { return stripInvisible(mojibake.Repair(s)) })
		shadow, srcdoc := false, false
		for n := doc; n != nil && !shadow; n = dom.Next(doc, n) {
			shadow = shadowTemplate(n)
			if n.Type == html.ElementNode && n.Data == "iframe" {
				_, has := dom.LookupAttr(n, "srcdoc")
				srcdoc = srcdoc || has
			}
		}
		if _, err := CleanStats(doc); err != nil {
			t.Fatal(err)
		}
		if shadow {
			// Slots put text nodes side by side, as a browser shows
			// them: the characters are a part of the original's.
			if !isSubset(chars(words(doc)), chars(w0)) {
				t.Fatalf("text not a part of the original's characters")
			}
		} else if !srcdoc && !isSubsequence(words(doc), w0) {
			// (A frame's srcdoc brings text of an attribute.)
			t.Fatalf("text not a subsequence of the original")
		}
		if stable {
			assertStable(t, render(t, doc))
		}
	})
}

// chars returns the characters of words, one string each.
func chars(words []string) []string {
	var out []string
	for _, w := range words {
		for _, r := range w {
			out = append(out, string(r))
		}
	}
	return out
}

// isSubset reports whether every word of a is a word of b, as often.
func isSubset(a, b []string) bool {
	n := make(map[string]int, len(b))
	for _, w := range b {
		n[w]++
	}
	for _, w := range a {
		if n[w] == 0 {
			return false
		}
		n[w]--
	}
	return true
}
