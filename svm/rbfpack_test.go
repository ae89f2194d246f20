package svm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/fiasco-project/fiasco/internal/shared"
)

// The packed RBF decision (rbfPack, used by Decision, DecisionBatch and
// Probability) is tested against the direct form (rbfDecision, which is
// bit-identical to svm-predict's one-by-one kernel evaluation).

// packTolerance checks got against the direct form's value want for row
// x: the difference must stay below 1e-12 times the sum of the absolute
// terms (|coef_i| K_i and rho), the scale of the rounding errors of the
// sum, and below 1e-9 relative (absolute below 1: relative differences
// mean nothing at a decision value of 0). It returns the difference in
// units of the scale.
func packTolerance(t *testing.T, m *Model, x []float64, got, want float64) float64 {
	t.Helper()
	k := m.kparams()
	scale := math.Abs(m.Rho)
	for i, sv := range m.SV {
		scale += math.Abs(m.Coef[i]) * k.eval(x, sv)
	}
	d := math.Abs(got - want)
	if d > 1e-12*scale || d > 1e-9*max(math.Abs(want), 1) {
		t.Fatalf("packed decision %v, direct %v: difference %.3g (scale %.3g)", got, want, d, scale)
	}
	return d / scale
}

// checkPacked compares DecisionBatch (several worker counts), Decision
// and the direct form on rows, which must not need scaling; Decision
// must equal DecisionBatch bit for bit.
func checkPacked(t *testing.T, m *Model, rows [][]float64) (worst float64) {
	t.Helper()
	if m.rbfPacked() == nil {
		t.Fatal("model not packed")
	}
	want := directBatch(m, rows)
	for _, w := range []int{1, 3} {
		got, err := m.DecisionBatch(rows, w)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range rows {
			one, err := m.Decision(x)
			if err != nil {
				t.Fatal(err)
			}
			if one != got[i] {
				t.Fatalf("row %d of %d: Decision %v, DecisionBatch(%d workers) %v", i, len(rows), one, w, got[i])
			}
			worst = max(worst, packTolerance(t, m, x, got[i], want[i]))
		}
	}
	return worst
}

func TestPackedDecisionSynthetic(t *testing.T) {
	worst := 0.0
	for _, c := range []struct{ nsv, nf, rows int }{
		{1, 1, 3}, {3, 7, 1}, {5, 7, 9}, {33, 58, 17}, {300, 58, 40}, {1500, 58, 23}, {200, 256, 6},
	} {
		m, rows := realisticRBF(c.nsv, c.nf, c.rows, uint64(c.nsv))
		if c.nsv%2 == 1 {
			m.Labels = [2]float64{-1, 1} // decision values flipped
		}
		worst = max(worst, checkPacked(t, m, rows))
		// rows at and next to support vectors (distance ~0: most cancellation)
		near := make([][]float64, 0, 2*min(c.nsv, 20))
		for _, sv := range m.SV[:min(c.nsv, 20)] {
			x := append([]float64(nil), sv...)
			near = append(near, sv, x)
			x[0] += 1e-9
		}
		worst = max(worst, checkPacked(t, m, near))
		t.Logf("%+v: %.3g", c, worst)
	}
	// dense random data (no feature has a common value)
	r := rand.New(rand.NewPCG(9, 9))
	m := &Model{Kernel: RBF, Gamma: 0.5, NumFeatures: 20, Rho: -0.3, Labels: [2]float64{1, -1}}
	rows := make([][]float64, 50)
	for i := range 400 {
		v := make([]float64, 20)
		for j := range v {
			v[j] = 10*r.Float64() - 5
		}
		m.SV = append(m.SV, v)
		m.Coef = append(m.Coef, r.NormFloat64())
		if i < len(rows) {
			rows[i] = append([]float64(nil), v...)
			rows[i][i%20] = 4 * r.Float64()
		}
	}
	worst = max(worst, checkPacked(t, m, rows))
	t.Logf("largest difference from the direct form: %.3g of the sum of |terms|", worst)
}

