package svm

import (
	"math"
	"testing"
)

// Where the CPU has AVX2 and FMA (and fiasco is built without -tags
// noasm), RBF models take the AVX2 kernel, so the packed-decision tests
// above test it; built with -tags noasm they test the portable kernels.
func TestAVXKernelInUse(t *testing.T) {
	m, _ := realisticRBF(50, 10, 0, 1)
	p := m.rbfPacked()
	if p == nil {
		t.Fatal("not packed")
	}
	if got := p.avx != nil; got != haveAVX2 {
		t.Fatalf("AVX2 kernel in use: %v, CPU and build allow it: %v", got, haveAVX2)
	}
	t.Logf("AVX2 kernel in use: %v", haveAVX2)
}

// The kernel against the portable block kernel and the direct form, for
// every count of rows in a call (1 to 8), support vector counts that are
// not multiples of four, and widths from 1 to 256.
func TestAVXKernelAgainstPortable(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2 kernel on this CPU or build (-tags noasm)")
	}
	worst := 0.0
	for _, c := range []struct{ nsv, nf int }{{1, 1}, {2, 3}, {7, 43}, {1522, 43}, {301, 58}, {5, 256}} {
		m, rows := realisticRBF(c.nsv, c.nf, 8, uint64(c.nsv*7+c.nf))
		p := m.rbfPacked()
		for n := 1; n <= avxRows; n++ {
			b := getAVXBuf(p.nf)
			for _, x := range rows[:n] {
				if !b.add(p, x, m.Gamma) {
					t.Fatalf("%+v: row not taken", c)
				}
			}
			got := make([]float64, n)
			if err := p.avx.decide(b, m.Coef, m.Gamma, m.Rho, got); err != nil {
				t.Fatal(err)
			}
			avxBufPool.Put(b)
			var port [blockRows]float64
			if n > 1 && n <= blockRows {
				var blk rbfBlock
				for r, x := range rows[:n] {
					blk.load(p, r, x)
				}
				port = p.decideBlock(&blk, n, m.Coef, m.Gamma, m.Rho)
				blk.release()
			}
			for r, x := range rows[:n] {
				want := m.rbfDecision(x)
				worst = max(worst, packTolerance(t, m, x, got[r], want))
				if n > 1 && n <= blockRows {
					packTolerance(t, m, x, port[r], want)
				}
			}
		}
	}
	t.Logf("largest difference from the direct form: %.3g of the sum of |terms|", worst)
}

// In one batch, rows whose exponents stay in the table's range take the
// kernel and the others the portable path; each row's value is the one
// Decision gives, and both match the direct form.
func TestAVXMixedRanges(t *testing.T) {
	m, rows := realisticRBF(120, 9, 40, 3)
	m.Gamma = 2
	p := m.rbfPacked()
	in := 0
	for i, x := range rows {
		if i%3 == 0 {
			for j := range x {
				x[j] *= 12 // far from every support vector
			}
		}
		xx := 0.0
		for j, c := range p.center {
			xx += (x[j] - c) * (x[j] - c)
		}
		if p.argsInRange(m.Gamma, xx) {
			in++
		}
	}
	if in == 0 || in == len(rows) {
		t.Fatalf("%d of %d rows in range: the test needs both kinds", in, len(rows))
	}
	checkPacked(t, m, rows)
	for _, x := range rows {
		d, err := m.Decision(x)
		if err != nil || math.IsNaN(d) {
			t.Fatalf("Decision: %v, %v", d, err)
		}
	}
}
