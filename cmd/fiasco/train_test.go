package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"
)

// TestTrainExtra trains on 6 CleanEval dev pages and a seeded sample of 4
// of L3S-GN1's first 6 (--limit applies to every set), and checks that the
// model saw 10 pages.
func TestTrainExtra(t *testing.T) {
	ce, l3s := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "l3s-gn1")
	model := filepath.Join(t.TempDir(), "m.fiasco")
	code, _, errs := fiasco(t, "train", "-q", "--no-render", "--limit", "6", "--data", ce,
		"--extra", l3s, "--extra-pages", "4", "-o", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := classify.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Info.Pages != 10 {
		t.Errorf("model trained on %d pages, want 6 + 4\n%s", m.Info.Pages, errs)
	}
	if !strings.Contains(errs, "4 pages (0 failed)") {
		t.Errorf("stderr does not report the 4 extra pages:\n%s", errs)
	}
}
