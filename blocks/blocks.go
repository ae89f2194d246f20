package blocks

import (
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MinOwnShare is the share of its subtree's text that an element's own text
// must reach for the element to be a target node.
// FIASCO's 10%; 5%, 25%, 50% and 100% (leaf blocks) were measured
// against it on 2026-11-27 and not kept (RESULTS.md, "The
// target-node share").
const MinOwnShare = 0.10

// Attr is the attribute that [Mark] sets on every block element.
const Attr = "data-fiasco-block"

// Block is one target node and the text that belongs to it.
type Block struct {
	ID     int        // index in document order, from 0
	Node   *html.Node // the element
	Parent int        // ID of the nearest ancestor block, or -1
	Depth  int        // element depth below the document node (<html> is 1)
	// Branch counts the block element's ancestors at which the page's
	// text divides: those with two or more children holding text. Wrapper
	// elements with one such child leave it as it is.
	Branch int
	// Text is the block's own text with white space collapsed, its
	// source's line breaks kept: the text the features read (the models
	// were trained on it). Output formats take their text from Runs,
	// where a line breaks only where the page breaks it.
	Text string

	Chars        int // non-space characters of Text
	LinkChars    int // non-space characters of Text inside <a href> elements
	SubtreeChars int // non-space characters in the whole subtree of Node
	Offset       int // non-space characters of page text before this block's first text
	Links        int // <a> elements in the subtree
	Images       int // <img> elements in the subtree
	Elements     int // elements in the subtree, Node included
}

// IsInline reports whether n is an element whose text counts as its parent's
// own text (see package internal/dom).
func IsInline(n *html.Node) bool { return dom.IsInline(n) }

// Find returns the blocks of the document rooted at doc (as returned by
// html.Parse and precleaned), in document order. It never fails; a document
// without text has no blocks. It may wrap runs of inline content in new
// <div AnonAttr> elements (see the package doc), changing doc.
func Find(doc *html.Node) []*Block {
	if doc == nil {
		return nil
	}
	f := finderPool.Get().(*finder)
	defer f.release()
	f.nodes = f.nodes[:0]
	f.count(doc)
	if f.wrapOrphans(doc, 0) {
		f.nodes = f.nodes[:0]
		f.count(doc)
	}
	body, bodyIdx := findBody(doc, f)
	var out []*Block
	// f.text holds the raw own text of the open blocks, innermost last:
	// level k holds the text so far of the k-th enclosing open block.
	level := -1 // text level of cur
	var cur *Block
	add := func(s string) { f.text[level] = append(f.text[level], s...) }
	offset := 0
	var walk func(n *html.Node, i int32, depth, branch, parent int, inLink bool)
	walk = func(n *html.Node, i int32, depth, branch, parent int, inLink bool) {
		switch n.Type {
		case html.TextNode:
			if cur == nil {
				return
			}
			c := int(f.nodes[i].sub) // nonSpace(n.Data)
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
		inline := n.Type == html.ElementNode && IsInline(n)
		isBlock := n.Type == html.ElementNode && !inline &&
			(f.isTarget(i) || n == body && f.nodes[bodyIdx].sub > 0 && f.orphans(body, bodyIdx))
		if isBlock {
			b := &Block{ID: len(out), Node: n, Parent: parent, Depth: depth, Branch: branch, SubtreeChars: int(f.nodes[i].sub)}
			out = append(out, b)
			parent = b.ID
			cur = b
			level++
			if level == len(f.text) {
				f.text = append(f.text, nil)
			}
			f.text[level] = f.text[level][:0]
		} else if n.Type == html.ElementNode && !inline && cur != nil {
			add(" ") // a non-inline boundary separates words
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A && hasAttr(n, "href") {
			inLink = true
		}
		ci, holding := i+1, 0
		for c := n.FirstChild; c != nil && holding < 2; c = c.NextSibling {
			if f.nodes[ci].sub > 0 {
				holding++
			}
			ci = f.nodes[ci].end
		}
		if holding >= 2 {
			branch++
		}
		ci = i + 1
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && cur != nil {
				add("\n")
			}
			walk(c, ci, depth+1, branch, parent, inLink)
			ci = f.nodes[ci].end
		}
		if isBlock {
			f.collapsed = collapseInto(f.collapsed[:0], f.text[level])
			cur.Text = string(f.collapsed)
			level--
			cur = saved
		}
		if n.Type == html.ElementNode && !inline && cur != nil {
			add(" ") // a non-inline boundary separates words, a block's end too
		}
	}
	walk(doc, 0, 0, 0, -1, false)
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

// finder holds the text counts of every node of a document, numbered in
// document order (preorder) as count visits them: node i's children are
// numbered from i+1, and its next sibling is nodes[i].end. The walks
// below carry these numbers along, which is cheaper than maps keyed by
// node; they stay valid while the tree does not change.
type finder struct {
	nodes []nodeCount
	// Find's buffers: the raw text of the open blocks, and a block's text
	// collapsed.
	text      [][]byte
	collapsed []byte
}

// finderPool keeps finders, and their buffers, from page to page.
var finderPool = sync.Pool{New: func() any { return new(finder) }}

// maxPooled bounds the bytes of buffers a pooled finder keeps.
const maxPooled = 4 << 20

func (f *finder) release() {
	size := cap(f.nodes)*12 + cap(f.collapsed) // a nodeCount is 12 bytes
	for _, t := range f.text {
		size += cap(t)
	}
	if size > maxPooled || len(f.text) > 1024 {
		return // a freak page: let its buffers go
	}
	finderPool.Put(f)
}

type nodeCount struct {
	sub int32 // non-space text characters in the subtree (a text node: its own)
	own int32 // own text characters (through inline descendants)
	end int32 // the number after the subtree's last node
}

// count numbers the nodes of n's subtree from len(f.nodes) on, fills their
// counts bottom-up and returns the subtree's non-space characters.
func (f *finder) count(n *html.Node) int {
	i := len(f.nodes)
	f.nodes = append(f.nodes, nodeCount{})
	if n.Type == html.TextNode {
		c := nonSpace(n.Data)
		f.nodes[i] = nodeCount{sub: int32(c), end: int32(i + 1)}
		return c
	}
	total := 0
	own := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ci := len(f.nodes)
		s := f.count(c)
		total += s
		switch {
		case c.Type == html.TextNode:
			own += s
		case IsInline(c):
			own += int(f.nodes[ci].own)
		}
	}
	f.nodes[i] = nodeCount{sub: int32(total), own: int32(own), end: int32(len(f.nodes))}
	return total
}

// wrapOrphans gives the own text of elements that are not target nodes a
// block of its own: every run of inline content with text, between the
// block children of such an element, is wrapped in a <div AnonAttr>, what
// a browser does with an anonymous block box, so the rendering does not
// change. It reports whether it wrapped anything. n is node i. The block
// children are visited first, while the numbers of n's children still
// hold; wrapping n's runs then changes no node below them, so the outcome
// is that of wrapping n first.
func (f *finder) wrapOrphans(n *html.Node, i int32) bool {
	changed := false
	ci := i + 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !IsInline(c) {
			changed = f.wrapOrphans(c, ci) || changed
		}
		ci = f.nodes[ci].end
	}
	if n.Type == html.ElementNode && n.DataAtom != atom.Head && !IsInline(n) &&
		f.nodes[i].own > 0 && !f.isTarget(i) {
		changed = wrapRuns(n, i, f) || changed
	}
	return changed
}

// AnonAttr marks the <div> elements that Find inserts around runs of inline
// content (see the package doc).
const AnonAttr = "data-fiasco-anon"

// wrapRuns wraps every run of text and inline elements among n's children
// (n is node i) that holds text in a new <div AnonAttr>.
func wrapRuns(n *html.Node, i int32, f *finder) bool {
	changed := false
	c, ci := n.FirstChild, i+1
	for c != nil {
		if !(c.Type == html.TextNode || IsInline(c)) {
			c, ci = c.NextSibling, f.nodes[ci].end
			continue
		}
		start, text := c, 0
		for c != nil && (c.Type == html.TextNode || IsInline(c)) {
			text += int(f.nodes[ci].sub) // a text node's non-space characters, or an inline element's subtree's
			c, ci = c.NextSibling, f.nodes[ci].end
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

// isTarget reports whether node i is a target node (if it is a non-inline
// element).
func (f *finder) isTarget(i int32) bool {
	own := f.nodes[i].own
	return own > 0 && float64(own) >= MinOwnShare*float64(f.nodes[i].sub)
}

// orphans reports whether some text below body (node i) has no target
// ancestor below body.
func (f *finder) orphans(body *html.Node, i int32) bool {
	var has func(n *html.Node, i int32) bool
	has = func(n *html.Node, i int32) bool {
		ci := i + 1
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if f.nodes[ci].sub > 0 {
					return true
				}
			case c.Type == html.ElementNode && (IsInline(c) || !f.isTarget(ci)):
				if has(c, ci) {
					return true
				}
			}
			ci = f.nodes[ci].end
		}
		return false
	}
	return has(body, i)
}

// findBody returns the first <body> element in document order and its
// number, or nil.
func findBody(n *html.Node, f *finder) (*html.Node, int32) {
	var find func(n *html.Node, i int32) (*html.Node, int32)
	find = func(n *html.Node, i int32) (*html.Node, int32) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			return n, i
		}
		ci := i + 1
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if b, bi := find(c, ci); b != nil {
				return b, bi
			}
			ci = f.nodes[ci].end
		}
		return nil, -1
	}
	return find(n, 0)
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

