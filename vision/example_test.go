package vision_test

import (
	"fmt"
	"image"
	"image/color"
	"log"

	"github.com/fiasco-project/fiasco/vision"
)

// Measure a screenshot in which the renderer painted every block's text
// lines in the block's palette colour: here a paragraph whose last line is short
// and a one-line heading, drawn by hand on a white page.
func Example() {
	pal, err := vision.Palette(2) // the colours the renderer paints with
	if err != nil {
		log.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 400, 200))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	bar := func(c color.RGBA, x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	bar(pal[0], 20, 10, 200, 30) // block 0: a heading, one line
	for l := 0; l < 4; l++ {     // block 1: a paragraph of four full lines
		bar(pal[1], 20, 50+l*20, 380, 50+l*20+14)
	}
	bar(pal[1], 20, 130, 150, 144) // and a short last line
	feats, err := vision.Measure(img, 2, vision.Options{LineHeight: []float64{20, 20}})
	if err != nil {
		log.Fatal(err)
	}
	for i, f := range feats {
		fmt.Printf("block %d: found %v, %d lines, solidity I %.2f, relative width %.2f\n", i, f.Found, f.Lines, f.SolidityI, f.RelWidth)
	}
	// Output:
	// block 0: found true, 1 lines, solidity I 1.00, relative width 0.50
	// block 1: found true, 5 lines, solidity I 0.86, relative width 1.00
}
