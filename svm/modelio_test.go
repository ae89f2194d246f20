package svm

import (
	"bytes"
	"context"
	"errors"
	"github.com/fiasco-project/fiasco/internal/shared"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func heartModel(t *testing.T, p Params) (*Problem, *Model) {
	t.Helper()
	prob := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	return prob, m
}

// identityScaler maps n features in [-1, 1] to themselves.
func identityScaler(n int, clip bool) *Scaler {
	s := &Scaler{Lower: -1, Upper: 1, Min: make([]float64, n), Max: make([]float64, n), Clip: clip}
	for j := range s.Min {
		s.Min[j], s.Max[j] = -1, 1
	}
	return s
}

// saveLoad saves m to a file and loads it again.
func saveLoad(t *testing.T, m *Model) (path string, got *Model) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "m")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, got
}

func TestModelRoundTrip(t *testing.T) {
	prob, m := heartModel(t, DefaultParams())
	names := make([]string, prob.NumFeatures())
	for i := range names {
		names[i] = "f" + string(rune('a'+i))
	}
	m.FeatureNames = names
	m.Threshold = 0.25
	m.Scaler = identityScaler(13, false)
	path, got := saveLoad(t, m)
	if got.Rho != m.Rho || got.TotalSV() != m.TotalSV() || got.Threshold != 0.25 || len(got.FeatureNames) != 13 || got.Scaler == nil {
		t.Fatalf("round trip lost data: %+v", got)
	}
	for i, x := range prob.X {
		a, _ := m.Decision(x)
		b, _ := got.Decision(x)
		if a != b {
			t.Fatalf("row %d: decision %v after reload, %v before", i, b, a)
		}
	}
	if err := got.CheckFeatures(names); err != nil {
		t.Error(err)
	}
	other := append([]string(nil), names...)
	other[4] = "zzz"
	if err := got.CheckFeatures(other); !errors.Is(err, ErrDimensions) || !strings.Contains(err.Error(), "zzz") {
		t.Errorf("renamed feature: %v", err)
	}
	if err := got.CheckFeatures(names[:5]); !errors.Is(err, ErrDimensions) {
		t.Errorf("short feature list: %v", err)
	}
	// A model file edited after saving no longer matches its sidecar.
	text, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(text, []byte("rho "), []byte("rho 1"), 1), 0o644)
	if _, err := LoadModel(path); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("tampered model: %v", err)
	}
}

func TestSVMPredictReadsOurModel(t *testing.T) {
	libsvmTool(t, "svm-predict")
	data := shared.Path(t, "libsvm/heart_scale")
	p := DefaultParams()
	p.C, p.Gamma = 8, 0.125
	prob, m := heartModel(t, p)
	path := filepath.Join(t.TempDir(), "m")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	theirs := runSVMPredict(t, data, path, false)
	for i, x := range prob.X {
		ours, _ := m.Predict(x)
		if theirs[i] != ours {
			t.Fatalf("row %d: svm-predict %v, ours %v", i, theirs[i], ours)
		}
	}
	// and we read svm-train's model and agree with svm-predict on it
	their := filepath.Join(t.TempDir(), "their")
	runSVMTrain(t, "-c", "8", "-g", "0.125", data, their)
	tm, err := LoadModel(their)
	if err != nil {
		t.Fatal(err)
	}
	theirs = runSVMPredict(t, data, their, false)
	for i, x := range prob.X {
		ours, _ := tm.Predict(x)
		if theirs[i] != ours {
			t.Fatalf("row %d on svm-train's model: svm-predict %v, ours %v", i, theirs[i], ours)
		}
	}
}

