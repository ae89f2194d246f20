package train

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// TrainOptions configure Train.
type TrainOptions struct {
	// Params are the SVM's. The zero Params means svm.DefaultParams();
	// set some of them by changing DefaultParams' (a zero Eps or CacheMB
	// is refused, not read as its default).
	Params svm.Params
	// Features names the columns to train on; nil means every text and
	// structure feature, plus the visual ones when the examples were
	// rendered (not those read from the computed style: features.IsStyle).
	Features []string
	// Keywords is the number of clean and of dirty keywords kept (default
	// 100); KeywordMinCount the least frequency of a keyword (default 5).
	Keywords, KeywordMinCount int
	// NoOther skips the language-independent classifier for non-English
	// pages.
	NoOther bool
	// Threshold is stored in the model as its decision threshold.
	Threshold float64
	// MaxBlocks > 0 trains on a seeded random sample of at most that many
	// blocks (the SVM's cost grows faster than linearly with them).
	MaxBlocks int
	Seed      uint64
	// Stack > 1 adds a second stage (classify.Model.Stack) trained on
	// out-of-fold first-stage decision values: the pages are dealt into
	// Stack folds (seeded), a first stage trained on the other folds
	// decides each fold's pages, and the second stage learns from those
	// values (classify.StackRows) and the gold labels. StackParams are its
	// SVM's (zero: C 1, gamma 0.1).
	Stack       int
	StackParams svm.Params
	// StackBySite deals the second stage's folds by site (Example.Site)
	// instead of by page; NestedCV, LeaveOneSetOut and CrossValidate set it
	// with their BySite.
	StackBySite bool
	// Text, when not nil, trains with a visual model the text model that
	// goes with it (classify.Model.Text: what decides the blocks the
	// rendering could not show and rescues prose; package pipeline) on
	// the same examples with these options (TextOptions gives those of the
	// embedded text model). Without it the embedded text model of the
	// policy serves, which cross-validation must not use: it was trained
	// on the pages being scored.
	Text *TrainOptions
	// Rescue turns a visual model's prose rescue on
	// (classify.Model.Rescue).
	Rescue bool
	// Blend is a visual model's weight of its text model
	// (classify.Model.Blend).
	Blend float64
	// Floor turns the prose floor on (classify.Model.Floor).
	Floor bool
	// FloorShare is the floor's share (classify.Model.FloorShare; 0: the
	// default).
	FloorShare float64
	// Smooth is the model's switch cost of sequence smoothing
	// (classify.Model.Smooth, classify.KeepSmooth); 0: none.
	Smooth float64
	// Policy is the annotation policy the examples' gold labels were
	// mapped to, stored in the model (classify.Info.Policy): it decides
	// which rules drop a block whatever its value (pipeline.Keep), in
	// cross-validation as in use. "" is the corpus policy.
	Policy string
	// MaxSV > 0 replaces each SVM with more support vectors than that by
	// a reduced set of at most MaxSV of them (svm.Reduce with Medoids:
	// the support vectors nearest to k-means centres, their coefficients
	// fitted by least squares to the full SVM's decision values on up to
	// 5,000 of the training blocks and the support vectors). A block's
	// decision costs in proportion to the number of vectors. RBF kernels
	// only. Text (see TextOptions) keeps the embedded text model's.
	MaxSV int
}

// TextOptions returns the options that train a visual model's text
// model (TrainOptions.Text) as the embedded text model of the policy was
// trained: its features, C, gamma, threshold, smoothing (which the
// visual model's cut does not use: pipeline.Keep smooths with the model
// it is given) and reduced set (MaxSV),
// the rest of base (the SVM's other parameters, keywords, sample, seed).
func TextOptions(policy string, base TrainOptions) (*TrainOptions, error) {
	tm, err := classify.DefaultFor(policy, false)
	if err != nil {
		return nil, err
	}
	o := base
	o.Text, o.Stack, o.Rescue, o.Blend = nil, 0, false, 0
	o.Smooth, o.FloorShare = tm.Smooth, tm.FloorShare
	if o.Params == (svm.Params{}) {
		o.Params = svm.DefaultParams()
	}
	o.Features = slices.Clone(tm.English.FeatureNames)
	o.Params.C, o.Params.Gamma = tm.Info.C, tm.Info.Gamma
	o.Threshold = tm.Threshold
	o.MaxSV = tm.Info.MaxSV
	return &o, nil
}

