package blocks

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MinOwnShare is the share of its subtree's text that an element's own text
// must reach for the element to be a target node.
const MinOwnShare = 0.10

// Attr is the attribute that [Mark] sets on every block element.
const Attr = "data-fiasco-block"

// Block is one target node and the text that belongs to it.
type Block struct {
	ID     int        // index in document order, from 0
	Node   *html.Node // the element
	Parent int        // ID of the nearest ancestor block, or -1
	Depth  int        // element depth below the document node (<html> is 1)
	Text   string     // own text, white space collapsed to single spaces

	Chars        int // non-space characters of Text
	LinkChars    int // non-space characters of Text inside <a href> elements
	SubtreeChars int // non-space characters in the whole subtree of Node
	Offset       int // non-space characters of page text before this block's first text
	Links        int // <a> elements in the subtree
	Images       int // <img> elements in the subtree
	Elements     int // elements in the subtree, Node included
}

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
}

// IsInline reports whether n is an element whose text counts as its parent's
// own text: a known inline element, or an element HTML does not define
// (browsers display unknown elements inline, e.g. KrdWrd's <kw>).
func IsInline(n *html.Node) bool {
	return n.Type == html.ElementNode && (inline[n.DataAtom] || n.DataAtom == 0)
}

// Find returns the blocks of the document rooted at doc (as returned by
// html.Parse and precleaned), in document order. It never fails; a document
// without text has no blocks. It may wrap runs of inline content in new
// <div AnonAttr> elements (see the package doc), changing doc.
func Find(doc *html.Node) []*Block {
	f := finder{sub: map[*html.Node]int{}, own: map[*html.Node]int{}}
	f.count(doc)
	if f.wrapOrphans(doc) {
		f = finder{sub: map[*html.Node]int{}, own: map[*html.Node]int{}}
		f.count(doc)
	}
	body := findBody(doc)
	var out []*Block
	var walk func(n *html.Node, depth, parent int, inLink bool)
	var cur *Block
	var text []*strings.Builder // per block, the raw own text
	add := func(s string) { text[cur.ID].WriteString(s) }
	offset := 0
	walk = func(n *html.Node, depth, parent int, inLink bool) {
		switch n.Type {
		case html.TextNode:
			if cur == nil {
				return
			}
			c := nonSpace(n.Data)
			if c == 0 {
				add(" ")
				return
			}
			if cur.Chars == 0 {
				cur.Offset = offset
			}
			offset += c
			add(n.Data)
			cur.Chars += c
			if inLink {
				cur.LinkChars += c
			}
			return
		case html.ElementNode:
			if n.DataAtom == atom.Head {
				return
			}
		}
		saved := cur
		isBlock := n.Type == html.ElementNode && !IsInline(n) &&
			(f.isTarget(n) || n == body && f.sub[n] > 0 && f.orphans(n))
		if isBlock {
			b := &Block{ID: len(out), Node: n, Parent: parent, Depth: depth, SubtreeChars: f.sub[n]}
			out = append(out, b)
			text = append(text, &strings.Builder{})
			parent = b.ID
			cur = b
		} else if n.Type == html.ElementNode && !IsInline(n) && cur != nil {
			add(" ") // a non-inline boundary separates words
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A && hasAttr(n, "href") {
			inLink = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && cur != nil {
				add("\n")
			}
			walk(c, depth+1, parent, inLink)
		}
		if isBlock {
			cur.Text = Collapse(text[cur.ID].String())
			text[cur.ID] = nil
			cur = saved
		} else if n.Type == html.ElementNode && !IsInline(n) && cur != nil {
			add(" ")
		}
	}
	walk(doc, 0, -1, false)
	// Subtree counts of links, images and elements, bottom-up through Parent.
	for _, b := range out {
		b.Links, b.Images, b.Elements = countElements(b.Node)
	}
	return out
}

// Mark sets Attr on the element of every block, replacing an existing value.
func Mark(bs []*Block) {
	for _, b := range bs {
		setAttr(b.Node, Attr, strconv.Itoa(b.ID))
	}
}

type finder struct {
	sub map[*html.Node]int // non-space text characters in the subtree
	own map[*html.Node]int // own text characters (through inline descendants)
}

// count fills sub and own bottom-up and returns sub[n].
func (f *finder) count(n *html.Node) int {
	if n.Type == html.TextNode {
		return nonSpace(n.Data)
	}
	total := 0
	own := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s := f.count(c)
		total += s
		switch {
		case c.Type == html.TextNode:
			own += s
		case IsInline(c):
			own += f.own[c]
		}
	}
	f.sub[n] = total
	f.own[n] = own
	return total
}

