package train

import (
	"context"
	"fmt"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// Folding says how Grid deals pages into folds: K folds, shuffled by
// Seed, by page or, with BySite, by site (see NestedOptions.BySite).
type Folding struct {
	K      int
	Seed   uint64
	BySite bool
}

// Grid searches C and gamma by cross-validation over the blocks of the
// examples, with folds grouped by page (a page's blocks are all in one
// fold, so the search does not reward memorising a page) or by site.
// Keywords and scaling are learned once on all examples, which makes the
// search cheap and its accuracies slightly optimistic; CrossValidate gives
// the honest figures for the pair chosen. opt.FoldOf is filled in here.
func Grid(ctx context.Context, ex []*Example, to TrainOptions, f Folding, opt svm.GridOptions) (*svm.GridResult, error) {
	ex = loaded(ex)
	to.defaults(ex)
	if f.K <= 1 {
		return nil, fmt.Errorf("train: %d folds: cross-validation needs 2 at least", f.K)
	}
	if f.K > len(ex) {
		return nil, fmt.Errorf("train: %d folds for %s: each fold needs a page at least (fewer folds, or more pages)", f.K, plural(len(ex), "page"))
	}
	if n := Sites(ex); f.BySite && f.K > n {
		return nil, fmt.Errorf("train: %d folds for %s: each fold needs a site at least (fewer folds, or --folds-by page)", f.K, plural(n, "site"))
	}
	kw, err := learnKeywords(ex, to)
	if err != nil {
		return nil, err
	}
	pageFold := siteFolds(ex, f.K, f.Seed, f.BySite)
	rows, y, w := blockRows(ex, kw, nil)
	var foldOf []int
	for i, e := range ex {
		for range e.Share { // a label per block
			foldOf = append(foldOf, pageFold[i])
		}
	}
	if to.MaxBlocks > 0 && len(rows) > to.MaxBlocks {
		idx := sampleIndex(len(rows), to.MaxBlocks, to.Seed) // as sample draws
		rows, y, w, foldOf = pick(rows, idx), pick(y, idx), pick(w, idx), pick(foldOf, idx)
	}
	cols, err := features.Select(to.Features)
	if err != nil {
		return nil, err
	}
	X := features.Project(rows, cols)
	sc, err := svm.FitScaler(X, -1, 1)
	if err != nil {
		return nil, err
	}
	prob, err := sc.TransformProblem(&svm.Problem{X: X, Y: y, W: w, FeatureNames: to.Features})
	if err != nil {
		return nil, err
	}
	opt.FoldOf = foldOf
	return svm.GridSearch(ctx, prob, to.Params, opt)
}
