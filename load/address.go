package load

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// address returns the page's own address as its head states it: the href
// of <link rel=canonical>, else the content of <meta property=og:url>,
// else the href of <base>; only an absolute http or https URL counts, and
// "" means none. Only the children of <head> are read (the parser moves
// such elements there).
func address(doc *html.Node) string {
	head := findHead(doc)
	if head == nil {
		return ""
	}
	var canonical, og, base string
	for n := head.FirstChild; n != nil; n = n.NextSibling {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.DataAtom {
		case atom.Link:
			if canonical == "" && hasToken(attr(n, "rel"), "canonical") {
				canonical = absolute(attr(n, "href"))
			}
		case atom.Meta:
			if og == "" && strings.EqualFold(strings.TrimSpace(attr(n, "property")), "og:url") {
				og = absolute(attr(n, "content"))
			}
		case atom.Base:
			if base == "" {
				base = absolute(attr(n, "href"))
			}
		}
	}
	for _, u := range []string{canonical, og, base} {
		if u != "" {
			return u
		}
	}
	return ""
}

// findHead returns the <head> element of a parsed document, or nil.
func findHead(doc *html.Node) *html.Node {
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

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasToken reports whether the space-separated list s holds tok, in any
// case.
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// absolute returns s if it is an absolute http or https URL with a host.
func absolute(s string) string {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
		return ""
	}
	return s
}