// wrapOrphans gives the own text of elements that are not target nodes a
// block of its own: every run of inline content with text, between the
// block children of such an element, is wrapped in a <div AnonAttr>, what
// a browser does with an anonymous block box, so the rendering does not
// change. It reports whether it wrapped anything.
func (f *finder) wrapOrphans(n *html.Node) bool {
	changed := false
	if n.Type == html.ElementNode && n.DataAtom != atom.Head && !IsInline(n) &&
		f.own[n] > 0 && !f.isTarget(n) {
		changed = wrapRuns(n, f)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !IsInline(c) {
			changed = f.wrapOrphans(c) || changed
		}
	}
	return changed
}

// AnonAttr marks the <div> elements that Find inserts around runs of inline
// content (see the package doc).
const AnonAttr = "data-fiasco-anon"

// wrapRuns wraps every run of text and inline elements among n's children
// that holds text in a new <div AnonAttr>.
func wrapRuns(n *html.Node, f *finder) bool {
	changed := false
	c := n.FirstChild
	for c != nil {
		if !(c.Type == html.TextNode || IsInline(c)) {
			c = c.NextSibling
			continue
		}
		start, text := c, 0
		for c != nil && (c.Type == html.TextNode || IsInline(c)) {
			if c.Type == html.TextNode {
				text += nonSpace(c.Data)
			} else {
				text += f.sub[c]
			}
			c = c.NextSibling
		}
		if text == 0 {
			continue
		}
		div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div,
			Attr: []html.Attribute{{Key: AnonAttr, Val: ""}}}
		n.InsertBefore(div, start)
		for k := start; k != c; {
			next := k.NextSibling
			n.RemoveChild(k)
			div.AppendChild(k)
			k = next
		}
		changed = true
	}
	return changed
}

func (f *finder) isTarget(n *html.Node) bool {
	own := f.own[n]
	return own > 0 && float64(own) >= MinOwnShare*float64(f.sub[n])
}

// orphans reports whether some text below body has no target ancestor
// below body.
func (f *finder) orphans(body *html.Node) bool {
	var has func(n *html.Node) bool
	has = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if nonSpace(c.Data) > 0 {
					return true
				}
			case c.Type == html.ElementNode && (IsInline(c) || !f.isTarget(c)):
				if has(c) {
					return true
				}
			}
		}
		return false
	}
	return has(body)
}

func findBody(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if b := findBody(c); b != nil {
			return b
		}
	}
	return nil
}

func countElements(n *html.Node) (links, images, elements int) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			elements++
			switch n.DataAtom {
			case atom.A:
				links++
			case atom.Img:
				images++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return
}

func nonSpace(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// Collapse turns every run of white space into one space, keeping a line
// break where the run holds one, and trims the ends: the form of
// Block.Text.
func Collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space, nl := false, false
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = true
			nl = nl || r == '\n'
			continue
		}
		if space && b.Len() > 0 {
			if nl {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		space, nl = false, false
		b.WriteRune(r)
	}
	return b.String()
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func setAttr(n *html.Node, key, val string) {
	for i := range n.Attr {
		if n.Attr[i].Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
