package svm

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomRows draws n rows of d values of mixed magnitudes and signs, some
// exact zeros, as scaled features and their extremes give.
func randomRows(r *rand.Rand, n, d int) [][]float64 {
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for k := range X[i] {
			switch r.IntN(6) {
			case 0:
				X[i][k] = 0
			case 1:
				X[i][k] = (r.Float64()*2 - 1) * 1e6
			case 2:
				X[i][k] = (r.Float64()*2 - 1) * 1e-6
			default:
				X[i][k] = r.Float64()*2 - 1
			}
		}
	}
	return X
}

// The AVX2 dot products agree with dot and dot4 bit for bit, for every
// width from 1 to 70, segments starting and ending anywhere in a block,
// and row counts that take the kernel's four-block loop several times.
func TestSolverRowsDots(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 kernel on this CPU or build (-tags noasm): the solver uses kernelRow")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for d := 1; d <= 70; d++ {
		n := 1 + r.IntN(60)
		X := randomRows(r, n, d)
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		kp := kparams{typ: RBF, gamma: 0.5}
		ds := newDataset(X, all, &kp)
		b := newSolverRows(ds)
		var pad []float64
		for trial := 0; trial < 20; trial++ {
			lo := r.IntN(n)
			hi := lo + 1 + r.IntN(n-lo)
			if trial == 0 {
				lo, hi = 0, n
			}
			xi := X[r.IntN(n)]
			out := make([]float64, hi-lo)
			pad = b.dots(xi, lo, hi, out, pad)
			for s, v := range out {
				want := dot(xi, X[lo+s])
				w4, _, _, _ := dot4(xi, X[lo+s], xi, xi, xi)
				if math.Float64bits(v) != math.Float64bits(want) || math.Float64bits(v) != math.Float64bits(w4) {
					t.Fatalf("d=%d n=%d rows [%d,%d): row %d: dot %v (%#x), want %v (%#x; dot4 %#x)", d, n, lo, hi, lo+s, v, math.Float64bits(v), want, math.Float64bits(want), math.Float64bits(w4))
				}
			}
		}
	}
}

// A computed source with the AVX2 kernel and one with kernelRow give the
// same Q columns bit for bit through any sequence of swaps, for every
// kernel, in one goroutine and in several.
func TestComputedSourceSwaps(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 kernel on this CPU or build (-tags noasm): the solver uses kernelRow")
	}
	r := rand.New(rand.NewPCG(5, 6))
	kernels := []kparams{
		{typ: RBF, gamma: 0.07},
		{typ: Linear},
		{typ: Poly, gamma: 0.3, coef0: 1, degree: 3},
		{typ: Sigmoid, gamma: 0.01, coef0: -0.5},
	}
	for _, c := range []struct{ n, d, threads int }{{301, 17, 1}, {9001, 5, 3}} {
		for _, kp := range kernels {
			X := randomRows(r, c.n, c.d)
			for _, row := range X { // keep the kernels finite
				for k := range row {
					row[k] = math.Max(-1, math.Min(1, row[k]))
				}
			}
			perm := r.Perm(c.n)
			ds := newDataset(X, perm, &kp)
			fast := newComputedSource(ds, kp, c.threads)
			plain := &computedSource{ds: ds, k: kp, threads: c.threads}
			if fast.blk == nil {
				t.Fatal("no AVX2 rows though the CPU has the kernel")
			}
			rows := make([]int32, c.n)
			for i := range rows {
				rows[i] = int32(i)
			}
			for step := 0; step < 200; step++ {
				i, j := r.IntN(c.n), r.IntN(c.n)
				fast.swap(i, j)
				plain.swap(i, j)
				rows[i], rows[j] = rows[j], rows[i]
				q := r.IntN(c.n)
				start := r.IntN(c.n)
				length := start + 1 + r.IntN(c.n-start)
				if step%10 == 0 {
					start, length = 0, c.n // whole columns take the parallel path
				}
				if kp.typ == Linear { // the float64 values, before float32 rounding hides an ulp
					g64 := make([]float64, length-start)
					w64 := make([]float64, length-start)
					fast.blk.dots(ds.row(int(rows[q])), start, length, g64, nil)
					ds.kernelRow(&kp, int(rows[q]), rows[start:length], w64)
					for t2 := range g64 {
						if math.Float64bits(g64[t2]) != math.Float64bits(w64[t2]) {
							t.Fatalf("n=%d step %d: dot of %d and %d = %v, kernelRow gives %v", c.n, step, q, start+t2, g64[t2], w64[t2])
						}
					}
				}
				got := make([]float32, length-start)
				want := make([]float32, length-start)
				fast.fill(rows[q], start, rows[start:length], got)
				plain.fill(rows[q], start, rows[start:length], want)
				for t2 := range got {
					if math.Float32bits(got[t2]) != math.Float32bits(want[t2]) {
						t.Fatalf("%v n=%d threads=%d step %d: Q[%d][%d] = %v, kernelRow gives %v", kp.typ, c.n, c.threads, step, q, start+t2, got[t2], want[t2])
					}
				}
			}
		}
	}
}

// Training with the AVX2 kernel and with kernelRow gives the same model
// bit for bit: support vectors, coefficients, rho, objective and
// iteration count, with shrinking and a cache too small to hold the
// columns (so columns are computed again after swaps).
func TestTrainSolverRows(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 kernel on this CPU or build (-tags noasm): the solver uses kernelRow")
	}
	prob := synthetic(1200, 23, 7)
	p := DefaultParams()
	p.C, p.Gamma, p.CacheMB = 8, 0.05, 0.5
	fast, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	solverRowsOff = true
	plain, err := Train(context.Background(), prob, p)
	solverRowsOff = false
	if err != nil {
		t.Fatal(err)
	}
	if fast.Iter != plain.Iter || fast.Obj != plain.Obj || fast.Rho != plain.Rho || len(fast.SV) != len(plain.SV) {
		t.Fatalf("AVX2: %d iterations, obj %v, rho %v, %d SVs; kernelRow: %d, %v, %v, %d", fast.Iter, fast.Obj, fast.Rho, len(fast.SV), plain.Iter, plain.Obj, plain.Rho, len(plain.SV))
	}
	for i := range fast.SV {
		if fast.Coef[i] != plain.Coef[i] || !slices.Equal(fast.SV[i], plain.SV[i]) {
			t.Fatalf("support vector %d differs: coef %v against %v", i, fast.Coef[i], plain.Coef[i])
		}
	}
	t.Logf("%d iterations, %d support vectors, the same both ways", fast.Iter, len(fast.SV))
}
