package load

import (
	"testing"

	"golang.org/x/net/html"
)

// paragraphs counts the <p> elements of n's tree.
func paragraphs(n *html.Node) int {
	k := 0
	if n.Type == html.ElementNode && n.Data == "p" {
		k++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k += paragraphs(c)
	}
	return k
}

// TestXHTML: a page a browser parses as XML (named .xhtml, or served as
// application/xhtml+xml) keeps what follows a self-closing <script/>,
// <title/> or <div/>; the same bytes named .html are parsed as HTML, as
// a browser does, and the script swallows the page.
func TestXHTML(t *testing.T) {
	page := `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title/><script src="app.js"/></head>
<body><div id="top"/><p>The council voted on Tuesday.</p><br/><p>Second paragraph.</p></body></html>`
	for _, c := range []struct {
		name, contentType string
		whole             bool
	}{
		{"page.xhtml", "", true},
		{"page.XHT", "", true},
		{"page", "application/xhtml+xml; charset=utf-8", true},
		{"page.xhtml", "text/html", false},
		{"page.html", "", false},
	} {
		p, err := Bytes(c.name, []byte(page), Options{ContentType: c.contentType})
		if err != nil {
			t.Fatalf("%s %q: %v", c.name, c.contentType, err)
		}
		if got := paragraphs(p.Doc); (got == 2) != c.whole {
			t.Errorf("%s %q: %d paragraphs parsed, want 2: %v", c.name, c.contentType, got, c.whole)
		}
	}
	fixed, ok := closeSelfClosing(`<title/><script src="a.js" /><div id="x"/>a<br/>b<img src="i.png"/>`)
	want := `<title></title><script src="a.js" ></script><div id="x"></div>a<br/>b<img src="i.png"/>`
	if !ok || fixed != want {
		t.Errorf("closeSelfClosing: %q, %v; want %q", fixed, ok, want)
	}
}
