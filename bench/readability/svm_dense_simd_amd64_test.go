//go:build goexperiment.simd && amd64

package readability

import (
	"math"
	"simd/archsimd"
)

// denseSIMD reports whether the 8-lane kernel is in use.
var denseSIMD = archsimd.X86.AVX512()

func (p *densePack) decide(xs [][]float64, xx []float64, out []float64) {
	if !denseSIMD {
		p.decideScalar(xs, xx, out)
		return
	}
	nf := p.nf
	// Rows four at a time: each group's vectors are loaded once per four
	// rows; bx[j][r] is row r's feature j, broadcast.
	bx := make([][4]archsimd.Float64x8, nf)
	ek := newExpK()
	two := archsimd.BroadcastFloat64x8(-2)
	gam := archsimd.BroadcastFloat64x8(-p.gamma)
	zero := archsimd.BroadcastFloat64x8(0)
	for i0 := 0; i0 < len(xs); i0 += 4 {
		n := min(4, len(xs)-i0)
		var xxv [4]archsimd.Float64x8
		for r := range 4 {
			for j := range nf {
				v := 0.0
				if r < n {
					v = xs[i0+r][j]
				}
				bx[j][r] = archsimd.BroadcastFloat64x8(v)
			}
			if r < n {
				xxv[r] = archsimd.BroadcastFloat64x8(xx[i0+r])
			}
		}
		var sv [4]archsimd.Float64x8
		for q := range p.ngroups {
			g := p.g[q*nf*lanes : (q+1)*nf*lanes]
			var a0, a1, a2, a3 archsimd.Float64x8
			for j := range nf {
				v := archsimd.LoadFloat64x8Slice(g[j*lanes:])
				b := &bx[j]
				a0 = v.MulAdd(b[0], a0)
				a1 = v.MulAdd(b[1], a1)
				a2 = v.MulAdd(b[2], a2)
				a3 = v.MulAdd(b[3], a3)
			}
			ss := archsimd.LoadFloat64x8Slice(p.ss[q*lanes:])
			c := archsimd.LoadFloat64x8Slice(p.coef[q*lanes:])
			acc := [4]archsimd.Float64x8{a0, a1, a2, a3}
			for r := range 4 {
				d := acc[r].MulAdd(two, xxv[r].Add(ss)).Max(zero)
				sv[r] = exp8(d.Mul(gam), ek).MulAdd(c, sv[r])
			}
		}
		sum := sv
		for r := range n {
			var s [8]float64
			sum[r].Store(&s)
			out[i0+r] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
		}
	}
}

// expK holds exp8's constants, broadcast once: scalar SSE code between
// 512-bit operations (a broadcast from a float64 in a loop) costs far more
// than the operations themselves.
type expK struct {
	lo, log2e, ln2hi, ln2lo archsimd.Float64x8
	poly                    [14]archsimd.Float64x8 // 1/13!, 1/12!, ..., 1/1!, 1
}

func newExpK() *expK {
	k := &expK{
		lo:    archsimd.BroadcastFloat64x8(-700),
		log2e: archsimd.BroadcastFloat64x8(math.Log2E),
		ln2hi: archsimd.BroadcastFloat64x8(-6.93147180369123816490e-01),
		ln2lo: archsimd.BroadcastFloat64x8(-1.90821492927058770002e-10),
	}
	f := 1.0
	for i := 13; i >= 1; i-- {
		f = 1
		for j := 2; j <= i; j++ {
			f *= float64(j)
		}
		k.poly[13-i] = archsimd.BroadcastFloat64x8(1 / f)
	}
	k.poly[13] = archsimd.BroadcastFloat64x8(1)
	return k
}

// exp8 is e**t for t <= 0 (clamped at -700, where e**t < 1e-304): t =
// k ln2 + r, |r| <= ln2/2, e**r by its degree-13 Taylor polynomial
// (truncation below 4e-18), times 2**k by VSCALEFPD.
func exp8(t archsimd.Float64x8, c *expK) archsimd.Float64x8 {
	t = t.Max(c.lo)
	k := t.Mul(c.log2e).RoundToEvenScaled(0)
	r := k.MulAdd(c.ln2hi, t)
	r = k.MulAdd(c.ln2lo, r)
	p := c.poly[0]
	for i := 1; i < len(c.poly); i++ {
		p = p.MulAdd(r, c.poly[i])
	}
	return p.Scale(k)
}

// exp8x4 is exp8 of four vectors, interleaved so that the four
// polynomial chains overlap.
func exp8x4(t0, t1, t2, t3 archsimd.Float64x8, c *expK) (archsimd.Float64x8, archsimd.Float64x8, archsimd.Float64x8, archsimd.Float64x8) {
	t0, t1, t2, t3 = t0.Max(c.lo), t1.Max(c.lo), t2.Max(c.lo), t3.Max(c.lo)
	k0 := t0.Mul(c.log2e).RoundToEvenScaled(0)
	k1 := t1.Mul(c.log2e).RoundToEvenScaled(0)
	k2 := t2.Mul(c.log2e).RoundToEvenScaled(0)
	k3 := t3.Mul(c.log2e).RoundToEvenScaled(0)
	r0 := k0.MulAdd(c.ln2lo, k0.MulAdd(c.ln2hi, t0))
	r1 := k1.MulAdd(c.ln2lo, k1.MulAdd(c.ln2hi, t1))
	r2 := k2.MulAdd(c.ln2lo, k2.MulAdd(c.ln2hi, t2))
	r3 := k3.MulAdd(c.ln2lo, k3.MulAdd(c.ln2hi, t3))
	p0, p1, p2, p3 := c.poly[0], c.poly[0], c.poly[0], c.poly[0]
	for i := 1; i < len(c.poly); i++ {
		q := c.poly[i]
		p0 = p0.MulAdd(r0, q)
		p1 = p1.MulAdd(r1, q)
		p2 = p2.MulAdd(r2, q)
		p3 = p3.MulAdd(r3, q)
	}
	return p0.Scale(k0), p1.Scale(k1), p2.Scale(k2), p3.Scale(k3)
}
