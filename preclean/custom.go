package preclean

import (
	"bytes"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// Custom elements (<story-dek>, <fact-box>: names with a hyphen, which
// HTML leaves to pages) and the declarative shadow roots that web
// components carry in their markup.

// shadowTemplate reports whether n is a declarative shadow root: a
// <template shadowrootmode="open|closed"> (or the attribute's earlier
// name, shadowroot) whose parent is its host, an element that may have a
// shadow root (shadowHost).
func shadowTemplate(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Namespace != "" || n.DataAtom != atom.Template || n.Parent == nil || !shadowHost(n.Parent) {
		return false
	}
	return shadowAttr(n)
}

// shadowAttr reports whether n has a shadowrootmode (or shadowroot)
// attribute of open or closed.
func shadowAttr(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && (a.Key == "shadowrootmode" || a.Key == "shadowroot") {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			return v == "open" || v == "closed"
		}
	}
	return false
}

// shadowHosts are the HTML elements that may have a shadow root, besides
// custom elements (the DOM standard's attachShadow).
var shadowHosts = map[atom.Atom]bool{
	atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Body: true,
	atom.Div: true, atom.Footer: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Main: true,
	atom.Nav: true, atom.P: true, atom.Section: true, atom.Span: true,
}

// shadowHost reports whether n may have a shadow root.
func shadowHost(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && (shadowHosts[n.DataAtom] || customName(n))
}

// openShadowRoots gives every host of a declarative shadow root below
// root the children a browser draws: the shadow tree, in which each
// <slot> is replaced by the host's children assigned to it (elements by
// their slot attribute, the unnamed slot takes text and the elements
// without one) or, where none is, by its own fallback content. The
// host's children assigned to no slot are not drawn and go. Only the
// first such template of a host counts, as in a browser; a later one is
// an ordinary <template> and is dropped with the others. Shadow roots
// inside shadow roots are opened in turn.
//
// It reports whether it opened any. The tree it leaves may not be one
// the HTML parser makes (a shadow tree's <div> in a host inside a <p>,
// which parsing the page's markup again would close); see reparse.
func openShadowRoots(root *html.Node) bool {
	opened := false
	// The page's own frames with a srcdoc, taken before any is opened: a
	// frame inside a frame's document is not opened (and is dropped with
	// the other frames), so that nesting costs nothing.
	var frames []*html.Node
	for n := root; n != nil; n = dom.Next(root, n) {
		if srcdocFrame(n) {
			frames = append(frames, n)
		}
	}
	for _, f := range frames {
		if inlineSrcdoc(f) {
			opened = true
		}
	}
	for n := root; n != nil; n = dom.Next(root, n) {
		if n.Type != html.ElementNode {
			continue
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if shadowTemplate(c) {
				compose(n, c)
				opened = true
				break
			}
		}
	}
	if opened {
		// The shadow-root templates left are inert (a second root of a
		// host, one nested in a shadow tree or a slot's fallback): plain
		// templates from now on, so that opening again changes nothing.
		for n := root; n != nil; n = dom.Next(root, n) {
			if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Template {
				n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool {
					return a.Namespace == "" && (a.Key == "shadowrootmode" || a.Key == "shadowroot")
				})
			}
		}
	}
	return opened
}

// OpenShadowRoots opens the declarative shadow roots of doc, a document
// from html.Parse, as Clean does first (see the package documentation),
// and where it opened one, parses the document's markup again (reparse),
// so that the tree is the one a browser builds from it. Where parsing
// again fails (the composed tree nests deeper than the parser allows),
// the composed tree stays. Clean calls it; a caller that takes nodes of
// the document before Clean (its style sheets) calls it before that.
func OpenShadowRoots(doc *html.Node) {
	if doc != nil && openShadowRoots(doc) && doc.Type == html.DocumentNode {
		reparse(doc)
	}
}