// With a large gamma some exponents fall outside the table method's range
// (the exponentials then take the checked path, math.Exp beyond it); the
// values still match the direct form, and Decision matches DecisionBatch,
// for blocks of every size.
func TestPackedDecisionWideExponents(t *testing.T) {
	for _, gamma := range []float64{30, 400, 1e5} {
		m, rows := realisticRBF(200, 12, 23, 11)
		m.Gamma = gamma
		p := m.rbfPacked()
		if p == nil {
			t.Fatal("not packed")
		}
		if p.argsInRange(gamma, 0) {
			t.Fatalf("gamma %v: exponents taken for in range", gamma)
		}
		for n := 1; n <= len(rows); n += 4 {
			checkPacked(t, m, rows[:n])
		}
	}
	m, _ := realisticRBF(20, 5, 0, 12)
	p := m.rbfPacked()
	for _, c := range []struct {
		gamma, xx float64
		want      bool
	}{{0.06, 10, true}, {-0.06, 10, true}, {0.06, math.Inf(1), false}, {math.NaN(), 1, false}, {math.Inf(1), 1, false}, {1e3, 1, false}} {
		if got := p.argsInRange(c.gamma, c.xx); got != c.want {
			t.Errorf("argsInRange(%v, %v) = %v, want %v", c.gamma, c.xx, got, c.want)
		}
	}
}

// A model trained on real data (heart_scale, with a Platt model) gives
// the same predictions as before and as svm-predict's arithmetic.
func TestPackedDecisionHeart(t *testing.T) {
	prob := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	p := DefaultParams()
	p.Probability = true
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	worst := checkPacked(t, m, prob.X)
	for _, x := range prob.X {
		d, _ := m.Decision(x)
		ref := m.rbfDecision(x)
		if (d > 0) != (ref > 0) {
			t.Fatalf("prediction flipped: packed %v, direct %v", d, ref)
		}
		pr, _ := m.Probability(x)
		want := m.probFromRaw(d)
		if m.Labels[0] != m.PositiveLabel() {
			want = 1 - m.probFromRaw(-d)
		}
		if pr != want {
			t.Fatalf("Probability %v does not follow Decision %v", pr, d)
		}
	}
	t.Logf("largest difference from the direct form: %.3g of the sum of |terms|", worst)
}

