package render

import (
	"context"
	"testing"
	"bytes"
	"image/png"
	"github.com/chromedp/cdproto/page"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

func TestProbe(t *testing.T) {
	br := newBrowser(t, Options{})
	inst, _ := br.instance(context.Background())
	defer inst.wg.Done()
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		tab, cancel := chromedp.NewContext(inst.ctx)
		if err := chromedp.Do(tab); err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		call(tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		t2 := time.Now()
		br.setViewport(tab, 800)
		t3 := time.Now()
		chromedp.Do(tab, chromedp.Navigate("about:blank"))
		t4 := time.Now()
		cancel()
		t5 := time.Now()
		t.Logf("newtab %v script %v viewport %v nav %v close %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4))
	}
}

func TestProbePNG(t *testing.T) {
	br := newBrowser(t, Options{})
	inst, _ := br.instance(context.Background())
	defer inst.wg.Done()
	tab, cancel := chromedp.NewContext(inst.ctx)
	defer cancel()
	chromedp.Do(tab, chromedp.Navigate("about:blank"))
	for _, speed := range []bool{true, false} {
		r, err := call(tab, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: ptr(speed)})
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		img, _ := png.Decode(bytes.NewReader(r.Data))
		t.Logf("speed %v: %d bytes, header % x, type %T, decode %v", speed, len(r.Data), r.Data[24:26], img, time.Since(t0))
	}
}

func BenchmarkProbeSpeed(b *testing.B) {
	pages := loadBenchPages(b)
	br := newBrowser(b, Options{})
	for _, speed := range []bool{true, false} {
		optimizeForSpeed = speed
		var shot, dec time.Duration
		for i := 0; i < 20; i++ {
			p := pages[i]
			res, err := br.Render(context.Background(), p.doc, p.colors, RenderOptions{Highlight: true})
			if err != nil {
				b.Fatal(err)
			}
			shot += res.Timings.Screenshot
			dec += res.Timings.Decode
		}
		b.Logf("speed %v: shot %v dec %v", speed, shot/20, dec/20)
	}
}

func BenchmarkProbeDecode(b *testing.B) {
	pages := loadBenchPages(b)
	br := newBrowser(b, Options{TileHeight: 1 << 20})
	p := pages[3]
	tab, cancel := chromedp.NewContext(br.cur.ctx)
	defer cancel()
	_, err := br.render(tab, p.doc, p.colors, RenderOptions{Highlight: true})
	if err != nil {
		b.Fatal(err)
	}
	r, err := call(tab, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: ptr(true)})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("png %d bytes", len(r.Data))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		img, _ := png.Decode(bytes.NewReader(r.Data))
		if i == 0 {
			b.Logf("%v", img.Bounds())
		}
	}
}