func (o *TrainOptions) defaults(ex []*Example) {
	if o.Keywords <= 0 {
		o.Keywords = 100
	}
	if o.KeywordMinCount <= 0 {
		o.KeywordMinCount = 5
	}
	if o.Features == nil {
		g := features.Linguistic | features.Keyword | features.Structural
		if len(ex) > 0 && ex[0].Doc.Visual != nil {
			g |= features.Visual
		}
		// The style readings only when asked for (features.IsStyle).
		o.Features = slices.DeleteFunc(features.Names(g, true), features.IsStyle)
	}
	if o.Params == (svm.Params{}) {
		o.Params = svm.DefaultParams()
	}
}

// Train learns a model from the examples.
func Train(ctx context.Context, ex []*Example, opt TrainOptions) (*classify.Model, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("train: %w", err) // the solver looks at ctx only now and then
	}
	ex = loaded(ex)
	opt.defaults(ex)
	if len(ex) == 0 {
		return nil, errors.New("train: no training pages")
	}
	if !(opt.Blend >= 0 && opt.Blend <= 1) {
		return nil, fmt.Errorf("train: blend %v: want a weight from 0 to 1", opt.Blend)
	}
	if err := classify.CheckSmooth(opt.Smooth); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if err := classify.CheckFloorShare(opt.FloorShare); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if opt.MaxSV < 0 || opt.MaxSV > 0 && opt.Params.Kernel != svm.RBF {
		return nil, fmt.Errorf("train: a reduced set of %d vectors needs an RBF kernel and a positive size", opt.MaxSV)
	}
	visual := ex[0].Doc.Visual != nil
	for _, e := range ex {
		if (e.Doc.Visual != nil) != visual && len(e.Doc.Blocks) > 0 {
			return nil, errors.New("train: training pages mix rendered and unrendered documents")
		}
	}
	if hasVisual(opt.Features) && !visual {
		return nil, errors.New("train: visual features need rendered pages (a Visualizer)")
	}
	kw, err := learnKeywords(ex, opt)
	if err != nil {
		return nil, err
	}
	m := &classify.Model{Visual: hasVisual(opt.Features), Threshold: opt.Threshold, Keywords: kw}
	rows, y, w := blockRows(ex, kw, nil)
	rows, y, w = sample(rows, y, w, opt.MaxBlocks, opt.Seed)
	m.English, err = trainSVM(ctx, rows, y, w, opt.Features, opt.Params, opt.reduce())
	if err != nil {
		return nil, err
	}
	if !opt.NoOther {
		// No language-independent feature among them (--features
		// keyword): nothing to train a second SVM on, and the English
		// one decides every page.
		names := features.LanguageIndependent(opt.Features)
		if len(names) > 0 && len(names) < len(opt.Features) {
			if m.Other, err = trainSVM(ctx, rows, y, w, names, opt.Params, opt.reduce()); err != nil {
				return nil, err
			}
		}
	}
	clean := 0
	for _, v := range y {
		if v > 0 {
			clean++
		}
	}
	m.Info = classify.Info{Pages: len(ex), Blocks: len(y), Clean: clean, C: opt.Params.C, Gamma: m.English.Gamma, MaxSV: opt.MaxSV, Policy: opt.Policy}
	m.Rescue, m.Floor, m.FloorShare, m.Smooth = opt.Rescue, opt.Floor, opt.FloorShare, opt.Smooth
	if m.Visual {
		m.Blend = opt.Blend
	}
	if m.Visual && opt.Text != nil {
		to := *opt.Text
		to.Text = nil
		to.NoOther = to.NoOther || opt.NoOther // e.g. a fold whose test pages are all English
		if m.Text, err = Train(ctx, ex, to); err != nil {
			return nil, fmt.Errorf("train: the text model beside the visual one: %w", err)
		}
	}
	if opt.Stack > 1 {
		m.Info.Stack = opt.Stack
		if m.Stack, err = trainStack(ctx, ex, opt); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// trainStack trains the second stage on out-of-fold first-stage values
// (see TrainOptions.Stack).
func trainStack(ctx context.Context, ex []*Example, opt TrainOptions) (*svm.Model, error) {
	k := opt.Stack
	if k > len(ex) {
		return nil, fmt.Errorf("train: second stage: %d folds for %d pages (--stack needs at least as many training pages as folds)", k, len(ex))
	}
	if n := Sites(ex); opt.StackBySite && k > n {
		return nil, fmt.Errorf("train: second stage: %d folds for %s", k, plural(n, "site"))
	}
	fold := siteFolds(ex, k, opt.Seed^0x737461636b, opt.StackBySite)
	first := opt
	first.Stack, first.Text = 0, nil // the first stages need no text model of their own
	var rows [][]float64
	var y, w []float64
	for f := range k {
		var tr, te []*Example
		for i, e := range ex {
			if fold[i] == f {
				te = append(te, e)
			} else {
				tr = append(tr, e)
			}
		}
		m, err := Train(ctx, tr, first)
		if err != nil {
			return nil, fmt.Errorf("train: second stage, fold %d: %w", f+1, err)
		}
		for _, e := range te {
			// The first stage's own values, as Model.Decide hands them to
			// the second stage (not pipeline.Decide's, whose rows below a
			// capture limit come from another model).
			d, err := m.Decide(e.Doc.Table, e.Doc.English)
			if err != nil {
				return nil, fmt.Errorf("train: second stage: %s/%s: %w", e.Set, e.ID, err)
			}
			rows = append(rows, classify.StackRows(d, e.Doc.Table)...)
			y = append(y, e.Labels()...)
			for range d {
				w = append(w, e.weight())
			}
		}
	}
	rows, y, w = sample(rows, y, w, opt.MaxBlocks, opt.Seed+1)
	p := opt.StackParams
	if p == (svm.Params{}) {
		p = svm.DefaultParams()
		p.C, p.Gamma = 1, 0.1
	}
	return fitSVM(ctx, rows, y, w, classify.StackFeatures, p, opt.reduce())
}

// loaded returns the examples that have a document (see KeepFailed).
func loaded(ex []*Example) []*Example {
	out := make([]*Example, 0, len(ex))
	for _, e := range ex {
		if e.Doc != nil {
			out = append(out, e)
		}
	}
	return out
}

func hasVisual(names []string) bool {
	for _, n := range names {
		if len(n) > 4 && n[:4] == "vis_" {
			return true
		}
	}
	return false
}

// LearnKeywords ranks k clean and k dirty keywords between the clean and
// dirty blocks of the English examples (as Train does).
func LearnKeywords(ex []*Example, k int) (*features.Keywords, error) {
	ex = loaded(ex)
	opt := TrainOptions{Keywords: k}
	opt.defaults(ex)
	return learnKeywords(ex, opt)
}

// learnKeywords ranks keywords between the clean and dirty blocks of the
// English examples. A training set without both among its English pages
// (pages in German, say) gets no keywords: the keyword columns are 0 on
// every block and the other columns decide (Model.Keywords is then
// empty, which the caller may report). Labels of one class over all the
// pages are an error: there is nothing to tell boilerplate by.
func learnKeywords(ex []*Example, opt TrainOptions) (*features.Keywords, error) {
	var clean, dirty [][]string
	var anyClean, anyDirty bool
	for _, e := range ex {
		for i, y := range e.Labels() {
			anyClean = anyClean || y > 0
			anyDirty = anyDirty || y <= 0
			switch {
			case !e.Doc.English:
			case y > 0:
				clean = append(clean, e.Doc.Table.Tokens[i])
			default:
				dirty = append(dirty, e.Doc.Table.Tokens[i])
			}
		}
	}
	switch {
	case !anyClean && !anyDirty:
		return nil, fmt.Errorf("train: no block among the %d training pages", len(ex))
	case !anyClean:
		return nil, fmt.Errorf("train: no block of the %d training pages is labelled clean: does the gold hold their text?", len(ex))
	case !anyDirty:
		return nil, fmt.Errorf("train: every block of the %d training pages is labelled clean: nothing to tell boilerplate by", len(ex))
	case len(clean) == 0 || len(dirty) == 0:
		return &features.Keywords{Clean: map[string]float64{}, Dirty: map[string]float64{}}, nil
	}
	kw, err := features.LearnKeywords(clean, dirty, opt.Keywords, opt.KeywordMinCount)
	if err != nil {
		return nil, fmt.Errorf("train: keywords: %w", err)
	}
	return kw, nil
}

// blockRows returns the full-schema rows, labels and weights
// (Example.Weight) of all blocks of the examples (of those with keep[i]
// true when keep is not nil).
func blockRows(ex []*Example, kw *features.Keywords, keep []bool) ([][]float64, []float64, []float64) {
	var rows [][]float64
	var y, w []float64
	for i, e := range ex {
		if keep != nil && !keep[i] {
			continue
		}
		r := e.Doc.Table.Rows(kw)
		rows = append(rows, r...)
		y = append(y, e.Labels()...)
		for range r {
			w = append(w, e.weight())
		}
	}
	return rows, y, w
}

func sample(rows [][]float64, y, w []float64, max int, seed uint64) ([][]float64, []float64, []float64) {
	if max <= 0 || len(rows) <= max {
		return rows, y, w
	}
	idx := sampleIndex(len(rows), max, seed)
	return pick(rows, idx), pick(y, idx), pick(w, idx)
}

// pick returns the elements of s at the indices idx (nil for a nil s).
func pick[T any](s []T, idx []int) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = s[i]
	}
	return out
}

