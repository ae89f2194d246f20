package train

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Train with Stack gives a model whose second stage reads StackRows,
// trained again from the same data and seed to the same decisions, and
// whose cross-validated node accuracy on synthetic pages is no worse
// than the first stage's alone.
func TestTrainStack(t *testing.T) {
	ex := synthPages(t, "s", 24, 5)
	opt := TrainOptions{Stack: 3, Seed: 2}
	m, err := Train(context.Background(), ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if m.Stack == nil || m.Info.Stack != 3 || !slices.Equal(m.Stack.FeatureNames, classify.StackFeatures) {
		t.Fatalf("second stage %v, Info.Stack %d", m.Stack != nil, m.Info.Stack)
	}
	m2, err := Train(context.Background(), ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex[:5] {
		a, err1 := pipeline.Decide(m, e.Doc)
		b, err2 := pipeline.Decide(m2, e.Doc)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("%s: two trainings differ (%v, %v)", e.ID, err1, err2)
		}
	}
	acc := func(o TrainOptions) float64 {
		res, err := CrossValidate(context.Background(), ex, CVOptions{Folds: 4, Seed: 1, Train: o})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Evaluate(res)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Nodes.Accuracy()
	}
	plain, stacked := acc(TrainOptions{Seed: 2}), acc(opt)
	t.Logf("node accuracy: first stage %.4f, stacked %.4f", plain, stacked)
	if stacked < plain-0.01 {
		t.Errorf("stacked node accuracy %.4f below the first stage's %.4f", stacked, plain)
	}
	if _, err := Train(context.Background(), ex[:2], opt); err == nil || !strings.Contains(err.Error(), "3 folds for 2 pages") {
		t.Errorf("3 folds over 2 pages: %v", err)
	}
}
