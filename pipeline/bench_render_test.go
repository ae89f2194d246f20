package pipeline

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/render"
)

// BenchmarkCleanRendered cleans the CleanEval development pages with the
// embedded visual model, one page per CPU at a time, and splits the time
// per page into Chromium's own work (navigation and load, layout for the
// full-page viewport, screenshot) and what fiasco adds (highlighting,
// PNG decoding, vision, and the text stages and classification). Targets:
// at least 2 pages/s on 2 cores; what we add at most 25% of Chromium's
// load and screenshot.
func BenchmarkCleanRendered(b *testing.B) {
	pages := readPages(b, sharedData(b, "cleaneval-en-dev"))
	if _, err := render.FindChromium(); err != nil {
		b.Skipf("no Chromium: %v", err)
	}
	m, err := DefaultModel(true)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	v, err := NewVisualizer(ctx, render.Options{Scale: DefaultRenderScale})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	c := &Cleaner{Model: m, Prepare: PrepareOptions{Visual: v}}
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var sum Timings
	failed := 0
	b.ResetTimer()
	start := time.Now()
	for n := 0; n < b.N; n++ {
		next := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					r, err := c.Clean(ctx, "page", pages[i])
					mu.Lock()
					if err != nil {
						failed++
						if errors.Is(err, render.ErrNoChromium) {
							b.Error(err)
						}
					} else {
						t := r.Timings
						sum.RenderSplit.Load += t.RenderSplit.Load
						sum.RenderSplit.Measure += t.RenderSplit.Measure
						sum.RenderSplit.Screenshot += t.RenderSplit.Screenshot
						sum.RenderSplit.Highlight += t.RenderSplit.Highlight
						sum.RenderSplit.Decode += t.RenderSplit.Decode
						sum.Vision += t.Vision
						sum.Load += t.Load + t.Preclean + t.Blocks + t.Features + t.Classify
					}
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
	total := float64(b.N*len(pages) - failed)
	ms := func(d time.Duration) float64 { return float64(d.Milliseconds()) / total }
	s := sum.RenderSplit
	chromium := s.Load + s.Screenshot
	ours := s.Highlight + s.Decode + sum.Vision
	b.ReportMetric(float64(b.N*len(pages))/el, "pages/s")
	b.ReportMetric(ms(s.Load), "chromium-load-ms/page")
	b.ReportMetric(ms(s.Measure), "chromium-layout-ms/page")
	b.ReportMetric(ms(s.Screenshot), "chromium-shot-ms/page")
	b.ReportMetric(ms(s.Highlight), "highlight-ms/page")
	b.ReportMetric(ms(s.Decode), "decode-ms/page")
	b.ReportMetric(ms(sum.Vision), "vision-ms/page")
	b.ReportMetric(ms(sum.Load), "text-stages-ms/page")
	b.ReportMetric(float64(ours)/float64(chromium), "ours/chromium")
	b.ReportMetric(float64(failed), "failed")
}
