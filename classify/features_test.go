package classify_test

import (
	"strings"
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

// TestDefaultFor: every policy has its embedded models, which say what
// policy and whether visual; an unknown policy is an error naming the
// known ones.
func TestDefaultFor(t *testing.T) {
	for _, p := range classify.Policies {
		for _, visual := range []bool{false, true} {
			m, err := classify.DefaultFor(p, visual)
			if err != nil {
				t.Errorf("policy %s, visual %v: %v", p, visual, err)
				continue
			}
			if m.Visual != visual {
				t.Errorf("policy %s, visual %v: model.Visual = %v", p, visual, m.Visual)
			}
			if got := m.Info.Policy; got != p && !(p == "corpus" && got == "") {
				t.Errorf("policy %s, visual %v: model trained for policy %q", p, visual, got)
			}
			if _, err := features.Select(m.English.FeatureNames); err != nil {
				t.Errorf("policy %s, visual %v: %v", p, visual, err)
			}
		}
	}
	if _, err := classify.DefaultFor("news", false); err == nil || !strings.Contains(err.Error(), "corpus, article") {
		t.Errorf("unknown policy: err = %v", err)
	}
}
