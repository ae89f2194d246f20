package train

import (
	"context"
	"errors"
	"fmt"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/svm"
)

// FeatureSet is a named list of feature columns, one candidate of a
// NestedGrid.
type FeatureSet struct {
	Name string
	// Features names the columns; nil means Train's default (text and
	// structure, plus visual when the pages were rendered).
	Features []string
}

// NestedGrid lists the candidates that inner cross-validation chooses
// from: every combination of a feature set, C, gamma, threshold and
// smoothing. A nil list means the one value of NestedOptions.Train (its
// Features, Params.C, Params.Gamma, Threshold, Smooth). Thresholds and
// smoothings cost no training: they cut the same decision values.
type NestedGrid struct {
	Features   []FeatureSet
	C, Gamma   []float64
	Thresholds []float64
	// Smooth lists switch costs of sequence smoothing
	// (classify.KeepSmooth) to choose from.
	Smooth []float64
}

// Setting is one candidate of the grid.
type Setting struct {
	Features  string // FeatureSet.Name
	C, Gamma  float64
	Threshold float64
	Smooth    float64
}

// Cell is a candidate and its word counts (CleanEval scorer, no segment
// tags) summed over the inner held-out pages: Inner.F() is the selection
// criterion, micro-averaged word F.
type Cell struct {
	Setting
	Inner score.Counts
}

// FoldChoice is what one outer fold chose and on what evidence.
type FoldChoice struct {
	Name       string // "fold 3", or the held-out data set
	Test       []int  // indices (into the examples) of the pages it tests
	TrainPages int    // pages trained on, the extra pages included
	InnerPages int    // pages scored in its inner cross-validation
	Chosen     Cell
	Cells      []Cell // every candidate, in grid order
}

// NestedResult is the outcome of NestedCV or LeaveOneSetOut.
type NestedResult struct {
	Folds []FoldChoice
	// Results holds one result per example, in the examples' order, each
	// from the model of the fold that tested it (Evaluate and Bootstrap
	// take it as it is).
	Results []PageResult
}

// FoldResults returns the results of the pages fold i tested.
func (r *NestedResult) FoldResults(i int) []PageResult {
	out := make([]PageResult, 0, len(r.Folds[i].Test))
	for _, j := range r.Folds[i].Test {
		out = append(out, r.Results[j])
	}
	return out
}

// NestedOptions configure NestedCV and LeaveOneSetOut.
type NestedOptions struct {
	OuterFolds int // NestedCV: folds over pages that report (default 10)
	InnerFolds int // folds over each outer training set that choose (default 5)
	Seed       uint64
	Grid       NestedGrid
	// Train holds everything else of training (SVM parameters other than
	// C and gamma, keywords, MaxBlocks, NoOther, the sampling seed); the
	// grid sets Features, Params.C, Params.Gamma, Threshold and Smooth.
	Train TrainOptions
	// Extra pages are in every training set, outer and inner, and never
	// held out or scored: another data set whose benefit is measured on
	// the examples. They must not be among the examples.
	Extra []*Example
	// BySite keeps the pages of a site (Example.Site) in one fold, outer
	// and inner, so that no model is scored on a site it was trained on:
	// the figures then say how the models do on sites never seen, where
	// folds by page let a model learn a site's template from its other
	// pages.
	BySite bool
	// Workers is the number of trainings run at once (0: GOMAXPROCS).
	Workers int
	// Progress, if set, is called after every training with the number
	// done and the total, from one goroutine at a time.
	Progress func(done, total int)
}

// split is one outer fold: the pages it trains on and those it tests.
type split struct {
	name  string
	train []*Example // loaded examples, the extra pages not included
	test  []int      // indices into the examples
}

