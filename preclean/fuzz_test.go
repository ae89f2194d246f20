package preclean

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzPreclean cleans arbitrary parsed HTML: no panic or error, the text
// left is a subsequence of the original, and a document that was stable
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
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		before := render(t, doc)
		d2, err := html.Parse(strings.NewReader(before))
		stable := err == nil && render(t, d2) == before
		w0 := words(doc)
		if _, err := CleanStats(doc); err != nil {
			t.Fatal(err)
		}
		if !isSubsequence(words(doc), w0) {
			t.Fatalf("text not a subsequence of the original")
		}
		if stable {
			assertStable(t, render(t, doc))
		}
	})
}
