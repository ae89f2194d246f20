package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/svm"
)

// TestGridEdges: train --grid notes a best C or gamma at an end of a
// searched range of three values or more, not of a fixed or shorter one.
func TestGridEdges(t *testing.T) {
	res := &svm.GridResult{Log2C: []float64{-1, 1, 3}, Log2G: []float64{-9, -7, -5}}
	for _, c := range []struct {
		c, g           float64
		fixedC, fixedG bool
		want           string
	}{
		{1, -7, false, false, ""},
		{-1, -7, false, false, "C, 2^-1, is the lower end of --log2c"},
		{3, -5, false, false, "C, 2^3, is the upper end of --log2c, and gamma, 2^-5, is the upper end of --log2g"},
		{3, -5, true, false, "gamma, 2^-5, is the upper end of --log2g"},
		{3, -5, true, true, ""},
	} {
		res.Best.Log2C, res.Best.Log2G = c.c, c.g
		got := gridEdges(res, c.fixedC, c.fixedG)
		if got != c.want {
			t.Errorf("C 2^%g, gamma 2^%g (fixed %v, %v): %q, want %q", c.c, c.g, c.fixedC, c.fixedG, got, c.want)
		}
	}
	res.Log2C = []float64{0, 2}
	res.Best.Log2C, res.Best.Log2G = 0, -7
	if got := gridEdges(res, false, false); got != "" {
		t.Errorf("a range of two values: %q, want none", got)
	}
}

// TestGridGammaNull: --log2g null leaves gamma out of the search, at -g's
// value, or svm-train's default where -g is not given or is 0: 1 over the
// number of features, as -g's help says (it was refused, and -g 0 failed
// after the pages had loaded).
func TestGridGammaNull(t *testing.T) {
	data := []string{"-q", "--no-render", "--data", "../../testdata/modern", "--limit", "6"}
	plain := filepath.Join(t.TempDir(), "plain.fiasco")
	if code, _, errs := fiasco(t, append(append([]string{"train"}, data...), "-c", "1", "-o", plain)...); code != 0 {
		t.Fatalf("train -c 1: exit %d: %s", code, errs)
	}
	want, err := classify.Load(plain)
	if err != nil {
		t.Fatal(err)
	}
	wantDigest, _ := want.Digest()
	for _, g := range [][]string{nil, {"-g", "0"}} {
		model := filepath.Join(t.TempDir(), "m.fiasco")
		args := append(append(append([]string{"train"}, data...), "--grid", "--folds", "2", "--log2c", "0,0,1", "--log2g", "null", "-o", model), g...)
		code, _, errs := fiasco(t, args...)
		if code != 0 || !strings.Contains(errs, "best C = 2^") || !strings.Contains(errs, "gamma = 2^-") {
			t.Errorf("fiasco %s: exit %d\n%s", strings.Join(args, " "), code, errs)
			continue
		}
		// The same model as train -c 1: each SVM at 1/its own features.
		m, err := classify.Load(model)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := m.Digest(); d != wantDigest {
			t.Errorf("fiasco %s: not the model of train -c 1 (English gamma %g, other %g)", strings.Join(args, " "), m.English.Gamma, m.Other.Gamma)
		}
	}
}

// TestOutKind: a model is written only over a model (or a new or empty
// file), and no other output over a model, refused before any page loads.
func TestOutKind(t *testing.T) {
	dir := t.TempDir()
	model, text := filepath.Join(dir, "m.fiasco"), filepath.Join(dir, "blocks.libsvm")
	m, err := classify.DefaultFor(classify.PolicyCorpus, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(model); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(text, []byte("+1 1:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := []string{"-q", "--no-render", "--data", "../../testdata/modern", "--limit", "2"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-o", text}, "-o " + text + ": the file is there and is no fiasco model"},
		{[]string{"features", "-o", model}, "-o " + model + ": the file is a fiasco model"},
		{[]string{"eval", "--pages", model}, "--pages " + model + ": the file is a fiasco model"},
	} {
		args := append(c.args, data...)
		code, _, errs := fiasco(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "(0 failed)") {
			t.Errorf("fiasco %s: exit %d, stderr %q; want 2 and %q", strings.Join(args, " "), code, errs, c.want)
		}
	}
	if ok, err := classify.IsModelFile(model); !ok || err != nil {
		t.Errorf("the model was touched: IsModelFile %v, %v", ok, err)
	}
	// A model over a model is a retraining.
	if code, _, errs := fiasco(t, append([]string{"train", "-o", model}, data...)...); code != 0 {
		t.Errorf("train over a model: exit %d: %s", code, errs)
	}
}

// TestGridFoldsWithExtra: train --grid deals the --extra pages into its
// folds too, so the early check of --folds counts them with the --data
// pages: 3 pages and 3 extra ones (--limit 3) make 5 folds, not 7.
func TestGridFoldsWithExtra(t *testing.T) {
	extra := filepath.Join(t.TempDir(), "more")
	for _, sub := range []string{"html", "gold"} {
		if err := os.MkdirAll(filepath.Join(extra, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"m10", "m11", "m12", "m13"} {
		for _, f := range []string{"html/" + id + ".html", "gold/" + id + ".txt"} {
			b, err := os.ReadFile(filepath.Join("../../testdata/modern", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(extra, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	args := []string{"train", "-q", "--no-render", "--data", "../../testdata/modern", "--limit", "3", "--extra", extra,
		"--grid", "--folds", "5", "--log2c", "0,0,1", "--log2g", "-4,-4,1", "-o", filepath.Join(t.TempDir(), "m.fiasco")}
	if code, _, errs := fiasco(t, args...); code != 0 {
		t.Errorf("fiasco %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	// Seven folds for the 3 and 3 pages (--limit 3 of each set): refused
	// once the extra set is listed, before its pages are prepared.
	for i, a := range args {
		if a == "5" && args[i-1] == "--folds" {
			args[i] = "7"
		}
	}
	if code, _, errs := fiasco(t, args...); code != 2 || !strings.Contains(errs, "--folds 7: 7 folds for 6 pages") {
		t.Errorf("fiasco %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
}

// TestReportStoppedGrid: a grid a signal stopped prints the pairs it
// finished, the others as "-", and says no model is written; with no pair
// finished, nothing.
func TestReportStoppedGrid(t *testing.T) {
	res := &svm.GridResult{Log2C: []float64{0, 2}, Log2G: []float64{-5, -3}}
	p := svm.GridPoint{Log2C: 2, Log2G: -5}
	p.Accuracy = 0.9125
	res.Points = append(res.Points, p)
	var b strings.Builder
	reportStoppedGrid(&b, res, false)
	got := b.String()
	for _, want := range []string{"91.25", "stopped with 1 of 4 pairs finished", "no model written"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	n := 0
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	for _, f := range strings.Fields(strings.Join(lines[:len(lines)-1], "\n")) { // the matrix
		if f == "-" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d pairs shown unfinished, want 3:\n%s", n, got)
	}
	// A linear kernel searches C alone.
	b.Reset()
	reportStoppedGrid(&b, &svm.GridResult{Log2C: []float64{0, 2, 4}, Log2G: []float64{-5}, Points: res.Points}, true)
	if !strings.Contains(b.String(), "stopped with 1 of 3 pairs finished") {
		t.Errorf("linear kernel:\n%s", b.String())
	}
	b.Reset()
	reportStoppedGrid(&b, &svm.GridResult{Log2C: res.Log2C, Log2G: res.Log2G}, false)
	if b.Len() != 0 {
		t.Errorf("no pair finished: %q, want nothing", b.String())
	}
}
