package classify

import (
	"math"

	"github.com/fiasco-project/fiasco/features"
)

// Stacking. A block's label depends strongly on its neighbours' (a
// paragraph between two paragraphs is content, a link between two links
// is navigation), and the first stage decides every block alone. When a
// model has a second stage (Model.Stack), Decide feeds it, per block, the
// first stage's decision values of the block and of its neighbours in
// reading order, and page-level summaries of them (StackRows); the
// second stage's decision value is the block's. It is trained on
// out-of-fold first-stage values (package train, TrainOptions.Stack), so
// that it learns how far to trust decisions on pages the first stage has
// not seen.

// StackFeatures names the second stage's columns, in StackRows' order.
var StackFeatures = []string{
	"stack_dec",        // the block's own first-stage value
	"stack_prev",       // the previous block's (stackNone where there is none)
	"stack_next",       // the next block's
	"stack_prev2",      // two back
	"stack_next2",      // two ahead
	"stack_window",     // mean over the five blocks on each side, the block left out
	"stack_nb_max",     // the larger of prev and next
	"stack_page_mean",  // mean over the page
	"stack_page_kept",  // share of the page's blocks with a value >= 0
	"stack_log_tokens", // the tokens column: log(1 + the block's word tokens)
}

// stackNone stands for a missing neighbour: a value beyond what a
// confident dirty block gets, after clipping to [-stackClip, stackClip].
const (
	stackClip   = 3
	stackNone   = -stackClip - 1
	stackWindow = 5
)

// StackRows returns the second stage's rows of a page from its first
// stage's decision values (one per block, in reading order) and its
// feature table (for the blocks' token counts).
func StackRows(dec []float64, t *features.Table) [][]float64 {
	n := len(dec)
	d := make([]float64, n)
	mean, kept := 0.0, 0.0
	for i, v := range dec {
		d[i] = math.Max(-stackClip, math.Min(stackClip, v))
		mean += d[i]
		if v >= 0 {
			kept++
		}
	}
	if n > 0 {
		mean /= float64(n)
		kept /= float64(n)
	}
	at := func(i int) float64 {
		if i < 0 || i >= n {
			return stackNone
		}
		return d[i]
	}
	tok := -1
	if cols, err := features.Select([]string{"tokens"}); err == nil {
		tok = cols[0]
	}
	rows := make([][]float64, n)
	flat := make([]float64, n*len(StackFeatures))
	for i := range d {
		w, k := 0.0, 0
		for j := max(0, i-stackWindow); j <= min(n-1, i+stackWindow); j++ {
			if j != i {
				w += d[j]
				k++
			}
		}
		if k > 0 {
			w /= float64(k)
		} else {
			w = stackNone
		}
		tokens := 0.0
		if t != nil && i < len(t.Values) && tok >= 0 && tok < len(t.Values[i]) {
			tokens = math.Max(0, t.Values[i][tok]) // already log(1 + n)
		}
		r := flat[i*len(StackFeatures) : (i+1)*len(StackFeatures) : (i+1)*len(StackFeatures)]
		r[0], r[1], r[2], r[3], r[4] = d[i], at(i-1), at(i+1), at(i-2), at(i+2)
		r[5], r[6], r[7], r[8], r[9] = w, math.Max(at(i-1), at(i+1)), mean, kept, tokens
		rows[i] = r
	}
	return rows
}