// asciiSpace reports the ASCII bytes that unicode.IsSpace accepts.
var asciiSpace = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = unicode.IsSpace(rune(c))
	}
	return t
}()

// asciiWord reports the ASCII bytes that are not white space (false for
// every byte >= utf8.RuneSelf).
var asciiWord = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = !unicode.IsSpace(rune(c))
	}
	return t
}()

// nonSpace counts the runes of s that are not white space (unicode.IsSpace;
// an invalid byte counts as one rune, as range over a string reads it).
//
// A text of blank characters alone (blankRune: ‎ alone in a
// paragraph) counts 0: it is no text. Inside a text they count, as
// they always did (the training pages' counts stay).
func nonSpace(s string) int {
	n, blank := 0, 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			n++
			if blankRune(r) {
				blank++
			}
		}
		i += size
	}
	if blank == n {
		return 0
	}
	return n
}

// blankRune reports the characters beside white space that show nothing
// and carry no text: format characters (the bidirectional marks and
// isolates of Hebrew and Arabic sites, ‎ alone in a paragraph;
// the invisible operators) and the blank fillers (braille blank, Hangul
// fillers). A text of them alone is no text.
func blankRune(r rune) bool {
	switch r {
	case 0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Collapse turns every run of white space into one space, keeping a line
// break where the run holds one, and trims the ends: the form of
// Block.Text.
func Collapse(s string) string {
	return string(collapseInto(make([]byte, 0, len(s)), []byte(s)))
}

// collapseInto appends Collapse(string(s)) to dst. ASCII bytes are taken
// as they are (the ASCII white space by table); any other byte starts a
// rune decoded as Collapse decodes it (an invalid byte becomes U+FFFD).
// (Not generic over string and []byte: that instance ran a fifth slower.)
func collapseInto(dst, s []byte) []byte {
	start := len(dst)
	space, nl := false, false
	for i := 0; i < len(s); {
		c := s[i]
		if asciiWord[c] {
			// A run of ASCII bytes that are not white space, copied at once.
			j := i + 1
			for j < len(s) && asciiWord[s[j]] {
				j++
			}
			if space && len(dst) > start {
				if nl {
					dst = append(dst, '\n')
				} else {
					dst = append(dst, ' ')
				}
			}
			space, nl = false, false
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		if c < utf8.RuneSelf { // ASCII white space
			i++
			space = true
			nl = nl || c == '\n'
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		i += size
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = true
			continue
		}
		if space && len(dst) > start {
			if nl {
				dst = append(dst, '\n')
			} else {
				dst = append(dst, ' ')
			}
		}
		space, nl = false, false
		dst = utf8.AppendRune(dst, r)
	}
	return dst
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
