package train

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/internal/shared"
	"github.com/fiasco-project/fiasco/score"
)

func TestChoose(t *testing.T) {
	c := func(m, out, gold int) Cell { return Cell{Inner: score.Counts{Matched: m, Out: out, Gold: gold}} }
	cells := []Cell{
		c(50, 100, 100), // F 0.5
		c(80, 100, 100), // F 0.8, first of two equals
		c(70, 80, 100),  // F 0.7778
		c(80, 100, 100), // F 0.8, later
		c(0, 0, 100),    // F 0
	}
	if got := choose(cells); got != 1 {
		t.Errorf("choose = %d, want 1 (highest F, earliest of equals)", got)
	}
	if got := choose(cells[4:]); got != 0 {
		t.Errorf("choose of one cell = %d", got)
	}
}

// goldWords is the number of words of e's reference as the scorer counts
// them without tags.
func goldWords(t *testing.T, e *Example) int {
	all := make([]bool, len(e.Doc.Blocks))
	for i := range all {
		all[i] = true
	}
	w, err := wordCounts(e, all, e.Gold.Reference())
	if err != nil {
		t.Fatal(err)
	}
	return w.Gold
}

// TestNestedCVSynthetic checks the bookkeeping of nested cross-validation
// on synthetic pages: the outer folds, that every training page is scored
// exactly once per candidate in the inner folds, that an absurd threshold
// is never chosen, that the extra pages are trained on and never
// reported, and that the outcome does not depend on the number of workers.
func TestNestedCVSynthetic(t *testing.T) {
	ctx := context.Background()
	ex := synthPages(t, "a", 12, 1)
	extra := synthPages(t, "x", 4, 2)
	var last, total int
	opt := NestedOptions{OuterFolds: 3, InnerFolds: 2, Seed: 5,
		Grid:  NestedGrid{C: []float64{1, 4}, Gamma: []float64{0.1}, Thresholds: []float64{-100, 0, 100}},
		Train: TrainOptions{Keywords: 10, KeywordMinCount: 2}, Extra: extra, Workers: 2,
		Progress: func(done, tot int) { last, total = done, tot }}
	res, err := NestedCV(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3*2*2 + 3; last != want || total != want {
		t.Errorf("progress %d of %d, want %d of %d", last, total, want, want)
	}
	fold := Folds(len(ex), 3, 5)
	var tested []int
	for f, fc := range res.Folds {
		for _, i := range fc.Test {
			if fold[i] != f {
				t.Errorf("%s tests page %d of outer fold %d", fc.Name, i, fold[i]+1)
			}
		}
		tested = append(tested, fc.Test...)
		if fc.TrainPages != len(ex)-len(fc.Test)+len(extra) || fc.InnerPages != len(ex)-len(fc.Test) {
			t.Errorf("%s: %d training pages, %d inner", fc.Name, fc.TrainPages, fc.InnerPages)
		}
		if len(fc.Cells) != 6 {
			t.Fatalf("%s: %d cells, want 6", fc.Name, len(fc.Cells))
		}
		want := 0
		for i, e := range ex {
			if fold[i] != f {
				want += goldWords(t, e)
			}
		}
		for _, c := range fc.Cells {
			if c.Inner.Gold != want {
				t.Errorf("%s, %+v: inner gold words %d, want %d (each training page once)", fc.Name, c.Setting, c.Inner.Gold, want)
			}
		}
		if fc.Chosen.Threshold != 0 {
			t.Errorf("%s chose threshold %g (inner F %.3f); cells %+v", fc.Name, fc.Chosen.Threshold, fc.Chosen.Inner.F(), fc.Cells)
		}
		if fc.Chosen != fc.Cells[choose(fc.Cells)] {
			t.Errorf("%s: chosen %+v is not the best cell", fc.Name, fc.Chosen)
		}
	}
	slices.Sort(tested)
	for i, v := range tested {
		if v != i {
			t.Fatalf("tested pages %v, want each of 0..%d once", tested, len(ex)-1)
		}
	}
	for i, r := range res.Results {
		if r.Example != ex[i] || len(r.Keep) != len(ex[i].Doc.Blocks) {
			t.Fatalf("result %d is not a classification of example %d", i, i)
		}
	}

	rep, err := Evaluate(res.Results)
	if err != nil {
		t.Fatal(err)
	}
	m, b := rep.Model.MicroNoTags, rep.Baseline.MicroNoTags
	if m.F <= b.F {
		t.Errorf("nested CV word F %.3f does not beat keeping everything (%.3f)", m.F, b.F)
	}
	sum, err := Bootstrap(res.Results, 500, 1)
	if err != nil {
		t.Fatal(err)
	}
	if sum.WordF.Value != m.F || sum.WordP.Value != m.P || sum.WordR.Value != m.R || sum.NodeAccuracy.Value != rep.Nodes.Accuracy() {
		t.Errorf("bootstrap values %+v differ from Evaluate's %+v, node accuracy %.4f", sum, m, rep.Nodes.Accuracy())
	}

	opt.Workers, opt.Progress = 1, nil
	again, err := NestedCV(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Folds, res.Folds) {
		t.Error("the choices differ between 1 and 2 workers")
	}
	for i := range res.Results {
		if !slices.Equal(again.Results[i].Score, res.Results[i].Score) {
			t.Fatalf("page %d: decision values differ between 1 and 2 workers", i)
		}
	}

	opt.Extra = ex[:1]
	if _, err := NestedCV(ctx, ex, opt); err == nil {
		t.Error("no error for an extra page that is also an example")
	}
	opt.Extra, opt.InnerFolds = nil, 9
	if _, err := NestedCV(ctx, ex, opt); err == nil {
		t.Error("no error for 9 inner folds over 8 training pages")
	}
}

func TestLeaveOneSetOut(t *testing.T) {
	var ex []*Example
	for i, s := range []string{"a", "b", "c"} {
		ex = append(ex, synthPages(t, s, 5, uint64(i+1))...)
	}
	res, err := LeaveOneSetOut(context.Background(), ex, NestedOptions{InnerFolds: 2, Seed: 1,
		Grid:  NestedGrid{C: []float64{2}, Gamma: []float64{0.1}, Thresholds: []float64{-100, 0}},
		Train: TrainOptions{Keywords: 10, KeywordMinCount: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Folds) != 3 {
		t.Fatalf("%d folds, want 3", len(res.Folds))
	}
	for f, fc := range res.Folds {
		if fc.Name != ex[5*f].Set || !slices.Equal(fc.Test, []int{5 * f, 5*f + 1, 5*f + 2, 5*f + 3, 5*f + 4}) || fc.TrainPages != 10 {
			t.Errorf("fold %d: %s tests %v, trains on %d pages", f, fc.Name, fc.Test, fc.TrainPages)
		}
		for _, r := range res.FoldResults(f) {
			if r.Example.Set != fc.Name || r.Keep == nil {
				t.Errorf("%s holds a result of %s", fc.Name, r.Example.Set)
			}
		}
	}
	if _, err := LeaveOneSetOut(context.Background(), ex[:5], NestedOptions{}); err == nil {
		t.Error("no error for one data set")
	}
}

// TestNestedCVCleanEval runs a small nested cross-validation on CleanEval
// dev pages: the chosen models must beat keeping everything.
func TestNestedCVCleanEval(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := shared.Path(t, "cleaneval-en-dev")
	ctx := context.Background()
	ex, err := LoadData(ctx, []string{dir}, DataOptions{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	text := features.Names(features.Linguistic|features.Keyword|features.Structural, true)
	res, err := NestedCV(ctx, ex, NestedOptions{OuterFolds: 2, InnerFolds: 2, Seed: 1,
		Grid: NestedGrid{Features: []FeatureSet{{"text", text}}, C: []float64{4}, Gamma: []float64{0.06}, Thresholds: []float64{-0.5, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Bootstrap(res.Results, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(res.Results)
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range res.Folds {
		t.Logf("%s: chose %+v, inner word F %.4f", fc.Name, fc.Chosen.Setting, fc.Chosen.Inner.F())
	}
	t.Logf("%v", sum)
	if b := rep.Baseline.MicroNoTags.F; sum.WordF.Value <= b {
		t.Errorf("word F %.3f does not beat keeping everything (%.3f)", sum.WordF.Value, b)
	}
	if !(sum.WordF.Lo <= sum.WordF.Value && sum.WordF.Value <= sum.WordF.Hi) {
		t.Errorf("word F %.4f outside its interval [%.4f, %.4f]", sum.WordF.Value, sum.WordF.Lo, sum.WordF.Hi)
	}
}

// TestNestedSmooth: the smoothings of the grid are cells of their own,
// cut from the same inner decision values (the cells without smoothing
// are those of a grid without it), each outer fold keeps what its chosen
// threshold and smoothing keep, and a switch cost out of range is refused.
func TestNestedSmooth(t *testing.T) {
	ctx := context.Background()
	ex := synthPages(t, "a", 12, 1)
	grid := NestedGrid{C: []float64{1}, Gamma: []float64{0.1}, Thresholds: []float64{-0.25, 0}}
	opt := NestedOptions{OuterFolds: 3, InnerFolds: 2, Seed: 5, Grid: grid,
		Train: TrainOptions{Keywords: 10, KeywordMinCount: 2}}
	plain, err := NestedCV(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Grid.Smooth = []float64{0, 0.25, 1}
	res, err := NestedCV(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	moved := false
	for f, fc := range res.Folds {
		if len(fc.Cells) != 6 {
			t.Fatalf("%s: %d cells, want 2 thresholds times 3 smoothings", fc.Name, len(fc.Cells))
		}
		for i, c := range fc.Cells {
			want := Setting{Features: "default", C: 1, Gamma: 0.1, Threshold: grid.Thresholds[i/3], Smooth: opt.Grid.Smooth[i%3]}
			if c.Setting != want {
				t.Errorf("%s: cell %d is %+v, want %+v", fc.Name, i, c.Setting, want)
			}
			if c.Smooth == 0 && c.Inner != plain.Folds[f].Cells[i/3].Inner {
				t.Errorf("%s: %+v scores %+v, without smoothing in the grid %+v", fc.Name, c.Setting, c.Inner, plain.Folds[f].Cells[i/3].Inner)
			}
			moved = moved || c.Smooth > 0 && c.Inner != fc.Cells[i/3*3].Inner
		}
		for _, i := range fc.Test {
			r := res.Results[i]
			if want := classify.KeepSmooth(r.Score, fc.Chosen.Threshold, fc.Chosen.Smooth); !slices.Equal(r.Keep, want) {
				t.Errorf("%s, page %d: kept %v, want %v (threshold %g, smoothing %g)", fc.Name, i, r.Keep, want, fc.Chosen.Threshold, fc.Chosen.Smooth)
			}
		}
	}
	if !moved {
		t.Error("no smoothing changed any inner figure: the grid's smoothings are not applied")
	}
	opt.Grid.Smooth = []float64{0, classify.MaxSmooth + 1}
	if _, err := NestedCV(ctx, ex, opt); err == nil {
		t.Error("no error for a switch cost above MaxSmooth")
	}
}
