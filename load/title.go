package load

import (
	"strings"

	"golang.org/x/net/html"
)

// minSwallowed is the least length of a title's text, holding markup, that
// is taken for a swallowed page even though an end tag follows it
// somewhere: no real title is that long, and an inline <svg>'s </title>
// far down the page can end a title that had lost its own.
const minSwallowed = 256

// swallowed reports whether a parsed document has an HTML <title> whose
// text holds markup ('<' followed by a letter, '/', '!' or '?'): the sign
// that its end tag was missing and the parser read the page as the
// title's text. A title in <svg> or <math> is not raw text and never
// counts.
func swallowed(n *html.Node) bool {
	if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "title" {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && markupAt(c.Data) >= 0 {
				return true
			}
		}
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if swallowed(c) {
			return true
		}
	}
	return false
}

// markupAt returns the index of the first '<' in s that starts markup (a
// tag, an end tag, a comment or a declaration), or -1.
func markupAt(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		c := s[i+1]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?' {
			return i
		}
	}
	return -1
}

// closeTitle repairs a <title> whose end tag is missing (a page cut or
// spliced by its crawler, a misspelt </titel>): HTML's tokenizer reads
// everything after <title> as the title's text until </title>, so the
// whole page becomes the title and the body is empty, in Chromium as in
// golang.org/x/net/html. Browsers before HTML5 recovered, as this does:
// the title ends at its first '<' that starts markup. It returns the
// text with "</title>" inserted there, and whether it changed anything.
//
// The tokenizer finds the title, so that a "<title>" inside a comment, a
// script or an attribute is not taken for one. A title is repaired when
// its text holds markup and runs to the end of the input, or is at least
// minSwallowed bytes long; a short title that merely shows a '<' is left
// alone. A self-closing "<title/>" is a start tag, as the parser and the
// tokenizer read it (the slash does not end a title).
func closeTitle(text string) (string, bool) {
	z := html.NewTokenizer(strings.NewReader(text))
	off := 0 // bytes of text before the current token
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return text, false
		}
		n := len(z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			off += n
			continue
		}
		name, _ := z.TagName()
		off += n
		if string(name) != "title" {
			continue
		}
		if z.Next() != html.TextToken {
			off += len(z.Raw()) // an empty title's end tag, or the end
			continue
		}
		body := string(z.Raw())
		eof := z.Next() == html.ErrorToken
		if i := markupAt(body); i >= 0 && (eof || len(body) >= minSwallowed) {
			cut := off + i
			return text[:cut] + "</title>" + text[cut:], true
		}
		off += len(body)
		if !eof {
			off += len(z.Raw())
		}
	}
}
