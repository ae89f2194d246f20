package gold

import (
	"strings"

	"github.com/fiasco-project/fiasco/blocks"
)

// MinDice is the Dice coefficient above which LabelDice accepts a subtree
// as the place of a gold segment.
const MinDice = 0.5

// LabelDice labels blocks the way FIASCO did, for comparison with Label:
// for each gold segment, the block whose subtree text (its own text and
// that of the blocks below it) has the highest Dice coefficient with the
// segment on word multisets is its place; if that coefficient reaches
// MinDice, the block and all blocks below it are clean (score 1). For
// annotated gold the segments are the clean segments of the annotated page.
// Words are normalised as by DefaultAlign.
func LabelDice(bs []*blocks.Block, g *Gold) []float64 {
	opt := DefaultAlign
	bag := func(text string) map[string]int {
		m := map[string]int{}
		for _, w := range strings.Fields(text) {
			if w = opt.Normalize(w); w != "" {
				m[w]++
			}
		}
		return m
	}
	// Subtree bags, bottom-up: blocks come in document order, so every
	// block's descendants follow it.
	sub := make([]map[string]int, len(bs))
	size := make([]int, len(bs))
	for i := len(bs) - 1; i >= 0; i-- {
		if sub[i] == nil {
			sub[i] = map[string]int{}
		}
		for w, n := range bag(bs[i].Text) {
			sub[i][w] += n
			size[i] += n
		}
		if p := bs[i].Parent; p >= 0 {
			if sub[p] == nil {
				sub[p] = map[string]int{}
			}
			for w, n := range sub[i] {
				sub[p][w] += n
			}
			size[p] += size[i]
		}
	}
	// Inverted index: word -> blocks whose subtree holds it.
	index := map[string][]int{}
	for i, m := range sub {
		for w := range m {
			index[w] = append(index[w], i)
		}
	}
	clean := make([]bool, len(bs))
	for _, s := range g.Segments {
		sb := bag(s.Text)
		n := 0
		for _, c := range sb {
			n += c
		}
		if n == 0 {
			continue
		}
		common := map[int]int{}
		for w, c := range sb {
			for _, i := range index[w] {
				common[i] += min(c, sub[i][w])
			}
		}
		best, bestD := -1, 0.0
		for i, c := range common {
			d := 2 * float64(c) / float64(n+size[i])
			if d > bestD || d == bestD && i > best {
				best, bestD = i, d
			}
		}
		if best >= 0 && bestD >= MinDice {
			clean[best] = true
		}
	}
	out := make([]float64, len(bs))
	for i, b := range bs {
		if clean[i] || b.Parent >= 0 && out[b.Parent] == 1 {
			out[i] = 1
		}
	}
	return out
}
