package svm

// solverRows is a copy of a dataset's rows laid out for dotsAVX2: blocks of
// four rows, feature-major within a block (row r's feature k at
// (r/4)*4d + 4k + r%4), the last block padded with zero rows. In the
// solver it holds the rows in the solver's order, kept so by swap as
// LIBSVM swaps its x pointers, so that the rows of a column segment
// [start, length) lie in consecutive blocks.
type solverRows struct {
	d int
	n int // rows (x holds them padded to whole blocks)
	x []float64
}

// solverRowsOff makes newSolverRows return nil, so that tests can train
// with kernelRow on a CPU that has the AVX2 kernel and compare.
var solverRowsOff = false

// newSolverRows copies ds, or returns nil where dotsAVX2 cannot run (no
// AVX2 kernel on this CPU or build, or rows without features). The copy
// costs as much memory again as ds, outside the kernel cache's CacheMB.
func newSolverRows(ds *dataset) *solverRows {
	if !haveAVX2 || ds.d == 0 || solverRowsOff {
		return nil
	}
	d := ds.d
	n := len(ds.x) / d
	b := &solverRows{d: d, n: n, x: make([]float64, (n+3)/4*4*d)}
	for r := 0; r < n; r++ {
		base := r/4*4*d + r%4
		for k, v := range ds.row(r) {
			b.x[base+4*k] = v
		}
	}
	return b
}

// swap exchanges rows i and j.
func (b *solverRows) swap(i, j int) {
	d := b.d
	bi, bj := i/4*4*d+i%4, j/4*4*d+j%4
	for k := 0; k < 4*d; k += 4 {
		b.x[bi+k], b.x[bj+k] = b.x[bj+k], b.x[bi+k]
	}
}

// dots sets out[t] = dot(xi, row lo+t) for t < hi-lo (0 <= lo < hi <=
// n, len(xi) = d), each summed left to right with every product rounded
// before it is added, as dot does, so bit for bit dot's values. The
// blocks around [lo, hi) are computed whole into pad (grown as needed and
// returned for reuse).
func (b *solverRows) dots(xi []float64, lo, hi int, out, pad []float64) []float64 {
	if lo < 0 || hi <= lo || hi > b.n || len(xi) != b.d || len(out) < hi-lo {
		panic("svm: solverRows.dots out of range") // the solver's own indices: a programming error
	}
	first, end := lo/4, (hi+3)/4
	need := (end - first) * 4
	if cap(pad) < need {
		pad = make([]float64, need)
	}
	pad = pad[:need]
	dotsAVX2(&xi[0], b.d, &b.x[first*4*b.d], end-first, &pad[0])
	copy(out[:hi-lo], pad[lo-first*4:])
	return pad
}
