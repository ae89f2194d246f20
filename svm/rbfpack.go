package svm

import (
	"math"
	"slices"
	"sync"
)

// rbfPack is the support vectors rearranged for the batched RBF
// decision. The squared distance is expanded as
//
//	|x - sv|^2 = |x'|^2 + |sv'|^2 - 2 x'.sv',  x' = x - c, sv' = sv - c,
//
// with c the most common value of each feature among the support
// vectors. Translating by c changes no distance, but most features of a
// support vector then become exactly zero (binary and clipped features
// sit at the mode), so sv' is stored sparsely and the dot products cost a
// fraction of the dense difference form; it also keeps |x'|^2 and |sv'|^2
// small, which bounds the cancellation error of the expansion.
type rbfPack struct {
	// What the pack was built from (see Model.rbfPacked).
	sv0        *[]float64
	nsv, ncoef int
	nf         int
	ok         bool // false: the batched form does not apply

	// Packed support vector q is SV[order[q]] (SV[i] is packed as
	// pos[i]); its nonzero entries are idx/val[start[q]:start[q+1]], by
	// feature, and ss[q] is its |sv'|^2.
	center []float64 // c, one per feature
	order  []int32
	pos    []int32
	start  []int32
	idx    []uint8 // feature numbers (hence nf <= 256)
	val    []float64
	ss     []float64
	maxSS  float64 // the largest ss

	avx *avxPack // nil where the AVX2 kernel cannot run
}

// maxSqNorm bounds |x'|^2 and |sv'|^2 so that the expansion cannot
// overflow; rows beyond it use the direct form.
const maxSqNorm = 1e300

// newRBFPack packs m's support vectors. The pack is not ok if the
// batched form does not apply (no support vectors, more than 256
// features, short rows, huge values); callers then use the direct form.
func newRBFPack(m *Model) *rbfPack {
	nf, nsv := m.NumFeatures, len(m.SV)
	p := &rbfPack{nsv: nsv, ncoef: len(m.Coef), nf: nf}
	if nsv == 0 || nf < 1 || nf > 256 || len(m.Coef) != nsv {
		return p
	}
	p.sv0 = &m.SV[0]
	for _, sv := range m.SV {
		if len(sv) < nf {
			return p
		}
	}
	p.center = make([]float64, nf)
	for j := range p.center {
		p.center[j] = columnMode(m.SV, j)
	}
	// Entries of sv - c in the order of SV.
	idx := make([]uint8, 0, nsv*nf/2)
	val := make([]float64, 0, nsv*nf/2)
	start := make([]int, nsv+1)
	ss := make([]float64, nsv)
	for i, sv := range m.SV {
		s := 0.0
		for j, c := range p.center {
			if d := sv[j] - c; d != 0 {
				idx = append(idx, uint8(j))
				val = append(val, d)
				s += d * d
			}
		}
		if !(s <= maxSqNorm) || len(val) > math.MaxInt32 {
			return &rbfPack{sv0: p.sv0, nsv: nsv, ncoef: nsv, nf: nf}
		}
		ss[i] = s
		start[i+1] = len(val)
	}
	// Pack them by number of entries (a stable counting sort), so that
	// the kernels' inner loops run the same length many times in a row
	// and their exits are predicted.
	count := make([]int, nf+2)
	for i := range nsv {
		count[start[i+1]-start[i]+1]++
	}
	for n := 1; n < len(count); n++ {
		count[n] += count[n-1]
	}
	p.order = make([]int32, nsv)
	p.pos = make([]int32, nsv)
	for i := range nsv {
		n := start[i+1] - start[i]
		p.order[count[n]] = int32(i)
		p.pos[i] = int32(count[n])
		count[n]++
	}
	p.idx = make([]uint8, 0, len(idx))
	p.val = make([]float64, 0, len(val))
	p.start = make([]int32, nsv+1)
	p.ss = make([]float64, nsv)
	for q, o := range p.order {
		p.idx = append(p.idx, idx[start[o]:start[o+1]]...)
		p.val = append(p.val, val[start[o]:start[o+1]]...)
		p.start[q+1] = int32(len(p.val))
		p.ss[q] = ss[o]
		p.maxSS = max(p.maxSS, ss[o])
	}
	p.ok = true
	p.avx = newAVXPack(p, m)
	return p
}

// fits reports whether p was built for m's current support vectors:
// same SV slice, counts and width. (Changing the values inside SV in
// place is not detected; see Model.SV.)
func (p *rbfPack) fits(m *Model) bool {
	if p.nsv != len(m.SV) || p.ncoef != len(m.Coef) || p.nf != m.NumFeatures {
		return false
	}
	return p.nsv == 0 || p.sv0 == &m.SV[0]
}

