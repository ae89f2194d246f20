package train

import (
	"context"
	"testing"
)

// TestTrainWeights: pages that all weigh w train the model that C times w
// trains (weights change C, not the rows, the scaler or the keywords);
// svm.TestRowWeights checks that weight k is k copies.
func TestTrainWeights(t *testing.T) {
	ctx := context.Background()
	ex := synthPages(t, "a", 8, 3)
	opt := TrainOptions{Seed: 1, NoOther: true}
	opt.defaults(ex)
	opt.Params.C, opt.Params.Gamma = 0.1, 0.06 // small: alphas at their bound, where C matters

	half := make([]*Example, len(ex))
	for i, e := range ex {
		c := *e
		c.Weight = 0.5
		half[i] = &c
	}
	mw, err := Train(ctx, half, opt)
	if err != nil {
		t.Fatal(err)
	}
	oc := opt
	oc.Params.C = 0.05
	mc, err := Train(ctx, ex, oc)
	if err != nil {
		t.Fatal(err)
	}
	if mc.English.NBSV == 0 {
		t.Fatal("no alpha at its bound: C does not matter here, the test would show nothing")
	}
	if mw.English.Obj != mc.English.Obj || mw.English.Rho != mc.English.Rho || len(mw.English.SV) != len(mc.English.SV) {
		t.Errorf("weight 0.5: obj %g rho %g %d SVs; C/2: obj %g rho %g %d SVs",
			mw.English.Obj, mw.English.Rho, len(mw.English.SV), mc.English.Obj, mc.English.Rho, len(mc.English.SV))
	}

	// Half the pages at 0.5, half at 1: a model between the two.
	mixed := append(append([]*Example(nil), ex[:4]...), half[4:]...)
	mm, err := Train(ctx, mixed, opt)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := Train(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !(mm.English.Obj > m1.English.Obj && mm.English.Obj < mc.English.Obj) { // the dual objective falls as C grows
		t.Errorf("half the pages at 0.5: obj %g, want between all at 0.5 (%g) and all at 1 (%g)", mm.English.Obj, mc.English.Obj, m1.English.Obj)
	}
}

// TestTrainEnglishOnlyFeatures: features none of which is language
// independent (the keyword group) train the English SVM alone, which then
// decides every page; with one that is, the second SVM is trained too.
func TestTrainEnglishOnlyFeatures(t *testing.T) {
	ctx := context.Background()
	ex := synthPages(t, "a", 8, 3)
	opt := TrainOptions{Seed: 1, Features: []string{"kw_clean", "kw_dirty", "kw_odds"}}
	m, err := Train(ctx, ex, opt)
	if err != nil {
		t.Fatalf("keyword features only: %v", err)
	}
	if m.English == nil || m.Other != nil {
		t.Errorf("keyword features only: English %v, Other %v; want the English SVM alone", m.English != nil, m.Other != nil)
	}
	opt.Features = append(opt.Features, "depth")
	if m, err = Train(ctx, ex, opt); err != nil || m.Other == nil {
		t.Errorf("with depth: Other %v, %v; want a second SVM", m != nil && m.Other != nil, err)
	}
}
