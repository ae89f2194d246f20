package preclean

import (
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// openFallbacks turns the content of every <noscript> and <noframes>
// into markup a reader sees (Options.KeepFallbacks): the element becomes
// a <div> holding its text parsed as HTML (the parser keeps it as raw
// text: scripting on, frames supported), and a <noframes> of a frameset
// document moves into a <body>, which the document lacks.
func openFallbacks(doc *html.Node) {
	// A noscript within a noscript is markup once the outer one is
	// parsed: round after round, as deep as they nest (bounded).
	for range 16 {
		found := fallbacks(doc)
		if len(found) == 0 {
			return
		}
		moved := openEach(found)
		if len(moved) == 0 {
			continue
		}
		ensureBody(doc)
		h := find(doc, atom.Html, 1)
		if h == nil {
			return
		}
		b := find(h, atom.Body, 1)
		if b == nil {
			return
		}
		first := b.FirstChild
		for _, d := range moved {
			b.InsertBefore(d, first)
		}
	}
}

// fallbacks returns the <noscript> and <noframes> elements below doc.
func fallbacks(doc *html.Node) []*html.Node {
	var found []*html.Node
	for n := doc; n != nil; n = dom.Next(doc, n) {
		if n.Type == html.ElementNode && n.Namespace == "" && (n.DataAtom == atom.Noscript || n.DataAtom == atom.Noframes) {
			found = append(found, n)
		}
	}
	return found
}

// openEach replaces each element by a <div> of its content and returns
// the divs that belong in the body but are not in it.
func openEach(found []*html.Node) []*html.Node {
	var moved []*html.Node
	for _, n := range found {
		var text strings.Builder
		raw := n.FirstChild != nil // only text children: kept as raw text by the parser
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				text.WriteString(c.Data)
			} else {
				raw = false
			}
		}
		div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
		if raw {
			// Parsed as a browser with scripts off does: a noscript
			// within is markup too.
			nodes, err := html.ParseFragmentWithOptions(strings.NewReader(text.String()),
				&html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}, html.ParseOptionEnableScripting(false))
			if err != nil { // nested past the parser's limit: dropped, as without the option
				if n.Parent != nil {
					n.Parent.RemoveChild(n)
				}
				continue
			}
			for _, c := range nodes {
				div.AppendChild(c)
			}
		} else { // parsed as markup already (scripting off): keep it
			for c := n.FirstChild; c != nil; {
				nx := c.NextSibling
				n.RemoveChild(c)
				div.AppendChild(c)
				c = nx
			}
		}
		if n.Parent == nil {
			continue
		}
		if !within(n, atom.Body) {
			// No body holds it (a frameset document, a noframes after
			// the frameset) or the head does, which Clean empties: to the
			// start of the body, in order.
			n.Parent.RemoveChild(n)
			moved = append(moved, div)
			continue
		}
		n.Parent.InsertBefore(div, n)
		n.Parent.RemoveChild(n)
	}
	return moved
}

// within reports whether n lies inside an element with atom a.
func within(n *html.Node, a atom.Atom) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == a {
			return true
		}
	}
	return false
}
