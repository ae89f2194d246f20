package train

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// Train with Stack gives a model whose second stage reads StackRows,
// trained again from the same data and seed to the same decisions; more
// folds than pages is an error. (Whether stacking helps is measured on
// real pages: RESULTS.md.)
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
	if _, err := Train(context.Background(), ex[:2], opt); err == nil || !strings.Contains(err.Error(), "3 folds for 2 pages") {
		t.Errorf("3 folds over 2 pages: %v", err)
	}
}

// The default feature set of rendered examples has the shape measurements
// and not the style readings (features.IsStyle); of unrendered ones, no
// visual feature.
func TestDefaultFeatures(t *testing.T) {
	for _, rendered := range []bool{true, false} {
		d := &pipeline.Doc{}
		if rendered {
			d.Visual = []vision.Features{}
		}
		var o TrainOptions
		o.defaults([]*Example{{Doc: d}})
		vis, style := 0, 0
		for _, n := range o.Features {
			if strings.HasPrefix(n, "vis_") {
				vis++
			}
			if features.IsStyle(n) {
				style++
			}
		}
		if style != 0 || (vis > 0) != rendered || (rendered && !slices.Contains(o.Features, "vis_solidity1")) {
			t.Errorf("rendered %v: %d visual, %d style features in %v", rendered, vis, style, o.Features)
		}
	}
}
