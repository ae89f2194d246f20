package train

import (
	"context"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/internal/shared"
)

func TestFolds(t *testing.T) {
	a, b := Folds(103, 10, 7), Folds(103, 10, 7)
	count := make([]int, 10)
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("folds differ between two runs with the same seed")
		}
		count[a[i]]++
	}
	for f, n := range count {
		if n < 10 || n > 11 {
			t.Errorf("fold %d has %d pages, want 10 or 11", f, n)
		}
	}
	c := Folds(103, 10, 8)
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same == len(a) {
		t.Error("a different seed gave the same folds")
	}
}

// TestCrossValidateBeatsBaseline cross-validates on a part of CleanEval dev
// and checks that cleaning beats keeping everything.
func TestCrossValidateBeatsBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := shared.Path(t, "cleaneval-en-dev")
	ex, err := LoadData(context.Background(), []string{dir}, DataOptions{Limit: 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) < 25 {
		t.Fatalf("only %d of 30 pages loaded", len(ex))
	}
	to := TrainOptions{Features: features.Names(features.Linguistic|features.Keyword|features.Structural, true)}
	res, err := CrossValidate(context.Background(), ex, CVOptions{Folds: 3, Seed: 1, Train: to})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(res)
	if err != nil {
		t.Fatal(err)
	}
	m, b, o := rep.Model.MicroNoTags, rep.Baseline.MicroNoTags, rep.Oracle.MicroNoTags
	t.Logf("F: model %.3f, baseline %.3f, oracle %.3f; node accuracy %.3f", m.F, b.F, o.F, rep.Nodes.Accuracy())
	if m.P < b.P+0.05 || m.F <= b.F {
		t.Errorf("model P/F %.3f/%.3f do not beat the baseline's %.3f/%.3f", m.P, m.F, b.P, b.F)
	}
	if o.F < m.F {
		t.Errorf("oracle F %.3f below the model's %.3f", o.F, m.F)
	}
}

// TestTrainWithoutEnglish: a training set none of whose pages reads as
// English (a German one, say) trains with no keywords, the keyword
// columns 0, rather than failing; labels of one class still fail.
func TestTrainWithoutEnglish(t *testing.T) {
	ex := synthPages(t, "de", 8, 3)
	for _, e := range ex {
		e.Doc.English = false
	}
	m, err := Train(context.Background(), ex, TrainOptions{})
	if err != nil {
		t.Fatalf("Train without English pages: %v", err)
	}
	if n := len(m.Keywords.Clean) + len(m.Keywords.Dirty); n != 0 {
		t.Errorf("keywords learned from no English page: %d", n)
	}
	if m.Other == nil {
		t.Fatal("no classifier for pages that are not English")
	}
	e := ex[0]
	s, err := m.Decide(e.Doc.Table, false)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i, v := range s {
		if (v >= m.Threshold) == (e.Share[i] >= 0.5) {
			right++
		}
	}
	if right < len(s)*3/4 {
		t.Errorf("page 0: %d of %d blocks classed as labelled", right, len(s))
	}
	for _, e := range ex {
		for i := range e.Share {
			e.Share[i] = 0
		}
	}
	if _, err := Train(context.Background(), ex, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "labelled clean") {
		t.Errorf("every block dirty: got %v, want an error saying none is labelled clean", err)
	}
}
