package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
)

// PageResult is the classification of one held-out page.
type PageResult struct {
	Example *Example
	Score   []float64
	Keep    []bool
	// Fold names the fold whose model classified the page ("fold 3", or
	// the held-out data set of LeaveOneSetOut); empty for Classify.
	Fold string
	// Threshold is the decision threshold Keep was cut at (the model's
	// smoothing and prose floor may keep blocks below it and drop blocks
	// above it); set with Score.
	Threshold float64
}

// CVOptions configure CrossValidate.
type CVOptions struct {
	Folds int    // default 10
	Seed  uint64 // shuffles pages into folds
	// BySite keeps the pages of a site in one fold (see
	// NestedOptions.BySite).
	BySite bool
	Train  TrainOptions
	// Each is called after every fold with the number of folds done.
	Each func(done, total int)
}

// Folds assigns each of n pages to one of k folds: a seeded shuffle dealt
// round-robin, so fold sizes differ by at most one and the assignment is
// the same run to run.
func Folds(n, k int, seed uint64) []int {
	k = max(k, 1) // no folds asked: one
	r := rand.New(rand.NewPCG(seed, 0x666f6c6473))
	perm := r.Perm(n)
	fold := make([]int, n)
	for i, p := range perm {
		fold[p] = i % k
	}
	return fold
}

// CrossValidate trains on all folds but one and classifies the pages of
// the held-out fold, for every fold: pages are never split across folds, so
// every page is classified by a model that has not seen it. Keywords and
// scaling are learned inside each fold.
func CrossValidate(ctx context.Context, ex []*Example, opt CVOptions) ([]PageResult, error) {
	k := opt.Folds
	if k <= 0 {
		k = 10
	}
	if k > len(ex) {
		return nil, fmt.Errorf("train: %d folds for %s: each fold needs a page at least (fewer folds, or more pages)", k, plural(len(ex), "page"))
	}
	if n := Sites(ex); opt.BySite && k > n {
		return nil, fmt.Errorf("train: %d folds for %s: each fold needs a site at least (fewer folds, or --folds-by page)", k, plural(n, "site"))
	}
	fold := siteFolds(ex, k, opt.Seed, opt.BySite)
	opt.Train.StackBySite = opt.Train.StackBySite || opt.BySite
	out := make([]PageResult, len(ex))
	for f := 0; f < k; f++ {
		var train []*Example
		for i, e := range ex {
			if fold[i] != f {
				train = append(train, e)
			}
		}
		m, err := Train(ctx, train, opt.Train)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f+1, err)
		}
		name := fmt.Sprintf("fold %d", f+1)
		for i, e := range ex {
			if fold[i] != f {
				continue
			}
			if e.Doc == nil {
				out[i] = PageResult{Example: e, Fold: name}
				continue
			}
			s, err := pipeline.Decide(m, e.Doc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out[i] = PageResult{Example: e, Score: s, Keep: pipeline.Keep(m, e.Doc, s, m.Threshold), Fold: name, Threshold: m.Threshold}
		}
		if opt.Each != nil {
			opt.Each(f+1, k)
		}
	}
	return out, nil
}

// Classify applies a trained model to the examples (pages it should not
// have been trained on). A page the model cannot classify gets a result
// without Keep, which Evaluate counts as empty output, and its error is
// passed to onError.
func Classify(m *classify.Model, ex []*Example, threshold float64, onError func(*Example, error)) []PageResult {
	out := make([]PageResult, len(ex))
	for i, e := range ex {
		out[i].Example = e
		if e.Doc == nil {
			continue
		}
		s, err := pipeline.Decide(m, e.Doc)
		if err != nil {
			if onError != nil {
				onError(e, err)
			}
			continue
		}
		out[i].Score, out[i].Keep, out[i].Threshold = s, pipeline.Keep(m, e.Doc, s, threshold), threshold
	}
	return out
}