// columnMode returns the most common value of feature j in a sample of
// up to 64 rows spread over the support vectors (ties: the smaller
// value), or the sample's mean if no value repeats (continuous features,
// where centring only reduces magnitudes).
func columnMode(sv [][]float64, j int) float64 {
	n := min(len(sv), 64)
	col := make([]float64, n)
	for i := range col {
		col[i] = sv[i*len(sv)/n][j]
	}
	slices.Sort(col)
	best, bestRun, run, sum := col[0], 1, 0, 0.0
	for i, v := range col {
		sum += v
		if i > 0 && v == col[i-1] {
			run++
		} else {
			run = 1
		}
		if run > bestRun {
			best, bestRun = v, run
		}
	}
	if bestRun == 1 {
		if mean := sum / float64(n); !math.IsInf(mean, 0) && !math.IsNaN(mean) {
			return mean
		}
	}
	return best
}

// blockRows is how many rows decideBlock evaluates together: each
// support vector's entries are then read once per block, and the block's
// rows give the CPU that many independent sums. Six is the most whose
// sums, products and multiplier stay in the 15 vector registers the
// compiler allocates on amd64 (with eight it spills a sum to the stack
// in the inner loop, which made blocks of eight no faster than four). A
// block of at most halfRows rows takes a kernel of halfRows lanes.
const (
	blockRows = 6
	halfRows  = 4
	xStride   = 8 // a row of rbfBlock.x is a cache line (blockRows used)
)

// rbfBlock holds up to blockRows centred rows, transposed so that one
// feature's values for all rows are adjacent (the [256] bound lets the
// compiler drop the bounds checks on idx lookups), and room for their
// kernel values.
type rbfBlock struct {
	x  [256][xStride]float64
	xx [blockRows]float64
	k  *[]float64 // (*k)[i*blockRows+r]: K(row r, SV[i]), from floatPool
}

// release returns b's buffer to floatPool.
func (b *rbfBlock) release() {
	if b.k != nil {
		floatPool.Put(b.k)
		b.k = nil
	}
}

// floatPool holds the kernel-value buffers of decideBlock and decide1
// (every value is written before it is read, so they are not cleared).
var floatPool sync.Pool

// getFloats returns a buffer of at least n floats from floatPool.
func getFloats(n int) *[]float64 {
	if b, _ := floatPool.Get().(*[]float64); b != nil && cap(*b) >= n {
		return b
	}
	b := make([]float64, n)
	return &b
}

// load centres row x into column r of b; it reports false if |x'|^2 is
// too large for the expansion (the row then needs the direct form).
func (b *rbfBlock) load(p *rbfPack, r int, x []float64) bool {
	x = x[:p.nf]
	s := 0.0
	for j, c := range p.center {
		d := x[j] - c
		b.x[j][r] = d
		s += d * d
	}
	b.xx[r] = s
	return s <= maxSqNorm
}

// argsInRange reports whether every exponent -gamma |x' - sv'|^2 of a row
// with |x'|^2 <= maxXX lies in [-maxExpArg, maxExpArg], so that the
// exponentials need no range test (expInRange). sqDist(xx, ss, xy) is
// at most 2 (xx + ss) (as |xy| <= sqrt(xx ss) <= (xx + ss) / 2) plus
// rounding errors far below the margin taken here. NaN or infinite
// inputs give false.
func (p *rbfPack) argsInRange(gamma, maxXX float64) bool {
	return math.Abs(gamma)*(2.5*(maxXX+p.maxSS)) <= maxExpArg
}

// exp is expInPlace, or expInRange when inRange.
func exp(v []float64, inRange bool) {
	if inRange {
		expInRange(v)
	} else {
		expInPlace(v)
	}
}

// chunk is how many support vectors decideBlock and decide1 take at a
// time: first their exponents into a small buffer, then the
// exponentials (a tight loop the CPU overlaps well).
const chunk = 32

