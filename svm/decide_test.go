package svm

import (
	"math/rand/v2"
	"testing"
)

// TestRBFDecisionIdentical checks the four-at-a-time RBF decision against
// the one-by-one kernel evaluation: the results must be bit-identical.
func TestRBFDecisionIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, nsv := range []int{0, 1, 3, 4, 5, 17} {
		m := &Model{Kernel: RBF, Gamma: 0.3, Rho: 0.25, NumFeatures: 7}
		for i := 0; i < nsv; i++ {
			v := make([]float64, 7)
			for j := range v {
				v[j] = r.Float64()*2 - 1
			}
			m.SV = append(m.SV, v)
			m.Coef = append(m.Coef, r.Float64()*4-2)
		}
		k := m.kparams()
		for trial := 0; trial < 20; trial++ {
			x := make([]float64, 7)
			for j := range x {
				x[j] = r.Float64()*2 - 1
			}
			want := 0.0
			for i, sv := range m.SV {
				want += m.Coef[i] * k.eval(x, sv)
			}
			want -= m.Rho
			if got := m.rbfDecision(x); got != want {
				t.Fatalf("%d SVs: rbfDecision = %v, one by one %v", nsv, got, want)
			}
		}
	}
}

func BenchmarkRBFDecision(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	m := &Model{Kernel: RBF, Gamma: 0.02, NumFeatures: 50}
	for i := 0; i < 1600; i++ {
		v := make([]float64, 50)
		for j := range v {
			v[j] = r.Float64()*2 - 1
		}
		m.SV = append(m.SV, v)
		m.Coef = append(m.Coef, r.Float64())
	}
	x := m.SV[0]
	k := m.kparams()
	b.Run("one-by-one", func(b *testing.B) {
		for n := 0; n < b.N; n++ {
			s := 0.0
			for i, sv := range m.SV {
				s += m.Coef[i] * k.eval(x, sv)
			}
			_ = s
		}
	})
	b.Run("four-at-a-time", func(b *testing.B) {
		for n := 0; n < b.N; n++ {
			m.rbfDecision(x)
		}
	})
}