// NestedCV cross-validates model selection by page (or by site). The examples are
// dealt into OuterFolds folds (Folds with Seed: the same folds as
// CrossValidate with that seed; with BySite, GroupFolds over the pages'
// sites). For each outer fold, the other folds' pages are dealt into
// InnerFolds inner folds (seeded by Seed and the outer fold, by site too
// with BySite); for every feature set, C and gamma of the grid and every
// inner fold a model is trained on the other inner folds (plus Extra) and
// decides each inner held-out page once; every threshold of the grid then
// cuts the same decision values, with every smoothing of the grid. The
// candidate with the highest word F, micro-averaged over all inner
// held-out pages without segment tags (pages that failed to load are
// left out: they score the same under every candidate), is chosen; ties
// go to the earliest candidate in grid order (feature sets, C, gamma,
// thresholds, smoothings, each as listed). A model with the chosen
// setting is trained on all the outer fold's training pages (plus Extra)
// and classifies its held-out pages. No page is ever classified by a
// model, or scored for a choice, that saw it.
//
// Keywords and scaling are learned inside every training, inner ones
// included, as Train does. Trainings run on Workers goroutines; the
// results do not depend on their number.
func NestedCV(ctx context.Context, ex []*Example, opt NestedOptions) (*NestedResult, error) {
	k := opt.OuterFolds
	if k <= 0 {
		k = 10
	}
	if k < 2 {
		return nil, fmt.Errorf("train: %d outer folds: nested cross-validation needs 2 at least", k)
	}
	if k > len(ex) {
		return nil, fmt.Errorf("train: %d outer folds for %s: each fold needs a page at least (fewer folds, or more pages)", k, plural(len(ex), "page"))
	}
	if n := Sites(ex); opt.BySite && k > n {
		return nil, fmt.Errorf("train: %d outer folds for %s: each fold needs a site at least (fewer folds, or --folds-by page)", k, plural(n, "site"))
	}
	fold := siteFolds(ex, k, opt.Seed, opt.BySite)
	splits := make([]split, k)
	for f := range splits {
		splits[f].name = fmt.Sprintf("fold %d", f+1)
	}
	for i, e := range ex {
		for f := range splits {
			if fold[i] == f {
				splits[f].test = append(splits[f].test, i)
			} else if e.Doc != nil {
				splits[f].train = append(splits[f].train, e)
			}
		}
	}
	return nested(ctx, ex, splits, opt)
}

// LeaveOneSetOut holds out one data set (Example.Set) at a time: a model
// chosen by inner cross-validation over the pages of the other sets (plus
// Extra), as in NestedCV, classifies the held-out set's pages. Folds come
// in the order in which the sets first appear among the examples, named
// by the set; OuterFolds is not used. It needs at least two sets.
func LeaveOneSetOut(ctx context.Context, ex []*Example, opt NestedOptions) (*NestedResult, error) {
	var sets []string
	at := map[string]int{}
	for _, e := range ex {
		if _, ok := at[e.Set]; !ok {
			at[e.Set] = len(sets)
			sets = append(sets, e.Set)
		}
	}
	if len(sets) < 2 {
		return nil, fmt.Errorf("train: leave-one-set-out needs two data sets, got %d", len(sets))
	}
	splits := make([]split, len(sets))
	for s := range splits {
		splits[s].name = sets[s]
	}
	for i, e := range ex {
		for s := range splits {
			if at[e.Set] == s {
				splits[s].test = append(splits[s].test, i)
			} else if e.Doc != nil {
				splits[s].train = append(splits[s].train, e)
			}
		}
	}
	return nested(ctx, ex, splits, opt)
}

// innerJob trains one candidate model (feature set, C, gamma) on all inner
// folds of split s but one and scores the held-out inner fold at every
// cut (threshold and smoothing).
type innerJob struct {
	s, fs, c, g, fold int
	counts            []score.Counts // per cut (threshold and smoothing, run.cuts)
}

// run is one NestedCV or LeaveOneSetOut.
type run struct {
	ex      []*Example
	splits  []split
	extra   []*Example
	grid    NestedGrid
	base    TrainOptions
	inner   int
	innerOf [][]int // per split, the inner fold of each training page
	jobs    []*innerJob
	sc      *scorer
	prog    *progress
	workers int
}

