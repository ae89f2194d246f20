package preclean

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A box is how an inline style takes an element out of its line.
type box int

const (
	noBox      box = iota
	outOfFlow      // float or position absolute or fixed: beside the line
	blockLevel     // display block, flex, grid, table, list-item, ...: breaks the line
)

// spaceBoxes puts a space before and after every inline element that an
// inline style draws as a box of its own (float:left or right, position
// absolute or fixed, display block, flex, grid, list-item, table and
// the like), where no white space parts it from the text beside it: a
// browser draws "RSS" floated right apart from the "Follow" beside it,
// while the page's text would make one word "RSSFollow" of them. The
// element stays inline (its words remain its parent's own text, as
// before); only words no longer run together. The space goes outside
// the inline elements the box starts or ends
// ("<span><a style=float:right>RSS</a></span><a>Follow</a>"). Left
// alone: a floated or positioned box without text (an image floated out
// of "Inter<img>national"), a drop cap (a floated letter or two before
// the rest of its word: "T" and "he") and preformatted text.
func spaceBoxes(doc *html.Node) {
	type found struct {
		n    *html.Node
		kind box
	}
	var boxes []found
	for n := doc; n != nil; n = dom.Next(doc, n) {
		if n.Type == html.ElementNode && n.Namespace == "" && dom.IsInline(n) {
			if k := boxStyle(dom.Attr(n, "style")); k != noBox {
				boxes = append(boxes, found{n, k})
			}
		}
	}
	if len(boxes) == 0 {
		return
	}
	pre := map[*html.Node]bool{} // preformatted's answers, ancestors shared
	for _, b := range boxes {
		if b.n.Parent == nil || preformatted(b.n.Parent, pre) {
			continue
		}
		text := textOf(b.n, 3)
		if b.kind == outOfFlow && strings.TrimSpace(text) == "" {
			continue
		}
		before, after := b.n, b.n
		for before.PrevSibling == nil && before.Parent != nil && inlineElement(before.Parent) {
			before = before.Parent
		}
		for after.NextSibling == nil && after.Parent != nil && inlineElement(after.Parent) {
			after = after.Parent
		}
		if p := before.PrevSibling; p != nil && !endsBlank(p) && before.Parent != nil {
			before.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, before)
		}
		if nx := after.NextSibling; nx != nil && !startsBlank(nx) && !(b.kind == outOfFlow && dropCap(text, nx)) {
			after.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, nx)
		}
	}
}

// boxStyle tells whether and how an inline style takes its element out
// of the line.
func boxStyle(style string) box {
	if !strings.Contains(style, ":") {
		return noBox
	}
	switch styleValue(style, "float") {
	case "left", "right", "inline-start", "inline-end":
		return outOfFlow
	}
	switch styleValue(style, "position") {
	case "absolute", "fixed":
		return outOfFlow
	}
	display := styleValue(style, "display")
	switch display {
	case "list-item", "flow-root", "-webkit-box", "-ms-flexbox":
		return blockLevel
	}
	for _, outer := range []string{"block", "flex", "grid", "table"} {
		if display == outer || strings.HasPrefix(display, outer+" ") || strings.HasPrefix(display, outer+"-") {
			return blockLevel
		}
	}
	return noBox
}

// styleValue returns the value that an inline style declares for the
// property prop (given in lower case), in lower case and without
// !important: of several declarations, the last, but that an important
// one wins over those that are not.
func styleValue(style, prop string) string {
	value, important := "", false
	for _, decl := range strings.Split(style, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), prop) {
			continue
		}
		v = strings.ToLower(strings.TrimSpace(v))
		imp := strings.HasSuffix(v, "!important")
		if important && !imp {
			continue
		}
		value, important = strings.TrimSpace(strings.TrimSuffix(v, "!important")), imp
	}
	return value
}

// dropCap reports whether a floated box holding text is a drop cap: a
// letter or two (after an opening quotation mark, before an apostrophe)
// that the text after it (next, past empty inline elements) goes on as
// a word.
func dropCap(text string, next *html.Node) bool {
	text = strings.TrimLeft(strings.TrimSpace(text), "\"'“‘«„")
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(text, "'’"))
	if n := utf8.RuneCountInString(text); n == 0 || n > 2 || !unicode.IsLetter(last) {
		return false
	}
	for n := next; n != nil; n = n.NextSibling {
		t := textOf(n, 1)
		if t == "" && n.Type == html.ElementNode && inlineElement(n) {
			continue // an empty anchor between the cap and its word
		}
		f, _ := utf8.DecodeRuneInString(t)
		return unicode.IsLetter(f)
	}
	return false
}

// textOf returns the text below n, stopping once it holds more than
// limit characters that are not white space.
func textOf(n *html.Node, limit int) string {
	var b strings.Builder
	count := 0
	for c := n; c != nil && count <= limit; c = dom.Next(n, c) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			for _, r := range c.Data {
				if !unicode.IsSpace(r) {
					count++
				}
			}
		}
	}
	return b.String()
}

func inlineElement(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && dom.IsInline(n)
}

// preformatted reports whether the element n is or lies in preformatted
// text, whose white space shows, remembering the answers in seen.
func preformatted(n *html.Node, seen map[*html.Node]bool) bool {
	if n == nil || n.Type != html.ElementNode {
		return false
	}
	if v, ok := seen[n]; ok {
		return v
	}
	v := false
	if n.Namespace == "" {
		switch n.DataAtom {
		case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext, atom.Textarea:
			v = true
		}
		if style := dom.Attr(n, "style"); !v && strings.Contains(strings.ToLower(style), "white-space") {
			ws := styleValue(style, "white-space")
			v = strings.HasPrefix(ws, "pre") || ws == "break-spaces"
		}
	}
	v = v || preformatted(n.Parent, seen)
	seen[n] = v
	return v
}

// endsBlank reports whether n is a text node ending in white space.
func endsBlank(n *html.Node) bool {
	return n.Type == html.TextNode && n.Data != "" && strings.TrimRight(n.Data, " \t\n\f\r") != n.Data
}

// startsBlank reports whether n is a text node starting with white space.
func startsBlank(n *html.Node) bool {
	return n.Type == html.TextNode && n.Data != "" && strings.TrimLeft(n.Data, " \t\n\f\r") != n.Data
}
