package load

import (
	"mime"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
)

// servedAsXML reports whether a browser would parse the page as XML: its
// Content-Type is application/xhtml+xml, or, without one, its file name
// ends in .xhtml or .xht. A page served as text/html is parsed as HTML
// whatever its DOCTYPE says, as browsers do.
func servedAsXML(name, contentType string) bool {
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		return err == nil && mt == "application/xhtml+xml"
	}
	return XHTMLName(name)
}

// XHTMLName reports whether a page's file name says it is XHTML: it ends
// in .xhtml or .xht (in any case).
func XHTMLName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xhtml", ".xht":
		return true
	}
	return false
}

// closeSelfClosing rewrites every self-closing tag of an element that is
// not void (<script src="a.js"/>, <div id="x"/>) as a start tag and its
// end tag, which is what the XML syntax means and what a browser parsing
// the page as XML builds. Parsed as HTML, such a <script/> or <title/>
// would read the rest of the page as its text, and a <div/> would hold
// what follows it. It reports whether it changed anything.
func closeSelfClosing(text string) (string, bool) {
	z := html.NewTokenizer(strings.NewReader(text))
	var b strings.Builder
	changed := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // the end: every byte before it was written
		}
		raw := z.Raw()
		if tt != html.SelfClosingTagToken {
			b.Write(raw)
			continue
		}
		name, _ := z.TagName()
		n := string(name)
		if voidElements[n] {
			b.Write(raw)
			continue
		}
		// A raw text element's self-closing tag sets the tokenizer to
		// read what follows as its text: it does not.
		z.NextIsNotRawText()
		tag := strings.TrimRight(strings.TrimSuffix(string(raw), ">"), " \t\r\n\f")
		tag = strings.TrimSuffix(tag, "/")
		b.WriteString(tag + "></" + n + ">")
		changed = true
	}
	if !changed {
		return text, false
	}
	return b.String(), true
}
