package svm

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
)

// Model is a trained two-class SVM.
//
// Decision values are oriented so that positive means the positive class
// (PositiveLabel: +1 for -1/+1 data), whatever order LIBSVM keeps the
// labels in. Predict compares the decision value with Threshold.
type Model struct {
	Kernel KernelType
	Gamma  float64 // resolved gamma (never 0 after training)
	Degree int
	Coef0  float64

	NumFeatures int
	// Labels is LIBSVM's label order: raw decision values > 0 mean
	// Labels[0]. NSV counts support vectors per label in that order.
	Labels [2]float64
	NSV    [2]int
	// SV holds the support vectors, Labels[0]'s first. The RBF decision
	// caches a rearranged copy of them on first use, made again when SV
	// is replaced by another slice or NumFeatures changes (Coef, Gamma
	// and Rho are read at every call): give a model already used new
	// support vectors by assigning a new SV slice, not by writing into
	// its rows.
	SV   [][]float64
	Coef []float64 // y_i * alpha_i per support vector
	Rho  float64

	// Platt sigmoid P(Labels[0] | f) = 1/(1+exp(ProbA*f+ProbB)), f the
	// raw decision value; only if HasProb.
	ProbA, ProbB float64
	HasProb      bool

	// Threshold moves the decision boundary: Predict returns the
	// positive label iff Decision(x) > Threshold. 0 is LIBSVM's rule;
	// raise it to favour precision over recall.
	Threshold float64

	// Optional metadata (kept in the sidecar file, not in LIBSVM's).
	FeatureNames []string
	Scaler       *Scaler // if set, Decision scales raw rows first

	// Training statistics (not saved).
	Obj  float64
	Iter int
	NBSV int

	rbf atomic.Value // *rbfPack for the RBF decision, see rbfPacked
}

// PositiveLabel is the label Decision values > 0 stand for.
func (m *Model) PositiveLabel() float64 { return PositiveLabel(m.Labels[0], m.Labels[1]) }

// NegativeLabel is the other label.
func (m *Model) NegativeLabel() float64 {
	if m.Labels[0] == m.PositiveLabel() {
		return m.Labels[1]
	}
	return m.Labels[0]
}

// TotalSV is the number of support vectors.
func (m *Model) TotalSV() int { return len(m.SV) }

func (m *Model) kparams() kparams {
	return kparams{typ: m.Kernel, gamma: m.Gamma, coef0: m.Coef0, degree: m.Degree}
}

// rawDecision is svm_predict_values: sum coef_i K(sv_i, x) - rho, with x
// already scaled and of the model's width. RBF models use the packed
// form (see rbfPack), or the direct one where that does not apply.
func (m *Model) rawDecision(x []float64) float64 {
	if m.Kernel == RBF {
		if p := m.rbfPacked(); p != nil {
			if p.avx != nil {
				b := getAVXBuf(p.nf)
				defer avxBufPool.Put(b)
				var out [1]float64
				if b.add(p, x, m.Gamma) && p.avx.decide(b, m.Coef, m.Gamma, m.Rho, out[:]) == nil {
					return out[0]
				}
			}
			var r rbfRow
			if xx, ok := r.load(p, x); ok {
				return p.decide1(&r, xx, m.Coef, m.Gamma, m.Rho)
			}
		}
		return m.rbfDecision(x)
	}
	k := m.kparams()
	sum := 0.0
	for i, sv := range m.SV {
		sum += m.Coef[i] * k.eval(x, sv)
	}
	return sum - m.Rho
}

func (m *Model) prepare(x []float64) ([]float64, error) {
	return m.prepareInto(nil, x)
}

// prepareInto is prepare with the scaled row written into dst when it has
// room (rows that need no scaling are returned as they are).
func (m *Model) prepareInto(dst, x []float64) ([]float64, error) {
	if len(x) != m.NumFeatures {
		return nil, fmt.Errorf("%w: row has %d features, model expects %d", ErrDimensions, len(x), m.NumFeatures)
	}
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: feature %d is %v", ErrNonFinite, j, v)
		}
	}
	if m.Scaler != nil {
		return m.Scaler.transformInto(dst, x)
	}
	return x, nil
}

// Decision returns the decision value of x (unscaled if the model has a
// Scaler): positive means the positive class.
func (m *Model) Decision(x []float64) (float64, error) {
	x, err := m.prepare(x)
	if err != nil {
		return 0, err
	}
	v := m.rawDecision(x)
	if m.Labels[0] != m.PositiveLabel() {
		v = -v
	}
	return v, nil
}

// Predict returns the predicted label of x: the positive label iff
// Decision(x) > Threshold.
func (m *Model) Predict(x []float64) (float64, error) {
	d, err := m.Decision(x)
	if err != nil {
		return 0, err
	}
	return m.labelFor(d), nil
}

func (m *Model) labelFor(dec float64) float64 {
	if dec > m.Threshold {
		return m.PositiveLabel()
	}
	return m.NegativeLabel()
}

