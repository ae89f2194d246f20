package pipeline

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"

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
	pages := readPages(b, shared.Path(b, "cleaneval-en-dev"))
	if _, err := render.FindChromium(); err != nil {
		b.Skipf("no Chromium: %v", err)
	}
	m, err := classify.Default(true)
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
	b.ResetTimer()
	sum, wall, failed := cleanAll(b, c, pages, runtime.GOMAXPROCS(0))
	el := wall.Seconds()
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
	b.ReportMetric(ms(sum.Load+sum.Preclean+sum.Blocks+sum.Features+sum.Classify), "text-stages-ms/page")
	b.ReportMetric(float64(ours)/float64(chromium), "ours/chromium")
	b.ReportMetric(float64(failed), "failed")
}
