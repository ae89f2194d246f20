package svm

import (
	"context"
	"github.com/fiasco-project/fiasco/internal/shared"
	"math"
	"testing"
)

// The grid shares precomputed kernel matrices across C values and
// folds; that must not change any result compared with plain CV.
func TestGridMatchesPlainCV(t *testing.T) {
	p := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	folds, err := StratifiedFolds(p.Y, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	opt := GridOptions{Log2C: []float64{-1, 3, 7}, Log2G: []float64{-5, -1}, FoldOf: folds, Workers: 2,
		Progress: func(done, total int) {
			calls++
			if total != 6 || done < 1 || done > 6 {
				t.Errorf("progress %d/%d", done, total)
			}
		}}
	res, err := GridSearch(context.Background(), p, DefaultParams(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 6 || calls != 6 {
		t.Fatalf("%d points, %d progress calls", len(res.Points), calls)
	}
	checkPointsCV(t, p, folds, res)
	t.Logf("best log2c %g log2g %g: %v", res.Best.Log2C, res.Best.Log2G, res.Best.Metrics)
}

func TestCrossValidateReproducible(t *testing.T) {
	p := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	a, err := CrossValidate(context.Background(), p, DefaultParams(), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CrossValidate(context.Background(), p, DefaultParams(), 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a.Metrics != b.Metrics {
		t.Fatalf("same seed, different results: %v vs %v", a.Metrics, b.Metrics)
	}
	// LIBSVM's svm-train -v 5 reaches about 83-84% on heart_scale.
	if a.Accuracy < 0.78 || a.Accuracy > 0.9 {
		t.Errorf("CV accuracy %.3f outside the expected 0.78-0.90", a.Accuracy)
	}
	if a.N != p.Len() || a.TP+a.FN != countLabel(p.Y, 1) {
		t.Errorf("metrics counts wrong: %+v", a.Metrics)
	}
}

func countLabel(y []float64, l float64) int {
	n := 0
	for _, v := range y {
		if v == l {
			n++
		}
	}
	return n
}

func TestStratifiedFolds(t *testing.T) {
	y := make([]float64, 103)
	for i := range y {
		if i%4 == 0 {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	f1, err := StratifiedFolds(y, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := StratifiedFolds(y, 5, 1)
	f3, _ := StratifiedFolds(y, 5, 2)
	same, diff := true, false
	for i := range f1 {
		same = same && f1[i] == f2[i]
		diff = diff || f1[i] != f3[i]
	}
	if !same || !diff {
		t.Errorf("folds not reproducible (%v) or seed ignored (%v)", same, diff)
	}
	var pos, all [5]int
	for i, f := range f1 {
		all[f]++
		if y[i] == 1 {
			pos[f]++
		}
	}
	for f := range 5 {
		if all[f] < 20 || all[f] > 21 || pos[f] < 5 || pos[f] > 6 {
			t.Errorf("fold %d: %d rows, %d positive; want 20-21 and 5-6", f, all[f], pos[f])
		}
	}
	if _, err := StratifiedFolds(y, 1, 0); err == nil {
		t.Error("k=1 accepted")
	}
}

// TestGridStopped: a grid whose context ends returns the context's error
// with the pairs whose folds had all finished, each as plain CV scores
// it, and none of the rest.
func TestGridStopped(t *testing.T) {
	p := &Problem{}
	for i := range 120 {
		y, c := 1.0, 0.4
		if i%2 == 0 {
			y, c = -1, -0.4
		}
		a, b := float64(i%7)/10-0.3, float64(i%11)/15-0.33
		p.X = append(p.X, []float64{c + a, c - b, a * b})
		p.Y = append(p.Y, y)
	}
	folds, err := StratifiedFolds(p.Y, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := GridOptions{Log2C: []float64{-1, 1, 3, 5}, Log2G: []float64{-3, -1, 1}, FoldOf: folds, Workers: 1,
		Progress: func(done, total int) {
			if done == 3 {
				cancel()
			}
		}}
	res, err := GridSearch(ctx, p, DefaultParams(), opt)
	if err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if res == nil || len(res.Points) < 3 || len(res.Points) >= 12 {
		t.Fatalf("stopped after 3 pairs: %v", res)
	}
	checkPointsCV(t, p, folds, res)
}

// checkPointsCV checks that every pair of res scores as plain
// cross-validation on folds scores it, and that none beats res.Best.
func checkPointsCV(t *testing.T, p *Problem, folds []int, res *GridResult) {
	t.Helper()
	for _, pt := range res.Points {
		par := DefaultParams()
		par.C, par.Gamma = math.Exp2(pt.Log2C), math.Exp2(pt.Log2G)
		cv, err := CrossValidateFolds(context.Background(), p, par, folds)
		if err != nil {
			t.Fatal(err)
		}
		if cv.Metrics != pt.Metrics {
			t.Errorf("log2c %g log2g %g: grid %v, plain CV %v", pt.Log2C, pt.Log2G, pt.Metrics, cv.Metrics)
		}
		if better(pt, res.Best) {
			t.Errorf("point %+v beats reported best %+v", pt, res.Best)
		}
	}
}

// TestGridGammaZero: a grid's Gamma of 0 (svm-grid's "-log2g null" with
// -g 0) is 1/num_features, as Params' gamma 0 is: the same figures as
// that gamma given outright, labelled with its log2.
func TestGridGammaZero(t *testing.T) {
	p := &Problem{}
	for i := range 40 {
		x := []float64{float64(i%7) / 7, float64(i%5) / 5, float64(i%3) / 3, float64(i%2) - 0.5}
		y := 1.0
		if x[0]+x[1] < 0.8 {
			y = -1
		}
		p.X, p.Y = append(p.X, x), append(p.Y, y)
	}
	folds, err := StratifiedFolds(p.Y, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	run := func(g float64) *GridResult {
		opt := GridOptions{Log2C: []float64{0, 2}, Log2G: []float64{math.Log2(0.25)}, Gamma: []float64{g}, FoldOf: folds}
		if g == 0 {
			opt.Log2G = []float64{0} // a label, replaced
		}
		res, err := GridSearch(context.Background(), p, DefaultParams(), opt)
		if err != nil {
			t.Fatalf("gamma %g: %v", g, err)
		}
		return res
	}
	zero, quarter := run(0), run(0.25) // four columns: 1/num_features = 0.25
	for i := range zero.Points {
		if zero.Points[i].Log2G != -2 || zero.Points[i].Metrics != quarter.Points[i].Metrics {
			t.Errorf("point %d: gamma 0 gives log2g %g, %v; gamma 0.25 gives %v", i, zero.Points[i].Log2G, zero.Points[i].Metrics, quarter.Points[i].Metrics)
		}
	}
}
