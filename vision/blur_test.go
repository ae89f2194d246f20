package vision

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// gaussBlur blurs the mask with imaging.Blur (sigma), padding it by
// ceil(3*sigma) so that outside counts as 0, and returns values in [0,1].
func gaussBlur(m []uint8, w, h int, sigma float64) []float32 {
	pad := int(math.Ceil(3 * sigma))
	g := image.NewGray(image.Rect(0, 0, w+2*pad, h+2*pad))
	for y := 0; y < h; y++ {
		row := g.Pix[(y+pad)*g.Stride+pad:]
		for x := 0; x < w; x++ {
			if m[y*w+x] != 0 {
				row[x] = 255
			}
		}
	}
	b := imaging.Blur(g, sigma)
	out := make([]float32, w*h)
	for y := 0; y < h; y++ {
		row := b.Pix[(y+pad)*b.Stride+4*pad:]
		for x := 0; x < w; x++ {
			out[y*w+x] = float32(row[4*x]) / 255
		}
	}
	return out
}
