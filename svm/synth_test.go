package svm

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// synthetic returns a seeded two-class problem of n rows x d features in
// [-1, 1]: a smooth non-linear boundary plus label noise, so that an
// RBF SVM needs a few thousand support vectors, like real data.
func synthetic(n, d int, seed uint64) *Problem {
	rng := rand.New(rand.NewPCG(seed, 42))
	p := &Problem{X: make([][]float64, n), Y: make([]float64, n)}
	for i := range p.X {
		x := make([]float64, d)
		for j := range x {
			x[j] = 2*rng.Float64() - 1
		}
		s := 0.0
		for j := 0; j < min(d, 6); j++ {
			s += math.Sin(2.5 * x[j] * float64(j%3+1))
		}
		if d > 7 {
			s += 1.5 * x[6] * x[7]
		}
		s += 0.6 * rng.NormFloat64()
		p.X[i] = x
		if s > 0 {
			p.Y[i] = 1
		} else {
			p.Y[i] = -1
		}
	}
	return p
}

func subset(p *Problem, lo, hi int) *Problem {
	return &Problem{X: p.X[lo:hi], Y: p.Y[lo:hi]}
}

func writeProblemFile(t testing.TB, p *Problem, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteLIBSVM(f, p); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// libsvmRun is what svm-train printed.
type libsvmRun struct {
	obj, rho  float64
	nSV, iter int
}

var (
	reObj  = regexp.MustCompile(`obj = (\S+), rho = (\S+)`)
	reNSV  = regexp.MustCompile(`Total nSV = (\d+)`)
	reIter = regexp.MustCompile(`#iter = (\d+)`)
)

func runSVMTrain(t testing.TB, args ...string) libsvmRun {
	t.Helper()
	out, err := exec.Command(libsvmTool(t, "svm-train"), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("svm-train %v: %v\n%s", args, err, out)
	}
	var r libsvmRun
	s := string(out)
	m := reObj.FindStringSubmatch(s)
	n := reNSV.FindStringSubmatch(s)
	it := reIter.FindStringSubmatch(s)
	if m == nil || n == nil || it == nil {
		t.Fatalf("cannot parse svm-train output:\n%s", s)
	}
	r.obj, _ = strconv.ParseFloat(m[1], 64)
	r.rho, _ = strconv.ParseFloat(m[2], 64)
	r.nSV, _ = strconv.Atoi(n[1])
	r.iter, _ = strconv.Atoi(it[1])
	return r
}

// runSVMPredict returns svm-predict's labels (and probability of the
// first listed label if -b 1).
func runSVMPredict(t testing.TB, data, model string, prob bool) []float64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pred")
	args := []string{data, model, out}
	if prob {
		args = append([]string{"-b", "1"}, args...)
	}
	if b, err := exec.Command(libsvmTool(t, "svm-predict"), args...).CombinedOutput(); err != nil {
		t.Fatalf("svm-predict: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var res []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || fs[0] == "labels" {
			continue
		}
		v, err := strconv.ParseFloat(fs[0], 64)
		if err != nil {
			t.Fatalf("svm-predict output %q", sc.Text())
		}
		res = append(res, v)
	}
	return res
}

func agreement(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("lengths %d and %d", len(a), len(b))
	}
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / float64(len(a)), nil
}
