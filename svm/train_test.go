package svm

import (
	"context"
	"github.com/fiasco-project/fiasco/internal/shared"
	"math"
	"path/filepath"
	"testing"
)

func TestHeartScaleMatchesLIBSVM(t *testing.T) {
	p := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
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

func TestSyntheticMatchesLIBSVM(t *testing.T) {
	libsvmTool(t, "svm-train")
	n := 5000 // the figure; smaller under -short and -race
	if testing.Short() || raceEnabled {
		n = 1500
	}
	all := synthetic(n+1000, 30, 1)
	train, test := subset(all, 0, n), subset(all, n, n+1000)
	dir := t.TempDir()
	trainFile, testFile := filepath.Join(dir, "train"), filepath.Join(dir, "test")
	writeProblemFile(t, train, trainFile)
	writeProblemFile(t, test, testFile)
	theirModel := filepath.Join(dir, "their.model")
	ref := runSVMTrain(t, "-c", "512", "-g", "0.03125", trainFile, theirModel)

	p := DefaultParams()
	p.C, p.Gamma = 512, 0.03125
	m, err := Train(context.Background(), train, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ours: obj=%.6f rho=%.6f nSV=%d iter=%d; svm-train: obj=%g rho=%g nSV=%d iter=%d",
		m.Obj, m.Rho, m.TotalSV(), m.Iter, ref.obj, ref.rho, ref.nSV, ref.iter)
	if m.TotalSV() != ref.nSV {
		t.Errorf("nSV = %d, svm-train %d", m.TotalSV(), ref.nSV)
	}
	if math.Abs(m.Rho-ref.rho) > 1e-3*math.Max(1, math.Abs(ref.rho)) {
		t.Errorf("rho = %g, svm-train %g", m.Rho, ref.rho)
	}
	if math.Abs(m.Obj-ref.obj) > 1e-5*math.Abs(ref.obj) {
		t.Errorf("obj = %g, svm-train %g", m.Obj, ref.obj)
	}
	ours := make([]float64, test.Len())
	for i, x := range test.X {
		if ours[i], err = m.Predict(x); err != nil {
			t.Fatal(err)
		}
	}
	theirs := runSVMPredict(t, testFile, theirModel, false)
	a, err := agreement(ours, theirs)
	if err != nil || a < 0.999 {
		t.Errorf("held-out agreement with svm-train's model = %v (%v), want >= 0.999", a, err)
	}
	t.Logf("held-out predictions identical to svm-train+svm-predict on %.2f%% of %d rows", 100*a, len(ours))
	ourModel := filepath.Join(dir, "our.model")
	if err := m.Save(ourModel); err != nil {
		t.Fatal(err)
	}
	viaPredict := runSVMPredict(t, testFile, ourModel, false)
	if a, err := agreement(ours, viaPredict); err != nil || a < 1 {
		t.Errorf("svm-predict on our model agrees on %v (%v), want all", a, err)
	}
}
