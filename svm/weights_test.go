package svm

import (
	"context"
	"math"
	"testing"
)

// TestRowWeights: a row of integer weight k trains as k copies of it
// (the same decision function and objective), every row weighing w
// trains as C times w (the same model), and bad weights are refused.
func TestRowWeights(t *testing.T) {
	ctx := context.Background()
	prob := synthetic(120, 4, 7)
	p := DefaultParams()
	p.C, p.Gamma, p.Eps = 2, 0.5, 1e-6
	weighted := &Problem{X: prob.X, Y: prob.Y, W: make([]float64, prob.Len())}
	copies := &Problem{}
	for i := range prob.X {
		k := 1 + i%3
		weighted.W[i] = float64(k)
		for range k {
			copies.X = append(copies.X, prob.X[i])
			copies.Y = append(copies.Y, prob.Y[i])
		}
	}
	mw, err := Train(ctx, weighted, p)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := Train(ctx, copies, p)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mw.Obj-mc.Obj) > 1e-4*math.Abs(mc.Obj) || math.Abs(mw.Rho-mc.Rho) > 1e-3 {
		t.Errorf("weighted: obj %g rho %g; copies: obj %g rho %g", mw.Obj, mw.Rho, mc.Obj, mc.Rho)
	}
	test := synthetic(60, 4, 8)
	for i, x := range test.X {
		a, _ := mw.Decision(x)
		b, _ := mc.Decision(x)
		if math.Abs(a-b) > 1e-3 {
			t.Errorf("test row %d: weighted %g, copies %g", i, a, b)
		}
	}

	// Every row weighing 0.25 is C times 0.25.
	quarter := &Problem{X: prob.X, Y: prob.Y, W: make([]float64, prob.Len())}
	for i := range quarter.W {
		quarter.W[i] = 0.25
	}
	mq, err := Train(ctx, quarter, p)
	if err != nil {
		t.Fatal(err)
	}
	pc := p
	pc.C = p.C * 0.25
	m4, err := Train(ctx, prob, pc)
	if err != nil {
		t.Fatal(err)
	}
	if mq.Obj != m4.Obj || mq.Rho != m4.Rho || len(mq.SV) != len(m4.SV) || mq.NBSV != m4.NBSV {
		t.Errorf("weights 0.25: obj %g rho %g, %d SVs (%d bounded); C/4: obj %g rho %g, %d SVs (%d bounded)",
			mq.Obj, mq.Rho, len(mq.SV), mq.NBSV, m4.Obj, m4.Rho, len(m4.SV), m4.NBSV)
	}

	for _, w := range [][]float64{{1}, append(make([]float64, prob.Len()-1), 1)} {
		if _, err := Train(ctx, &Problem{X: prob.X, Y: prob.Y, W: w}, p); err == nil {
			t.Errorf("weights %v...: no error", w[:1])
		}
	}
}
