package classify_test

import (
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// TestEmbeddedModelsFeatures: the embedded default models name only columns this
// schema has (classify reads them with features.Select).
func TestEmbeddedModelsFeatures(t *testing.T) {
	for _, visual := range []bool{false, true} {
		m, err := classify.Default(visual)
		if err != nil {
			t.Fatalf("default model (visual %v): %v", visual, err)
		}
		for _, sm := range []*svm.Model{m.English, m.Other} {
			if sm == nil {
				continue
			}
			if _, err := features.Select(sm.FeatureNames); err != nil {
				t.Errorf("default model (visual %v): %v", visual, err)
			}
			if visual && len(features.Names(features.Visual, false)) > 0 && !hasVisual(sm.FeatureNames) {
				t.Errorf("the visual default model reads no visual column")
			}
		}
	}
}

func hasVisual(names []string) bool {
	vis := map[string]bool{}
	for _, n := range features.Names(features.Visual, false) {
		vis[n] = true
	}
	for _, n := range names {
		if vis[n] {
			return true
		}
	}
	return false
}
