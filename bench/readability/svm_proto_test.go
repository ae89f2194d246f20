package readability

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
)

// pageRows returns the English model and the rows it classifies on each
// CleanEval dev page, or skips.
func pageRows(tb testing.TB) (*svm.Model, [][][]float64) {
	tb.Helper()
	pages, err := LoadPages(DefaultDataDir())
	if err != nil {
		tb.Skip(err)
	}
	m, err := classify.Default(false)
	if err != nil {
		tb.Fatal(err)
	}
	c := &pipeline.Cleaner{Model: m}
	cols, err := features.Select(m.English.FeatureNames)
	if err != nil {
		tb.Fatal(err)
	}
	var rows [][][]float64
	for _, p := range pages {
		r, err := c.Clean(context.Background(), p.Name, p.Data)
		if err != nil {
			tb.Fatal(err)
		}
		if !r.English {
			continue
		}
		rows = append(rows, r.Table.Columns(m.Keywords, cols))
	}
	return m.English, rows
}

// TestDenseMatches checks the prototype against svm.Model.DecisionBatch.
func TestDenseMatches(t *testing.T) {
	m, pages := pageRows(t)
	p, err := newDensePack(m)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, rows := range pages {
		want, err := m.DecisionBatch(rows, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Decide(rows)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			worst = math.Max(worst, math.Abs(got[i]-want[i]))
		}
	}
	t.Logf("SIMD %v: largest difference from svm %.3g", denseSIMD, worst)
	if worst > 1e-9 {
		t.Errorf("largest difference %g > 1e-9", worst)
	}
}

// BenchmarkDecide classifies the rows of every page with svm (the current
// batched sparse form) and with the prototype, alternately within each
// iteration, and reports both costs and their ratio (a busy machine
// moves both together).
//
//	GOEXPERIMENT=simd go test -run XXX -bench Decide -benchtime 20x
func BenchmarkDecide(b *testing.B) {
	m, pages := pageRows(b)
	p, err := newDensePack(m)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, rows := range pages {
		n += len(rows)
	}
	var tSVM, tProto time.Duration
	for i := 0; b.Loop(); i++ {
		run := func(proto bool) {
			t0 := time.Now()
			for _, rows := range pages {
				var err error
				if proto {
					_, err = p.Decide(rows)
				} else {
					_, err = m.DecisionBatch(rows, 1)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if proto {
				tProto += time.Since(t0)
			} else {
				tSVM += time.Since(t0)
			}
		}
		run(i%2 == 1)
		run(i%2 == 0)
	}
	perPage := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N*len(pages)) }
	b.ReportMetric(perPage(tSVM), "svm-µs/page")
	b.ReportMetric(perPage(tProto), "proto-µs/page")
	b.ReportMetric(float64(tSVM.Nanoseconds())/float64(b.N*n*len(m.SV)), "svm-ns/kernel")
	b.ReportMetric(tSVM.Seconds()/tProto.Seconds(), "speedup")
	b.ReportMetric(0, "ns/op")
}
