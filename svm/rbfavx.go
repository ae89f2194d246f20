package svm

import (
	"fmt"
	"math"
	"sync"
)

// The RBF decision on amd64 CPUs with AVX2 and FMA (rbfavx_amd64.s).
//
// avxPack lays the centred support vectors (see rbfPack) out densely in
// groups of four, one 4-lane vector per feature, so that the kernel
// computes the dot products of eight rows with four support vectors in
// eight fused multiply-adds per feature, then the four squared distances
// and exponentials of each row at once (Tang's method as in expInRange,
// with the table read by a gather), and adds coef times the kernel value
// to the row's four partial sums. A row's value depends on that row
// alone, not on the rows beside it, so Decision and DecisionBatch agree
// bit for bit; it differs from the direct form (svm-predict's order) by
// rounding only: the products are fused and the terms are summed in four
// lanes. Tests compare it with the direct form; built with -tags noasm,
// or on other CPUs, fiasco uses the portable rbfPack kernels.
type avxPack struct {
	nf, ngroups int
	// groups: per group of four support vectors, nf*4 values (feature
	// j of lane l at j*4+l), then the lanes' |sv'|^2. Lanes past the last
	// support vector are zero. The coefficients are not packed: the kernel
	// reads Model.Coef at every call (four per group, in SV order; the last
	// group's from a padded copy), as the Model's contract wants.
	groups []float64
}

const (
	avxRows  = 8 // rows per call of the kernel
	avxLanes = 4 // support vectors per group
)

// avxConst holds the kernel's constants, each broadcast to four lanes,
// at the offsets rbfavx_amd64.s reads.
type avxConst [11][avxLanes]float64

// newAVXPack packs m's support vectors for the kernel, or returns nil
// where it cannot run.
func newAVXPack(p *rbfPack, m *Model) *avxPack {
	if !haveAVX2 || !p.ok || p.nsv == 0 {
		return nil
	}
	nf := p.nf
	a := &avxPack{nf: nf, ngroups: (p.nsv + avxLanes - 1) / avxLanes}
	stride := (nf + 1) * avxLanes
	a.groups = make([]float64, a.ngroups*stride)
	for i, sv := range m.SV {
		base, l := i/avxLanes*stride, i%avxLanes
		for j, c := range p.center {
			a.groups[base+j*avxLanes+l] = sv[j] - c
		}
		a.groups[base+nf*avxLanes+l] = p.ss[p.pos[i]]
	}
	return a
}

// avxBuf is one caller's working memory for the kernel.
type avxBuf struct {
	x       []float64 // nf x avxRows x avxLanes: row r's feature j, broadcast
	xx      [avxRows]float64
	rows    int
	scratch [avxRows * avxLanes]float64
	sums    [avxRows * avxLanes]float64
	k       avxConst
	// coefTail is the last group's coefficients, padded with zeros.
	coefTail [avxLanes]float64
}

var avxBufPool sync.Pool

func getAVXBuf(nf int) *avxBuf {
	b, _ := avxBufPool.Get().(*avxBuf)
	if b == nil || cap(b.x) < nf*avxRows*avxLanes {
		b = &avxBuf{x: make([]float64, nf*avxRows*avxLanes)}
	}
	b.x = b.x[:nf*avxRows*avxLanes]
	b.rows = 0
	return b
}

// add centres row x (of p's width) into the next free row of b and
// reports whether the kernel can take it: every exponent of the row must
// lie in the table method's range (see rbfPack.argsInRange). A row it
// cannot take is not added.
func (b *avxBuf) add(p *rbfPack, x []float64, gamma float64) bool {
	x = x[:p.nf]
	r := b.rows
	xx := 0.0
	for j, c := range p.center {
		d := x[j] - c
		xx += d * d
	}
	if !(xx <= maxSqNorm) || !p.argsInRange(gamma, xx) {
		return false
	}
	for j, c := range p.center {
		d := x[j] - c
		v := (*[avxLanes]float64)(b.x[(j*avxRows+r)*avxLanes:])
		v[0], v[1], v[2], v[3] = d, d, d, d
	}
	b.xx[r] = xx
	b.rows++
	return true
}

