package baseline

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fiasco-project/fiasco/svm"
)

// A problem a tree solves exactly (axis-aligned boundary) must score
// near-perfectly, and results must repeat for the same seed.
func TestBaselinesOnSeparableData(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := &svm.Problem{}
	for i := 0; i < 300; i++ {
		x := []float64{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
		y := -1.0
		if x[1] > 0.5 {
			y = 1
		}
		p.X = append(p.X, x)
		p.Y = append(p.Y, y)
	}
	folds, err := svm.StratifiedFolds(p.Y, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dt, err := CrossValidate(ctx, p, folds, Tree{MaxDepth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if dt.Accuracy < 0.97 {
		t.Errorf("tree accuracy %.3f on a one-threshold problem", dt.Accuracy)
	}
	f := Forest{Trees: 15, Features: 4, MaxDepth: 4, Seed: 9}
	rf1, err := CrossValidate(ctx, p, folds, f)
	if err != nil {
		t.Fatal(err)
	}
	rf2, _ := CrossValidate(ctx, p, folds, f)
	if rf1 != rf2 {
		t.Errorf("forest not reproducible: %v vs %v", rf1, rf2)
	}
	if rf1.Accuracy < 0.95 {
		t.Errorf("forest accuracy %.3f", rf1.Accuracy)
	}
	t.Logf("tree: %v; forest: %v", dt, rf1)
	if _, err := CrossValidate(ctx, p, folds[:10], Tree{}); err == nil {
		t.Error("mismatched folds accepted")
	}
}