// Labels in LIBSVM order -1 first (0/1 data here: 0 appears first) must
// still give Decision > 0 for the positive (larger) label.
func TestDecisionOrientation(t *testing.T) {
	prob := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	flip := &Problem{X: prob.X, Y: make([]float64, len(prob.Y))}
	// make the first row negative so LIBSVM order is (0, 1)
	for i, y := range prob.Y {
		if y == 1 {
			flip.Y[i] = 0
		} else {
			flip.Y[i] = 1
		}
	}
	m, err := Train(context.Background(), flip, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if m.Labels != [2]float64{0, 1} || m.PositiveLabel() != 1 {
		t.Fatalf("labels %v positive %v", m.Labels, m.PositiveLabel())
	}
	agree := 0
	for i, x := range flip.X {
		d, _ := m.Decision(x)
		l, _ := m.Predict(x)
		if (d > 0) != (l == 1) {
			t.Fatalf("row %d: decision %v but label %v", i, d, l)
		}
		if l == flip.Y[i] {
			agree++
		}
	}
	if agree < len(flip.Y)*8/10 {
		t.Errorf("training accuracy %d/%d", agree, len(flip.Y))
	}
}

func TestThresholdTradesRecallForPrecision(t *testing.T) {
	prob, m := heartModel(t, DefaultParams())
	metrics := func(th float64) Metrics {
		m.Threshold = th
		pred := make([]float64, prob.Len())
		for i, x := range prob.X {
			pred[i], _ = m.Predict(x)
		}
		return NewMetrics(pred, prob.Y, 1)
	}
	lo, mid, hi := metrics(-0.5), metrics(0), metrics(0.8)
	if !(hi.Precision >= mid.Precision && mid.Precision >= lo.Precision && hi.Recall < mid.Recall && mid.Recall < lo.Recall) {
		t.Errorf("threshold -0.5/0/0.8: precision %.3f %.3f %.3f recall %.3f %.3f %.3f",
			lo.Precision, mid.Precision, hi.Precision, lo.Recall, mid.Recall, hi.Recall)
	}
}

func TestProbability(t *testing.T) {
	p := DefaultParams()
	p.Probability = true
	p.Seed = 5
	prob, m := heartModel(t, p)
	if !m.HasProb || m.ProbA >= 0 {
		t.Fatalf("Platt parameters A=%v B=%v (A should be negative)", m.ProbA, m.ProbB)
	}
	// probability must increase with the decision value and agree with
	// the label for confident rows
	type dp struct{ d, p float64 }
	var pts []dp
	for _, x := range prob.X {
		d, _ := m.Decision(x)
		pr, err := m.Probability(x)
		if err != nil || pr <= 0 || pr >= 1 {
			t.Fatalf("probability %v, %v", pr, err)
		}
		pts = append(pts, dp{d, pr})
	}
	for i := range pts {
		for j := range pts {
			if pts[i].d < pts[j].d && pts[i].p > pts[j].p+1e-12 {
				t.Fatalf("not monotone: d %v p %v vs d %v p %v", pts[i].d, pts[i].p, pts[j].d, pts[j].p)
			}
		}
	}
	// svm-train -b 1 uses C's rand() for its internal folds, so only
	// compare roughly with its sigmoid.
	if _, err := os.Stat("/usr/bin/svm-train"); err == nil {
		path := filepath.Join(t.TempDir(), "their")
		runSVMTrain(t, "-b", "1", shared.Path(t, "libsvm/heart_scale"), path)
		tm, err := LoadModel(path)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tm.ProbA-m.ProbA) > 0.5 || math.Abs(tm.ProbB-m.ProbB) > 0.3 {
			t.Errorf("Platt A,B = %.3f,%.3f; svm-train %.3f,%.3f", m.ProbA, m.ProbB, tm.ProbA, tm.ProbB)
		}
		t.Logf("Platt A,B = %.3f,%.3f; svm-train %.3f,%.3f", m.ProbA, m.ProbB, tm.ProbA, tm.ProbB)
	}
	path := filepath.Join(t.TempDir(), "m")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadModel(path)
	if err != nil || !back.HasProb || back.ProbA != m.ProbA {
		t.Fatalf("probability lost in save/load: %v", err)
	}
}

