package svm

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestTrainOverflow: finite rows too large for the kernel (±1e200) give
// ErrNonFinite, not a model of NaN; a grid of exponents whose powers are
// no usable C or gamma is an error, not a NaN "best" cell.
func TestTrainOverflow(t *testing.T) {
	prob := &Problem{X: [][]float64{{1e200, -1e200}, {-1e200, 1e200}, {1e200, 1e200}, {-1e200, -1e200}}, Y: []float64{1, 1, -1, -1}}
	for _, k := range []KernelType{RBF, Linear} {
		p := DefaultParams()
		p.Kernel = k
		if m, err := Train(context.Background(), prob, p); !errors.Is(err, ErrNonFinite) {
			t.Errorf("kernel %v: Train = %v, %v; want ErrNonFinite", k, m, err)
		}
	}
	ok := &Problem{X: [][]float64{{0}, {0.1}, {0.9}, {1}}, Y: []float64{-1, -1, 1, 1}}
	for _, g := range []GridOptions{
		{Log2C: []float64{math.NaN()}, Folds: 2},
		{Log2C: []float64{2000}, Folds: 2},
		{Log2C: []float64{1}, Log2G: []float64{-2000}, Folds: 2},
	} {
		if _, err := GridSearch(context.Background(), ok, DefaultParams(), g); err == nil {
			t.Errorf("grid %v %v: no error", g.Log2C, g.Log2G)
		}
	}
}

// TestEdgeInputs: metrics of slices of unequal length count the pairs
// they share; an absurd feature count is an error, not a huge slice.
func TestEdgeInputs(t *testing.T) {
	if m := NewMetrics([]float64{1, -1, 1}, []float64{1}, 1); m.TP != 1 {
		t.Errorf("NewMetrics of unequal lengths: %+v", m)
	}
	if _, err := ReadLIBSVM(strings.NewReader("1 1:0.5\n-1 1:0.2\n"), math.MaxInt); err == nil {
		t.Error("ReadLIBSVM with math.MaxInt features: no error")
	}
}
