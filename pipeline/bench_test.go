package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"
)

// readPages returns the pages of a data set as batch inputs held in memory.
func readPages(tb testing.TB, dir string) []Input {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "html", "*.html"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no pages in %s: %v", dir, err)
	}
	sort.Strings(files)
	var pages []Input
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, Input{Name: f, Data: data})
	}
	return pages
}

// cleanAll cleans pages with Batch b.N times and returns the total stage
// times of the pages cleaned, the wall time and the number of failures.
func cleanAll(b *testing.B, c *Cleaner, pages []Input, workers int) (sum Timings, wall time.Duration, failed int) {
	start := time.Now()
	for n := 0; n < b.N; n++ {
		err := c.Batch(context.Background(), pages, workers, func(o Outcome) {
			if o.Err != nil {
				failed++
				return
			}
			sum.Add(o.Result.Timings)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return sum, time.Since(start), failed
}

// BenchmarkClean cleans the CleanEval development pages with the embedded
// text model, on one goroutine and on one per CPU, and reports pages per
// second (target: at least 100 per core).
func BenchmarkClean(b *testing.B) {
	pages := readPages(b, shared.Path(b, "cleaneval-en-dev"))
	m, err := classify.Default(false)
	if err != nil {
		b.Fatal(err)
	}
	c := &Cleaner{Model: m}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(map[bool]string{true: "workers=1", false: "workers=all"}[workers == 1], func(b *testing.B) {
			stage, wall, _ := cleanAll(b, c, pages, workers)
			el := wall.Seconds()
			total := float64(b.N * len(pages))
			b.ReportMetric(total/el, "pages/s")
			b.ReportMetric(total/el/float64(workers), "pages/s/worker")
			per := func(d time.Duration) float64 { return float64(d.Microseconds()) / total }
			b.ReportMetric(per(stage.Load), "load-µs/page")
			b.ReportMetric(per(stage.Preclean), "preclean-µs/page")
			b.ReportMetric(per(stage.Blocks), "blocks-µs/page")
			b.ReportMetric(per(stage.Features), "features-µs/page")
			b.ReportMetric(per(stage.Classify), "classify-µs/page")
		})
	}
}

// BenchmarkBatchMemory cleans a batch of a thousand pages (the CleanEval
// development pages, repeated) with Batch on every CPU and reports the peak
// heap in use, sampled after every page, and the memory obtained from the
// OS (target: under 200 MB).
func BenchmarkBatchMemory(b *testing.B) {
	dir := shared.Path(b, "cleaneval-en-dev")
	files, _ := filepath.Glob(filepath.Join(dir, "html", "*.html"))
	var inputs []Input
	for len(inputs) < 1000 {
		for _, f := range files {
			inputs = append(inputs, Input{Name: f})
		}
	}
	inputs = inputs[:1000]
	m, err := classify.Default(false)
	if err != nil {
		b.Fatal(err)
	}
	c := &Cleaner{Model: m}
	for n := 0; n < b.N; n++ {
		runtime.GC()
		var peak uint64
		var ms runtime.MemStats
		failed := 0
		start := time.Now()
		err := c.Batch(context.Background(), inputs, 0, func(o Outcome) {
			if o.Err != nil {
				failed++
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(inputs))/time.Since(start).Seconds(), "pages/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
		b.ReportMetric(float64(failed), "failed")
	}
}
