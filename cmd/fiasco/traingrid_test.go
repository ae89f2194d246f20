package main

import (
	"path/filepath"
	"strings"
	"testing"

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
	for _, g := range [][]string{nil, {"-g", "0"}} {
		model := filepath.Join(t.TempDir(), "m.fiasco")
		args := append([]string{"train", "-q", "--no-render", "--data", "../../testdata/modern", "--limit", "6",
			"--grid", "--folds", "2", "--log2c", "0,2,2", "--log2g", "null", "-o", model}, g...)
		code, _, errs := fiasco(t, args...)
		if code != 0 || !strings.Contains(errs, "best C = 2^") || !strings.Contains(errs, "gamma = 2^-") {
			t.Errorf("fiasco %s: exit %d\n%s", strings.Join(args, " "), code, errs)
		}
	}
}
