package load

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// address returns the page's own address as it states it: the href of
// the first <link rel=canonical>, else the content of the first <meta
// property=og:url> (or name=og:url), else the href of the first <base>
// (the HTML standard takes the first one anywhere in the document); only
// an absolute http or https URL counts, and "" means none. The whole
// document is read, in order: a head closed early by stray markup leaves
// these elements in the body. baseHref is the href of the first <base>
// that has one, as written (trimmed), whatever URL it is.
func address(doc *html.Node) (addr, baseHref string) {
	var canonical, og, base string
	var walk func(n *html.Node) bool // reports that the search is over
	walk = func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Link:
				if canonical == "" && hasToken(dom.Attr(n, "rel"), "canonical") {
					canonical = absolute(dom.Attr(n, "href")) // nothing ranks higher
				}
			case atom.Meta:
				if og == "" && (isOGURL(dom.Attr(n, "property")) || isOGURL(dom.Attr(n, "name"))) {
					og = absolute(dom.Attr(n, "content"))
				}
			case atom.Base:
				href := strings.TrimSpace(dom.Attr(n, "href"))
				if baseHref == "" {
					baseHref = href
				}
				if base == "" {
					base = absolute(href)
				}
			}
			if canonical != "" && baseHref != "" {
				return true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(doc)
	for _, u := range []string{canonical, og, base} {
		if u != "" {
			return u, baseHref
		}
	}
	return "", baseHref
}

func isOGURL(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "og:url") }

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
