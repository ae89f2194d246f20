package readability

// TestReduced measures svm.Reduce (a reduced set of the text model's
// SVM: fewer kernel evaluations per block) on real blocks.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/svm"
)

// TestReduced fits reduced sets of several sizes on the rows of the
// even-numbered CleanEval dev pages and reports, on the odd-numbered ones,
// how far their decision values are from the model's and how many blocks
// change side of the model's threshold. It logs only: it measures a
// proposal.
func TestReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m, pages := pageRows(t)
	dm, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	th := dm.Threshold // a block is kept at or above it
	var fit, raw [][]float64
	for i, rows := range pages {
		for _, r := range rows {
			if i%2 == 0 {
				x, err := m.Scaler.Transform(r)
				if err != nil {
					t.Fatal(err)
				}
				fit = append(fit, x)
			} else {
				raw = append(raw, r)
			}
		}
	}
	want, err := m.DecisionBatch(raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, nb := range []int{100, 200, 400, 800} {
		r, err := svm.Reduce(context.Background(), m, fit, svm.ReduceOptions{Size: nb, Medoids: true, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.DecisionBatch(raw, 1)
		if err != nil {
			t.Fatal(err)
		}
		worst, sum, flips := 0.0, 0.0, 0
		for i := range got {
			d := math.Abs(got[i] - want[i])
			worst = math.Max(worst, d)
			sum += d
			if (got[i] >= th) != (want[i] >= th) {
				flips++
			}
		}
		t.Logf("%s", fmt.Sprintf("basis %4d (of %d SVs): |Δ| mean %.4f max %.4f; %d of %d held-out blocks change side of %.2f",
			nb, len(m.SV), sum/float64(len(got)), worst, flips, len(got), th))
	}
}
