package gold

import (
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/internal/mojibake"
)

// A labeler tells whether an element carries a gold label: ok reports that
// it does, clean what the label says. The nearest labelled ancestor of a
// text node decides its label; text without one is not clean.
type labeler func(n *html.Node) (clean, ok bool)

func classes(n *html.Node) []string {
	for _, a := range n.Attr {
		if a.Key == "class" {
			return strings.Fields(a.Val)
		}
	}
	return nil
}

// l3sLabeler labels spans of class x-nc-selN. The nearest such span decides,
// so text inside nested spans takes the label of the innermost (leaf) span.
func l3sLabeler(opt Options) labeler {
	want := map[int]bool{}
	for _, c := range opt.l3sClasses() {
		want[c] = true
	}
	return func(n *html.Node) (bool, bool) {
		for _, c := range classes(n) {
			if s, ok := strings.CutPrefix(c, "x-nc-sel"); ok {
				k, err := strconv.Atoi(s)
				return err == nil && want[k], true
			}
		}
		return false, false
	}
}

// krdwrdLabeler labels kw elements of class krdwrd-tag-N[-agreement]:
// 3 is clean, 2 (uncertain) is clean only with Options.Uncertain, anything
// else (1 bad, 7, undefined) is not.
func krdwrdLabeler(opt Options) labeler {
	return func(n *html.Node) (bool, bool) {
		if n.Data != "kw" {
			return false, false
		}
		for _, c := range classes(n) {
			if s, ok := strings.CutPrefix(c, "krdwrd-tag-"); ok {
				k, _, _ := strings.Cut(s, "-")
				return k == "3" || k == "2" && opt.Uncertain, true
			}
		}
		return false, false
	}
}

func hasClass(n *html.Node, c string) bool {
	for _, x := range classes(n) {
		if x == c {
			return true
		}
	}
	return false
}

// invisible reports elements whose text a reader does not see.
func invisible(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Title,
		atom.Rt, atom.Rp: // ruby readings, as package preclean drops them
		return true
	}
	return hasClass(n, "x-nc-invisible")
}

var headings = map[atom.Atom]bool{atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true}

// annotator walks an annotated page. Text is gathered into runs broken at
// non-inline elements (as package blocks breaks words); each run is split
// into words, a word being clean when most of its characters are.
type annotator struct {
	label labeler
	g     *Gold

	run   []rune
	clean []bool
	kind  byte
}

func parseAnnotated(text string, label labeler) (*Gold, error) {
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	a := &annotator{label: label, g: &Gold{}, kind: 'p'}
	a.walk(doc, false, 'p')
	a.flush()
	if a.g.Page == nil {
		a.g.Page = []Word{}
	}
	return a.g, nil
}

func (a *annotator) walk(n *html.Node, clean bool, kind byte) {
	switch n.Type {
	case html.TextNode:
		if len(a.run) == 0 {
			a.kind = kind
		}
		// Mojibake undone and invisible characters dropped, as
		// package preclean does to a page's text.
		for _, r := range mojibake.Repair(n.Data) {
			if dom.Invisible(r) {
				continue
			}
			a.run = append(a.run, r)
			a.clean = append(a.clean, clean)
		}
		return
	case html.ElementNode:
		if invisible(n) {
			return
		}
		if c, ok := a.label(n); ok {
			clean = c
		}
		if headings[n.DataAtom] || hasClass(n, "x-nc-sel1") {
			kind = 'h'
		}
		if n.DataAtom == atom.Li || n.DataAtom == atom.Dd || n.DataAtom == atom.Dt {
			kind = 'l'
		}
	}
	boundary := n.Type == html.ElementNode && !blocks.IsInline(n)
	if boundary {
		a.flush()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Br {
			a.flush()
		}
		a.walk(c, clean, kind)
	}
	if boundary {
		a.flush()
	}
}

// flush turns the current run into words and, for its clean words, a
// segment.
func (a *annotator) flush() {
	var seg []string
	i := 0
	for i < len(a.run) {
		for i < len(a.run) && isSpace(a.run[i]) {
			i++
		}
		j, nclean := i, 0
		for j < len(a.run) && !isSpace(a.run[j]) {
			if a.clean[j] {
				nclean++
			}
			j++
		}
		if j > i {
			w := Word{Text: string(a.run[i:j]), Clean: 2*nclean > j-i}
			a.g.Page = append(a.g.Page, w)
			if w.Clean {
				seg = append(seg, w.Text)
			} else if len(seg) > 0 {
				a.addSegment(seg)
				seg = nil
			}
		}
		i = j
	}
	if len(seg) > 0 {
		a.addSegment(seg)
	}
	a.run, a.clean = a.run[:0], a.clean[:0]
}

func (a *annotator) addSegment(words []string) {
	a.g.Segments = append(a.g.Segments, Segment{Kind: a.kind, Text: strings.Join(words, " ")})
}

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == '\u00a0' }
