package vision

import (
	"image"
	"testing"
)

// TestLineHeightBounded: a line height a page's CSS blows up (millions of
// pixels) is measured at MaxLineHeight, as a real one would be; before,
// the blur grew with it (seconds and hundreds of MB per block at 1e7, a
// crash at 1e18).
func TestLineHeightBounded(t *testing.T) {
	pal, err := Palette(1)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 200, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 10; y < 24; y++ {
		for x := 20; x < 160; x++ {
			img.SetRGBA(x, y, pal[0])
		}
	}
	for _, lh := range []float64{1e7, 1e18} {
		fs, err := Measure(img, 1, Options{LineHeight: []float64{lh}, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if fs[0].LineHeight != MaxLineHeight || fs[0].Lines != 1 {
			t.Errorf("line height %g: measured with %g, %d lines; want %d, 1", lh, fs[0].LineHeight, fs[0].Lines, MaxLineHeight)
		}
	}
}