// Probability returns Platt's estimate of P(positive class | x).
func (m *Model) Probability(x []float64) (float64, error) {
	if !m.HasProb {
		return 0, fmt.Errorf("svm: model has no probability information (train with Probability)")
	}
	x, err := m.prepare(x)
	if err != nil {
		return 0, err
	}
	p := m.probFromRaw(m.rawDecision(x))
	if m.Labels[0] != m.PositiveLabel() {
		p = 1 - p
	}
	return p, nil
}

// probFromRaw is P(Labels[0]) as svm_predict_probability computes it.
func (m *Model) probFromRaw(raw float64) float64 {
	const minProb = 1e-7
	return math.Min(math.Max(sigmoidPredict(raw, m.ProbA, m.ProbB), minProb), 1-minProb)
}

// DecisionBatch computes Decision for many rows on workers goroutines
// (0 means GOMAXPROCS; with 1, or one row, on the caller's). Each value
// equals what Decision returns for the row. RBF models evaluate the rows
// four at a time (see rbfPack). A panic on a worker goroutine of its own
// (a bug, or a Model whose fields disagree) is returned as an error.
func (m *Model) DecisionBatch(xs [][]float64, workers int) ([]float64, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if p := m.rbfPacked(); p != nil {
		return m.rbfDecisionBatch(p, xs, workers)
	}
	out := make([]float64, len(xs))
	workers = max(1, min(workers, len(xs)))
	errs := make([]error, workers)
	run := func(w int) {
		for i := w; i < len(xs); i += workers {
			d, err := m.Decision(xs[i])
			if err != nil {
				errs[w] = fmt.Errorf("row %d: %w", i, err)
				return
			}
			out[i] = d
		}
	}
	if err := fanOut(workers, run, errs); err != nil {
		return nil, err
	}
	return out, nil
}

func sigmoidPredict(dec, A, B float64) float64 {
	fApB := dec*A + B
	if fApB >= 0 {
		return math.Exp(-fApB) / (1.0 + math.Exp(-fApB))
	}
	return 1.0 / (1 + math.Exp(fApB))
}

// sigmoidTrain is LIBSVM's Platt scaling (Lin, Lin and Weng's Newton
// method with backtracking); labels are +1/-1.
func sigmoidTrain(dec, labels []float64) (A, B float64) {
	prior1, prior0 := 0.0, 0.0
	for _, y := range labels {
		if y > 0 {
			prior1++
		} else {
			prior0++
		}
	}
	const maxIter, minStep, sigma, eps = 100, 1e-10, 1e-12, 1e-5
	hi := (prior1 + 1.0) / (prior1 + 2.0)
	lo := 1 / (prior0 + 2.0)
	l := len(dec)
	t := make([]float64, l)
	A, B = 0.0, math.Log((prior0+1.0)/(prior1+1.0))
	fval := 0.0
	for i := 0; i < l; i++ {
		if labels[i] > 0 {
			t[i] = hi
		} else {
			t[i] = lo
		}
		fApB := dec[i]*A + B
		if fApB >= 0 {
			fval += t[i]*fApB + math.Log(1+math.Exp(-fApB))
		} else {
			fval += (t[i]-1)*fApB + math.Log(1+math.Exp(fApB))
		}
	}
	for iter := 0; iter < maxIter; iter++ {
		h11, h22, h21, g1, g2 := sigma, sigma, 0.0, 0.0, 0.0
		for i := 0; i < l; i++ {
			fApB := dec[i]*A + B
			var p, q float64
			if fApB >= 0 {
				p = math.Exp(-fApB) / (1.0 + math.Exp(-fApB))
				q = 1.0 / (1.0 + math.Exp(-fApB))
			} else {
				p = 1.0 / (1.0 + math.Exp(fApB))
				q = math.Exp(fApB) / (1.0 + math.Exp(fApB))
			}
			d2 := p * q
			h11 += dec[i] * dec[i] * d2
			h22 += d2
			h21 += dec[i] * d2
			d1 := t[i] - p
			g1 += dec[i] * d1
			g2 += d1
		}
		if math.Abs(g1) < eps && math.Abs(g2) < eps {
			break
		}
		det := h11*h22 - h21*h21
		dA := -(h22*g1 - h21*g2) / det
		dB := -(-h21*g1 + h11*g2) / det
		gd := g1*dA + g2*dB
		step := 1.0
		for step >= minStep {
			newA, newB := A+step*dA, B+step*dB
			newf := 0.0
			for i := 0; i < l; i++ {
				fApB := dec[i]*newA + newB
				if fApB >= 0 {
					newf += t[i]*fApB + math.Log(1+math.Exp(-fApB))
				} else {
					newf += (t[i]-1)*fApB + math.Log(1+math.Exp(fApB))
				}
			}
			if newf < fval+0.0001*step*gd {
				A, B, fval = newA, newB, newf
				break
			}
			step /= 2
		}
		if step < minStep {
			break
		}
	}
	return A, B
}
