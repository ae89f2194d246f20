package train

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/score"
)

// PageScore is one classified page's figures: word counts as the CleanEval
// scorer makes them without segment tags (the counts behind Report's
// MicroNoTags) and node counts against the gold-aligned labels.
type PageScore struct {
	Set, ID string
	Words   score.Counts
	Nodes   NodeScores
}

// ScorePages scores every result on its own, on all cores. A result
// without Keep counts as empty output, as in Evaluate.
func ScorePages(results []PageResult) ([]PageScore, error) {
	out := make([]PageScore, len(results))
	errs := make([]error, len(results))
	parallel(len(results), 0, func(i int) {
		out[i], errs[i] = scorePage(results[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func scorePage(pr PageResult) (PageScore, error) {
	e := pr.Example
	ps := PageScore{Set: e.Set, ID: e.ID}
	if e.Doc == nil {
		r := score.Score("", e.Gold.Reference(), score.Options{})
		ps.Words = score.Counts{Matched: r.Matched, Out: r.OutWords, Gold: r.GoldWords}
		return ps, nil
	}
	keep := pr.Keep
	if keep == nil {
		keep = make([]bool, len(e.Doc.Blocks))
	}
	for i, y := range e.Labels() {
		switch {
		case keep[i] && y > 0:
			ps.Nodes.TP++
		case keep[i]:
			ps.Nodes.FP++
		case y > 0:
			ps.Nodes.FN++
		default:
			ps.Nodes.TN++
		}
	}
	var err error
	ps.Words, err = wordCounts(e, keep, e.Gold.Reference())
	return ps, err
}

// wordCounts scores the kept blocks of e against the reference text as
// Evaluate does for its MicroNoTags figures.
func wordCounts(e *Example, keep []bool, ref string) (score.Counts, error) {
	var buf bytes.Buffer
	if err := export.Write(&buf, export.CleanEval, e.Doc.Page, e.Doc.Blocks, keep, nil); err != nil {
		return score.Counts{}, fmt.Errorf("%s: %w", e.Doc.Page.Name, err)
	}
	r := score.Score(buf.String(), ref, score.Options{})
	return score.Counts{Matched: r.Matched, Out: r.OutWords, Gold: r.GoldWords}, nil
}

// Estimate is a figure on all pages (Value) and its 95% percentile
// bootstrap interval [Lo, Hi].
type Estimate struct {
	Value, Lo, Hi float64
}

// Summary holds the figures of a set of pages with bootstrap intervals:
// word precision, recall and F micro-averaged without segment tags (as
// Report's Model.MicroNoTags), and node accuracy, precision, recall and F
// of the clean class (as Report's Nodes).
type Summary struct {
	Pages, Resamples                  int
	WordP, WordR, WordF               Estimate
	NodeAccuracy, NodeP, NodeR, NodeF Estimate
}

// Difference is a paired difference a - b of one figure: its value on all
// pages, its 95% percentile bootstrap interval, and PNotAbove, the share
// of resamples in which the difference is at most 0 (how often a did not
// beat b).
type Difference struct {
	Value, Lo, Hi float64
	PNotAbove     float64
}

// PairedSummary holds the differences between two systems on the same
// pages (a minus b), each resample drawing the same pages for both.
type PairedSummary struct {
	Pages, Resamples                  int
	WordP, WordR, WordF               Difference
	NodeAccuracy, NodeP, NodeR, NodeF Difference
}

// figures returns the seven figures of a Summary in field order, from
// summed counts.
func figures(w score.Counts, n NodeScores) [7]float64 {
	return [7]float64{w.P(), w.R(), w.F(), n.Accuracy(), n.P(), n.R(), n.F()}
}

// resample draws b bootstrap samples of n pages (with replacement) from a
// PCG seeded with seed and calls f with the number of times each page was
// drawn. The same seed and n give the same samples.
func resample(n, b int, seed uint64, f func(count []int)) {
	r := rand.New(rand.NewPCG(seed, 0x626f6f74))
	count := make([]int, n)
	for k := 0; k < b; k++ {
		clear(count)
		for j := 0; j < n; j++ {
			count[r.IntN(n)]++
		}
		f(count)
	}
}

// Total sums the pages' word and node counts, the figures of them all
// together (what the bootstrap resamples).
func Total(ps []PageScore) (score.Counts, NodeScores) { return sum(ps, nil) }

// BySet splits page scores by data set (PageScore.Set), keeping their
// order within each set; sets lists the sets in the order they first
// appear.
func BySet(ps []PageScore) (sets []string, groups map[string][]PageScore) {
	groups = map[string][]PageScore{}
	for _, p := range ps {
		if _, ok := groups[p.Set]; !ok {
			sets = append(sets, p.Set)
		}
		groups[p.Set] = append(groups[p.Set], p)
	}
	return sets, groups
}

func sum(ps []PageScore, count []int) (score.Counts, NodeScores) {
	var w score.Counts
	var n NodeScores
	for i, p := range ps {
		c := 1
		if count != nil {
			c = count[i]
		}
		w.Matched += c * p.Words.Matched
		w.Out += c * p.Words.Out
		w.Gold += c * p.Words.Gold
		n.TP += c * p.Nodes.TP
		n.FP += c * p.Nodes.FP
		n.TN += c * p.Nodes.TN
		n.FN += c * p.Nodes.FN
	}
	return w, n
}

// Bootstrap scores the results page by page and gives each figure a 95%
// percentile interval from b resamples of the pages (with replacement;
// b <= 0 means 10,000), seeded by seed.
func Bootstrap(results []PageResult, b int, seed uint64) (*Summary, error) {
	ps, err := ScorePages(results)
	if err != nil {
		return nil, err
	}
	return BootstrapScores(ps, b, seed)
}

// BootstrapScores is Bootstrap on page scores.
func BootstrapScores(ps []PageScore, b int, seed uint64) (*Summary, error) {
	if len(ps) == 0 {
		return nil, fmt.Errorf("train: bootstrap of no pages")
	}
	if b <= 0 {
		b = 10000
	}
	var samples [7][]float64
	resample(len(ps), b, seed, func(count []int) {
		for k, v := range figures(sum(ps, count)) {
			samples[k] = append(samples[k], v)
		}
	})
	all := figures(sum(ps, nil))
	var est [7]Estimate
	for k := range est {
		lo, hi := interval(samples[k])
		est[k] = Estimate{Value: all[k], Lo: lo, Hi: hi}
	}
	return &Summary{Pages: len(ps), Resamples: b,
		WordP: est[0], WordR: est[1], WordF: est[2],
		NodeAccuracy: est[3], NodeP: est[4], NodeR: est[5], NodeF: est[6]}, nil
}

// PairedBootstrap compares two systems' results on the same pages (matched
// by Set and ID; the two lists must hold the same pages): a minus b, with
// 95% percentile intervals from b resamples of the pages, each resample
// drawing the same pages for both systems.
func PairedBootstrap(a, b []PageResult, resamples int, seed uint64) (*PairedSummary, error) {
	pa, err := ScorePages(a)
	if err != nil {
		return nil, err
	}
	pb, err := ScorePages(b)
	if err != nil {
		return nil, err
	}
	return PairedBootstrapScores(pa, pb, resamples, seed)
}

// PairedBootstrapScores is PairedBootstrap on page scores.
func PairedBootstrapScores(a, b []PageScore, resamples int, seed uint64) (*PairedSummary, error) {
	if len(a) == 0 {
		return nil, fmt.Errorf("train: bootstrap of no pages")
	}
	if len(a) != len(b) {
		return nil, fmt.Errorf("train: paired bootstrap of %d and %d pages", len(a), len(b))
	}
	at := map[[2]string]int{}
	for i, p := range a {
		k := [2]string{p.Set, p.ID}
		if _, dup := at[k]; dup {
			return nil, fmt.Errorf("train: page %s/%s twice", p.Set, p.ID)
		}
		at[k] = i
	}
	bb := make([]PageScore, len(a))
	seen := make([]bool, len(a))
	for _, p := range b {
		i, ok := at[[2]string{p.Set, p.ID}]
		if !ok || seen[i] {
			return nil, fmt.Errorf("train: page %s/%s is not in both results once", p.Set, p.ID)
		}
		bb[i], seen[i] = p, true
	}
	if resamples <= 0 {
		resamples = 10000
	}
	var diffs [7][]float64
	var notAbove [7]int
	resample(len(a), resamples, seed, func(count []int) {
		fa, fb := figures(sum(a, count)), figures(sum(bb, count))
		for k := range fa {
			d := fa[k] - fb[k]
			diffs[k] = append(diffs[k], d)
			if d <= 0 {
				notAbove[k]++
			}
		}
	})
	fa, fb := figures(sum(a, nil)), figures(sum(bb, nil))
	var d [7]Difference
	for k := range d {
		lo, hi := interval(diffs[k])
		d[k] = Difference{Value: fa[k] - fb[k], Lo: lo, Hi: hi, PNotAbove: float64(notAbove[k]) / float64(resamples)}
	}
	return &PairedSummary{Pages: len(a), Resamples: resamples,
		WordP: d[0], WordR: d[1], WordF: d[2],
		NodeAccuracy: d[3], NodeP: d[4], NodeR: d[5], NodeF: d[6]}, nil
}

// interval returns the 2.5% and 97.5% quantiles of v (sorted in place),
// interpolating linearly between order statistics (R's type 7).
func interval(v []float64) (lo, hi float64) {
	slices.Sort(v)
	return quantile(v, 0.025), quantile(v, 0.975)
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// String gives the figures and intervals in percent.
func (s *Summary) String() string {
	f := func(e Estimate) string { return fmt.Sprintf("%.2f [%.2f, %.2f]", 100*e.Value, 100*e.Lo, 100*e.Hi) }
	return fmt.Sprintf("word P %s  R %s  F %s; node accuracy %s  P %s  R %s  F %s (%d pages, %d resamples)",
		f(s.WordP), f(s.WordR), f(s.WordF), f(s.NodeAccuracy), f(s.NodeP), f(s.NodeR), f(s.NodeF), s.Pages, s.Resamples)
}

// String gives the differences in percentage points.
func (s *PairedSummary) String() string {
	f := func(d Difference) string {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f] P(<=0) %.3f", 100*d.Value, 100*d.Lo, 100*d.Hi, d.PNotAbove)
	}
	return fmt.Sprintf("word P %s; R %s; F %s; node accuracy %s; node F %s (%d pages, %d resamples)",
		f(s.WordP), f(s.WordR), f(s.WordF), f(s.NodeAccuracy), f(s.NodeF), s.Pages, s.Resamples)
}

// SetSummary is the Summary of the pages of one data set.
type SetSummary struct {
	Set string
	Summary
}

// BootstrapBySet is BootstrapScores on the pages of each data set apart
// (PageScore.Set), in the order the sets first appear in ps, each with its
// own resamples from seed. One set's figures say how a pooled figure is
// made up: a gain that holds on one set and not on another is not yet a
// gain.
func BootstrapBySet(ps []PageScore, b int, seed uint64) ([]SetSummary, error) {
	order, groups := BySet(ps)
	out := make([]SetSummary, 0, len(order))
	for _, set := range order {
		s, err := BootstrapScores(groups[set], b, seed)
		if err != nil {
			return nil, fmt.Errorf("train: set %s: %w", set, err)
		}
		out = append(out, SetSummary{Set: set, Summary: *s})
	}
	return out, nil
}
