package svm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Our scaler must produce what svm-scale produces, read its range files
// and write range files it reads.
func TestScalerMatchesSVMScale(t *testing.T) {
	svmScale := libsvmTool(t, "svm-scale")
	dir := t.TempDir()
	raw := synthetic(200, 6, 3)
	for i, row := range raw.X { // unscaled, with a constant column
		for j := range row {
			row[j] = row[j]*float64(10*(j+1)) + float64(j)
		}
		row[4] = 7
		raw.X[i] = row
	}
	data := filepath.Join(dir, "raw")
	writeProblemFile(t, raw, data)
	rangeFile := filepath.Join(dir, "range")
	out, err := exec.Command(svmScale, "-l", "-1", "-u", "1", "-s", rangeFile, data).Output()
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := ReadLIBSVM(bytes.NewReader(out), raw.NumFeatures())
	if err != nil {
		t.Fatal(err)
	}
	sc, err := FitScaler(raw.X, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	check := func(sc *Scaler, what string) {
		ours, err := sc.TransformProblem(raw)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ours.X {
			for j := range ours.X[i] {
				// svm-scale prints %g (6 significant digits)
				if d := ours.X[i][j] - theirs.X[i][j]; d > 1e-5 || d < -1e-5 {
					t.Fatalf("%s: row %d col %d: ours %v svm-scale %v", what, i, j, ours.X[i][j], theirs.X[i][j])
				}
			}
		}
	}
	check(sc, "fitted")
	f, err := os.Open(rangeFile)
	if err != nil {
		t.Fatal(err)
	}
	restored, err := ReadRange(f, raw.NumFeatures())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	check(restored, "restored from svm-scale's range file")
	var buf bytes.Buffer
	if err := sc.WriteRange(&buf); err != nil {
		t.Fatal(err)
	}
	ourRange := filepath.Join(dir, "ourrange")
	os.WriteFile(ourRange, buf.Bytes(), 0o644)
	out2, err := exec.Command(svmScale, "-r", ourRange, data).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, out2) {
		t.Error("svm-scale -r with our range file differs from svm-scale -s output")
	}
	for _, bad := range []string{"", "y\n-1 1\n0 1\n", "x\n1 -1\n", "x\n-1 1\n0 1 2\n", "x\n-1 1\n1 a 2\n"} {
		if _, err := ReadRange(strings.NewReader(bad), 3); err == nil {
			t.Errorf("ReadRange(%q) accepted", bad)
		}
	}
	if _, err := sc.Transform([]float64{1}); err == nil {
		t.Error("Transform accepted a short row")
	}
}

// With Clip, values beyond the training range read as its ends; without,
// they extrapolate as svm-scale's do. A model saved with a clipping scaler
// reloads with it, and a far outlier then gets the decision of the range's
// end instead of the bias alone.
func TestScalerClip(t *testing.T) {
	sc, err := FitScaler([][]float64{{0, 5}, {10, 5}}, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		clip       bool
		in, want   float64
		constantIn float64
	}{
		{false, 5, 0, 9}, {false, 20, 3, 9}, {false, -10, -3, 9},
		{true, 5, 0, 9}, {true, 20, 1, 9}, {true, -10, -1, 9}, {true, 10, 1, -9},
	} {
		sc.Clip = tc.clip
		got, err := sc.Transform([]float64{tc.in, tc.constantIn})
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != tc.want || got[1] != 0 {
			t.Errorf("clip %v: Transform(%v, %v) = %v, want [%v 0]", tc.clip, tc.in, tc.constantIn, got, tc.want)
		}
	}

	prob, m := heartModel(t, DefaultParams())
	m.Scaler = identityScaler(13, true)
	_, got := saveLoad(t, m)
	if !got.Scaler.Clip {
		t.Fatal("Clip lost in the model file")
	}
	edge := append([]float64(nil), prob.X[0]...)
	far := append([]float64(nil), prob.X[0]...)
	edge[0], far[0] = 1, 1e6
	a, _ := got.Decision(edge)
	b, _ := got.Decision(far)
	if a != b {
		t.Errorf("clipped model: decision %v at 1e6, %v at the range's end", b, a)
	}
	got.Scaler.Clip = false
	if c, _ := got.Decision(far); c == a {
		t.Errorf("unclipped model: decision %v at 1e6 equals the range end's", c)
	}
}
