package train

import (
	"math"
	"testing"

	"github.com/fiasco-project/fiasco/score"
)

// Two pages, A and B. A resample of two pages is AA (probability 1/4), AB
// or BA (1/2) or BB (1/4), so the 2.5% and 97.5% quantiles are the BB and
// AA figures and the value on all pages is the AB one.
var (
	pageA = PageScore{Set: "s", ID: "A", Words: score.Counts{Matched: 8, Out: 10, Gold: 10}, Nodes: NodeScores{TP: 3, FP: 1, TN: 4}}
	pageB = PageScore{Set: "s", ID: "B", Words: score.Counts{Matched: 2, Out: 10, Gold: 4}, Nodes: NodeScores{TP: 1, FP: 1, TN: 1, FN: 1}}
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5f, want %.5f", name, got, want)
	}
}

func TestBootstrapHandComputed(t *testing.T) {
	s, err := BootstrapScores([]PageScore{pageA, pageB}, 20000, 3)
	if err != nil {
		t.Fatal(err)
	}
	// F: A 0.8; B P 0.2, R 0.5, F 2/7; A+B P 10/20, R 10/14, F 10/17.
	near(t, "word F", s.WordF.Value, 10.0/17, 1e-12)
	near(t, "word F lo", s.WordF.Lo, 2.0/7, 1e-12)
	near(t, "word F hi", s.WordF.Hi, 0.8, 1e-12)
	near(t, "word P", s.WordP.Value, 0.5, 1e-12)
	near(t, "word R", s.WordR.Value, 10.0/14, 1e-12)
	// Node accuracy: A 7/8, B 2/4, A+B 9/12.
	near(t, "node accuracy", s.NodeAccuracy.Value, 0.75, 1e-12)
	near(t, "node accuracy lo", s.NodeAccuracy.Lo, 0.5, 1e-12)
	near(t, "node accuracy hi", s.NodeAccuracy.Hi, 0.875, 1e-12)
	if s.Pages != 2 || s.Resamples != 20000 {
		t.Errorf("pages %d, resamples %d", s.Pages, s.Resamples)
	}
	again, _ := BootstrapScores([]PageScore{pageA, pageB}, 20000, 3)
	if *again != *s {
		t.Error("the same seed gave a different summary")
	}
}

func TestPairedBootstrapHandComputed(t *testing.T) {
	// System Y: A F 0.6 (6 of 10), B P 0.4 R 1 F 4/7; its A+B counts are
	// X's (10, 20, 14), so the difference X - Y is +0.2 on AA, -2/7 on BB
	// and 0 on AB: P(diff <= 0) = 3/4.
	yA, yB := pageA, pageB
	yA.Words = score.Counts{Matched: 6, Out: 10, Gold: 10}
	yB.Words = score.Counts{Matched: 4, Out: 10, Gold: 4}
	d, err := PairedBootstrapScores([]PageScore{pageA, pageB}, []PageScore{yB, yA}, 20000, 9)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "diff F", d.WordF.Value, 0, 1e-12)
	near(t, "diff F lo", d.WordF.Lo, 2.0/7-4.0/7, 1e-12)
	near(t, "diff F hi", d.WordF.Hi, 0.2, 1e-12)
	near(t, "P(diff F <= 0)", d.WordF.PNotAbove, 0.75, 0.015)
	near(t, "P(diff node accuracy <= 0)", d.NodeAccuracy.PNotAbove, 1, 0)

	if _, err := PairedBootstrapScores([]PageScore{pageA, pageB}, []PageScore{yA, yA}, 10, 1); err == nil {
		t.Error("no error for a page missing from one system")
	}
	if _, err := PairedBootstrapScores([]PageScore{pageA}, []PageScore{yA, yB}, 10, 1); err == nil {
		t.Error("no error for different page counts")
	}
}

func TestQuantile(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5}
	near(t, "q0", quantile(v, 0), 1, 0)
	near(t, "q0.5", quantile(v, 0.5), 3, 0)
	near(t, "q0.1", quantile(v, 0.1), 1.4, 1e-12)
	near(t, "q1", quantile(v, 1), 5, 0)
}

func TestBootstrapBySet(t *testing.T) {
	c := pageA
	c.Set, c.ID = "t", "C"
	got, err := BootstrapBySet([]PageScore{pageA, c, pageB}, 20000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Set != "s" || got[1].Set != "t" {
		t.Fatalf("sets %+v, want s then t", got)
	}
	// Set s is pages A and B: the figures of TestBootstrapHandComputed.
	s, _ := BootstrapScores([]PageScore{pageA, pageB}, 20000, 3)
	if got[0].Summary != *s {
		t.Errorf("set s: %+v, want %+v", got[0].Summary, *s)
	}
	// Set t is page C alone, a copy of A: every resample is C.
	if got[1].Pages != 1 {
		t.Errorf("set t has %d pages, want 1", got[1].Pages)
	}
	near(t, "t word F", got[1].WordF.Value, 0.8, 1e-12)
	near(t, "t word F lo", got[1].WordF.Lo, 0.8, 1e-12)
	near(t, "t word F hi", got[1].WordF.Hi, 0.8, 1e-12)
	if _, err := BootstrapBySet(nil, 10, 1); err != nil {
		t.Errorf("no pages: %v, want no sets and no error", err)
	}
}
