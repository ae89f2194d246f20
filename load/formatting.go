package load

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Formatting elements left open (a forum's <font color> that no post
// closes, 400 <b class=…> that a page never ends) are reopened by the
// parser wherever text or an element follows a block's end (the HTML
// standard's "reconstruct the active formatting elements"): a page of
// 1.2 MB made tens of millions of elements and ran fiasco out of memory,
// and 520 open <font>s nested the document past the parser's 512
// open elements. Browsers build such trees too; the text of a page does
// not need its formatting elements, so where they would multiply the
// document, their tags are dropped and their text kept.

// Limits of the reopening, as estimated by formattingLoad: more open
// formatting elements at once than maxActiveFormatting, or more
// reopened elements in all than maxReopened, and the formatting tags go.
const (
	maxActiveFormatting = 64
	maxReopened         = 1 << 21
)

// formattingElem reports the formatting elements the parser reopens,
// but for <a>, whose start tag closes an open one (a link's tags stay:
// links are features) and <nobr>, treated the same way.
func formattingElem(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S,
		atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		return true
	}
	return false
}

// formattingLoad estimates, from the tags alone, the most formatting
// elements open at once and the elements the parser would make reopening
// them: each start tag of another element, and each text, after an end
// tag that closed a block, reopens every formatting element still open
// (an overestimate where the block did not close them; a page with
// properly closed <b>s has none open). Scripts, styles and comments are
// the tokenizer's raw text and count for nothing.
func formattingLoad(text string) (maxActive int, reopened int64) {
	z := html.NewTokenizer(strings.NewReader(text))
	var active []atom.Atom
	for {
		switch z.Next() {
		case html.ErrorToken:
			return maxActive, reopened
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if formattingElem(a) {
				active = append(active, a)
				maxActive = max(maxActive, len(active))
				continue
			}
			reopened += int64(len(active))
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if !formattingElem(a) {
				continue
			}
			for i := len(active) - 1; i >= 0; i-- {
				if active[i] == a {
					active = append(active[:i], active[i+1:]...)
					break
				}
			}
		}
	}
}

// formattingTags counts, from the bytes alone, the '<'s of text (t) and
// those followed by a formatting element's name and the end of a tag
// name (f): upper bounds of the start tags and of the formatting ones.
func formattingTags(text string) (f, t int) {
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			return f, t
		}
		i += j + 1
		t++
		var name [6]byte // the longest formatting element's name: strike, strong
		n := 0
		for k := i; k < len(text); k++ {
			c := text[k] | 0x20
			if c < 'a' || c > 'z' {
				if '0' <= text[k] && text[k] <= '9' {
					n = 0 // h1: no formatting element
				}
				break
			}
			if n == len(name) {
				n = 0
				break
			}
			name[n] = c
			n++
		}
		if n > 0 && formattingElem(atom.Lookup(name[:n])) {
			f++
		}
	}
}

// dropFormatting returns text without the start and end tags of the
// formatting elements (formattingElem) and whether it dropped any,
// where formattingLoad says the parser would multiply them.
func dropFormatting(text string) (string, bool) {
	// Most pages are let through by a count of bytes: with f formatting
	// start tags among t tags, no more than f are open at once and no
	// more than f*t are reopened.
	if f, t := formattingTags(text); f <= maxActiveFormatting && int64(f)*int64(t) <= maxReopened {
		return text, false
	}
	if maxActive, reopened := formattingLoad(text); maxActive <= maxActiveFormatting && reopened <= maxReopened {
		return text, false
	}
	var b strings.Builder
	b.Grow(len(text))
	z := html.NewTokenizer(strings.NewReader(text))
	for {
		tt := z.Next()
		raw := z.Raw()
		if tt == html.ErrorToken {
			b.Write(raw) // what the tokenizer read but made no token of
			return b.String(), true
		}
		if tt == html.StartTagToken || tt == html.EndTagToken || tt == html.SelfClosingTagToken {
			name, _ := z.TagName()
			if formattingElem(atom.Lookup(name)) {
				continue
			}
		}
		b.Write(raw)
	}
}