// decideBlock computes the raw decision values of the first rows rows
// in b. It visits the support vectors in the pack's order, but for each
// (row, support vector) the dot product is summed in the order of the
// support vector's entries and the kernel terms are summed in the order
// of SV, as decide1 does for one row (so a row's value does not depend
// on the block it is in) and as the direct form does (so only the
// kernel values differ from it, by a few ulp).
func (p *rbfPack) decideBlock(b *rbfBlock, rows int, coef []float64, gamma, rho float64) [blockRows]float64 {
	if b.k == nil || cap(*b.k) < p.nsv*blockRows {
		if b.k != nil {
			floatPool.Put(b.k)
		}
		b.k = getFloats(p.nsv * blockRows)
	}
	if rows <= halfRows {
		var s [blockRows]float64
		h := p.decideHalf(b, coef, gamma, rho)
		copy(s[:], h[:])
		return s
	}
	coef = coef[:p.nsv]
	kv := (*b.k)[:p.nsv*blockRows]
	g := -gamma
	bx := &b.x
	inRange := p.argsInRange(gamma, maxOf(b.xx[:]))
	var buf [chunk * blockRows]float64
	for i0 := 0; i0 < p.nsv; i0 += chunk {
		n := min(chunk, p.nsv-i0)
		for i := range n {
			lo, hi := p.start[i0+i], p.start[i0+i+1]
			idx := p.idx[lo:hi]
			val := p.val[lo:hi]
			val = val[:len(idx)]
			var d0, d1, d2, d3, d4, d5 float64
			for k, j := range idx {
				v := val[k]
				x := &bx[j]
				d0 += x[0] * v
				d1 += x[1] * v
				d2 += x[2] * v
				d3 += x[3] * v
				d4 += x[4] * v
				d5 += x[5] * v
			}
			q := p.ss[i0+i]
			t := (*[blockRows]float64)(buf[i*blockRows:])
			t[0] = g * sqDist(b.xx[0], q, d0)
			t[1] = g * sqDist(b.xx[1], q, d1)
			t[2] = g * sqDist(b.xx[2], q, d2)
			t[3] = g * sqDist(b.xx[3], q, d3)
			t[4] = g * sqDist(b.xx[4], q, d4)
			t[5] = g * sqDist(b.xx[5], q, d5)
		}
		exp(buf[:n*blockRows], inRange)
		for i, o := range p.order[i0 : i0+n] {
			// Element by element: a 48-byte array copy is a call to memmove.
			k := (*[blockRows]float64)(kv[int(o)*blockRows:])
			e := (*[blockRows]float64)(buf[i*blockRows:])
			k[0], k[1], k[2], k[3], k[4], k[5] = e[0], e[1], e[2], e[3], e[4], e[5]
		}
	}
	// The sums in locals (the compiler keeps an array in memory, which
	// would chain each addition through a store and a load).
	var s0, s1, s2, s3, s4, s5 float64
	for i, c := range coef {
		k := (*[blockRows]float64)(kv[i*blockRows:])
		s0 += c * k[0]
		s1 += c * k[1]
		s2 += c * k[2]
		s3 += c * k[3]
		s4 += c * k[4]
		s5 += c * k[5]
	}
	return [blockRows]float64{s0 - rho, s1 - rho, s2 - rho, s3 - rho, s4 - rho, s5 - rho}
}

// decideHalf is decideBlock for the first halfRows rows of b, with
// halfRows lanes (the same operations per row).
func (p *rbfPack) decideHalf(b *rbfBlock, coef []float64, gamma, rho float64) [halfRows]float64 {
	coef = coef[:p.nsv]
	kv := (*b.k)[:p.nsv*halfRows]
	g := -gamma
	bx := &b.x
	inRange := p.argsInRange(gamma, maxOf(b.xx[:halfRows]))
	var buf [chunk * halfRows]float64
	for i0 := 0; i0 < p.nsv; i0 += chunk {
		n := min(chunk, p.nsv-i0)
		for i := range n {
			lo, hi := p.start[i0+i], p.start[i0+i+1]
			idx := p.idx[lo:hi]
			val := p.val[lo:hi]
			val = val[:len(idx)]
			var d0, d1, d2, d3 float64
			for k, j := range idx {
				v := val[k]
				x := &bx[j]
				d0 += x[0] * v
				d1 += x[1] * v
				d2 += x[2] * v
				d3 += x[3] * v
			}
			q := p.ss[i0+i]
			t := (*[halfRows]float64)(buf[i*halfRows:])
			t[0] = g * sqDist(b.xx[0], q, d0)
			t[1] = g * sqDist(b.xx[1], q, d1)
			t[2] = g * sqDist(b.xx[2], q, d2)
			t[3] = g * sqDist(b.xx[3], q, d3)
		}
		exp(buf[:n*halfRows], inRange)
		for i, o := range p.order[i0 : i0+n] {
			k := (*[halfRows]float64)(kv[int(o)*halfRows:])
			e := (*[halfRows]float64)(buf[i*halfRows:])
			k[0], k[1], k[2], k[3] = e[0], e[1], e[2], e[3] // not memmove, as in decideBlock
		}
	}
	var s0, s1, s2, s3 float64 // in locals, as in decideBlock
	for i, c := range coef {
		k := (*[halfRows]float64)(kv[i*halfRows:])
		s0 += c * k[0]
		s1 += c * k[1]
		s2 += c * k[2]
		s3 += c * k[3]
	}
	return [halfRows]float64{s0 - rho, s1 - rho, s2 - rho, s3 - rho}
}