// reparse replaces the children of doc, a document node, by those of
// the document that parsing its markup gives: the tree a browser builds
// from the page the render stage hands it, so that the blocks found in
// one are the blocks drawn by the other.
// On an error, doc stays as it was.
func reparse(doc *html.Node) error {
	var b bytes.Buffer
	if err := html.Render(&b, doc); err != nil {
		return err
	}
	nd, err := html.Parse(&b)
	if err != nil {
		return err
	}
	for c := doc.FirstChild; c != nil; c = doc.FirstChild {
		doc.RemoveChild(c)
	}
	for c := nd.FirstChild; c != nil; c = nd.FirstChild {
		nd.RemoveChild(c)
		doc.AppendChild(c)
	}
	return nil
}

// compose replaces host's children by the shadow tree of tpl (one of
// them) with the host's other children distributed into its slots.
func compose(host, tpl *html.Node) {
	var light []*html.Node
	for c := host.FirstChild; c != nil; c = c.NextSibling {
		if c != tpl {
			light = append(light, c)
		}
	}
	var shadow []*html.Node
	for c := tpl.FirstChild; c != nil; c = c.NextSibling {
		shadow = append(shadow, c)
	}
	for _, c := range light {
		host.RemoveChild(c)
	}
	host.RemoveChild(tpl)
	for _, c := range shadow {
		tpl.RemoveChild(c)
		host.AppendChild(c)
	}
	// The slots of this shadow tree, in tree order; not those of a
	// shadow root nested in it, which belong to its own host.
	var slots []*html.Node
	for _, c := range shadow {
		for n := c; n != nil; n = nextOutsideShadow(c, n) {
			if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Slot {
				slots = append(slots, n)
			}
		}
	}
	// The host's children by the slot they go to, in order; a later
	// shadow root's template goes nowhere (a browser ignores it).
	byName := map[string][]*html.Node{}
	for _, c := range light {
		if c.Type == html.ElementNode && c.Namespace == "" && c.DataAtom == atom.Template && shadowAttr(c) {
			continue
		}
		name := slotName(c)
		byName[name] = append(byName[name], c)
	}
	for _, s := range slots {
		name := dom.Attr(s, "name")
		assigned := byName[name]
		delete(byName, name) // the first slot of a name takes them all
		if len(assigned) == 0 {
			for c := s.FirstChild; c != nil; c = c.NextSibling {
				assigned = append(assigned, c)
			}
			for _, c := range assigned {
				s.RemoveChild(c)
			}
		}
		for _, c := range assigned {
			s.Parent.InsertBefore(c, s)
		}
		s.Parent.RemoveChild(s)
	}
}

// nextOutsideShadow is dom.Next below root that does not enter a
// declarative shadow root's template.
func nextOutsideShadow(root, n *html.Node) *html.Node {
	if n.FirstChild != nil && !shadowTemplate(n) {
		return n.FirstChild
	}
	for ; n != root; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// slotName is the slot a host's child goes to: an element's slot
// attribute, "" (the unnamed slot) for text and for elements without
// one; a comment goes nowhere ("\x00").
func slotName(c *html.Node) string {
	switch c.Type {
	case html.TextNode:
		return ""
	case html.ElementNode:
		return dom.Attr(c, "slot")
	}
	return "\x00"
}

// customName reports whether n is a custom element: an HTML element
// whose name HTML does not define and holds a hyphen.
func customName(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == 0 && strings.Contains(n.Data, "-")
}

// blockCustomElements takes for a <div> every custom element below root
// that a page lays out as a block: one that holds a block (an element
// that is not inline, or such a custom element), or that sits among
// blocks, beside an element that is not inline and with no text of its
// own beside it. Browsers draw an element they do not know inline unless
// the page's style sheet says otherwise, and pages built of web
// components say so for their containers (<article-body>, <fact-box>);
// their inline ones sit in running text (<relative-time>). The element
// keeps its name (Data), which the renderer writes out for the page's
// styles to apply; its DataAtom becomes atom.Div, which package blocks
// and the features read.
func blockCustomElements(root *html.Node) {
	var custom []*html.Node
	for n := root; n != nil; n = dom.Next(root, n) {
		if customName(n) {
			custom = append(custom, n)
		}
	}
	// Containers first, innermost first (the reverse of document
	// order), so that a custom element holding one counts as holding a
	// block.
	rest := custom[:0:0]
	for i := len(custom) - 1; i >= 0; i-- {
		n := custom[i]
		if holdsBlock(n) {
			n.DataAtom = atom.Div
		} else {
			rest = append(rest, n)
		}
	}
	// Then those among blocks, each parent looked at once, before any
	// of its children changes.
	among := map[*html.Node]bool{}
	for _, n := range rest {
		if p := n.Parent; p != nil {
			if _, ok := among[p]; !ok {
				among[p] = amongBlocks(p)
			}
		}
	}
	for _, n := range rest {
		if n.Parent != nil && among[n.Parent] {
			n.DataAtom = atom.Div
		}
	}
}

// holdsBlock reports whether one of n's children is an element that is
// not inline.
func holdsBlock(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !dom.IsInline(c) {
			return true
		}
	}
	return false
}

