package features

import "github.com/fiasco-project/fiasco/blocks"

// The window columns (win_link, win_prose; group Structural) describe the
// blocks around a block in reading order, beyond the previous and next
// one: navigation comes in runs of links, content in runs of sentences,
// and a short line inside a run of prose is usually part of it. The
// shares weigh the neighbours by their characters. Measured against the
// text features without them (RESULTS.md): the same inside
// CleanEval's pages under nested cross-validation; ahead when one
// CleanEval-policy set is left out and pooled over the unseen sets, with
// overlapping intervals; behind on KrdWrd and when L3S-GN1 and Dragnet
// join the training sets.

// window is the number of blocks on each side the window columns look at.
const window = 3

// proseTokens is the length from which a block that ends in sentence
// punctuation (final_punct: . ! ? : or a quotation mark) counts as prose.
const proseTokens = 10

// isProse reports whether a block of the given number of word tokens is
// prose; finalPunct is the final_punct column (the text ends in . ! ? :
// or a quotation mark, " or ”).
func isProse(tokens int, finalPunct bool) bool {
	return finalPunct && tokens >= proseTokens
}

// windowFeatures fills the window columns of the rows of one page; prose[i]
// says whether block i is prose.
func windowFeatures(bs []*blocks.Block, prose []bool, rows [][]float64) {
	for i := range bs {
		chars, link, inProse := 0, 0, 0
		for j := max(0, i-window); j <= min(len(bs)-1, i+window); j++ {
			if j == i {
				continue
			}
			chars += bs[j].Chars
			link += bs[j].LinkChars
			if prose[j] {
				inProse += bs[j].Chars
			}
		}
		rows[i][colWinLink] = ratio(link, chars)
		rows[i][colWinProse] = ratio(inProse, chars)
	}
}

// Prose reports whether block i of the table is prose: ten word tokens
// or more, ending in sentence punctuation (the rule of the window
// columns).
func (t *Table) Prose(i int) bool {
	if i < 0 || i >= len(t.Values) || i >= len(t.Tokens) {
		return false
	}
	return isProse(len(t.Tokens[i]), t.Values[i][colFinalPunct] >= 0.5)
}