// rbfRow is one centred row for decide1.
type rbfRow [256]float64

// load centres x into r and returns |x'|^2; ok is false if that is too
// large for the expansion.
func (r *rbfRow) load(p *rbfPack, x []float64) (xx float64, ok bool) {
	x = x[:p.nf]
	for j, c := range p.center {
		d := x[j] - c
		r[j] = d
		xx += d * d
	}
	return xx, xx <= maxSqNorm
}

// decide1 is decideBlock for a single row: the same operations in the
// same order, so the same result. Support vectors of equal length (the
// pack sorts them by length) are taken four at a time to give the CPU
// independent sums.
func (p *rbfPack) decide1(x *rbfRow, xx float64, coef []float64, gamma, rho float64) float64 {
	coef = coef[:p.nsv]
	kb := getFloats(p.nsv)
	defer floatPool.Put(kb)
	k := (*kb)[:p.nsv]
	g := -gamma
	inRange := p.argsInRange(gamma, xx)
	var buf [chunk + 3]float64
	for q0 := 0; q0 < p.nsv; {
		n := 0 // exponents in buf, for SVs packed at q0, q0+1, ...
		for n < chunk && q0+n < p.nsv {
			q := q0 + n
			lo, hi := p.start[q], p.start[q+1]
			if q+4 <= p.nsv && p.start[q+4]-p.start[q+3] == hi-lo {
				m := int(hi - lo)
				i0 := p.idx[lo : lo+int32(m)]
				i1 := p.idx[hi : hi+int32(m)]
				i2 := p.idx[hi+int32(m) : hi+int32(2*m)]
				i3 := p.idx[hi+int32(2*m) : hi+int32(3*m)]
				v0 := p.val[lo : lo+int32(m)]
				v1 := p.val[hi : hi+int32(m)]
				v2 := p.val[hi+int32(m) : hi+int32(2*m)]
				v3 := p.val[hi+int32(2*m) : hi+int32(3*m)]
				i1, i2, i3 = i1[:len(i0)], i2[:len(i0)], i3[:len(i0)]
				v0, v1, v2, v3 = v0[:len(i0)], v1[:len(i0)], v2[:len(i0)], v3[:len(i0)]
				var d0, d1, d2, d3 float64
				for e, j := range i0 {
					d0 += x[j] * v0[e]
					d1 += x[i1[e]] * v1[e]
					d2 += x[i2[e]] * v2[e]
					d3 += x[i3[e]] * v3[e]
				}
				buf[n] = g * sqDist(xx, p.ss[q], d0)
				buf[n+1] = g * sqDist(xx, p.ss[q+1], d1)
				buf[n+2] = g * sqDist(xx, p.ss[q+2], d2)
				buf[n+3] = g * sqDist(xx, p.ss[q+3], d3)
				n += 4
				continue
			}
			idx := p.idx[lo:hi]
			val := p.val[lo:hi]
			val = val[:len(idx)]
			d := 0.0
			for e, j := range idx {
				d += x[j] * val[e]
			}
			buf[n] = g * sqDist(xx, p.ss[q], d)
			n++
		}
		exp(buf[:n], inRange)
		for i, o := range p.order[q0 : q0+n] {
			k[o] = buf[i]
		}
		q0 += n
	}
	s := 0.0
	for i, c := range coef {
		s += c * k[i]
	}
	return s - rho
}

// maxOf returns the largest of v (NaN if one is NaN).
func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		if !(x <= m) {
			m = x
		}
	}
	return m
}

// sqDist is |x|^2 + |y|^2 - 2 x.y, clamped at 0 (rounding can make it
// slightly negative when x is a support vector).
func sqDist(xx, yy, xy float64) float64 {
	d := xx + yy - 2*xy
	if !(d > 0) {
		return 0
	}
	return d
}

// rbfPacked returns the packed support vectors of an RBF model, packing
// them on first use, or nil if the batched form does not apply. Safe for
// concurrent use: racing callers may each pack, and one pack is kept.
func (m *Model) rbfPacked() *rbfPack {
	if m.Kernel != RBF {
		return nil
	}
	p, _ := m.rbf.Load().(*rbfPack)
	if p == nil || !p.fits(m) {
		p = newRBFPack(m)
		m.rbf.Store(p)
	}
	if !p.ok {
		return nil
	}
	return p
}
