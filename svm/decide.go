package svm

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync"
)

// rbfDecisionBatch is DecisionBatch for RBF models with a pack: each
// worker takes a contiguous run of blocks of rows (so the error returned
// is that of the first bad row). A last block of one row goes to decide1
// (same result, less work).
func (m *Model) rbfDecisionBatch(p *rbfPack, xs [][]float64, workers int) ([]float64, error) {
	if p.avx != nil {
		return m.avxDecisionBatch(p, xs, workers)
	}
	out := make([]float64, len(xs))
	nb := (len(xs) + blockRows - 1) / blockRows
	workers = max(1, min(workers, nb))
	flip := m.Labels[0] != m.PositiveLabel()
	errs := make([]error, workers)
	run := func(w int) {
		var b rbfBlock
		defer b.release()
		var direct [blockRows][]float64 // rows too large for the expansion
		// Room for the block's scaled rows (a row kept in direct is used
		// before its slot is reused).
		scaled := make([]float64, blockRows*m.NumFeatures)
		for blk := w * nb / workers; blk < (w+1)*nb/workers; blk++ {
			lo := blockRows * blk
			hi := min(lo+blockRows, len(xs))
			var res [blockRows]float64
			for i := lo; i < hi; i++ {
				r := i - lo
				x, err := m.prepareInto(scaled[r*m.NumFeatures:(r+1)*m.NumFeatures], xs[i])
				if err != nil {
					errs[w] = fmt.Errorf("row %d: %w", i, err)
					return
				}
				direct[i-lo] = nil
				if hi-lo == 1 {
					res[0] = m.rawDecision(x)
				} else if !b.load(p, i-lo, x) {
					direct[i-lo] = x
				}
			}
			if hi-lo > 1 {
				res = p.decideBlock(&b, hi-lo, m.Coef, m.Gamma, m.Rho)
			}
			for i := lo; i < hi; i++ {
				v := res[i-lo]
				if x := direct[i-lo]; x != nil {
					v = m.rbfDecision(x)
				}
				if flip {
					v = -v
				}
				out[i] = v
			}
		}
	}
	if err := fanOut(workers, run, errs); err != nil {
		return nil, err
	}
	return out, nil
}

// rbfDecision is the direct form of the RBF decision, sum coef_i
// exp(-gamma |x - sv_i|^2) - rho with the squared differences summed
// feature by feature and math.Exp, as svm-predict computes it. It is the
// reference for the packed form and the fallback where that does not
// apply. The squared distances to four support vectors are computed in
// one pass over x, as four independent chains, which the CPU runs in
// parallel. Each distance is summed in the same order as kparams.eval, so
// the result is bit-identical to evaluating the support vectors one by
// one.
func (m *Model) rbfDecision(x []float64) float64 {
	g := m.Gamma
	sum := 0.0
	sv := m.SV
	i := 0
	for ; i+4 <= len(sv); i += 4 {
		d0, d1, d2, d3 := sqDist4(x, sv[i], sv[i+1], sv[i+2], sv[i+3])
		sum += m.Coef[i] * math.Exp(-g*d0)
		sum += m.Coef[i+1] * math.Exp(-g*d1)
		sum += m.Coef[i+2] * math.Exp(-g*d2)
		sum += m.Coef[i+3] * math.Exp(-g*d3)
	}
	for ; i < len(sv); i++ {
		y := sv[i][:len(x)]
		s := 0.0
		for j, v := range x {
			d := v - y[j]
			s += d * d
		}
		sum += m.Coef[i] * math.Exp(-g*s)
	}
	return sum - m.Rho
}

// sqDist4 returns the squared distances of a to b0..b3.
func sqDist4(a, b0, b1, b2, b3 []float64) (s0, s1, s2, s3 float64) {
	n := len(a)
	b0, b1, b2, b3 = b0[:n], b1[:n], b2[:n], b3[:n]
	for i, v := range a {
		d0 := v - b0[i]
		d1 := v - b1[i]
		d2 := v - b2[i]
		d3 := v - b3[i]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	return
}

// fanOut runs run(0), ..., run(workers-1), on goroutines of their own
// when there is more than one, and returns the first error the workers
// left in errs (in worker order, so that the error is the first bad row's
// when each worker takes a contiguous run of rows). A panic on a worker's
// own goroutine, which would end the process out of reach of the caller's
// recovery, becomes the worker's error, with its stack; with one worker,
// run runs on the caller's goroutine, and a panic is the caller's.
func fanOut(workers int, run func(w int), errs []error) error {
	if workers == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						errs[w] = fmt.Errorf("svm: internal error (please report): %v\n%s", r, debug.Stack())
					}
				}()
				run(w)
			}()
		}
		wg.Wait()
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
