// Package load reads web pages: raw bytes of any charset, or CleanEval input
// files that wrap the page in <text id=URL title=.. encoding=..>, decoded to
// UTF-8 and parsed with golang.org/x/net/html.
//
// (Minimal first version; the charset chain is being completed.)
package load

import (
	"bytes"
	"fmt"
	"os"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Page is a loaded, parsed web page.
type Page struct {
	Name     string     // file name, or "-" for standard input
	URL      string     // from the CleanEval wrapper's id attribute, if any
	Title    string     // from the CleanEval wrapper's title attribute, if any
	Encoding string     // the charset the bytes were decoded with
	Doc      *html.Node // the parsed document
}

// Options bound the resources spent on one page.
type Options struct {
	MaxBytes int64 // largest input accepted; 0 means DefaultMaxBytes
}

// DefaultMaxBytes is the largest page read when Options.MaxBytes is 0.
const DefaultMaxBytes = 64 << 20

// File reads and parses the page at path.
func File(path string, opt Options) (*Page, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Bytes(path, data, opt)
}

// Bytes parses the page held in data; name is used in errors.
func Bytes(name string, data []byte, opt Options) (*Page, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty page", name)
	}
	enc, encName, _ := charset.DetermineEncoding(data, "")
	r := enc.NewDecoder().Reader(bytes.NewReader(data))
	doc, err := html.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &Page{Name: name, Encoding: encName, Doc: doc}, nil
}