// decide runs the kernel over b's rows and writes their raw decision
// values to out[:b.rows]; then b is empty. coef holds one coefficient per
// support vector.
func (a *avxPack) decide(b *avxBuf, coef []float64, gamma, rho float64, out []float64) error {
	if b.rows == 0 {
		return nil
	}
	if len(out) < b.rows || len(b.x) < a.nf*avxRows*avxLanes {
		return fmt.Errorf("svm: avx decision: %d rows, room for %d", b.rows, len(out))
	}
	if n := len(coef); n > a.ngroups*avxLanes || n <= (a.ngroups-1)*avxLanes {
		return fmt.Errorf("svm: avx decision: %d coefficients for %d groups of support vectors", n, a.ngroups)
	}
	// Whole groups read coef in place; the last group, when partial,
	// reads a padded copy (its lanes past the end have coefficient 0).
	full := len(coef) / avxLanes
	b.coefTail = [avxLanes]float64{}
	copy(b.coefTail[:], coef[full*avxLanes:])
	b.setConst(gamma)
	if b.rows == 1 { // the one-row kernel: the same result, an eighth of the work
		x := b.x[:a.nf*avxLanes]
		for j := range a.nf { // feature j of row 0 to x[j*4:]
			copy(x[j*avxLanes:(j+1)*avxLanes], b.x[j*avxRows*avxLanes:])
		}
		clear(b.sums[:avxLanes])
		stride := (a.nf + 1) * avxLanes
		if full > 0 {
			rbfGroups1AVX2(&a.groups[0], &coef[0], full, a.nf, &x[0], &b.xx[0], &b.k, &exp2Tab[0], &b.sums[0])
		}
		if full < a.ngroups {
			rbfGroups1AVX2(&a.groups[full*stride], &b.coefTail[0], 1, a.nf, &x[0], &b.xx[0], &b.k, &exp2Tab[0], &b.sums[0])
		}
	} else {
		a.decideRows(b, coef, full)
	}
	for r := range b.rows {
		s := b.sums[r*avxLanes : (r+1)*avxLanes]
		out[r] = ((s[0] + s[1]) + (s[2] + s[3])) - rho
	}
	b.rows = 0
	return nil
}

// decideRows runs the eight-row kernel over b (rows past b.rows zero):
// the first full groups with coef in place, then the partial last one.
func (a *avxPack) decideRows(b *avxBuf, coef []float64, full int) {
	for r := b.rows; r < avxRows; r++ { // rows not in use: zero
		for j := range a.nf {
			clear(b.x[(j*avxRows+r)*avxLanes : (j*avxRows+r+1)*avxLanes])
		}
		b.xx[r] = 0
	}
	clear(b.sums[:])
	if full > 0 {
		rbfGroupsAVX2(&a.groups[0], &coef[0], full, a.nf, &b.x[0], &b.xx[0], &b.k, &exp2Tab[0], &b.scratch[0], &b.sums[0])
	}
	if full < a.ngroups {
		stride := (a.nf + 1) * avxLanes
		rbfGroupsAVX2(&a.groups[full*stride], &b.coefTail[0], 1, a.nf, &b.x[0], &b.xx[0], &b.k, &exp2Tab[0], &b.scratch[0], &b.sums[0])
	}
}

// setConst sets b's kernel constants for gamma.
func (b *avxBuf) setConst(gamma float64) {
	for l := range avxLanes {
		b.k[0][l] = -gamma
		b.k[1][l] = expInv
		b.k[2][l] = expShifter
		b.k[3][l] = expLn2hi
		b.k[4][l] = expLn2lo
		b.k[5][l] = 1.0 / 2
		b.k[6][l] = 1.0 / 6
		b.k[7][l] = 1.0 / 24
		b.k[8][l] = 1.0 / 120
		b.k[9][l] = math.Float64frombits(63)
		b.k[10][l] = math.Float64frombits(^uint64(63))
	}
}

// avxDecisionBatch is rbfDecisionBatch with the AVX2 kernel: each worker
// takes a contiguous run of rows, eight at a time. A row whose exponents
// may leave the kernel's range goes the way Decision sends it
// (rawDecision), so both give the same value for every row.
func (m *Model) avxDecisionBatch(p *rbfPack, xs [][]float64, workers int) ([]float64, error) {
	out := make([]float64, len(xs))
	workers = max(1, min(workers, (len(xs)+avxRows-1)/avxRows))
	flip := m.Labels[0] != m.PositiveLabel()
	errs := make([]error, workers)
	run := func(w int) {
		b := getAVXBuf(p.nf)
		defer avxBufPool.Put(b)
		scaled := make([]float64, m.NumFeatures)
		var at [avxRows]int // the rows in b, by index in xs
		var res [avxRows]float64
		flush := func() error {
			n := b.rows
			if err := p.avx.decide(b, m.Coef, m.Gamma, m.Rho, res[:]); err != nil {
				return err
			}
			for r := range n {
				out[at[r]] = res[r]
			}
			return nil
		}
		lo, hi := w*len(xs)/workers, (w+1)*len(xs)/workers
		for i := lo; i < hi; i++ {
			x, err := m.prepareInto(scaled, xs[i])
			if err != nil {
				errs[w] = fmt.Errorf("row %d: %w", i, err)
				return
			}
			at[b.rows] = i
			if !b.add(p, x, m.Gamma) {
				out[i] = m.rawDecision(x)
				continue
			}
			if b.rows == avxRows {
				if err := flush(); err != nil {
					errs[w] = err
					return
				}
			}
		}
		if err := flush(); err != nil {
			errs[w] = err
		}
	}
	if err := fanOut(workers, run, errs); err != nil {
		return nil, err
	}
	if flip {
		for i := range out {
			out[i] = -out[i]
		}
	}
	return out, nil
}
