package features

import (
	"math"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
)

// The ancestry features (group Ancestry) describe the containers around
// a block and the page as a whole: the text of its container elements,
// after the div-group and td-group word ratios of Victor, the CRF cleaner
// of Marek, Pecina and Spousta at CleanEval 2007, and the page's length
// and link share. They come after the context columns; ancestryCol gives
// their columns.
//
// A block's div group is the subtree of its nearest proper ancestor that
// is a container element (div, section, article, main, aside, header,
// footer, nav, form, body; the block's own element when nothing above it
// is one); its td group that of its nearest table cell, itself included.
// Their figures count every block in that subtree.
const (
	ancDivShare   = iota // share of the page's characters in the div group
	ancDivLink           // share of the div group's characters inside links
	ancDivStop           // stop-word share of the div group's tokens
	ancDivBlocks         // log1p of the blocks in the div group
	ancDivProse          // share of the div group's characters in prose blocks (isProse)
	ancTdShare           // share of the page's characters in the td group (0: not in a cell)
	ancTdLink            // share of the td group's characters inside links
	ancPageTokens        // log1p of the page's tokens
	ancPageLink          // share of the page's characters inside links
	numAncestry
)

// ancestrySchema names the ancestry columns.
var ancestrySchema = [numAncestry]Feature{
	ancDivShare:   {"anc_div_share", Ancestry, false},
	ancDivLink:    {"anc_div_link", Ancestry, false},
	ancDivStop:    {"anc_div_stop", Ancestry, true},
	ancDivBlocks:  {"anc_div_blocks", Ancestry, false},
	ancDivProse:   {"anc_div_prose", Ancestry, false},
	ancTdShare:    {"anc_td_share", Ancestry, false},
	ancTdLink:     {"anc_td_link", Ancestry, false},
	ancPageTokens: {"anc_page_tokens", Ancestry, false},
	ancPageLink:   {"anc_page_link", Ancestry, false},
}

// groupSums is what the ancestry features add up over a group.
type groupSums struct {
	chars, link, tokens, stop, blocks, prose int
}

// add counts block b, with its tokens, stop words and prose flag, in g.
func (g *groupSums) add(b *blocks.Block, tokens, stop int, prose bool) {
	g.chars += b.Chars
	g.link += b.LinkChars
	g.tokens += tokens
	g.stop += stop
	g.blocks++
	if prose {
		g.prose += b.Chars
	}
}

// isDivGroup reports whether n bounds a div group.
func isDivGroup(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Div, atom.Section, atom.Article, atom.Main, atom.Aside, atom.Header,
		atom.Footer, atom.Nav, atom.Form, atom.Body:
		return true
	}
	return false
}

// ancestryFeatures fills the ancestry columns of the rows of one page.
// stops[i] is the number of stop words among tokens[i]; prose[i] whether
// block i is prose.
func ancestryFeatures(bs []*blocks.Block, tokens [][]string, stops []int, prose []bool, rows [][]float64) {
	if len(bs) == 0 {
		return
	}
	ac := ancestryCol(0)
	// Every group element gets the sums of the blocks below it.
	sums := map[*html.Node]*groupSums{}
	divOf := make([]*html.Node, len(bs))
	tdOf := make([]*html.Node, len(bs))
	var page groupSums
	for i, b := range bs {
		page.add(b, len(tokens[i]), stops[i], prose[i])
		for p := b.Node; p != nil; p = p.Parent {
			if p.Type != html.ElementNode {
				continue
			}
			div := isDivGroup(p)
			td := p.DataAtom == atom.Td || p.DataAtom == atom.Th
			if !div && !td {
				continue
			}
			// The block's own element holds it (its sums count the
			// block) but is not its div group, unless nothing above is.
			if div && (divOf[i] == nil || divOf[i] == b.Node) {
				divOf[i] = p
			}
			if td && tdOf[i] == nil {
				tdOf[i] = p
			}
			g := sums[p]
			if g == nil {
				g = &groupSums{}
				sums[p] = g
			}
			g.add(b, len(tokens[i]), stops[i], prose[i])
		}
	}
	pageTokens := math.Log1p(float64(page.tokens))
	pageLink := ratio(page.link, page.chars)
	for i := range bs {
		v := rows[i]
		if divOf[i] != nil {
			g := sums[divOf[i]]
			v[ac+ancDivShare] = ratio(g.chars, page.chars)
			v[ac+ancDivLink] = ratio(g.link, g.chars)
			v[ac+ancDivStop] = ratio(g.stop, g.tokens)
			v[ac+ancDivBlocks] = math.Log1p(float64(g.blocks))
			v[ac+ancDivProse] = ratio(g.prose, g.chars)
		}
		if tdOf[i] != nil {
			g := sums[tdOf[i]]
			v[ac+ancTdShare] = ratio(g.chars, page.chars)
			v[ac+ancTdLink] = ratio(g.link, g.chars)
		}
		v[ac+ancPageTokens] = pageTokens
		v[ac+ancPageLink] = pageLink
	}
}
