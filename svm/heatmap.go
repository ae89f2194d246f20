package svm

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// WriteHeatmap draws the grid's CV accuracy as a PNG heatmap: log2 C
// along x, log2 gamma along y (largest at the top, as svm-grid's contour
// plot), dark blue = worst, yellow = best, each cell labelled with its
// accuracy in percent; the best cell is outlined.
func WriteHeatmap(w io.Writer, res *GridResult) error {
	if res == nil || len(res.Points) == 0 {
		return fmt.Errorf("svm: empty grid result")
	}
	nc, ng := len(res.Log2C), len(res.Log2G)
	const cw, ch, left, top, bottom, right = 56, 28, 70, 30, 44, 12
	title := fmt.Sprintf("CV accuracy %%; rows log2 gamma; best C=2^%g gamma=2^%g: %.2f%%",
		res.Best.Log2C, res.Best.Log2G, 100*res.Best.Accuracy)
	W, H := max(left+nc*cw+right, 8+7*len(title)), top+ng*ch+bottom
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range res.Points {
		lo, hi = math.Min(lo, p.Accuracy), math.Max(hi, p.Accuracy)
	}
	// rows from the largest gamma at the top
	gRow := sortedIndex(res.Log2G, true)
	cCol := sortedIndex(res.Log2C, false)
	for _, p := range res.Points {
		r, c := gRow[p.Log2G], cCol[p.Log2C]
		x0, y0 := left+c*cw, top+r*ch
		t := 0.0
		if hi > lo {
			t = (p.Accuracy - lo) / (hi - lo)
		}
		col := ramp(t)
		draw.Draw(img, image.Rect(x0, y0, x0+cw-1, y0+ch-1), &image.Uniform{col}, image.Point{}, draw.Src)
		txt := color.Color(color.White)
		if t > 0.6 {
			txt = color.Black
		}
		label(img, x0+6, y0+18, fmt.Sprintf("%.1f", 100*p.Accuracy), txt)
		if p.Log2C == res.Best.Log2C && p.Log2G == res.Best.Log2G {
			outline(img, x0, y0, cw-1, ch-1, color.RGBA{255, 0, 0, 255})
		}
	}
	for lc, c := range cCol {
		label(img, left+c*cw+18, top+ng*ch+14, fmt.Sprintf("%g", lc), color.Black)
	}
	for lg, r := range gRow {
		label(img, left-34, top+r*ch+18, fmt.Sprintf("%g", lg), color.Black)
	}
	label(img, left, top+ng*ch+36, "log2 C", color.Black)
	label(img, 4, 14, title, color.Black)
	return png.Encode(w, img)
}

func sortedIndex(v []float64, desc bool) map[float64]int {
	idx := map[float64]int{}
	for _, x := range v {
		n := 0
		for _, y := range v {
			if (!desc && y < x) || (desc && y > x) {
				n++
			}
		}
		idx[x] = n
	}
	return idx
}

// ramp maps t in [0,1] from dark blue through teal to yellow.
func ramp(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t))
	stops := []color.RGBA{{68, 1, 84, 255}, {59, 82, 139, 255}, {33, 145, 140, 255}, {94, 201, 98, 255}, {253, 231, 37, 255}}
	f := t * float64(len(stops)-1)
	i := int(f)
	if i >= len(stops)-1 {
		return stops[len(stops)-1]
	}
	u := f - float64(i)
	a, b := stops[i], stops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + u*(float64(y)-float64(x)) + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

func label(img draw.Image, x, y int, s string, c color.Color) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func outline(img *image.RGBA, x, y, w, h int, c color.Color) {
	for k := 0; k < 2; k++ {
		for i := x; i < x+w; i++ {
			img.Set(i, y+k, c)
			img.Set(i, y+h-1-k, c)
		}
		for j := y; j < y+h; j++ {
			img.Set(x+k, j, c)
			img.Set(x+w-1-k, j, c)
		}
	}
}
