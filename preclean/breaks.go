package preclean

import (
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A run is two or more sibling <br> elements separated by nothing but
// white space (including no-break spaces).
type run struct{ first, last *html.Node }

// splitBreaks turns every run of <br> into a paragraph break.
func (st *Stats) splitBreaks(doc *html.Node) {
	var runs []run
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if isBr(c) {
				last, count := c, 1
				for s := c.NextSibling; s != nil; s = s.NextSibling {
					if isBr(s) {
						last = s
						count++
					} else if !isBlank(s) {
						break
					}
				}
				if count >= 2 {
					runs = append(runs, run{c, last})
				}
				c = last
				continue
			}
			if c.Type == html.ElementNode {
				walk(c)
			}
		}
	}
	walk(doc)
	inline := map[*html.Node]bool{} // pureInline's answers for paragraphs: a split keeps them
	tops := map[*html.Node]bool{}   // inlineOrText's answers for the inline elements runs lie in
	for _, r := range runs {
		if st.split(r, inline, tops) {
			st.Paragraphs++
		} else {
			st.Kept++
		}
	}
}

// split removes run r and splits its paragraph there. If r lies in a
// paragraph-like element (p, h1-h6, pre) holding inline content only, that
// element becomes two, inline elements crossing the split being copied as a
// browser's parser does for misnested tags. Otherwise the inline content
// around r (bounded by elements holding blocks) is wrapped in a <p> that
// is then split: the content of r's parent, or, where r lies in inline
// elements holding inline content only, that of the first element above
// them that is not inline. Runs where neither is possible without making a
// document that a parser would read differently are left alone (Stats.Kept).
//
// The split moves what precedes the run into a copy of its paragraph
// (splitBefore), so that the paragraph goes on holding the runs still
// to split, each split costing the stretch before it: moving what
// follows, as a first version did, made a page of 60,000 lines parted by
// <br><br> take two minutes. inline remembers pureInline's answer for
// each paragraph that holds inline content only: splitting inline
// content leaves inline content. tops does the same for the inline
// element a run lies in (see the comment where it is filled).
func (st *Stats) split(r run, inline, tops map[*html.Node]bool) bool {
	e := r.first.Parent
	if e == nil || r.last.Parent != e {
		return false
	}
	var root, child *html.Node // child: n's child on the way up from e
	for n := e; n != nil && n.Type == html.ElementNode && n.Namespace == ""; child, n = n, n.Parent {
		if paraLike(n) {
			pure := inline[n]
			if !pure {
				// Only a yes is kept: a split that removes an emptied
				// block inside n can make n inline content.
				pure = pureInline(n)
				inline[n] = pure
			}
			if !pure {
				return false
			}
			root = n
			break
		}
		if !dom.IsInline(n) && !pInScope(n) {
			top, ok := tops[child]
			if !ok && child != nil {
				// Asked once a pass: every run in a span holding a
				// block would walk it again. An answer can only turn
				// stale from no to yes (a split removes an emptied
				// block), which leaves such a run as it was before.
				top = inlineOrText(child)
				tops[child] = top
			}
			if top {
				// The run lies in inline content of n (a <span> of a
				// <div>): the paragraph is n's inline content around
				// it, as for a run of n's own, the span being cut in
				// two as a paragraph is (the text before the span is
				// the paragraph's start, not a block of its own).
				root = wrapAround(n, child, child)
			} else {
				root = wrapAround(e, r.first, r.last)
			}
			break
		}
	}
	if root == nil || root.Parent == nil {
		return false
	}
	left := splitBefore(root, r.first)
	for n := r.first; n != nil; {
		next := n.NextSibling
		n.Parent.RemoveChild(n)
		if n == r.last {
			break
		}
		n = next
	}
	if !hasContent(left) {
		left.Parent.RemoveChild(left)
	}
	if !hasContent(root) {
		root.Parent.RemoveChild(root)
	}
	return true
}

// wrapAround wraps the children of e from first to last and the inline
// siblings around them that hold no block elements into a new <p> inside
// e, and returns the <p>.
func wrapAround(e, first, last *html.Node) *html.Node {
	start, end := first, last
	for start.PrevSibling != nil && inlineOrText(start.PrevSibling) {
		start = start.PrevSibling
	}
	for end.NextSibling != nil && inlineOrText(end.NextSibling) {
		end = end.NextSibling
	}
	p := &html.Node{Type: html.ElementNode, Data: "p", DataAtom: atom.P}
	e.InsertBefore(p, start)
	for n := start; ; {
		next := n.NextSibling
		e.RemoveChild(n)
		p.AppendChild(n)
		if n == end {
			break
		}
		n = next
	}
	return p
}

// pureInline reports whether every element below n is inline.
func pureInline(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (!dom.IsInline(c) || c.Namespace != "" || !pureInline(c)) {
			return false
		}
	}
	return true
}

// splitBefore moves everything that precedes x inside root into a
// shallow copy of root inserted right before it, copying the elements
// between root and x on the way, and returns the copy. The copies take
// the elements' attributes and the elements keep them without their id,
// as the part before a split keeps the id in a browser's parser (ids
// stay unique).
func splitBefore(root, x *html.Node) *html.Node {
	var carry *html.Node
	child := x
	for {
		p := child.Parent
		clone := shallowClone(p)
		clone.Attr, p.Attr = p.Attr, clone.Attr
		for s := p.FirstChild; s != child; {
			next := s.NextSibling
			p.RemoveChild(s)
			clone.AppendChild(s)
			s = next
		}
		if carry != nil {
			clone.AppendChild(carry)
		}
		carry = clone
		if p == root {
			root.Parent.InsertBefore(clone, root)
			return clone
		}
		child = p
	}
}

// shallowClone copies an element without its children and without its id
// (ids stay unique).
func shallowClone(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, Data: n.Data, DataAtom: n.DataAtom, Namespace: n.Namespace}
	for _, a := range n.Attr {
		if a.Key != "id" {
			c.Attr = append(c.Attr, a)
		}
	}
	return c
}

// paraLike elements are split in two at a run of <br>.
func paraLike(n *html.Node) bool {
	switch n.DataAtom {
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Pre:
		return n.Namespace == ""
	}
	return false
}

// pInScope reports whether n has a <p> ancestor that an HTML parser would
// close on meeting a <p> start tag inside n ("has a p element in button
// scope"): a <p> put inside n would not survive serialising and parsing.
func pInScope(n *html.Node) bool {
	for a := n.Parent; a != nil && a.Type == html.ElementNode; a = a.Parent {
		if a.Namespace != "" {
			return false
		}
		switch a.DataAtom {
		case atom.P:
			return true
		case atom.Td, atom.Th, atom.Table, atom.Caption, atom.Html, atom.Button,
			atom.Object, atom.Marquee, atom.Template, atom.Applet:
			return false
		}
	}
	return false
}

func isBr(n *html.Node) bool {
	return n.Type == html.ElementNode && n.DataAtom == atom.Br && n.Namespace == ""
}

// isBlank reports white-space text, no-break spaces included.
func isBlank(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimSpace(strings.ReplaceAll(n.Data, "\u00a0", " ")) == ""
}

func inlineOrText(n *html.Node) bool {
	return n.Type == html.TextNode || dom.IsInline(n) && n.Namespace == "" && pureInline(n)
}

// hasContent reports whether n holds text other than white space, or an
// image.
func hasContent(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			if !isBlank(c) {
				return true
			}
		case c.Type == html.ElementNode:
			if c.DataAtom == atom.Img || hasContent(c) {
				return true
			}
		}
	}
	return false
}
