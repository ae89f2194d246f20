package readability

// A reduced-set approximation of the text model's SVM (fewer kernel
// evaluations per block), tried as a speed-up and measured by
// TestReduced: it changes too many decisions to be one.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/svm"
)

// reducedSet is a reduced-set approximation of an RBF SVM's decision
// function: sum_m Beta[m] exp(-gamma |x - Basis[m]|^2) - rho, with far
// fewer basis vectors than the model has support vectors. It is the
// same form as an SVM's, so it could be written as a LIBSVM model file.
type reducedSet struct {
	Basis      [][]float64 // scaled feature space
	Beta       []float64
	gamma, rho float64
	flip       bool
}

// Reduce approximates m with nb basis vectors: the k-means centres of
// m's support vectors (k-means++ start, iters Lloyd steps), with the
// coefficients fitted by least squares (ridge lambda, relative) to m's
// raw decision values on fit, scaled rows (the support vectors
// themselves are added to fit).
func reduceSVM(m *svm.Model, fit [][]float64, nb, iters int, lambda float64, seed uint64) *reducedSet {
	nf := m.NumFeatures
	rng := rand.New(rand.NewPCG(seed, 1))
	sv := m.SV
	// k-means++ over the support vectors.
	centres := [][]float64{append([]float64(nil), sv[rng.IntN(len(sv))][:nf]...)}
	d2 := make([]float64, len(sv))
	for i := range d2 {
		d2[i] = math.Inf(1)
	}
	for len(centres) < nb {
		last := centres[len(centres)-1]
		tot := 0.0
		for i, s := range sv {
			d2[i] = math.Min(d2[i], sq(s[:nf], last))
			tot += d2[i]
		}
		u := rng.Float64() * tot
		k := 0
		for k = range sv {
			u -= d2[k]
			if u <= 0 {
				break
			}
		}
		centres = append(centres, append([]float64(nil), sv[k][:nf]...))
	}
	for range iters {
		sum := make([][]float64, nb)
		cnt := make([]int, nb)
		for i := range sum {
			sum[i] = make([]float64, nf)
		}
		for _, s := range sv {
			best, bd := 0, math.Inf(1)
			for c, ce := range centres {
				if d := sq(s[:nf], ce); d < bd {
					best, bd = c, d
				}
			}
			cnt[best]++
			for j := range nf {
				sum[best][j] += s[j]
			}
		}
		for c := range centres {
			if cnt[c] > 0 {
				for j := range nf {
					centres[c][j] = sum[c][j] / float64(cnt[c])
				}
			}
		}
	}
	// Least squares: min |K beta - f|^2 + lambda tr(K'K)/nb |beta|^2.
	pts := append(append([][]float64(nil), fit...), sv...)
	g := m.Gamma
	ata := make([]float64, nb*nb)
	atb := make([]float64, nb)
	k := make([]float64, nb)
	for _, x := range pts {
		f := 0.0
		for i, s := range sv {
			f += m.Coef[i] * math.Exp(-g*sq(x[:nf], s[:nf]))
		}
		for c, ce := range centres {
			k[c] = math.Exp(-g * sq(x[:nf], ce))
		}
		for a := range nb {
			atb[a] += k[a] * f
			for b := range nb {
				ata[a*nb+b] += k[a] * k[b]
			}
		}
	}
	tr := 0.0
	for a := range nb {
		tr += ata[a*nb+a]
	}
	for a := range nb {
		ata[a*nb+a] += lambda * tr / float64(nb)
	}
	beta := cholSolve(ata, atb, nb)
	return &reducedSet{Basis: centres, Beta: beta, gamma: g, rho: m.Rho, flip: m.Labels[0] != m.PositiveLabel()}
}

// Decide is the approximate decision value of a scaled row.
func (r *reducedSet) Decide(x []float64) float64 {
	s := 0.0
	for i, b := range r.Basis {
		s += r.Beta[i] * math.Exp(-r.gamma*sq(x[:len(b)], b))
	}
	s -= r.rho
	if r.flip {
		s = -s
	}
	return s
}

func sq(a, b []float64) float64 {
	s := 0.0
	for j, v := range a {
		d := v - b[j]
		s += d * d
	}
	return s
}

// cholSolve solves A x = b for symmetric positive definite A (n x n,
// row-major), in place.
func cholSolve(a, b []float64, n int) []float64 {
	for j := range n {
		s := a[j*n+j]
		for k := range j {
			s -= a[j*n+k] * a[j*n+k]
		}
		if s <= 0 {
			s = 1e-300
		}
		a[j*n+j] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := range j {
				s -= a[i*n+k] * a[j*n+k]
			}
			a[i*n+j] = s / a[j*n+j]
		}
	}
	y := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= a[i*n+k] * y[k]
		}
		y[i] = s / a[i*n+i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= a[k*n+i] * x[k]
		}
		x[i] = s / a[i*n+i]
	}
	return x
}

// TestReduced fits reduced sets of several sizes on the rows of the
// even-numbered CleanEval dev pages and reports, on the odd-numbered ones,
// how far their decision values are from the model's and how many blocks
// change side of the default threshold. It logs only: it measures a
// proposal.
func TestReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m, pages := pageRows(t)
	dm, _ := classify.Default(false)
	th := dm.Threshold
	var fit, test, raw [][]float64
	for i, rows := range pages {
		for _, r := range rows {
			x, err := m.Scaler.Transform(r)
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				fit = append(fit, x)
			} else {
				test = append(test, x)
				raw = append(raw, r)
			}
		}
	}
	want, err := m.DecisionBatch(raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, nb := range []int{50, 100, 200, 400} {
		r := reduceSVM(m, fit, nb, 10, 1e-9, 1)
		worst, sum, flips := 0.0, 0.0, 0
		for i, x := range test {
			got := r.Decide(x)
			d := math.Abs(got - want[i])
			worst = math.Max(worst, d)
			sum += d
			if (got >= th) != (want[i] >= th) {
				flips++
			}
		}
		t.Logf("%s", fmt.Sprintf("basis %4d (of %d SVs): |Δ| mean %.4f max %.4f; %d of %d held-out blocks change side of %.2f",
			nb, len(m.SV), sum/float64(len(test)), worst, flips, len(test), th))
	}
}
