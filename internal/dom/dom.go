// Package dom holds the HTML facts that several stages share: which
// elements are inline, so that their text counts as their parent's own;
// a walk without a stack; where a document's head is; the words of a
// class or id value.
package dom

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// inline lists the elements whose text counts as their parent's own text.
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Big: true, atom.Br: true, atom.Cite: true, atom.Code: true, atom.Data: true,
	atom.Dfn: true, atom.Em: true, atom.Font: true, atom.I: true, atom.Img: true,
	atom.Kbd: true, atom.Label: true, atom.Mark: true, atom.Nobr: true, atom.Q: true,
	atom.S: true, atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strike: true,
	atom.Strong: true, atom.Sub: true, atom.Sup: true, atom.Time: true, atom.Tt: true,
	atom.U: true, atom.Var: true, atom.Wbr: true, atom.Ins: true, atom.Del: true,
	atom.Acronym: true, atom.Blink: true, atom.Input: true, atom.Select: true,
	atom.Option: true, atom.Button: true, atom.Textarea: true,
	atom.Ruby: true, atom.Rb: true, atom.Rtc: true, atom.Rt: true, atom.Rp: true,
	// No line break in a browser either, though HTML names them: an image
	// map and its areas, a picture's sources, the obsolete command and
	// spacer, which a browser draws as the unknown elements they are now,
	// and basefont and bgsound, which it does not draw.
	atom.Map: true, atom.Area: true, atom.Picture: true, atom.Command: true, atom.Spacer: true,
	atom.Basefont: true, atom.Bgsound: true,
	// An object or applet that package preclean keeps shows its fallback
	// content, which browsers draw inline ("Get the <object>Flash</object>
	// player").
	atom.Object: true, atom.Applet: true,
}

// IsInline reports whether n is an element whose text counts as its parent's
// own text: a known inline element, an element HTML does not define
// (browsers display unknown elements inline, e.g. KrdWrd's <kw>), or a
// MathML element (a formula inside a sentence: E = mc²).
func IsInline(n *html.Node) bool {
	return n.Type == html.ElementNode && (inline[n.DataAtom] || n.DataAtom == 0 || n.Namespace == "math")
}

// IsInlineAtom reports whether an HTML element named a (0 for a name HTML
// does not define) is inline, as IsInline does for an element node.
func IsInlineAtom(a atom.Atom) bool {
	return inline[a] || a == 0
}

// Next returns the node after n in document order below root, or nil: a
// walk of a tree that needs no stack, whatever its depth.
func Next(root, n *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != root; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// Head returns the <head> of doc (a document node from html.Parse, whose
// <html> always has one), or nil where there is none.
func Head(doc *html.Node) *html.Node {
	for h := doc.FirstChild; h != nil; h = h.NextSibling {
		if h.Type == html.ElementNode && h.DataAtom == atom.Html {
			for c := h.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.DataAtom == atom.Head {
					return c
				}
			}
		}
	}
	return nil
}

// Invisible reports the characters that show nothing and separate
// nothing, which package preclean strips from a page's text (and package
// gold from an annotated page's): control characters but the white space
// among them, the soft hyphen, the zero-width space, the word joiner and
// U+FEFF.
func Invisible(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\v' && r != '\f' && r != '\r'
	case r >= 0x7F && r <= 0x9F:
		return r != 0x85
	}
	switch r {
	case 0xAD, 0x200B, 0x2060, 0xFEFF:
		return true
	}
	return false
}

// Attr returns the value of n's attribute key (no namespace; the parser
// gives keys in lower case), or "" where it has none.
func Attr(n *html.Node, key string) string {
	v, _ := LookupAttr(n, key)
	return v
}

// LookupAttr is Attr, and whether n has the attribute at all (an empty
// itemscope, a boolean attribute).
func LookupAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// IsHeading reports whether n is a heading element, h1 to h6.
func IsHeading(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode || n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// NameWords splits a class or id value into lower-case words at every
// character that is no letter or digit, where lower case turns upper
// ("CybotCookiebotDialog": cybot, cookiebot, dialog) and before the last
// capital of a run of them that a lower-case letter follows
// ("GDPRBanner": gdpr, banner).
func NameWords(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	var prev rune
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush(i)
		case start < 0:
			start = i
		case unicode.IsUpper(r) && unicode.IsLower(prev),
			unicode.IsUpper(r) && unicode.IsUpper(prev) && unicode.IsLower(next):
			flush(i)
			start = i
		}
		prev = r
		i += size
	}
	flush(len(s))
	return out
}

// Words counts the white-space separated words of the text below n, up
// to limit, leaving out the text below any element for which skip (when
// not nil) reports true.
func Words(n *html.Node, limit int, skip func(*html.Node) bool) int {
	count := 0
	for c := n; c != nil && count < limit; {
		if c != n && skip != nil && c.Type == html.ElementNode && skip(c) {
			c = NextAfter(n, c)
			continue
		}
		if c.Type == html.TextNode {
			count += len(strings.Fields(c.Data))
		}
		c = Next(n, c)
	}
	return min(count, limit)
}

// NextAfter returns the node after n's subtree in document order below
// root, or nil.
func NextAfter(root, n *html.Node) *html.Node {
	for ; n != root; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// Unwrap replaces every element below n for which match reports true by
// its children, in place.
func Unwrap(n *html.Node, match func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		Unwrap(c, match)
		if c.Type == html.ElementNode && match(c) {
			for k := c.FirstChild; k != nil; {
				kn := k.NextSibling
				c.RemoveChild(k)
				n.InsertBefore(k, c)
				k = kn
			}
			n.RemoveChild(c)
		}
		c = next
	}
}
