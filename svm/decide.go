package svm

import "math"

// rbfDecision is rawDecision for the RBF kernel: the squared distances to
// four support vectors are computed in one pass over x, as four
// independent chains, which the CPU runs in parallel. Each distance is
// summed in the same order as kparams.eval, so the result is bit-identical
// to evaluating the support vectors one by one.
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