// amongBlocks reports whether the children of p are blocks: one of them
// is an element that is not inline, and none is text other than white
// space.
func amongBlocks(p *html.Node) bool {
	block := false
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return false
		case c.Type == html.ElementNode && !dom.IsInline(c):
			block = true
		}
	}
	return block
}

// MaxSrcdoc is the longest srcdoc (in bytes) that is opened: a frame's
// document beyond it is dropped with the frame.
const MaxSrcdoc = 1 << 20

// srcdocFrame reports whether n is an <iframe> with a srcdoc to open: not
// empty, not longer than MaxSrcdoc, and the frame not drawn 0 pixels wide
// or high (a tracking or ad frame).
func srcdocFrame(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Namespace != "" || n.DataAtom != atom.Iframe {
		return false
	}
	src, ok := dom.LookupAttr(n, "srcdoc")
	if !ok || strings.TrimSpace(src) == "" || len(src) > MaxSrcdoc {
		return false
	}
	for _, a := range []string{"width", "height"} {
		if v, ok := dom.LookupAttr(n, a); ok && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "px")) == "0" {
			return false
		}
	}
	return true
}

// inlineSrcdoc turns n, an <iframe srcdoc="..."> (srcdocFrame: the
// frame's document written into the page, which no request loads), into
// a <div> that holds the body of that document, as the reader sees it in
// place of the frame. The div keeps the frame's id, class, style and
// hidden attributes, so that a hidden frame is removed as hidden and an
// ad frame's names count as its class. It reports whether it did.
func inlineSrcdoc(n *html.Node) bool {
	doc, err := html.Parse(strings.NewReader(dom.Attr(n, "srcdoc")))
	if err != nil {
		return false
	}
	var body *html.Node
	for c := doc; c != nil; c = dom.Next(doc, c) {
		if c.Type == html.ElementNode && c.DataAtom == atom.Body {
			body = c
			break
		}
	}
	if body == nil {
		return false
	}
	for c := n.FirstChild; c != nil; c = n.FirstChild {
		n.RemoveChild(c) // an iframe's children are text a browser does not show
	}
	host := n
	if len(body.Attr) > 0 {
		// The frame's body's own attributes (hidden, a style, a class)
		// stay on a div of their own.
		inner := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div, Attr: body.Attr}
		n.AppendChild(inner)
		host = inner
	}
	for c := body.FirstChild; c != nil; c = body.FirstChild {
		body.RemoveChild(c)
		host.AppendChild(c)
	}
	n.Data, n.DataAtom = "div", atom.Div
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool {
		return a.Namespace != "" || a.Key != "id" && a.Key != "class" && a.Key != "style" && a.Key != "hidden"
	})
	return true
}
