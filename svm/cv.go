package svm

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Metrics summarises predictions against gold labels; precision, recall
// and F1 are those of the positive class.
type Metrics struct {
	N                 int
	TP, FP, TN, FN    int
	Accuracy          float64
	Precision, Recall float64
	F1                float64
}

// NewMetrics computes metrics from predicted and gold labels.
func NewMetrics(pred, gold []float64, positive float64) Metrics {
	var m Metrics
	for i := range min(len(pred), len(gold)) {
		pp, gp := pred[i] == positive, gold[i] == positive
		switch {
		case pp && gp:
			m.TP++
		case pp && !gp:
			m.FP++
		case !pp && gp:
			m.FN++
		default:
			m.TN++
		}
	}
	m.finish()
	return m
}

func (m *Metrics) finish() {
	m.N = m.TP + m.FP + m.TN + m.FN
	if m.N > 0 {
		m.Accuracy = float64(m.TP+m.TN) / float64(m.N)
	}
	if m.TP+m.FP > 0 {
		m.Precision = float64(m.TP) / float64(m.TP+m.FP)
	}
	if m.TP+m.FN > 0 {
		m.Recall = float64(m.TP) / float64(m.TP+m.FN)
	}
	if m.Precision+m.Recall > 0 {
		m.F1 = 2 * m.Precision * m.Recall / (m.Precision + m.Recall)
	}
}

func (m Metrics) String() string {
	return fmt.Sprintf("accuracy %.4f precision %.4f recall %.4f F1 %.4f (TP %d FP %d TN %d FN %d)",
		m.Accuracy, m.Precision, m.Recall, m.F1, m.TP, m.FP, m.TN, m.FN)
}

// StratifiedFolds assigns each row of y to one of k folds so that every
// class is spread evenly over the folds. The assignment depends only on
// y, k and seed.
func StratifiedFolds(y []float64, k int, seed uint64) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("svm: need at least 2 folds, got %d", k)
	}
	if len(y) < k {
		return nil, fmt.Errorf("svm: %d rows cannot fill %d folds", len(y), k)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed5eed))
	foldOf := make([]int, len(y))
	next := 0 // continue round-robin across classes so fold sizes stay even
	for _, lab := range sortedLabels(y) {
		var idx []int
		for i, v := range y {
			if v == lab {
				idx = append(idx, i)
			}
		}
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			foldOf[i] = next % k
			next++
		}
	}
	return foldOf, nil
}

// CVResult is the outcome of a cross-validation.
type CVResult struct {
	Metrics
	// Decision holds each row's out-of-fold decision value (positive =
	// positive class) and Pred the predicted label.
	Decision []float64
	Pred     []float64
}

// CrossValidate runs stratified k-fold cross-validation with folds drawn
// from seed (reproducible run to run).
func CrossValidate(ctx context.Context, prob *Problem, p Params, k int, seed uint64) (*CVResult, error) {
	if err := prob.Validate(); err != nil {
		return nil, err
	}
	folds, err := StratifiedFolds(prob.Y, k, seed)
	if err != nil {
		return nil, err
	}
	return CrossValidateFolds(ctx, prob, p, folds)
}

// CrossValidateFolds cross-validates over caller-given folds: row i is
// held out in fold foldOf[i] (fold numbers are arbitrary ints, e.g. one
// per web page). Each fold's training set must contain both classes.
func CrossValidateFolds(ctx context.Context, prob *Problem, p Params, foldOf []int) (*CVResult, error) {
	if err := prob.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return crossValidate(ctx, prob, p, foldOf, nil)
}

func crossValidate(ctx context.Context, prob *Problem, p Params, foldOf []int, km *kernelMatrix) (*CVResult, error) {
	if len(foldOf) != prob.Len() {
		return nil, fmt.Errorf("%w: %d fold numbers for %d rows", ErrDimensions, len(foldOf), prob.Len())
	}
	var order []int
	seen := map[int]bool{}
	for _, f := range foldOf {
		if !seen[f] {
			seen[f] = true
			order = append(order, f)
		}
	}
	if len(order) < 2 {
		return nil, fmt.Errorf("svm: cross-validation needs at least 2 folds, got %d", len(order))
	}
	res := &CVResult{Decision: make([]float64, prob.Len()), Pred: make([]float64, prob.Len())}
	for _, f := range order {
		if err := cvFold(ctx, prob, p, foldOf, f, km, res); err != nil {
			return nil, err
		}
	}
	res.Metrics = cvMetrics(prob, res.Pred)
	return res, nil
}

func cvMetrics(prob *Problem, pred []float64) Metrics {
	labs := sortedLabels(prob.Y)
	return NewMetrics(pred, prob.Y, PositiveLabel(labs[0], labs[len(labs)-1]))
}

// cvFold trains without fold f and fills res for fold f's rows.
func cvFold(ctx context.Context, prob *Problem, p Params, foldOf []int, f int, km *kernelMatrix, res *CVResult) error {
	var train, test []int
	for i, g := range foldOf {
		if g == f {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	m, err := trainRows(ctx, prob.X, prob.Y, prob.W, train, p, km)
	if err != nil {
		return fmt.Errorf("fold %d: %w", f, err)
	}
	pos := m.PositiveLabel()
	flip := m.Labels[0] != pos
	for _, i := range test {
		v := m.rawDecision(prob.X[i])
		if flip {
			v = -v
		}
		res.Decision[i] = v
		res.Pred[i] = m.labelFor(v)
	}
	return nil
}
