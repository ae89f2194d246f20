package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// GridOptions configures GridSearch. Zero values mean svm-grid's
// defaults.
type GridOptions struct {
	// Log2C and Log2G list the exponents to try; nil means LIBSVM's
	// default grid: log2 C = -5, -3, ..., 15 and log2 gamma = 3, 1, ..., -15.
	Log2C, Log2G []float64
	// C and Gamma, when not nil, are the values tried, exactly, in
	// place of 2 to the power of Log2C's and Log2G's (which must then
	// be as long: they label the points). svm-grid's "-log2c null"
	// gives the one C of -c so, which 2^log2(C) may miss by a bit.
	// A Gamma of 0 is 1/num_features, as Params' (its label then too).
	C, Gamma []float64
	Folds    int    // k of stratified k-fold CV (default 5)
	Seed     uint64 // fold seed
	// FoldOf, if set, gives each row's fold instead of Folds/Seed.
	FoldOf []int
	// Workers is the number of parallel trainings (default GOMAXPROCS).
	Workers int
	// KernelMB bounds the memory for precomputed full kernel matrices,
	// shared by all C values and folds of one gamma. If one n*n float32
	// matrix does not fit, kernels are computed on demand. Default 1024.
	KernelMB float64
	// Progress, if set, is called after each finished (C, gamma) pair,
	// one call at a time and with done increasing, so that it needs no
	// lock of its own; it should return quickly (the workers wait).
	Progress func(done, total int)
}

// valueC is the i-th C of the grid.
func (o *GridOptions) valueC(i int) float64 {
	if o.C != nil {
		return o.C[i]
	}
	return math.Exp2(o.Log2C[i])
}

// valueGamma is the i-th gamma of the grid.
func (o *GridOptions) valueGamma(i int) float64 {
	if o.Gamma != nil {
		return o.Gamma[i]
	}
	return math.Exp2(o.Log2G[i])
}

// RangeLog2 returns begin, begin+step, ... up to end inclusive, as
// svm-grid's -log2c begin,end,step.
func RangeLog2(begin, end, step float64) ([]float64, error) {
	if step == 0 || (end-begin)*step < 0 {
		return nil, fmt.Errorf("svm: bad range %g,%g,%g: the step must be nonzero and lead from begin to end (negative where end is below begin)", begin, end, step)
	}
	var out []float64
	for v := begin; (step > 0 && v <= end+1e-9) || (step < 0 && v >= end-1e-9); v += step {
		out = append(out, v)
		if len(out) > 10000 {
			return nil, fmt.Errorf("svm: range %g,%g,%g too long", begin, end, step)
		}
	}
	return out, nil
}

// GridPoint is one (C, gamma) pair and its CV metrics.
type GridPoint struct {
	Log2C, Log2G float64
	C, Gamma     float64
	Metrics
}

// GridResult holds all points (in Log2G-major, Log2C-minor order) and
// the best one: highest CV accuracy, ties broken by smaller C, then
// smaller gamma.
type GridResult struct {
	Points []GridPoint
	Best   GridPoint
	Log2C  []float64
	Log2G  []float64
}

