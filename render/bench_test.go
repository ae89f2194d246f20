package render

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/internal/shared"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/preclean"
)

// benchPage is a CleanEval page prepared as the pipeline hands it over.
type benchPage struct {
	name   string
	doc    []byte
	colors []color.RGBA
}

// palette spreads n colours over the RGB cube (a stand-in for the palette of
// package vision, which render must not import).
func palette(n int) []color.RGBA {
	out := make([]color.RGBA, n)
	for i := range out {
		h := uint32(i+1) * 2654435761
		out[i] = color.RGBA{uint8(h >> 24), uint8(h >> 16), uint8(h >> 8), 255}
	}
	return out
}

func loadBenchPages(b testing.TB) []benchPage {
	dir := filepath.Join(shared.Path(b, "cleaneval-en-dev"), "html")
	names, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(names) == 0 {
		b.Skipf("skipping: no CleanEval dev pages in %s", dir)
	}
	sort.Strings(names)
	var pages []benchPage
	for _, name := range names {
		p, err := load.File(name, load.Options{})
		if err != nil {
			b.Logf("%s: %v", name, err)
			continue
		}
		if err := preclean.Clean(p.Doc); err != nil {
			b.Logf("%s: %v", name, err)
			continue
		}
		bs := blocks.Find(p.Doc)
		blocks.Mark(bs)
		var buf bytes.Buffer
		if err := html.Render(&buf, p.Doc); err != nil {
			b.Fatal(err)
		}
		pages = append(pages, benchPage{filepath.Base(name), buf.Bytes(), palette(len(bs))})
	}
	return pages
}

// BenchmarkRender renders the CleanEval dev pages with highlighting, with 1
// and 2 pages at a time, at scale 1 and 0.5. It reports pages/s and the mean
// time of each phase per page; ours/chromium is (Highlight+Decode) over
// (Load+Screenshot), the cost we add on top of Chromium's own work.
func BenchmarkRender(b *testing.B) {
	pages := loadBenchPages(b)
	for _, reuse := range []bool{false, true} {
		for _, scale := range []float64{1, 0.5} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("reuse=%v/scale=%g/workers=%d", reuse, scale, workers), func(b *testing.B) {
					br := newBrowser(b, Options{Scale: scale, ReuseTabs: reuse})
					var next atomic.Int64
					var mu sync.Mutex
					var sum Timings
					var pixels int64
					failed := 0
					b.ResetTimer()
					pid := br.pid()
					chrome0, self0 := treeCPU(pid), selfCPU()
					start := time.Now()
					var wg sync.WaitGroup
					for w := 0; w < workers; w++ {
						wg.Go(func() {
							for {
								i := int(next.Add(1)) - 1
								if i >= b.N {
									return
								}
								p := pages[i%len(pages)]
								res, err := br.Render(context.Background(), p.doc, p.colors, RenderOptions{Highlight: true})
								mu.Lock()
								if err != nil {
									failed++
									b.Logf("%s: %v", p.name, err)
								} else {
									t := res.Timings
									sum.Load += t.Load
									sum.Highlight += t.Highlight
									sum.Measure += t.Measure
									sum.Screenshot += t.Screenshot
									sum.Decode += t.Decode
									pixels += int64(res.Image.Bounds().Dx() * res.Image.Bounds().Dy())
								}
								mu.Unlock()
							}
						})
					}
					wg.Wait()
					elapsed := time.Since(start)
					b.StopTimer()
					chromeCPU, selfCPUTime := treeCPU(pid)-chrome0, selfCPU()-self0
					if br.pid() != pid {
						chromeCPU = 0 // restarted: the count is lost
					}
					ok := float64(b.N - failed)
					if ok == 0 {
						b.Fatal("every page failed")
					}
					ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / ok }
					b.ReportMetric(float64(b.N)/elapsed.Seconds(), "pages/s")
					b.ReportMetric(ms(sum.Load), "load-ms")
					b.ReportMetric(ms(sum.Highlight), "highlight-ms")
					b.ReportMetric(ms(sum.Measure), "measure-ms")
					b.ReportMetric(ms(sum.Screenshot), "screenshot-ms")
					b.ReportMetric(ms(sum.Decode), "decode-ms")
					b.ReportMetric(float64(pixels)/ok/1e6, "Mpx/page")
					b.ReportMetric(float64(sum.Highlight+sum.Decode)/float64(sum.Load+sum.Screenshot), "ours/chromium")
					if chromeCPU > 0 {
						// CPU per page, and the rate 2 idle cores would reach:
						// robust to other load on the machine.
						cpu := float64(chromeCPU+selfCPUTime) / float64(b.N)
						b.ReportMetric(float64(chromeCPU)/float64(time.Millisecond)/float64(b.N), "chromium-cpu-ms")
						b.ReportMetric(float64(selfCPUTime)/float64(time.Millisecond)/float64(b.N), "go-cpu-ms")
						b.ReportMetric(2*float64(time.Second)/cpu, "pages/s@2cores")
					}
					if failed > 0 {
						b.ReportMetric(float64(failed), "failed")
					}
				})
			}
		}
	}
}
