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

// TestTrainGridBySite: --grid --folds-by site scores C and gamma on folds
// of whole sites: 6 CleanEval dev pages (6 sites) and BBC's first 6
// CleanPortalEval pages (one site) make 7 sites for 3 folds; BBC's pages
// alone are one site, too few.
func TestTrainGridBySite(t *testing.T) {
	ce, cp := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "cleanportaleval")
	model := filepath.Join(t.TempDir(), "m.fiasco")
	grid := []string{"train", "-q", "--no-render", "--limit", "6", "--grid", "--folds", "3", "--folds-by", "site",
		"--log2c", "0,2,2", "--log2g", "-4,-4,1", "-o", model}
	code, _, errs := fiasco(t, append(grid, "--data", ce, "--data", cp)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "best C = 2^") {
		t.Errorf("no grid result on stderr:\n%s", errs)
	}
	m, err := classify.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Info.Pages != 12 {
		t.Errorf("model trained on %d pages, want 12", m.Info.Pages)
	}
	code, _, errs = fiasco(t, append(grid, "--data", cp)...)
	if code != 1 || !strings.Contains(errs, "3 folds for 1 site") {
		t.Errorf("one site, three folds: exit %d, stderr %s", code, errs)
	}
}