func TestReadLIBSVMModelErrors(t *testing.T) {
	head := "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\nlabel 1 -1\nnr_sv 1 1\nSV\n"
	if _, err := ReadLIBSVMModel(strings.NewReader(head + "1 1:0.5\n-1 2:1\n")); err != nil {
		t.Fatalf("valid model rejected: %v", err)
	}
	for name, in := range map[string]string{
		"empty":        "",
		"nu_svc":       strings.Replace(head, "c_svc", "nu_svc", 1),
		"3 classes":    strings.Replace(head, "nr_class 2", "nr_class 3", 1),
		"missing SVs":  head + "1 1:0.5\n",
		"nr_sv sum":    strings.Replace(head, "nr_sv 1 1", "nr_sv 2 1", 1) + "1 1:0.5\n-1 2:1\n",
		"bad index":    head + "1 0:0.5\n-1 2:1\n",
		"descending":   head + "1 2:0.5 1:1\n-1 2:1\n",
		"nan coef":     head + "nan 1:0.5\n-1 2:1\n",
		"no header":    "SV\n1 1:1\n",
		"precomputed":  strings.Replace(head, "rbf", "precomputed", 1),
		"same labels":  strings.Replace(head, "label 1 -1", "label 1 1", 1) + "1 1:0.5\n-1 2:1\n",
		"unknown key":  "foo 1\n" + head,
		"rbf gamma 0":  strings.Replace(head, "gamma 0.5", "gamma 0", 1) + "1 1:0.5\n-1 2:1\n",
		"rbf gamma -1": strings.Replace(head, "gamma 0.5", "gamma -1", 1) + "1 1:0.5\n-1 2:1\n",
	} {
		if _, err := ReadLIBSVMModel(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzReadLIBSVMModel(f *testing.F) {
	f.Add("svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:0.5\n-1 2:1\n")
	f.Add("svm_type c_svc\nkernel_type polynomial\ndegree 2\ngamma 1\ncoef0 1\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 0 1\nprobA -1\nprobB 0\nnr_sv 1 0\nSV\n0.5 3:1e-3\n")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadLIBSVMModel(strings.NewReader(in))
		if err != nil {
			return
		}
		// A parsed model must be usable and survive a write/read cycle.
		x := make([]float64, m.NumFeatures)
		if _, err := m.Decision(x); err != nil {
			t.Fatalf("decision on parsed model: %v", err)
		}
		var buf bytes.Buffer
		if err := m.WriteLIBSVM(&buf); err != nil {
			t.Fatalf("write parsed model: %v", err)
		}
		m2, err := ReadLIBSVMModel(&buf)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, buf.String())
		}
		if m2.TotalSV() != m.TotalSV() || m2.Rho != m.Rho || m2.Labels != m.Labels {
			t.Fatalf("round trip changed the model")
		}
	})
}

// TestStaleMeta: a model file replaced after Save (svm-train writing over
// it) with its sidecar left behind is ErrStaleMeta, not our model with
// another's scaling; LoadLIBSVMModel reads it as svm-predict does.
func TestStaleMeta(t *testing.T) {
	_, m := heartModel(t, DefaultParams())
	m.Scaler = identityScaler(m.NumFeatures, false)
	path, _ := saveLoad(t, m)
	var buf bytes.Buffer
	other := *m
	other.Rho += 0.5
	if err := other.WriteLIBSVM(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadModel(path); !errors.Is(err, ErrStaleMeta) {
		t.Fatalf("LoadModel of a replaced model: %v, want ErrStaleMeta", err)
	}
	got, err := LoadLIBSVMModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rho != other.Rho || got.Scaler != nil || got.FeatureNames != nil {
		t.Errorf("LoadLIBSVMModel: rho %g (want %g), scaler %v, names %v", got.Rho, other.Rho, got.Scaler, got.FeatureNames)
	}
}
