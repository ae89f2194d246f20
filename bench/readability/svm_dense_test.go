package readability

// A prototype, for measurement only, of a dense SIMD-friendly layout of an
// RBF SVM's support vectors: groups of eight support vectors stored
// feature-major, so that one 8-wide fused multiply-add advances the dot
// products of a row with eight support vectors by one feature. Built with
// GOEXPERIMENT=simd on amd64 with AVX-512, the kernel runs 8 lanes at a
// time (svm_dense_simd_amd64_test.go); otherwise a scalar loop over the
// same layout runs. It estimates what such a kernel would save in package
// svm; fiasco does not use it. BenchmarkDecide compares it with svm's
// batched sparse form in alternating runs.

import (
	"fmt"
	"math"

	"github.com/fiasco-project/fiasco/svm"
)

// lanes is the number of support vectors in a group.
const lanes = 8

// densePack is an RBF model's support vectors in groups of lanes.
type densePack struct {
	nf, ngroups int
	center      []float64 // per feature: the mean over support vectors
	g           []float64 // g[(q*nf+j)*lanes+l] = SV[q*lanes+l][j] - center[j]; 0 in padding lanes
	ss          []float64 // per lane: |sv - center|^2
	coef        []float64 // per lane; 0 in padding lanes
	gamma, rho  float64
	flip        bool
	scaler      *svm.Scaler
}

// New packs m, an RBF model.
func newDensePack(m *svm.Model) (*densePack, error) {
	if m.Kernel != svm.RBF || len(m.SV) == 0 {
		return nil, fmt.Errorf("dense pack: not an RBF model with support vectors")
	}
	nf, nsv := m.NumFeatures, len(m.SV)
	p := &densePack{nf: nf, ngroups: (nsv + lanes - 1) / lanes, gamma: m.Gamma, rho: m.Rho,
		flip: m.Labels[0] != m.PositiveLabel(), scaler: m.Scaler}
	p.center = make([]float64, nf)
	for _, sv := range m.SV {
		for j := range nf {
			p.center[j] += sv[j]
		}
	}
	for j := range p.center {
		p.center[j] /= float64(nsv)
	}
	p.g = make([]float64, p.ngroups*nf*lanes)
	p.ss = make([]float64, p.ngroups*lanes)
	p.coef = make([]float64, p.ngroups*lanes)
	for i, sv := range m.SV {
		q, l := i/lanes, i%lanes
		s := 0.0
		for j := range nf {
			d := sv[j] - p.center[j]
			p.g[(q*nf+j)*lanes+l] = d
			s += d * d
		}
		p.ss[i] = s
		p.coef[i] = m.Coef[i]
	}
	return p, nil
}

// Decide returns the decision values of raw (unscaled) rows, as
// svm.Model.DecisionBatch does.
func (p *densePack) Decide(rows [][]float64) ([]float64, error) {
	out := make([]float64, len(rows))
	xs := make([][]float64, len(rows))
	xx := make([]float64, len(rows))
	for i, r := range rows {
		x := r
		if p.scaler != nil {
			var err error
			if x, err = p.scaler.Transform(r); err != nil {
				return nil, err
			}
		}
		c := make([]float64, p.nf)
		for j := range c {
			c[j] = x[j] - p.center[j]
			xx[i] += c[j] * c[j]
		}
		xs[i] = c
	}
	p.decide(xs, xx, out)
	for i := range out {
		out[i] -= p.rho
		if p.flip {
			out[i] = -out[i]
		}
	}
	return out, nil
}

// decideScalar is the kernel in plain Go over the same layout.
func (p *densePack) decideScalar(xs [][]float64, xx []float64, out []float64) {
	for i, x := range xs {
		x = x[:p.nf]
		sum := 0.0
		for q := range p.ngroups {
			var acc [lanes]float64
			g := p.g[q*p.nf*lanes : (q+1)*p.nf*lanes]
			for j, v := range x {
				s := (*[lanes]float64)(g[j*lanes:])
				for l := range acc {
					acc[l] += v * s[l]
				}
			}
			for l := range acc {
				d := xx[i] + p.ss[q*lanes+l] - 2*acc[l]
				if !(d > 0) {
					d = 0
				}
				sum += p.coef[q*lanes+l] * math.Exp(-p.gamma*d)
			}
		}
		out[i] = sum
	}
}
