package render

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// checkDecode decodes data with decodePNGInto at y0 of a taller image and
// compares with image/png.
func checkDecode(t *testing.T, name string, data []byte) {
	t.Helper()
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := want.Bounds()
	const y0 = 3
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()+y0+2))
	if err := decodePNGInto(data, dst, y0); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			w := color.RGBAModel.Convert(want.At(b.Min.X+x, b.Min.Y+y)).(color.RGBA)
			if g := dst.RGBAAt(x, y0+y); g != w {
				t.Fatalf("%s: pixel (%d,%d) = %v, want %v", name, x, y, g, w)
			}
		}
	}
}

func TestDecodePNG(t *testing.T) {
	// Go's encoder chooses the filter per row, so these cover all five.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kind := range []string{"noise", "gradient", "bars"} {
		img := image.NewRGBA(image.Rect(0, 0, 97, 61))
		for y := 0; y < 61; y++ {
			for x := 0; x < 97; x++ {
				var c color.RGBA
				switch kind {
				case "noise":
					c = color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
				case "gradient":
					c = color.RGBA{uint8(x * 2), uint8(y * 4), uint8(x + y), 255}
				case "bars":
					c = color.RGBA{255, 255, 255, 255}
					if y%10 < 6 && x > 10 && x < 80 {
						c = color.RGBA{uint8(y * 3), 128, 0, 255}
					}
				}
				img.SetRGBA(x, y, c)
			}
		}
		for _, lvl := range []png.CompressionLevel{png.DefaultCompression, png.NoCompression, png.BestSpeed} {
			var buf bytes.Buffer
			if err := (&png.Encoder{CompressionLevel: lvl}).Encode(&buf, img); err != nil {
				t.Fatal(err)
			}
			checkDecode(t, kind, buf.Bytes())
		}
	}
	// A PNG with alpha takes the image/png path.
	nrgba := image.NewNRGBA(image.Rect(0, 0, 5, 5))
	nrgba.SetNRGBA(1, 1, color.NRGBA{10, 20, 30, 128})
	var buf bytes.Buffer
	png.Encode(&buf, nrgba)
	checkDecode(t, "alpha", buf.Bytes())

	// Chromium's own screenshots, both encodings.
	br := newBrowser(t, Options{})
	tab, cancel := chromedp.NewContext(br.cur.ctx)
	defer cancel()
	if _, err := br.render(tab, readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	for _, speed := range []bool{true, false} {
		r, err := call(tab, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: ptr(speed)})
		if err != nil {
			t.Fatal(err)
		}
		checkDecode(t, "chromium", r.Data)
	}
	if err := decodePNGInto([]byte("\x89PNG\r\n\x1a\nnot really"), image.NewRGBA(image.Rect(0, 0, 1, 1)), 0); err == nil {
		t.Error("a broken PNG decoded")
	}
}

func BenchmarkDecodePNG(b *testing.B) {
	br := newBrowser(b, Options{})
	tab, cancel := chromedp.NewContext(br.cur.ctx)
	defer cancel()
	pages := loadBenchPages(b)
	if _, err := br.render(tab, pages[3].doc, pages[3].colors, RenderOptions{Highlight: true}); err != nil {
		b.Fatal(err)
	}
	r, err := call(tab, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: ptr(true)})
	if err != nil {
		b.Fatal(err)
	}
	w, h, _, _ := pngHeader(r.Data)
	b.Run("image/png", func(b *testing.B) {
		for b.Loop() {
			png.Decode(bytes.NewReader(r.Data))
		}
		b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(w*h), "ns/px")
	})
	b.Run("fast", func(b *testing.B) {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		for b.Loop() {
			if err := decodePNGInto(r.Data, dst, 0); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(w*h), "ns/px")
	})
	_ = context.Background
}
