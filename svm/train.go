package svm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Train fits a two-class C-SVC on prob with parameters p, exactly as
// svm-train does (same class ordering, solver and stopping rule), so the
// objective, rho and support vectors agree with LIBSVM's. The returned
// model carries prob.FeatureNames; attach a Scaler yourself if the
// data was scaled (see FitScaler).
func Train(ctx context.Context, prob *Problem, p Params) (*Model, error) {
	if err := prob.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rows := make([]int, prob.Len())
	for i := range rows {
		rows[i] = i
	}
	m, err := trainRows(ctx, prob.X, prob.Y, prob.W, rows, p, nil)
	if err != nil {
		return nil, err
	}
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	if prob.FeatureNames != nil {
		m.FeatureNames = append([]string(nil), prob.FeatureNames...)
	}
	return m, nil
}

// checkFinite reports a model whose training overflowed (finite values
// so large that the kernel or the gradient did not stay finite: rows of
// ±1e200): its rho or a coefficient is NaN or infinite.
func (m *Model) checkFinite() error {
	bad := math.IsNaN(m.Rho) || math.IsInf(m.Rho, 0)
	for _, c := range m.Coef {
		bad = bad || math.IsNaN(c) || math.IsInf(c, 0)
	}
	if bad {
		return fmt.Errorf("%w: training overflowed (values too large; scale the data first)", ErrNonFinite)
	}
	return nil
}

// groupClasses orders the two labels like LIBSVM's svm_group_classes:
// by first appearance, except that -1/+1 data always puts +1 first. It
// returns the labels and the rows regrouped class by class.
func groupClasses(Y []float64, rows []int) (labels [2]float64, perm []int, counts [2]int, err error) {
	n := 0
	for _, r := range rows {
		v := Y[r]
		switch {
		case n > 0 && v == labels[0]:
		case n > 1 && v == labels[1]:
		case n < 2:
			labels[n] = v
			n++
		default:
			return labels, nil, counts, fmt.Errorf("%w: found a third label %g", ErrManyClass, v)
		}
	}
	if n < 2 {
		if len(rows) == 0 {
			return labels, nil, counts, ErrEmpty
		}
		return labels, nil, counts, fmt.Errorf("%w: all %d training rows have label %g", ErrOneClass, len(rows), labels[0])
	}
	if labels[0] == -1 && labels[1] == 1 {
		labels[0], labels[1] = labels[1], labels[0]
	}
	perm = make([]int, 0, len(rows))
	for c := 0; c < 2; c++ {
		for _, r := range rows {
			if Y[r] == labels[c] {
				perm = append(perm, r)
				counts[c]++
			}
		}
	}
	return labels, perm, counts, nil
}

// trainRows trains on the given rows of X, weighted by W (nil: all 1). If
// km is not nil it holds the kernel matrix of all rows of X for these
// parameters.
func trainRows(ctx context.Context, X [][]float64, Y, W []float64, rows []int, p Params, km *kernelMatrix) (*Model, error) {
	labels, perm, counts, err := groupClasses(Y, rows)
	if err != nil {
		return nil, err
	}
	d := len(X[rows[0]])
	kp := p.kparams(d)
	pos := PositiveLabel(labels[0], labels[1])
	wPos, wNeg := weightOr1(p.WeightPos), weightOr1(p.WeightNeg)
	Cp, Cn := p.C*wPos, p.C*wNeg
	if labels[0] != pos {
		Cp, Cn = Cn, Cp
	}
	m := &Model{
		Kernel: p.Kernel, Gamma: kp.gamma, Degree: p.Degree, Coef0: p.Coef0,
		NumFeatures: d, Labels: labels,
	}
	if p.Probability {
		a, b, err := plattCV(ctx, X, Y, W, perm, labels, p, Cp, Cn, km)
		if err != nil {
			return nil, err
		}
		m.ProbA, m.ProbB, m.HasProb = a, b, true
	}
	bound := bounds(Y, W, perm, labels, Cp, Cn)
	alpha, si, err := solveRows(ctx, X, Y, perm, labels, kp, p, bound, km)
	if err != nil {
		return nil, err
	}
	m.Rho, m.Obj, m.Iter = si.rho, si.obj, si.iter
	for t, r := range perm {
		a := alpha[t]
		if a == 0 {
			continue
		}
		c := 0
		if t >= counts[0] {
			c = 1
		}
		m.NSV[c]++
		if math.Abs(a) >= bound[t] {
			m.NBSV++
		}
		m.SV = append(m.SV, append([]float64(nil), X[r]...))
		m.Coef = append(m.Coef, a)
	}
	return m, nil
}

