package svm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulpDiff is the distance between a and b in units in the last place
// (both finite and of the same sign).
func ulpDiff(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		d = -d
	}
	return d
}

// TestFastExp compares fastExp with math.Exp (itself within 1 ulp of e**t)
// on a dense sample of the RBF range [-50, 0], random points of [-700,
// 700], the table's nodes and the fallback range.
func TestFastExp(t *testing.T) {
	var worst int64
	var worstT float64
	check := func(x float64) {
		got, want := fastExp(x), math.Exp(x)
		if got == want {
			return
		}
		if math.IsNaN(want) && math.IsNaN(got) {
			return
		}
		d := ulpDiff(got, want)
		if want == 0 || math.IsInf(want, 0) || math.Signbit(got) != math.Signbit(want) {
			d = math.MaxInt64
		}
		if d > worst {
			worst, worstT = d, x
		}
	}
	for i := 0; i <= 2_000_000; i++ {
		check(-50 * float64(i) / 2_000_000)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1_000_000; i++ {
		check(1400*r.Float64() - 700)
	}
	for k := -700 * 64; k <= 700*64; k++ {
		x := float64(k) * math.Ln2 / 64
		check(x)
		check(math.Nextafter(x, 0))
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 700, -700, 700.5, -700.5, -745.2, -746, 709.9, 710, math.Inf(1), math.Inf(-1), math.NaN()} {
		check(x)
	}
	t.Logf("max difference from math.Exp: %d ulp (at %v)", worst, worstT)
	if worst > 2 {
		t.Errorf("fastExp differs from math.Exp by %d ulp at %v", worst, worstT)
	}
}

// expBig is e**x correctly rounded to float64 (x in [-700, 700]): the
// Taylor series of e**(x/2**11) in 256-bit arithmetic, squared 11 times.
func expBig(x float64) float64 {
	const prec, halvings = 256, 11
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -halvings)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

// TestFastExpAccuracy compares fastExp with e**t computed in 256-bit
// arithmetic: it must be within 1 ulp (math.Exp's own bound).
func TestFastExpAccuracy(t *testing.T) {
	if expBig(1) != math.E || expBig(0) != 1 || expBig(-1) != 1/math.E {
		t.Fatalf("reference exp is wrong: %v %v %v", expBig(1), expBig(0), expBig(-1))
	}
	r := rand.New(rand.NewPCG(3, 5))
	n := 3000
	if raceEnabled || testing.Short() {
		n = 300
	}
	var worst, worstStd int64
	for i := 0; i < n; i++ {
		x := -30 * r.Float64() // the RBF range
		if i%4 == 0 {
			x = 1400*r.Float64() - 700
		}
		want := expBig(x)
		worst = max(worst, ulpDiff(fastExp(x), want))
		worstStd = max(worstStd, ulpDiff(math.Exp(x), want))
	}
	t.Logf("largest error: fastExp %d ulp, math.Exp %d ulp", worst, worstStd)
	if worst > 1 {
		t.Errorf("fastExp is off by %d ulp", worst)
	}
}

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1500)
	for i := range xs {
		xs[i] = -20 * float64(i) / float64(len(xs))
	}
	b.Run("math.Exp", func(b *testing.B) {
		for n := 0; n < b.N; n++ {
			s := 0.0
			for _, x := range xs {
				s += math.Exp(x)
			}
			benchSink = s
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/exp")
	})
	b.Run("expInPlace", func(b *testing.B) {
		ys := make([]float64, len(xs))
		for n := 0; n < b.N; n++ {
			copy(ys, xs)
			expInPlace(ys)
			s := 0.0
			for _, y := range ys {
				s += y
			}
			benchSink = s
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/exp")
	})
}

var benchSink float64

// TestExpInRange checks that expInRange gives expInPlace's values, bit
// for bit, over its range.
func TestExpInRange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	v := make([]float64, 0, 1<<16)
	v = append(v, 0, math.Copysign(0, -1), 1e-300, -1e-300, 700, -700, math.Nextafter(700, 0), math.Nextafter(-700, 0))
	for len(v) < cap(v) {
		switch len(v) % 3 {
		case 0:
			v = append(v, 1400*r.Float64()-700)
		case 1:
			v = append(v, -5*r.Float64())
		default:
			v = append(v, -50*r.Float64())
		}
	}
	a := append([]float64(nil), v...)
	b := append([]float64(nil), v...)
	expInPlace(a)
	expInRange(b)
	for i := range v {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			t.Fatalf("e**%v: expInRange %v, expInPlace %v", v[i], b[i], a[i])
		}
	}
}
