package vision

import "math"

// RxDivisor and RyDivisor tie the blur to the line height L: the box radii
// are rx = max(1, round(L/RxDivisor)) along x and ry = max(1, round(L/RyDivisor))
// along y.
const (
	RxDivisor = 16
	RyDivisor = 2
)

// blurRadii returns the box radii for line height lh.
func blurRadii(lh float64) (rx, ry int) {
	return max(1, int(math.Round(lh/RxDivisor))), max(1, int(math.Round(lh/RyDivisor)))
}

// boxSigma is the standard deviation of three box passes of width 2r+1.
func boxSigma(r int) float64 { return math.Sqrt(float64(r * (r + 1))) }

// boxBlur3 blurs the w*h mask m (values 0 or 1) with three box passes of
// radius rx along x and three of radius ry along y, treating everything
// outside the buffer as 0 at every pass. Rows outside [y0, y1) must be all
// zero (they are skipped by the x passes). The result, in [0,1], equals the
// blur of the infinite zero-extended mask wherever the point is at least
// 2*rx (2*ry) inside the buffer: callers pad the mask by that much. out and
// tmp, if large enough, are used as storage.
func boxBlur3(m []uint8, w, h, rx, ry, y0, y1 int, out, tmp []float32) ([]float32, []float32) {
	n := w * h
	if cap(out) < n {
		out = make([]float32, n)
	}
	if cap(tmp) < n {
		tmp = make([]float32, n)
	}
	out, tmp = out[:n], tmp[:n]
	clear(out[:y0*w])
	clear(out[y1*w:])
	clear(tmp[:y0*w])
	clear(tmp[y1*w:])
	for i := y0 * w; i < y1*w; i++ {
		out[i] = float32(m[i])
	}
	inv := 1 / float32(2*rx+1)
	for pass := 0; pass < 3; pass++ {
		for y := y0; y < y1; y++ {
			boxRow(out[y*w:(y+1)*w], tmp[y*w:(y+1)*w], rx, inv)
		}
		out, tmp = tmp, out
	}
	acc := make([]float32, w)
	inv = 1 / float32(2*ry+1)
	for pass := 0; pass < 3; pass++ {
		boxCols(out, tmp, w, h, ry, inv, acc)
		out, tmp = tmp, out
	}
	return out, tmp
}

// boxRow writes the mean of src over the window [x-r, x+r] (zero outside).
func boxRow(src, dst []float32, r int, inv float32) {
	w := len(src)
	var s float32
	for x := 0; x < r && x < w; x++ {
		s += src[x]
	}
	for x := 0; x < w; x++ {
		if a := x + r; a < w {
			s += src[a]
		}
		dst[x] = s * inv
		if d := x - r; d >= 0 {
			s -= src[d]
		}
	}
}

// boxCols is boxRow down the columns, processed a row at a time: the
// window sum of every column is kept in acc and updated by adding the row
// entering the window and subtracting the row leaving it.
func boxCols(src, dst []float32, w, h, r int, inv float32, acc []float32) {
	clear(acc)
	acc = acc[:w]
	for y := 0; y < r && y < h; y++ {
		row := src[y*w : (y+1)*w]
		for x, v := range row {
			acc[x] += v
		}
	}
	for y := 0; y < h; y++ {
		out := dst[y*w : (y+1)*w]
		a, d := y+r, y-r-1
		switch {
		case a < h && d >= 0:
			add, sub := src[a*w:(a+1)*w], src[d*w:(d+1)*w]
			add, sub, out = add[:len(acc)], sub[:len(acc)], out[:len(acc)]
			for x := range acc {
				v := acc[x] + add[x] - sub[x]
				acc[x] = v
				out[x] = v * inv
			}
		case a < h:
			add := src[a*w : (a+1)*w]
			add, out = add[:len(acc)], out[:len(acc)]
			for x := range acc {
				v := acc[x] + add[x]
				acc[x] = v
				out[x] = v * inv
			}
		case d >= 0:
			sub := src[d*w : (d+1)*w]
			sub, out = sub[:len(acc)], out[:len(acc)]
			for x := range acc {
				v := acc[x] - sub[x]
				acc[x] = v
				out[x] = v * inv
			}
		default:
			for x, v := range acc {
				out[x] = v * inv
			}
		}
	}
}