// Rows too large for the expansion, and models it does not apply to, use
// the direct form and give exactly its values.
func TestPackedFallback(t *testing.T) {
	m, rows := realisticRBF(50, 10, 6, 3)
	rows[2] = append([]float64(nil), rows[2]...)
	rows[2][4] = 1e200
	rows[5] = append([]float64(nil), rows[5]...)
	rows[5][0] = -1e160
	got, err := m.DecisionBatch(rows, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{2, 5} {
		if want := m.rbfDecision(rows[i]); got[i] != want {
			t.Errorf("row %d: %v, direct %v", i, got[i], want)
		}
		if one, _ := m.Decision(rows[i]); one != got[i] {
			t.Errorf("row %d: Decision %v, DecisionBatch %v", i, one, got[i])
		}
	}
	wide, wrows := realisticRBF(20, 300, 5, 4) // more than 256 features
	huge, hrows := realisticRBF(20, 5, 5, 5)
	huge.SV[3][1] = 1e200
	for _, c := range []struct {
		m    *Model
		rows [][]float64
	}{{wide, wrows}, {huge, hrows}} {
		if c.m.rbfPacked() != nil {
			t.Fatal("packed a model the expansion does not apply to")
		}
		got, err := c.m.DecisionBatch(c.rows, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range directBatch(c.m, c.rows) {
			if got[i] != want {
				t.Errorf("row %d: %v, direct %v", i, got[i], want)
			}
		}
	}
}

// The pack follows changes of SV, Coef (replaced, or written in place:
// the coefficients are read at every call), Gamma and the width.
func TestPackFollowsModel(t *testing.T) {
	m, rows := realisticRBF(41, 8, 5, 6) // 41: the last group of four is partial
	checkPacked(t, m, rows)
	m.Coef[1] *= 2
	m.Coef[40] = -3
	m.Rho *= 2
	checkPacked(t, m, rows)
	m.Gamma, m.Rho = 0.3, -0.2
	m.Coef = append([]float64(nil), m.Coef...)
	m.Coef[0] = -7
	checkPacked(t, m, rows)
	other, _ := realisticRBF(60, 8, 0, 7)
	m.SV, m.Coef = other.SV, other.Coef
	checkPacked(t, m, rows)
	if err := m.Widen(10); err != nil {
		t.Fatal(err)
	}
	wide := make([][]float64, len(rows))
	for i, x := range rows {
		wide[i] = append(append([]float64(nil), x...), 0.5, -1)
	}
	checkPacked(t, m, wide)
}

// Concurrent first uses of a model pack it safely (run with -race).
func TestPackConcurrent(t *testing.T) {
	m, rows := realisticRBF(100, 12, 9, 8)
	want := directBatch(m, rows)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := m.DecisionBatch(rows, 1+g%3)
			if err != nil {
				errs <- err
				return
			}
			for i := range got {
				if d, _ := m.Decision(rows[i]); d != got[i] || math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("row %d: batch %v, single %v, direct %v", i, got[i], d, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// modeShare is, per feature, the share of support vectors at the
// feature's most common value in the default visual model (58 features):
// flags and clipped features sit at one value, others are continuous.
var modeShare = [...]float64{
	0.06, 0.14, 0.76, 0.84, 0.14, 0.09, 0.38, 0.59, 0.29, 0.68, 0.94, 0.06, 0.6, 0.69, 0.84,
	0.69, 0.59, 0.13, 0.2, 0.85, 0.58, 0.91, 0.87, 0.8, 0.99, 0.86, 0.58, 0.96, 1.0, 0.98,
	0.81, 0.77, 0.58, 0.58, 0.95, 0.02, 0.02, 0.02, 0.87, 0.04, 0.62, 0.03, 0.62, 1.0, 0.8,
	0.8, 0.8, 0.01, 0.09, 0.03, 0.0, 0.01, 0.78, 0.77, 0.48, 0.03, 0.77, 0.09,
}

// realisticRBF returns a seeded RBF model shaped like the default models
// (gamma 0.06, C = 4 with most support vectors at the bound, features in
// [-1, 1] at their mode as often as in modeShare) and rows drawn the same
// way.
func realisticRBF(nsv, nf, nrows int, seed uint64) (*Model, [][]float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	mode := make([]float64, nf)
	for j := range mode {
		mode[j] = -1
		if r.IntN(3) == 0 {
			mode[j] = 2*r.Float64() - 1
		}
	}
	draw := func() []float64 {
		x := make([]float64, nf)
		for j := range x {
			if r.Float64() < modeShare[j%len(modeShare)] {
				x[j] = mode[j]
			} else {
				x[j] = 2*r.Float64() - 1
			}
		}
		return x
	}
	m := &Model{Kernel: RBF, Gamma: 0.06, NumFeatures: nf, Labels: [2]float64{1, -1}, Rho: 1.1}
	for i := 0; i < nsv; i++ {
		m.SV = append(m.SV, draw())
		c := 4.0
		if r.IntN(3) == 0 {
			c = 4 * r.Float64()
		}
		if i >= nsv/2 {
			c = -c
		}
		m.Coef = append(m.Coef, c)
	}
	m.NSV = [2]int{nsv / 2, nsv - nsv/2}
	rows := make([][]float64, nrows)
	for i := range rows {
		rows[i] = draw()
	}
	return m, rows
}

// directBatch is DecisionBatch by the direct form (the reference).
func directBatch(m *Model, rows [][]float64) []float64 {
	out := make([]float64, len(rows))
	for i, x := range rows {
		out[i] = m.rbfDecision(x)
		if m.Labels[0] != m.PositiveLabel() {
			out[i] = -out[i]
		}
	}
	return out
}

// With several workers the error is still that of the first bad row.
func TestPackedBatchError(t *testing.T) {
	m, rows := realisticRBF(30, 6, 20, 10)
	rows[5], rows[13] = rows[5][:4], []float64{1, 2, 3, 4, 5, math.NaN()}
	for _, w := range []int{1, 2, 5} {
		_, err := m.DecisionBatch(rows, w)
		if !errors.Is(err, ErrDimensions) || !strings.Contains(err.Error(), "row 5:") {
			t.Errorf("%d workers: %v", w, err)
		}
	}
}