// sampleIndex returns max of the indices 0..n-1, chosen by a seeded
// shuffle and sorted.
func sampleIndex(n, max int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 0x6669617363))
	idx := r.Perm(n)[:max]
	sort.Ints(idx)
	return idx
}

// trainSVM scales the named columns of rows to [-1, 1] and trains an SVM
// that carries its scaler and feature names.
func trainSVM(ctx context.Context, rows [][]float64, y, w []float64, names []string, p svm.Params, red svm.ReduceOptions) (*svm.Model, error) {
	cols, err := features.Select(names)
	if err != nil {
		return nil, err
	}
	return fitSVM(ctx, features.Project(rows, cols), y, w, names, p, red)
}

// reduce is the reduced set the options ask for (Size 0: none).
func (o *TrainOptions) reduce() svm.ReduceOptions {
	return svm.ReduceOptions{Size: o.MaxSV, Medoids: true, Seed: o.Seed ^ 0x726564756365}
}

// fitSVM scales X's columns (named by names) to [-1, 1] and trains an
// SVM that carries its scaler and feature names, reduced to red.Size
// vectors when that is positive (see svm.Reduce).
func fitSVM(ctx context.Context, X [][]float64, y, w []float64, names []string, p svm.Params, red svm.ReduceOptions) (*svm.Model, error) {
	sc, err := svm.FitScaler(X, -1, 1)
	if err != nil {
		return nil, fmt.Errorf("train: scaling: %w", err)
	}
	// A block beyond the training range (a whole article in one element,
	// far longer and larger than any training block) is read as the
	// range's end, not left to the bias alone (svm.Scaler.Clip).
	sc.Clip = true
	prob := &svm.Problem{X: X, Y: y, W: w, FeatureNames: names}
	scaled, err := sc.TransformProblem(prob)
	if err != nil {
		return nil, err
	}
	m, err := svm.Train(ctx, scaled, p)
	if err != nil {
		return nil, fmt.Errorf("train: training: %w", err)
	}
	m.Scaler = sc
	m.FeatureNames = names
	if red.Size > 0 { // svm.Reduce returns m itself when it has no more vectors
		if m, err = svm.Reduce(ctx, m, scaled.X, red); err != nil {
			return nil, fmt.Errorf("train: reduced set: %w", err)
		}
	}
	return m, nil
}