// bounds returns the upper bound of each alpha in perm order: Cp for
// rows of labels[0], Cn for the others, times the row's weight in W.
func bounds(Y, W []float64, perm []int, labels [2]float64, Cp, Cn float64) []float64 {
	b := make([]float64, len(perm))
	for t, r := range perm {
		b[t] = Cn
		if Y[r] == labels[0] {
			b[t] = Cp
		}
		if W != nil {
			b[t] *= W[r]
		}
	}
	return b
}

// solveRows runs the solver on perm (grouped rows), alpha[t] bounded by
// bound[t], and returns the signed coefficients y_i*alpha_i in perm order.
func solveRows(ctx context.Context, X [][]float64, Y []float64, perm []int, labels [2]float64, kp kparams, p Params, bound []float64, km *kernelMatrix) ([]float64, solution, error) {
	l := len(perm)
	y := make([]int8, l)
	minus := make([]float64, l)
	for t, r := range perm {
		if Y[r] == labels[0] {
			y[t] = 1
		} else {
			y[t] = -1
		}
		minus[t] = -1
	}
	var src rowSource
	if km != nil {
		g := make([]int32, l)
		for t, r := range perm {
			g[t] = int32(r)
		}
		src = &precomputedSource{m: km, global: g}
	} else {
		src = newComputedSource(newDataset(X, perm, &kp), kp, p.Threads)
	}
	Q := newSVCQ(src, y, p.cacheBytes())
	alpha := make([]float64, l)
	var s solver
	si, err := s.solve(ctx, l, Q, minus, y, alpha, bound, p.Eps, p.Shrinking)
	Q.cache.release()
	if err != nil {
		return nil, si, err
	}
	for t := range alpha {
		alpha[t] *= float64(y[t])
	}
	return alpha, si, nil
}

// plattCV estimates Platt's sigmoid parameters from 5-fold
// cross-validated decision values, as svm_binary_svc_probability does
// (the shuffle is seeded by p.Seed instead of the C library's rand).
func plattCV(ctx context.Context, X [][]float64, Y, W []float64, perm []int, labels [2]float64, p Params, Cp, Cn float64, km *kernelMatrix) (float64, float64, error) {
	l := len(perm)
	const nrFold = 5
	rng := rand.New(rand.NewPCG(p.Seed, 0x9e3779b97f4a7c15))
	sh := append([]int(nil), perm...)
	for i := 0; i < l; i++ {
		j := i + rng.IntN(l-i)
		sh[i], sh[j] = sh[j], sh[i]
	}
	dec := make([]float64, l)
	sub := p
	sub.Probability = false
	for f := 0; f < nrFold; f++ {
		begin, end := f*l/nrFold, (f+1)*l/nrFold
		train := make([]int, 0, l-(end-begin))
		train = append(train, sh[:begin]...)
		train = append(train, sh[end:]...)
		np, nn := 0, 0
		for _, r := range train {
			if Y[r] == labels[0] {
				np++
			} else {
				nn++
			}
		}
		switch {
		case np == 0 && nn == 0:
			// dec stays 0
		case nn == 0:
			for t := begin; t < end; t++ {
				dec[t] = 1
			}
		case np == 0:
			for t := begin; t < end; t++ {
				dec[t] = -1
			}
		default:
			lb, gperm, _, err := groupClasses(Y, train)
			if err != nil {
				return 0, 0, err
			}
			c0, c1 := Cp, Cn // per class of the outer problem
			if lb[0] != labels[0] {
				c0, c1 = Cn, Cp
			}
			kp := sub.kparams(len(X[perm[0]]))
			alpha, si, err := solveRows(ctx, X, Y, gperm, lb, kp, sub, bounds(Y, W, gperm, lb, c0, c1), km)
			if err != nil {
				return 0, 0, err
			}
			sm := &Model{Kernel: sub.Kernel, Gamma: kp.gamma, Degree: sub.Degree, Coef0: sub.Coef0, Rho: si.rho, Labels: lb, NumFeatures: len(X[perm[0]])}
			for t, a := range alpha {
				if a != 0 {
					sm.SV = append(sm.SV, X[gperm[t]])
					sm.Coef = append(sm.Coef, a)
				}
			}
			for t := begin; t < end; t++ {
				v := sm.rawDecision(X[sh[t]])
				if lb[0] != labels[0] {
					v = -v
				}
				dec[t] = v
			}
		}
	}
	ys := make([]float64, l)
	for t := range sh {
		if Y[sh[t]] == labels[0] {
			ys[t] = 1
		} else {
			ys[t] = -1
		}
	}
	a, b := sigmoidTrain(dec, ys)
	return a, b, nil
}