func nested(ctx context.Context, ex []*Example, splits []split, opt NestedOptions) (*NestedResult, error) {
	r, err := newRun(ex, splits, opt)
	if err != nil {
		return nil, err
	}
	if err := runJobs(ctx, len(r.jobs), r.workers, r.prog, r.innerJob); err != nil {
		return nil, err
	}
	res := &NestedResult{Folds: make([]FoldChoice, len(splits)), Results: make([]PageResult, len(ex))}
	chosen := make([][3]int, len(splits))
	for s := range splits {
		res.Folds[s], chosen[s] = r.choose(s)
	}
	err = runJobs(ctx, len(splits), r.workers, r.prog, func(ctx context.Context, s int) error {
		return r.outer(ctx, s, chosen[s], res.Folds[s].Chosen.Setting, res.Results)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// newRun fills in the defaults, checks the options and lists the inner
// jobs.
func newRun(ex []*Example, splits []split, opt NestedOptions) (*run, error) {
	r := &run{ex: ex, splits: splits, grid: opt.Grid, base: opt.Train, inner: opt.InnerFolds, sc: newScorer(), workers: opt.Workers}
	r.base.StackBySite = r.base.StackBySite || opt.BySite
	if r.inner <= 0 {
		r.inner = 5
	}
	if r.inner < 2 {
		return nil, fmt.Errorf("train: %d inner folds", r.inner)
	}
	if r.base.Params == (svm.Params{}) {
		r.base.Params = svm.DefaultParams()
	}
	g := &r.grid
	if g.Features == nil {
		g.Features = []FeatureSet{{Name: "default", Features: r.base.Features}}
	}
	if g.C == nil {
		g.C = []float64{r.base.Params.C}
	}
	if g.Gamma == nil {
		g.Gamma = []float64{r.base.Params.Gamma}
	}
	if g.Thresholds == nil {
		g.Thresholds = []float64{r.base.Threshold}
	}
	if g.Smooth == nil {
		g.Smooth = []float64{r.base.Smooth}
	}
	if len(g.Features)*len(g.C)*len(g.Gamma)*len(g.Thresholds)*len(g.Smooth) == 0 {
		return nil, errors.New("train: empty model-selection grid")
	}
	for _, v := range g.Smooth {
		if err := classify.CheckSmooth(v); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	inEx := map[*Example]bool{}
	for _, e := range ex {
		inEx[e] = true
	}
	r.extra = loaded(opt.Extra)
	for _, e := range r.extra {
		if inEx[e] {
			return nil, fmt.Errorf("train: extra page %s/%s is also an example", e.Set, e.ID)
		}
	}
	r.innerOf = make([][]int, len(splits))
	for s, sp := range splits {
		if len(sp.train) < r.inner {
			return nil, fmt.Errorf("train: with %s held out, %s left to train on for %d inner folds (fewer inner folds, or more pages)", sp.name, plural(len(sp.train), "page"), r.inner)
		}
		if n := Sites(sp.train); opt.BySite && n < r.inner {
			return nil, fmt.Errorf("train: with %s held out, %s left to train on for %d inner folds (fewer inner folds, or more sites)", sp.name, plural(n, "site"), r.inner)
		}
		r.innerOf[s] = siteFolds(sp.train, r.inner, opt.Seed^(uint64(s+1)*0x9e3779b97f4a7c15), opt.BySite)
		if err := r.checkStackSites(s); err != nil {
			return nil, err
		}
		for fs := range g.Features {
			for c := range g.C {
				for gi := range g.Gamma {
					for f := 0; f < r.inner; f++ {
						r.jobs = append(r.jobs, &innerJob{s: s, fs: fs, c: c, g: gi, fold: f})
					}
				}
			}
		}
	}
	r.prog = newProgress(opt.Progress, len(r.jobs)+len(splits))
	return r, nil
}

// checkStackSites fails early, before any training, when a second stage
// dealt by site (TrainOptions.StackBySite) would have fewer sites than
// folds in an inner training set of split s.
func (r *run) checkStackSites(s int) error {
	if r.base.Stack <= 0 || !r.base.StackBySite {
		return nil
	}
	sp := r.splits[s]
	for f := 0; f < r.inner; f++ {
		var tr []*Example
		for j, e := range sp.train {
			if r.innerOf[s][j] != f {
				tr = append(tr, e)
			}
		}
		if n := Sites(append(tr, r.extra...)); n < r.base.Stack {
			return fmt.Errorf("train: %s, inner fold %d: second stage: %d folds for %s", sp.name, f+1, r.base.Stack, plural(n, "site"))
		}
	}
	return nil
}

// settings returns the training options of a grid cell.
func (r *run) settings(fs, c, g int) TrainOptions {
	to := r.base
	to.Features = r.grid.Features[fs].Features
	to.Params.C, to.Params.Gamma = r.grid.C[c], r.grid.Gamma[g]
	return to
}

// innerJob runs job i: train on the other inner folds and the extra
// pages, decide each held-out page once, score it at every cut.
func (r *run) innerJob(ctx context.Context, i int) error {
	jb := r.jobs[i]
	sp := r.splits[jb.s]
	var trainSet, held []*Example
	for j, e := range sp.train {
		if r.innerOf[jb.s][j] == jb.fold {
			held = append(held, e)
		} else {
			trainSet = append(trainSet, e)
		}
	}
	trainSet = append(trainSet, r.extra...)
	to := r.settings(jb.fs, jb.c, jb.g)
	// The language-independent model only decides non-English pages.
	to.NoOther = to.NoOther || allEnglish(held)
	m, err := Train(ctx, trainSet, to)
	if err != nil {
		return fmt.Errorf("%s, inner fold %d: %w", sp.name, jb.fold+1, err)
	}
	cuts := r.cuts()
	jb.counts = make([]score.Counts, len(cuts))
	mc := *m
	for _, e := range held {
		d, err := pipeline.Decide(m, e.Doc)
		if err != nil {
			return fmt.Errorf("%s, inner fold %d: %w", sp.name, jb.fold+1, err)
		}
		for t, cut := range cuts {
			mc.Smooth = cut.Smooth
			w, err := r.sc.counts(e, pipeline.Keep(&mc, e.Doc, d, cut.Threshold))
			if err != nil {
				return err
			}
			jb.counts[t] = addCounts(jb.counts[t], w)
		}
	}
	return nil
}

// cuts lists the grid's thresholds and smoothings, every smoothing for
// each threshold in grid order (only Threshold and Smooth are set).
func (r *run) cuts() []Setting {
	var out []Setting
	for _, th := range r.grid.Thresholds {
		for _, sm := range r.grid.Smooth {
			out = append(out, Setting{Threshold: th, Smooth: sm})
		}
	}
	return out
}

// choose sums split s's inner counts per cell and picks the best cell; it
// returns the fold's record and the chosen (feature set, C, gamma).
func (r *run) choose(s int) (FoldChoice, [3]int) {
	sp := r.splits[s]
	fc := FoldChoice{Name: sp.name, Test: sp.test, TrainPages: len(sp.train) + len(r.extra), InnerPages: len(sp.train)}
	sum := map[[4]int]score.Counts{}
	cuts := r.cuts()
	for _, jb := range r.jobs {
		if jb.s != s {
			continue
		}
		for t := range cuts {
			k := [4]int{jb.fs, jb.c, jb.g, t}
			sum[k] = addCounts(sum[k], jb.counts[t])
		}
	}
	var index [][3]int
	for fs, set := range r.grid.Features {
		for c, cv := range r.grid.C {
			for g, gv := range r.grid.Gamma {
				for t, cut := range cuts {
					fc.Cells = append(fc.Cells, Cell{Setting{set.Name, cv, gv, cut.Threshold, cut.Smooth}, sum[[4]int{fs, c, g, t}]})
					index = append(index, [3]int{fs, c, g})
				}
			}
		}
	}
	best := choose(fc.Cells)
	fc.Chosen = fc.Cells[best]
	return fc, index[best]
}

// outer trains split s's model with the chosen cell (its threshold and
// smoothing from set) on all its training pages and the extra pages, and
// classifies its held-out pages into out.
func (r *run) outer(ctx context.Context, s int, cell [3]int, set Setting, out []PageResult) error {
	sp := r.splits[s]
	to := r.settings(cell[0], cell[1], cell[2])
	to.Threshold, to.Smooth = set.Threshold, set.Smooth
	threshold := set.Threshold
	var test []*Example
	for _, i := range sp.test {
		test = append(test, r.ex[i])
	}
	to.NoOther = to.NoOther || allEnglish(loaded(test))
	m, err := Train(ctx, append(append([]*Example(nil), sp.train...), r.extra...), to)
	if err != nil {
		return fmt.Errorf("%s: %w", sp.name, err)
	}
	for _, i := range sp.test {
		e := r.ex[i]
		if e.Doc == nil {
			out[i] = PageResult{Example: e, Fold: sp.name}
			continue
		}
		d, err := pipeline.Decide(m, e.Doc)
		if err != nil {
			return fmt.Errorf("%s: %w", sp.name, err)
		}
		out[i] = PageResult{Example: e, Score: d, Keep: pipeline.Keep(m, e.Doc, d, threshold), Fold: sp.name, Threshold: threshold}
	}
	return nil
}

// choose returns the index of the cell with the highest inner word F, the
// earliest of equals.
func choose(cells []Cell) int {
	best := 0
	for i, c := range cells {
		if c.Inner.F() > cells[best].Inner.F() {
			best = i
		}
	}
	return best
}

func allEnglish(ex []*Example) bool {
	for _, e := range ex {
		if !e.Doc.English {
			return false
		}
	}
	return true
}

func addCounts(a, b score.Counts) score.Counts {
	return score.Counts{Matched: a.Matched + b.Matched, Out: a.Out + b.Out, Gold: a.Gold + b.Gold}
}
