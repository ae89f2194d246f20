package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"
)

// sharedData returns the path of a data set in ../shared/data, skipping the
// test or benchmark when it is absent.
func sharedData(tb testing.TB, set string) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "shared", "data", set)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("data set %s not available (%v)", set, err)
	}
	return dir
}

func readPages(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "html", "*.html"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no pages in %s: %v", dir, err)
	}
	sort.Strings(files)
	var pages [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, data)
	}
	return pages
}

// BenchmarkClean cleans the CleanEval development pages with the embedded
// text model, on one goroutine and on one per CPU, and reports pages per
// second (target: at least 100 per core).
func BenchmarkClean(b *testing.B) {
	pages := readPages(b, sharedData(b, "cleaneval-en-dev"))
	m, err := DefaultModel(false)
	if err != nil {
		b.Fatal(err)
	}
	c := &Cleaner{Model: m}
	ctx := context.Background()
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(map[bool]string{true: "workers=1", false: "workers=all"}[workers == 1], func(b *testing.B) {
			var stage Timings
			start := time.Now()
			for n := 0; n < b.N; n++ {
				var wg sync.WaitGroup
				var mu sync.Mutex
				next := make(chan int)
				for w := 0; w < workers; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range next {
							r, err := c.Clean(ctx, "page", pages[i])
							if err != nil {
								continue // bad pages count as work done
							}
							mu.Lock()
							t := r.Timings
							stage.Load += t.Load
							stage.Preclean += t.Preclean
							stage.Blocks += t.Blocks
							stage.Features += t.Features
							stage.Classify += t.Classify
							mu.Unlock()
						}
					}()
				}
				for i := range pages {
					next <- i
				}
				close(next)
				wg.Wait()
			}
			el := time.Since(start).Seconds()
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
	dir := sharedData(b, "cleaneval-en-dev")
	files, _ := filepath.Glob(filepath.Join(dir, "html", "*.html"))
	var inputs []Input
	for len(inputs) < 1000 {
		for _, f := range files {
			inputs = append(inputs, Input{Name: f})
		}
	}
	inputs = inputs[:1000]
	m, err := DefaultModel(false)
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
