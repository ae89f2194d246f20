package vision

import (
	"encoding/binary"
	"image"
	"image/draw"
)

// run is a horizontal run of pixels of one block in page coordinates:
// pixels [x0, x1) of row y.
type run struct {
	x0, x1, y int32
	block     int32
}

// decodeRuns scans the image once, row by row, and returns the runs of
// decoded pixels whose index is below n (at least minRun long), in raster order, in image
// coordinates.
func decodeRuns(img image.Image, n int) (runs []run, bounds image.Rectangle) {
	var pix []uint8
	var stride int
	var b image.Rectangle
	nonPremul := false
	switch m := img.(type) {
	case *image.RGBA:
		pix, stride, b = m.Pix, m.Stride, m.Rect
	case *image.NRGBA:
		pix, stride, b = m.Pix, m.Stride, m.Rect
		nonPremul = true
	default:
		b = img.Bounds()
		rgba := image.NewRGBA(b)
		draw.Draw(rgba, b, image.White, image.Point{}, draw.Src)
		draw.Draw(rgba, b, img, b.Min, draw.Over)
		pix, stride = rgba.Pix, rgba.Stride
	}
	w := b.Dx()
	runs = make([]run, 0, 1024)
	for y := 0; y < b.Dy(); y++ {
		row := pix[y*stride : y*stride+4*w]
		cur := int32(-1) // block of the open run
		start := 0
		prev := uint32(0xFFFFFFFF) // opaque white
		prev2 := uint64(prev) | uint64(prev)<<32
		for x := 0; x < w; x++ {
			p := binary.LittleEndian.Uint32(row[4*x:])
			if p == prev {
				// Same colour: same block, the run goes on. Skip pixel
				// pairs while they are unchanged.
				for x+2 < w && binary.LittleEndian.Uint64(row[4*x+4:]) == prev2 {
					x += 2
				}
				continue
			}
			prev = p
			prev2 = uint64(p) | uint64(p)<<32
			idx := int32(-1)
			if p != 0xFFFFFFFF {
				idx = decodePixel(uint8(p), uint8(p>>8), uint8(p>>16), uint8(p>>24), nonPremul, n)
			}
			if idx != cur {
				if cur >= 0 && x-start >= minRun {
					runs = append(runs, run{int32(start + b.Min.X), int32(x + b.Min.X), int32(y + b.Min.Y), cur})
				}
				cur, start = idx, x
			}
		}
		if cur >= 0 && w-start >= minRun {
			runs = append(runs, run{int32(start + b.Min.X), int32(w + b.Min.X), int32(y + b.Min.Y), cur})
		}
	}
	return runs, b
}

// minRun is the shortest run kept: single decoded pixels are anti-aliasing
// fringes or blends that happen to decode, never a text bar.
const minRun = 2

// decodePixel composites a non-opaque pixel over white and decodes it.
func decodePixel(r, g, b, a uint8, nonPremul bool, n int) int32 {
	if r == 255 && g == 255 && b == 255 {
		return -1
	}
	if a != 255 {
		// Over white: premultiplied c + (255-a); non-premultiplied c*a/255 + (255-a).
		if nonPremul {
			r = uint8((int(r)*int(a) + 127) / 255)
			g = uint8((int(g)*int(a) + 127) / 255)
			b = uint8((int(b)*int(a) + 127) / 255)
		}
		r, g, b = r+(255-a), g+(255-a), b+(255-a)
	}
	i, ok := decode(r, g, b)
	if !ok || i >= n {
		return -1
	}
	return int32(i)
}
