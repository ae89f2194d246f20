package svm

import "sync"

// rowSource produces float32 kernel values K(rows[i], rows[cols[t]])
// for the solver's Q matrix, either by computing them or by gathering
// them from a precomputed kernel matrix.
type rowSource interface {
	fill(i int32, cols []int32, out []float32)
	diag(i int32) float64
}

// computedSource evaluates the kernel on demand.
type computedSource struct {
	ds      *dataset
	k       kparams
	threads int
	scratch []float64
	par     [][]float64 // per-goroutine scratch for parallel fills
}

func (s *computedSource) fill(i int32, cols []int32, out []float32) {
	const minPar = 4096
	if s.threads > 1 && len(cols) >= minPar {
		var wg sync.WaitGroup
		chunk := (len(cols) + s.threads - 1) / s.threads
		if len(s.par) < s.threads {
			s.par = make([][]float64, s.threads)
		}
		for w, lo := 0, 0; lo < len(cols); w, lo = w+1, lo+chunk {
			hi := min(lo+chunk, len(cols))
			if cap(s.par[w]) < hi-lo {
				s.par[w] = make([]float64, chunk)
			}
			wg.Add(1)
			go func(buf []float64, lo, hi int) {
				defer wg.Done()
				s.ds.kernelRow(&s.k, int(i), cols[lo:hi], buf)
				for t, v := range buf {
					out[lo+t] = float32(v)
				}
			}(s.par[w][:hi-lo], lo, hi)
		}
		wg.Wait()
		return
	}
	if cap(s.scratch) < len(cols) {
		s.scratch = make([]float64, len(cols))
	}
	buf := s.scratch[:len(cols)]
	s.ds.kernelRow(&s.k, int(i), cols, buf)
	for t, v := range buf {
		out[t] = float32(v)
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

func (s *precomputedSource) fill(i int32, cols []int32, out []float32) {
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
		q.src.fill(q.rows[i], q.rows[start:length], seg)
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
	q.rows[i], q.rows[j] = q.rows[j], q.rows[i]
	q.y[i], q.y[j] = q.y[j], q.y[i]
	q.qd[i], q.qd[j] = q.qd[j], q.qd[i]
}
