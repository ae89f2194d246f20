package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLoad feeds arbitrary bytes to Bytes: it never panics, and a page it
// returns has a document, a charset, a source and valid UTF-8 text.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/charset/*.html")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("\x00\x01\x02"))
	f.Add([]byte(strings.Repeat("<div>", 600) + "x"))
	f.Add([]byte(`<text id="u" title="t" encoding="utf8"><p>x</p></text>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Bytes("fuzz", data, Options{MaxBytes: 1 << 20, MaxTags: 20000})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error does not name the page: %v", err)
			}
			return
		}
		if p.Doc == nil || p.Encoding == "" || p.EncodingSource == "" {
			t.Fatalf("incomplete page %+v", p)
		}
		if txt := docText(p.Doc); !utf8.ValidString(txt) {
			t.Fatalf("invalid UTF-8 text %q", txt)
		}
		if !utf8.ValidString(p.URL) || !utf8.ValidString(p.Title) {
			t.Fatalf("invalid UTF-8 in wrapper attributes")
		}
	})
}
