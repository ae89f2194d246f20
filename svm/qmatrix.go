package svm

import (
	"math"
	"sync"
)

// rowSource produces float32 kernel values K(rows[i], rows[cols[t]])
// for the solver's Q matrix, either by computing them or by gathering
// them from a precomputed kernel matrix. cols are the rows of solver
// indices [start, start+len(cols)); swap tells the source that the
// solver exchanged indices i and j.
type rowSource interface {
	fill(i int32, start int, cols []int32, out []float32)
	diag(i int32) float64
	swap(i, j int)
}

// computedSource evaluates the kernel on demand: with the AVX2 kernel
// from blk, its copy of the rows in solver order, otherwise by
// kernelRow on ds. Both give the same values bit for bit
// (TestSolverRowsDots, TestComputedSourceSwaps, TestTrainSolverRows).
type computedSource struct {
	ds      *dataset
	blk     *solverRows // nil: kernelRow
	k       kparams
	threads int
	scratch []float64
	pad     []float64
	par     [][2][]float64 // per-goroutine scratch and pad for parallel fills
}

// newComputedSource is the source for the rows of ds in their order.
func newComputedSource(ds *dataset, k kparams, threads int) *computedSource {
	return &computedSource{ds: ds, blk: newSolverRows(ds), k: k, threads: threads}
}

func (s *computedSource) swap(i, j int) {
	if s.blk != nil {
		s.blk.swap(i, j)
	}
}

func (s *computedSource) fill(i int32, start int, cols []int32, out []float32) {
	const minPar = 4096
	if s.threads > 1 && len(cols) >= minPar {
		var wg sync.WaitGroup
		chunk := (len(cols) + s.threads - 1) / s.threads
		if len(s.par) < s.threads {
			s.par = make([][2][]float64, s.threads)
		}
		for w, lo := 0, 0; lo < len(cols); w, lo = w+1, lo+chunk {
			hi := min(lo+chunk, len(cols))
			wg.Add(1)
			go func(buf *[2][]float64, lo, hi int) {
				defer wg.Done()
				s.fillPart(i, start+lo, cols[lo:hi], out[lo:hi], &buf[0], &buf[1])
			}(&s.par[w], lo, hi)
		}
		wg.Wait()
		return
	}
	s.fillPart(i, start, cols, out, &s.scratch, &s.pad)
}

// fillPart fills out for the solver indices [start, start+len(cols)),
// rows cols, with scratch buffers of its own. The AVX2 path reads the rows
// from blk by solver index (and only their squared norms by cols), so
// cols must be the rows of those indices as every swap left them
// (svcQ.rows; in computeKernelMatrix, never swapped, the identity).
func (s *computedSource) fillPart(i int32, start int, cols []int32, out []float32, scratch, pad *[]float64) {
	if cap(*scratch) < len(cols) {
		*scratch = make([]float64, len(cols))
	}
	buf := (*scratch)[:len(cols)]
	if s.blk == nil {
		s.ds.kernelRow(&s.k, int(i), cols, buf)
		for t, v := range buf {
			out[t] = float32(v)
		}
		return
	}
	*pad = s.blk.dots(s.ds.row(int(i)), start, start+len(cols), buf, *pad)
	if s.k.typ == RBF {
		sqi, g := s.ds.sq[i], -s.k.gamma
		for t, d := range buf {
			out[t] = float32(math.Exp(g * (sqi + s.ds.sq[cols[t]] - 2*d)))
		}
		return
	}
	for t, d := range buf {
		out[t] = float32(s.k.fromDot(d, 0, 0))
	}
}

func (s *computedSource) diag(i int32) float64 {
	r := s.ds.row(int(i))
	var sq float64
	if s.ds.sq != nil {
		sq = s.ds.sq[i]
	}
	return s.k.fromDot(dot(r, r), sq, sq)
}

// kernelMatrix is a full precomputed n x n kernel matrix (float32, as
// LIBSVM's cache stores it) plus the exact float64 diagonal.
type kernelMatrix struct {
	n    int
	k    []float32
	diag []float64
}

// precomputedSource gathers from a kernelMatrix; global maps the
// solver's row numbers to the matrix's.
type precomputedSource struct {
	m      *kernelMatrix
	global []int32
}

func (s *precomputedSource) swap(i, j int) {}

func (s *precomputedSource) fill(i int32, start int, cols []int32, out []float32) {
	n := s.m.n
	gi := int(s.global[i])
	row := s.m.k[gi*n : (gi+1)*n]
	g := s.global
	out = out[:len(cols)]
	for t, c := range cols {
		out[t] = row[g[c]]
	}
}

func (s *precomputedSource) diag(i int32) float64 { return s.m.diag[s.global[i]] }

// svcQ is LIBSVM's SVC_Q: Q[i][j] = y_i y_j K(x_i, x_j), with columns
// cached per solver index and solver indices permuted by swapIndex.
type svcQ struct {
	src   rowSource
	y     []int8
	qd    []float64
	rows  []int32 // solver index -> row of src
	cache *cache
}

func newSVCQ(src rowSource, y []int8, cacheBytes int64) *svcQ {
	l := len(y)
	q := &svcQ{src: src, y: append([]int8(nil), y...), qd: make([]float64, l), rows: make([]int32, l), cache: newCache(l, cacheBytes)}
	for i := range q.rows {
		q.rows[i] = int32(i)
		q.qd[i] = src.diag(int32(i))
	}
	return q
}

// getQ returns column i of Q for solver indices [0, length).
func (q *svcQ) getQ(i, length int) []float32 {
	data, start := q.cache.getData(i, length)
	if start < length {
		seg := data[start:length]
		q.src.fill(q.rows[i], start, q.rows[start:length], seg)
		yi := q.y[i]
		ys := q.y[start:length]
		for t := range seg {
			if ys[t] != yi {
				seg[t] = -seg[t]
			}
		}
	}
	return data[:length]
}

func (q *svcQ) swapIndex(i, j int) {
	q.cache.swapIndex(i, j)
	q.src.swap(i, j)
	q.rows[i], q.rows[j] = q.rows[j], q.rows[i]
	q.y[i], q.y[j] = q.y[j], q.y[i]
	q.qd[i], q.qd[j] = q.qd[j], q.qd[i]
}
