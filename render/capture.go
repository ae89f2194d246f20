package render

import (
	"context"
	"fmt"
	"image"
	"math"
	"time"

	"github.com/chromedp/cdproto/page"
)

// capture takes the screenshot of the page area [0,width)x[0,height) in CSS
// px, the viewport already set to the full height, as one image of
// width*scale x height*scale px. Areas taller than Options.TileHeight image
// px are captured in strips and stitched. It returns Chromium's time and our
// decoding time separately.
func (b *Browser) capture(tab context.Context, width, height int) (*image.RGBA, time.Duration, time.Duration, error) {
	scale := b.opt.Scale
	height = max(height, 1)
	W := int(math.Ceil(float64(width) * scale))
	H := int(math.Ceil(float64(height) * scale))
	// Strips of a whole number of CSS px, at most TileHeight image px
	// (bounded by the height first: at a tiny scale the quotient would not
	// fit an int).
	stripCSS := max(1, int(min(float64(b.opt.TileHeight)/scale, float64(height))))
	var out *image.RGBA
	var shot, dec time.Duration
	for cy0 := 0; cy0 < height; cy0 += stripCSS {
		cy1 := min(cy0+stripCSS, height)
		y0 := int(math.Round(float64(cy0) * scale))
		t0 := time.Now()
		r, err := call(tab, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{X: 0, Y: float64(cy0), Width: float64(width), Height: float64(cy1 - cy0), Scale: 1},
			FromSurface:           ptr(true),
			CaptureBeyondViewport: ptr(false),
			OptimizeForSpeed:      ptr(optimizeForSpeed),
		})
		shot += time.Since(t0)
		if err != nil {
			return nil, shot, dec, err
		}
		t0 = time.Now()
		if out == nil {
			out = image.NewRGBA(image.Rect(0, 0, W, H))
		}
		err = decodePNGInto(r.Data, out, y0)
		dec += time.Since(t0)
		if err != nil {
			return nil, shot, dec, fmt.Errorf("render: decode screenshot: %w", err)
		}
	}
	return out, shot, dec, nil
}

func ptr[T any](v T) *T { return &v }

// optimizeForSpeed is the capture's optimizeForSpeed parameter (see doc.go).
const optimizeForSpeed = true
