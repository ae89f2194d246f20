package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
)

// ReduceOptions set how Reduce approximates a model.
type ReduceOptions struct {
	// Size is the number of basis vectors of the reduced model (> 0).
	Size int
	// Iters is the number of Lloyd steps of the k-means that places the
	// basis vectors (default 10).
	Iters int
	// MaxFit caps the rows the coefficients are fitted on: that many are
	// drawn from the rows given (default 5,000); the support vectors
	// are always added.
	MaxFit int
	// Ridge is the ridge term of the least-squares fit, relative to the
	// mean diagonal of its normal matrix (0: the default, 1e-6).
	Ridge float64
	// Seed seeds the k-means start and the draw of fit rows.
	Seed uint64
	// Workers is the number of goroutines (default GOMAXPROCS).
	Workers int
	// Medoids replaces each k-means centre by the nearest support vector
	// not already taken, so that basis vectors keep the support vectors'
	// sparsity about the features' modes (see rbfPack).
	Medoids bool
}

// ErrNotRBF is returned by Reduce for a model whose kernel is not RBF.
var ErrNotRBF = errors.New("svm: a reduced set needs an RBF kernel")

// Reduce returns a model of the same form as m (an RBF expansion
// sum_j beta_j exp(-gamma |x - z_j|^2) - rho) with at most o.Size basis
// vectors z_j in place of m's support vectors: the reduced-set method of
// Burges (1996) in its least-squares form. The z_j are the k-means
// centres of m's support vectors (k-means++ start, seeded), or with
// o.Medoids the support vectors nearest to them; the beta_j
// minimise the squared difference between the two decision functions
// over fit (rows already in the model's scaled space, as m.SV are) and
// the support vectors, with a small ridge term. Rho, gamma, the labels,
// the threshold, the scaler and the feature names are m's; Platt's
// sigmoid, if any, is kept, fitted as it was to m's decision values.
//
// The cost of deciding a row falls in proportion to the basis size; the
// decision values are approximations of m's, so a block near the
// threshold may change side. If m already has no more than o.Size
// support vectors, Reduce returns m itself.
//
// Cost: the kernel values of the fit rows (at most MaxFit of fit, plus
// m's support vectors) against the basis, 8 bytes each, and the normal
// matrix, 8*Size^2 bytes; time about Size^2 times the fit rows for the
// normal matrix (on o.Workers goroutines) and Size^3/3 for its
// factorisation. ctx is checked between rows and columns.
func Reduce(ctx context.Context, m *Model, fit [][]float64, o ReduceOptions) (*Model, error) {
	if m.Kernel != RBF {
		return nil, ErrNotRBF
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if o.Size <= 0 {
		return nil, fmt.Errorf("svm: reduced set size must be positive, got %d", o.Size)
	}
	if math.IsNaN(o.Ridge) || math.IsInf(o.Ridge, 0) || o.Ridge < 0 {
		return nil, fmt.Errorf("svm: reduced set ridge must be finite and >= 0, got %g", o.Ridge)
	}
	if len(m.SV) <= o.Size {
		return m, nil
	}
	if o.Iters <= 0 {
		o.Iters = 10
	}
	if o.MaxFit <= 0 {
		o.MaxFit = 5000
	}
	if o.Ridge == 0 {
		o.Ridge = 1e-6
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	nf := m.NumFeatures
	for i, x := range fit {
		if len(x) != nf {
			return nil, fmt.Errorf("%w: fit row %d has %d features, model expects %d", ErrDimensions, i, len(x), nf)
		}
		if err := finiteRow("fit row", i, x); err != nil {
			return nil, err
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	basis, err := kmeans(ctx, m.SV, o.Size, o.Iters, o.Workers, rng)
	if err != nil {
		return nil, err
	}
	if o.Medoids {
		basis = medoids(basis, m.SV)
	}
	pts := fitRows(fit, m.SV, o.MaxFit, rng)

	// Targets: m's decision values without rho, in LIBSVM's orientation.
	raw := &Model{Kernel: RBF, Gamma: m.Gamma, NumFeatures: nf, Labels: m.Labels, NSV: m.NSV, SV: m.SV, Coef: m.Coef}
	tgt, err := raw.DecisionBatch(pts, o.Workers)
	if err != nil {
		return nil, err
	}
	if raw.Labels[0] != raw.PositiveLabel() {
		for i := range tgt {
			tgt[i] = -tgt[i]
		}
	}
	beta, err := fitBeta(ctx, basis, pts, tgt, m.Gamma, o.Ridge, o.Workers)
	if err != nil {
		return nil, err
	}
	r := &Model{
		Kernel: RBF, Gamma: m.Gamma, Degree: m.Degree, Coef0: m.Coef0,
		NumFeatures: nf, Labels: m.Labels, Rho: m.Rho,
		ProbA: m.ProbA, ProbB: m.ProbB, HasProb: m.HasProb,
		Threshold: m.Threshold, FeatureNames: m.FeatureNames, Scaler: m.Scaler,
	}
	// LIBSVM's layout: vectors with positive coefficients (Labels[0]'s
	// side) first.
	for side, positive := range []bool{true, false} {
		for i, b := range beta {
			if b != 0 && (b > 0) == positive {
				r.SV = append(r.SV, basis[i])
				r.Coef = append(r.Coef, b)
				r.NSV[side]++
			}
		}
	}
	return r, nil
}

// fitRows is fit (or max rows drawn from it without replacement) followed
// by the support vectors.
func fitRows(fit, sv [][]float64, max int, rng *rand.Rand) [][]float64 {
	pts := make([][]float64, 0, min(len(fit), max)+len(sv))
	if len(fit) <= max {
		pts = append(pts, fit...)
	} else {
		for _, i := range rng.Perm(len(fit))[:max] {
			pts = append(pts, fit[i])
		}
	}
	return append(pts, sv...)
}

// kmeans returns k centres of the rows x (all of one width), started by
// k-means++ and improved by iters Lloyd steps. A centre left without rows
// stays where it was.
func kmeans(ctx context.Context, x [][]float64, k, iters, workers int, rng *rand.Rand) ([][]float64, error) {
	nf := len(x[0])
	centres := make([][]float64, 0, k)
	d2 := make([]float64, len(x))
	for i := range d2 {
		d2[i] = math.Inf(1)
	}
	pick := rng.IntN(len(x))
	for len(centres) < k {
		centres = append(centres, slices.Clone(x[pick]))
		if len(centres) == k {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		last := centres[len(centres)-1]
		tot := 0.0
		for i, r := range x {
			d2[i] = min(d2[i], l2sq(r, last))
			tot += d2[i]
		}
		if !(tot > 0) {
			break // fewer distinct rows than k
		}
		u := rng.Float64() * tot
		pick = -1
		for i, d := range d2 {
			if d > 0 {
				pick = i // the last row not yet a centre, if rounding leaves u > 0
				if u -= d; u <= 0 {
					break
				}
			}
		}
	}
	assign := make([]int, len(x))
	for range iters {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		errs := make([]error, workers)
		if err := fanOut(workers, func(w int) {
			for i := w * len(x) / workers; i < (w+1)*len(x)/workers; i++ {
				best, bd := 0, math.Inf(1)
				for c, ce := range centres {
					if d := l2sq(x[i], ce); d < bd {
						best, bd = c, d
					}
				}
				assign[i] = best
			}
		}, errs); err != nil {
			return nil, err // a worker's panic
		}
		sum := make([]float64, len(centres)*nf)
		cnt := make([]int, len(centres))
		for i, c := range assign {
			cnt[c]++
			for j, v := range x[i] {
				sum[c*nf+j] += v
			}
		}
		for c, ce := range centres {
			if cnt[c] > 0 {
				for j := range ce {
					ce[j] = sum[c*nf+j] / float64(cnt[c])
				}
			}
		}
	}
	return centres, nil
}

// medoids returns, for each centre, the nearest row of x not already
// taken.
func medoids(centres, x [][]float64) [][]float64 {
	taken := make([]bool, len(x))
	out := make([][]float64, 0, len(centres))
	for _, ce := range centres {
		best, bd := -1, math.Inf(1)
		for i, r := range x {
			if d := l2sq(r, ce); !taken[i] && d < bd {
				best, bd = i, d
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		out = append(out, slices.Clone(x[best]))
	}
	return out
}

func l2sq(a, b []float64) float64 {
	s := 0.0
	for j, v := range a {
		d := v - b[j]
		s += d * d
	}
	return s
}

// fitBeta solves min |K beta - t|^2 + ridge*mean(diag K'K) |beta|^2, K the
// kernel values of pts against basis, by the normal equations and a
// Cholesky factorisation.
func fitBeta(ctx context.Context, basis, pts [][]float64, t []float64, gamma, ridge float64, workers int) ([]float64, error) {
	nb, n, nf := len(basis), len(pts), len(basis[0])
	// K column by column: col[j*n+i] = k(pts[i], basis[j]).
	col := make([]float64, nb*n)
	errs := make([]error, workers)
	if err := fanOut(workers, func(w int) {
		for j := w; j < nb; j += workers {
			if ctx.Err() != nil {
				return
			}
			z := basis[j]
			for i, p := range pts {
				col[j*n+i] = math.Exp(-gamma * l2sq(p[:nf], z))
			}
		}
	}, errs); err != nil {
		return nil, err // a worker's panic
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := make([]float64, nb*nb)
	b := make([]float64, nb)
	// Rows of the upper triangle are dealt out in a zigzag so that the
	// workers get equal shares of work.
	if err := fanOut(workers, func(w int) {
		for r := 0; r < nb; r++ {
			if r%(2*workers) != w && r%(2*workers) != 2*workers-1-w {
				continue
			}
			if ctx.Err() != nil {
				return
			}
			cr := col[r*n : (r+1)*n]
			b[r] = dot(cr, t)
			c := r
			for ; c+4 <= nb; c += 4 {
				v0, v1, v2, v3 := dot4(cr, col[c*n:(c+1)*n], col[(c+1)*n:(c+2)*n], col[(c+2)*n:(c+3)*n], col[(c+3)*n:(c+4)*n])
				a[r*nb+c], a[c*nb+r] = v0, v0
				a[r*nb+c+1], a[(c+1)*nb+r] = v1, v1
				a[r*nb+c+2], a[(c+2)*nb+r] = v2, v2
				a[r*nb+c+3], a[(c+3)*nb+r] = v3, v3
			}
			for ; c < nb; c++ {
				v := dot(cr, col[c*n:(c+1)*n])
				a[r*nb+c], a[c*nb+r] = v, v
			}
		}
	}, errs); err != nil {
		return nil, err // a worker's panic
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tr := 0.0
	for i := range nb {
		tr += a[i*nb+i]
	}
	lambda := ridge * tr / float64(nb)
	for i := range nb {
		a[i*nb+i] += lambda
	}
	return cholSolve(ctx, a, b, nb)
}

// cholSolve solves A x = b for symmetric positive definite A (n x n,
// row-major, overwritten by its Cholesky factor).
func cholSolve(ctx context.Context, a, b []float64, n int) ([]float64, error) {
	for j := range n {
		if j%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rj := a[j*n : j*n+j]
		s := a[j*n+j] - dot(rj, rj)
		if !(s > 0) {
			return nil, fmt.Errorf("svm: reduced set: normal matrix not positive definite at %d", j)
		}
		d := math.Sqrt(s)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			a[i*n+j] = (a[i*n+j] - dot(a[i*n:i*n+j], rj)) / d
		}
	}
	y := make([]float64, n)
	for i := range n {
		y[i] = (b[i] - dot(a[i*n:i*n+i], y[:i])) / a[i*n+i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= a[k*n+i] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	return x, nil
}
