// Package preclean removes what a reader does not see from a parsed page.
//
// (Minimal first version; being completed.)
package preclean

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Clean drops script, style, noscript and template elements and comments
// from doc, in place.
func Clean(doc *html.Node) error {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.CommentNode || c.Type == html.ElementNode &&
				(c.DataAtom == atom.Script || c.DataAtom == atom.Style || c.DataAtom == atom.Noscript || c.DataAtom == atom.Template) {
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
	}
	walk(doc)
	return nil
}
