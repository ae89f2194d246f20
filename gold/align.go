package gold

import (
	"strings"
	"unicode"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/internal/difflib"
)

// Threshold is the default share of gold words above which a block is
// labelled clean (see Labels).
const Threshold = 0.5

// AlignOptions tune the alignment of page words to gold words.
type AlignOptions struct {
	// Fold lowercases tokens before comparing them.
	Fold bool
	// Strip keeps only the letters and digits of a token (so "Kosovo’s",
	// "Kosovo?s" and "kosovos" compare equal); a token without letters and
	// digits ("|", "--") stays as it is.
	Strip bool
	// MinRun discards matched runs shorter than MinRun tokens unless the run
	// covers all tokens of every block it touches. 0 or 1 keeps all runs.
	MinRun int
	// AutoJunk applies difflib's popular-item rule (see difflib.Matcher).
	AutoJunk bool
	// AutoJunkAbove turns AutoJunk on when the product of the page and gold
	// lengths (in tokens) exceeds it, bounding the time spent on huge
	// pages; 0 means never.
	AutoJunkAbove int
}

// DefaultAlign is the alignment used by Label; chosen by measuring the
// oracle score on the data sets (see the package doc).
var DefaultAlign = AlignOptions{Fold: true, Strip: true, MinRun: 2, AutoJunkAbove: 20_000_000}

// Label returns, for each block, the share of its words that the gold
// standard marks as clean content, using DefaultAlign.
func Label(bs []*blocks.Block, g *Gold) []float64 {
	return LabelOptions(bs, g, DefaultAlign)
}

// Labels turns block scores into labels: clean when score >= threshold.
func Labels(scores []float64, threshold float64) []bool {
	out := make([]bool, len(scores))
	for i, s := range scores {
		out[i] = s >= threshold
	}
	return out
}

// Normalize returns the comparison form of a word under opt, "" if nothing
// is left.
func (opt AlignOptions) Normalize(w string) string {
	if opt.Strip {
		s := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, w)
		if s != "" {
			w = s
		}
	}
	if opt.Fold {
		w = strings.ToLower(w)
	}
	return w
}

// LabelOptions is Label with explicit alignment options.
//
// The words of the page in reading order (blocks.Runs), are aligned with the gold
// words (difflib.Matcher, difflib's algorithm). For text gold (CleanEval,
// Plain) the gold words are the clean text and a page word is clean when it
// is matched. For annotated gold (L3S, KrdWrd) the gold words are all words
// of the annotated page and a page word is clean when it is matched to a
// clean word.
func LabelOptions(bs []*blocks.Block, g *Gold, opt AlignOptions) []float64 {
	if g == nil { // no gold: nothing is clean
		return make([]float64, len(bs))
	}
	var page []string
	var owner []int // block of each page token
	total := make([]int, len(bs))
	for _, r := range blocks.Runs(bs) {
		for _, w := range strings.Fields(r.Text) {
			if w = opt.Normalize(w); w != "" {
				page = append(page, w)
				owner = append(owner, r.Block)
				total[r.Block]++
			}
		}
	}
	var gw []string
	var gclean []bool
	if g.Page != nil {
		for _, w := range g.Page {
			if t := opt.Normalize(w.Text); t != "" {
				gw = append(gw, t)
				gclean = append(gclean, w.Clean)
			}
		}
	} else {
		for _, w := range g.Words {
			if t := opt.Normalize(w); t != "" {
				gw = append(gw, t)
				gclean = append(gclean, true)
			}
		}
	}
	junk := opt.AutoJunk || opt.AutoJunkAbove > 0 && len(page)*len(gw) > opt.AutoJunkAbove
	ms := difflib.Matcher{AutoJunk: junk}.Blocks(page, gw)
	good := make([]int, len(bs))
	for _, m := range ms {
		if m.Size < opt.MinRun && !coversBlocks(owner, total, m) {
			continue
		}
		for k := 0; k < m.Size; k++ {
			if gclean[m.B+k] {
				good[owner[m.A+k]]++
			}
		}
	}
	out := make([]float64, len(bs))
	for i := range bs {
		if total[i] > 0 {
			out[i] = float64(good[i]) / float64(total[i])
		}
	}
	return out
}

// coversBlocks reports whether the page tokens m.A..m.A+m.Size are all the
// tokens of the blocks they belong to.
func coversBlocks(owner, total []int, m difflib.Match) bool {
	if m.Size == 0 {
		return false
	}
	first, last := owner[m.A], owner[m.A+m.Size-1]
	if m.A > 0 && owner[m.A-1] == first {
		return false
	}
	if end := m.A + m.Size; end < len(owner) && owner[end] == last {
		return false
	}
	return true
}
