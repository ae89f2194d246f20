package svm

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The cache never holds more than its limit, and its size does not change
// the result (only the speed).
func TestCacheLimit(t *testing.T) {
	prob := synthetic(1500, 10, 4)
	big := DefaultParams()
	big.C, big.Gamma = 8, 0.1
	small := big
	small.CacheMB = 0.05 // ~13k floats: a handful of columns
	ref, err := Train(context.Background(), prob, big)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, prob.Len())
	for i := range rows {
		rows[i] = i
	}
	labels, perm, _, _ := groupClasses(prob.Y, rows)
	kp := small.kparams(10)
	y := make([]int8, len(perm))
	for i, r := range perm {
		y[i] = 1
		if prob.Y[r] != labels[0] {
			y[i] = -1
		}
	}
	Q := newSVCQ(newComputedSource(newDataset(prob.X, perm, &kp), kp, 1), y, small.cacheBytes())
	alpha := make([]float64, len(perm))
	minus := make([]float64, len(perm))
	for i := range minus {
		minus[i] = -1
	}
	var s solver
	bound := make([]float64, len(perm))
	for i := range bound {
		bound[i] = small.C
	}
	si, err := s.solve(context.Background(), len(perm), Q, minus, y, alpha, bound, small.Eps, true)
	if err != nil {
		t.Fatal(err)
	}
	if Q.cache.peak > Q.cache.limit || Q.cache.limit > small.cacheBytes()/4 {
		t.Errorf("cache peak %d entries, limit %d (%d bytes requested)", Q.cache.peak, Q.cache.limit, small.cacheBytes())
	}
	var held int64
	for _, h := range Q.cache.heads {
		held += int64(h.n)
	}
	if held > Q.cache.limit {
		t.Errorf("cache holds %d entries, limit %d", held, Q.cache.limit)
	}
	if si.iter != ref.Iter || si.obj != ref.Obj || si.rho != ref.Rho {
		t.Errorf("small cache: iter %d obj %v rho %v; big cache: iter %d obj %v rho %v", si.iter, si.obj, si.rho, ref.Iter, ref.Obj, ref.Rho)
	}
	t.Logf("cache limit %d entries, peak %d; %d iterations", Q.cache.limit, Q.cache.peak, si.iter)
}

// peakRSS reads the process's peak resident set size (VmHWM) in bytes.
func peakRSS(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmHWM")
	return 0
}

// TestLargeTrainingMemory trains on 200,000 x 40 rows with the default
// 100 MB cache and checks that peak RSS stays under 2 GiB. Slow: runs only
// with FIASCO_SVM_BIG=1.
func TestLargeTrainingMemory(t *testing.T) {
	if os.Getenv("FIASCO_SVM_BIG") == "" {
		t.Skip("set FIASCO_SVM_BIG=1 to train on 200,000 x 40 rows (slow)")
	}
	const n, d = 200000, 40
	rng := rand.New(rand.NewPCG(11, 12))
	prob := &Problem{X: make([][]float64, n), Y: make([]float64, n)}
	for i := range prob.X {
		x := make([]float64, d)
		s := 0.0
		for j := range x {
			x[j] = 2*rng.Float64() - 1
			if j < 4 {
				s += x[j]
			}
		}
		prob.X[i] = x
		// a margin around the boundary keeps the support vectors (and
		// the run time) small; memory is what is being tested
		prob.Y[i] = -1
		if s > 0 {
			prob.Y[i] = 1
			x[0] += 0.5
		} else {
			x[0] -= 0.5
		}
	}
	p := DefaultParams()
	p.Threads = 2
	t0 := time.Now()
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	rss := peakRSS(t)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("200000 x 40: %v, %d SVs, %d iterations, peak RSS %.0f MiB (Go heap obtained from OS %.0f MiB, data %.0f MiB, cache limit 100 MB)",
		time.Since(t0), m.TotalSV(), m.Iter, float64(rss)/(1<<20), float64(ms.HeapSys)/(1<<20), float64(n*d*8)/(1<<20))
	if rss > 2<<30 {
		t.Errorf("peak RSS %d bytes exceeds 2 GiB", rss)
	}
}
