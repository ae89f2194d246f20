package features

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
)

// The record columns place a block in the repeated structure around it.
// A record is an element with two or more siblings of the same tag and
// first class word (minRecords of a kind under one parent, itself
// included): the comments of a thread, the items of a menu, the teasers
// of an index page, the paragraphs of an article. A block's record is its
// nearest ancestor (or itself) that is one; the record's group is it and
// those siblings. The columns describe the group, not the block: a short
// comment ("Great post, thanks!") sits in a group whose records hold
// prose and few links, a menu item in one whose records hold links and
// no prose. (The <div data-fiasco-anon> wrappers package blocks puts
// around loose text count as class-less divs, as the models were trained.)
//
// Every column is 0 for a block in no record.
//
//   - rec_prose: the share of the group's records that hold a prose block
//   - rec_link: the share of the group's text in links
//   - rec_count: log1p of the number of records in the group
//   - rec_words: log1p of the mean number of words out of links a record
//     holds (a block's word tokens times the share of its characters
//     outside links)

// RecordNames returns the names of the record columns.
func RecordNames() []string {
	var out []string
	for _, f := range textSchema[colRecProse : colRecWords+1] {
		out = append(out, f.Name)
	}
	return out
}

// minRecords is the number of like elements under one parent, each
// included, that make them records: an element and two like siblings.
const minRecords = 3

// recGroup is what one group of records holds.
type recGroup struct {
	records     int // siblings of the signature, with or without blocks
	prose       int // records holding a prose block
	chars, link int
	words       float64 // words out of links
}

// recordFeatures fills the record columns of the rows of one page; prose[i]
// says whether block i is prose.
func recordFeatures(bs []*blocks.Block, tokens [][]string, prose []bool, rows [][]float64) {
	if len(bs) == 0 {
		return
	}
	type groupKey struct {
		parent *html.Node
		sig    sigKey
	}
	counts := map[*html.Node]map[sigKey]int{} // per parent: children per signature
	siblings := func(n *html.Node) int {
		p := n.Parent
		m, ok := counts[p]
		if !ok {
			m = map[sigKey]int{}
			for c := p.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					m[signature(c)]++
				}
			}
			counts[p] = m
		}
		return m[signature(n)]
	}
	// up[n] is n's nearest ancestor, or n, that is a record (nil: none
	// below <body>), so that each block walks its records, not every
	// ancestor.
	up := map[*html.Node]*html.Node{}
	record := func(n *html.Node) *html.Node {
		var path []*html.Node
		var r *html.Node
		for ; n != nil && n.Parent != nil && n.Type == html.ElementNode && n.DataAtom != atom.Body && n.DataAtom != atom.Html; n = n.Parent {
			if v, ok := up[n]; ok {
				r = v
				break
			}
			path = append(path, n)
			if siblings(n) >= minRecords {
				r = n
				break
			}
		}
		for _, p := range path {
			up[p] = r
		}
		return r
	}
	groups := map[groupKey]*recGroup{}
	proseIn := map[*html.Node]bool{} // records already counted as holding prose
	nearest := make([]*recGroup, len(bs))
	for i, b := range bs {
		words := float64(len(tokens[i])) * (1 - ratio(b.LinkChars, b.Chars))
		for n := record(b.Node); n != nil; n = record(n.Parent) {
			key := groupKey{n.Parent, signature(n)}
			g := groups[key]
			if g == nil {
				g = &recGroup{records: siblings(n)}
				groups[key] = g
			}
			if nearest[i] == nil {
				nearest[i] = g
			}
			g.chars += b.Chars
			g.link += b.LinkChars
			g.words += words
			if prose[i] && !proseIn[n] {
				proseIn[n] = true
				g.prose++
			}
		}
	}
	for i, g := range nearest {
		if g == nil {
			continue
		}
		v := rows[i]
		v[colRecProse] = float64(g.prose) / float64(g.records)
		v[colRecLink] = ratio(g.link, g.chars)
		v[colRecCount] = math.Log1p(float64(g.records))
		v[colRecWords] = math.Log1p(g.words / float64(g.records))
	}
}

// sigKey is an element's tag and the first word of its class, which like
// records share (WordPress's comments are "comment even thread-even
// depth-1", "comment odd alt depth-2": the words after the first mark
// alternation and nesting). class is a slice of the attribute's value.
type sigKey struct{ tag, class string }

func signature(n *html.Node) sigKey {
	for _, a := range n.Attr {
		if a.Key == "class" {
			c := strings.TrimLeftFunc(a.Val, unicode.IsSpace)
			if i := strings.IndexFunc(c, unicode.IsSpace); i >= 0 {
				c = c[:i]
			}
			return sigKey{n.Data, c}
		}
	}
	return sigKey{tag: n.Data}
}
