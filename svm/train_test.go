package svm

import (
	"context"
	"math"
	"testing"
)

func TestHeartScaleMatchesLIBSVM(t *testing.T) {
	p := readProblemFile(t, sharedData(t, "libsvm/heart_scale"))
	for _, shrink := range []bool{true, false} {
		par := DefaultParams()
		par.Shrinking = shrink
		m, err := Train(context.Background(), p, par)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("shrinking=%v obj=%.6f rho=%.6f nSV=%d nBSV=%d iter=%d labels=%v", shrink, m.Obj, m.Rho, m.TotalSV(), m.NBSV, m.Iter, m.Labels)
		if math.Abs(m.Obj-(-100.877)) > 0.0005 {
			t.Errorf("obj = %.6f, want -100.877", m.Obj)
		}
		if math.Abs(m.Rho-0.424462) > 1e-4 {
			t.Errorf("rho = %.6f, want 0.424462", m.Rho)
		}
		if m.TotalSV() != 132 {
			t.Errorf("nSV = %d, want 132", m.TotalSV())
		}
	}
}
