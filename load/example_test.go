package load_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fiasco-project/fiasco/load"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"
)

// A page in windows-1251, as a Russian server would send it, declares its
// charset in a <meta> tag. Bytes decodes it to UTF-8 and parses it; the
// Page says which charset was used and which link of the charset chain
// chose it.
func Example() {
	page := `<html><head><meta charset="windows-1251"><title>Новости</title></head>` +
		`<body><p>Привет, мир!</p></body></html>`
	data, _ := charmap.Windows1251.NewEncoder().Bytes([]byte(page))

	p, err := load.Bytes("page.html", data, load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Encoding, p.EncodingSource)
	html.Render(os.Stdout, p.Doc) // the document is UTF-8 now
	// Output:
	// windows-1251 meta
	// <html><head><meta charset="windows-1251"/><title>Новости</title></head><body><p>Привет, мир!</p></body></html>
}

// File reads a page from disk. Errors name the page and wrap ErrEmpty,
// ErrBinary or ErrDepth, so errors.Is tells them apart.
func ExampleFile() {
	dir, err := os.MkdirTemp("", "load-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "page.html")
	os.WriteFile(path, []byte("<p>Caf\xe9 au lait</p>"), 0o644) // windows-1252, undeclared; errors ignored for brevity

	p, err := load.File(path, load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Encoding, p.EncodingSource)

	os.WriteFile(path, nil, 0o644)
	_, err = load.File(path, load.Options{})
	fmt.Println(errors.Is(err, load.ErrEmpty))
	// Output:
	// windows-1252 guess
	// true
}

// A CleanEval input file wraps the page in a <text> element. Reader
// removes the wrapper and keeps its URL and title; its encoding attribute
// decides the charset when nothing stronger does.
func ExampleReader() {
	in := `<text id="http://example.com/news" title="News" encoding="iso-8859-1">` +
		"<html><body><p>Caf\xe9</p></body></html></text>"

	p, err := load.Reader("1.html", strings.NewReader(in), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Wrapped, p.URL, p.Title)
	fmt.Println(p.Encoding, p.EncodingSource)
	// Output:
	// true http://example.com/news News
	// windows-1252 wrapper
}

// Options.ContentType passes the Content-Type header of an HTTP response;
// its charset beats a <meta> declaration. Labels are resolved as browsers
// do: iso-8859-1 means windows-1252.
func ExampleOptions() {
	data := []byte("<meta charset=\"koi8-r\"><p>Gr\xfc\xdfe</p>")
	for _, ct := range []string{"", "text/html; charset=iso-8859-1"} {
		p, err := load.Bytes("page.html", data, load.Options{ContentType: ct})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(p.Encoding, p.EncodingSource)
	}
	// Output:
	// koi8-r meta
	// windows-1252 header
}