// GridSearch cross-validates base with every (C, gamma) of the grid,
// running opt.Workers trainings in parallel. Kernel values do not
// depend on C or the fold, so for each gamma the full kernel matrix is
// computed once (when it fits in KernelMB) and shared by all its
// trainings; each training still runs LIBSVM's exact solver from
// alpha = 0 (warm starts would change the results). When ctx ends
// first, GridSearch returns the context's error with the pairs whose
// every fold had finished (nil when none had), as svm-grid's table keeps
// the lines written before it was stopped.
func GridSearch(ctx context.Context, prob *Problem, base Params, opt GridOptions) (*GridResult, error) {
	if err := prob.Validate(); err != nil {
		return nil, err
	}
	if err := base.Validate(); err != nil {
		return nil, err
	}
	if opt.Log2C == nil {
		opt.Log2C, _ = RangeLog2(-5, 15, 2)
	}
	if opt.Log2G == nil {
		opt.Log2G, _ = RangeLog2(3, -15, -2)
	}
	if base.Kernel == Linear {
		opt.Log2G = []float64{math.Log2(base.kparams(prob.NumFeatures()).gamma)}
		opt.Gamma = nil
	}
	if len(opt.Log2C) == 0 || len(opt.Log2G) == 0 {
		return nil, fmt.Errorf("svm: empty grid")
	}
	if opt.C != nil && len(opt.C) != len(opt.Log2C) || opt.Gamma != nil && len(opt.Gamma) != len(opt.Log2G) {
		return nil, fmt.Errorf("svm: GridOptions.C or Gamma is not as long as Log2C or Log2G")
	}
	if slices.Contains(opt.Gamma, 0) {
		// svm-grid's "-log2g null" with svm-train's -g 0: the gamma is
		// 1/num_features, as Train makes it.
		g := 1 / float64(max(1, prob.NumFeatures()))
		opt.Gamma, opt.Log2G = slices.Clone(opt.Gamma), slices.Clone(opt.Log2G)
		for i, v := range opt.Gamma {
			if v == 0 {
				opt.Gamma[i], opt.Log2G[i] = g, math.Log2(g)
			}
		}
	}
	for _, v := range append(append([]float64(nil), opt.C...), opt.Gamma...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("svm: grid value %g: want a positive number", v)
		}
	}
	for _, g := range [...]struct {
		name string
		v    []float64
	}{{"log2 C", opt.Log2C}, {"log2 gamma", opt.Log2G}} {
		for _, e := range g.v {
			// 2^e must be a positive finite number: Train refuses others.
			if v := math.Exp2(e); math.IsNaN(e) || math.IsInf(v, 0) || v == 0 {
				return nil, fmt.Errorf("svm: grid %s %g: 2^%g is no usable value", g.name, e, e)
			}
		}
	}
	foldOf := opt.FoldOf
	if foldOf == nil {
		k := opt.Folds
		if k == 0 {
			k = 5
		}
		var err error
		if foldOf, err = StratifiedFolds(prob.Y, k, opt.Seed); err != nil {
			return nil, err
		}
	} else if len(foldOf) != prob.Len() {
		return nil, fmt.Errorf("%w: %d fold numbers for %d rows", ErrDimensions, len(foldOf), prob.Len())
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	kmb := opt.KernelMB
	if kmb == 0 {
		kmb = 1024
	}
	n := prob.Len()
	usePre := float64(n)*float64(n)*4 <= kmb*(1<<20)/float64(min(workers, len(opt.Log2G)))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// One job per (gamma, C, fold); gammas in order, larger C first
	// (longer trainings early balance the workers better).
	type gammaState struct {
		once    sync.Once
		km      *kernelMatrix
		pending int
	}
	folds := distinctInts(foldOf)
	gs := make([]*gammaState, len(opt.Log2G))
	for g := range gs {
		gs[g] = &gammaState{pending: len(opt.Log2C) * len(folds)}
	}
	cOrder := make([]int, len(opt.Log2C))
	for i := range cOrder {
		cOrder[i] = i
	}
	sort.SliceStable(cOrder, func(a, b int) bool { return opt.Log2C[cOrder[a]] > opt.Log2C[cOrder[b]] })
	type job struct{ g, c, f int }
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		for g := range opt.Log2G {
			for _, c := range cOrder {
				for f := range folds {
					select {
					case jobs <- job{g, c, f}:
					case <-ctx.Done():
						return
					}
				}
			}
		}
	}()

	results := make([]*CVResult, len(opt.Log2G)*len(opt.Log2C))
	left := make([]int, len(results))
	for i := range results {
		results[i] = &CVResult{Decision: make([]float64, n), Pred: make([]float64, n)}
		left[i] = len(folds)
	}
	var mu sync.Mutex
	var firstErr error
	done, total := 0, len(results)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range jobs {
				p := base
				p.C, p.Gamma = opt.valueC(jb.c), opt.valueGamma(jb.g)
				if base.Kernel == Linear {
					p.Gamma = base.Gamma
				}
				st := gs[jb.g]
				var km *kernelMatrix
				if usePre {
					st.once.Do(func() {
						kp := p.kparams(prob.NumFeatures())
						st.km = computeKernelMatrix(prob.X, &kp, workers)
					})
					km = st.km
				}
				idx := jb.g*len(opt.Log2C) + jb.c
				err := cvFold(ctx, prob, p, foldOf, folds[jb.f], km, results[idx])
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				st.pending--
				if st.pending == 0 {
					st.km = nil // free the matrix once its gamma is done
				}
				if err == nil {
					left[idx]-- // a fold cut short leaves its pair unfinished
				}
				if err == nil && left[idx] == 0 {
					done++
					// Under mu: one call at a time, done in order.
					if opt.Progress != nil && err == nil {
						opt.Progress(done, total)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	stopped := ctx.Err()
	if firstErr != nil && !(stopped != nil && errors.Is(firstErr, stopped)) {
		return nil, firstErr
	}
	res := &GridResult{Log2C: opt.Log2C, Log2G: opt.Log2G}
	for g, lg := range opt.Log2G {
		for c, lc := range opt.Log2C {
			if left[g*len(opt.Log2C)+c] > 0 {
				continue // stopped before its folds were all done
			}
			r := results[g*len(opt.Log2C)+c]
			pt := GridPoint{Log2C: lc, Log2G: lg, C: opt.valueC(c), Gamma: opt.valueGamma(g), Metrics: cvMetrics(prob, r.Pred)}
			if base.Kernel == Linear {
				pt.Gamma = base.Gamma
			}
			res.Points = append(res.Points, pt)
			if len(res.Points) == 1 || better(pt, res.Best) {
				res.Best = pt
			}
		}
	}
	if stopped != nil {
		if len(res.Points) == 0 {
			return nil, stopped
		}
		return res, stopped
	}
	return res, nil
}

func better(a, b GridPoint) bool {
	if a.Accuracy != b.Accuracy {
		return a.Accuracy > b.Accuracy
	}
	if a.C != b.C {
		return a.C < b.C
	}
	return a.Gamma < b.Gamma
}

func distinctInts(v []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// computeKernelMatrix fills the full n x n kernel matrix of X (float32
// off-diagonal values, as the solver's cache would hold them) on
// `workers` goroutines, using symmetry.
func computeKernelMatrix(X [][]float64, kp *kparams, workers int) *kernelMatrix {
	n := len(X)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	ds := newDataset(X, all, kp)
	src := newComputedSource(ds, *kp, 1) // fillPart only: safe on many goroutines
	km := &kernelMatrix{n: n, k: make([]float32, n*n), diag: make([]float64, n)}
	cols := make([]int32, n)
	for i := range cols {
		cols[i] = int32(i)
	}
	var next int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch, pad []float64
			for {
				mu.Lock()
				i := int(next)
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				// row i, columns i..n-1; mirror into column i
				src.fillPart(int32(i), i, cols[i:], km.k[i*n+i:(i+1)*n], &scratch, &pad)
			}
		}()
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		r := ds.row(i)
		var sq float64
		if ds.sq != nil {
			sq = ds.sq[i]
		}
		km.diag[i] = kp.fromDot(dot(r, r), sq, sq)
		for j := 0; j < i; j++ {
			km.k[i*n+j] = km.k[j*n+i]
		}
	}
	return km
}
