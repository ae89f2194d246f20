package vision

import "bytes"

// blurThreshold sets m[i] = 1 wherever the box cascade blur of the w*h
// mask m (three passes of radius rx along x, three of radius ry along y,
// zero outside the mask) is >= 0.5. rs are the block's runs; (ox, oy) is
// the page position of m's origin.
//
// It computes exactly what thresholding boxBlur3 on the mask padded by
// 2*rx and 2*ry gives, but exploits the structure of text masks: rows
// within a text line are identical, so the x passes run once per distinct
// row; and after them, column x differs from column x-1 only near a run
// end (within 3*rx), so the y passes run once per distinct column.
func blurThreshold(m []uint8, w, h int, rs []run, ox, oy int32, rx, ry int, s *scratch) {
	// Distinct rows.
	if cap(s.rowRep) < h {
		s.rowRep = make([]int32, h)
	}
	rowRep := s.rowRep[:h]
	px := 2 * rx
	W := w + 2*px
	nd := 0
	hb := s.hb[:0]
	for y := 0; y < h; y++ {
		row := m[y*w : (y+1)*w]
		if y > 0 && bytes.Equal(row, m[(y-1)*w:y*w]) {
			rowRep[y] = rowRep[y-1]
			continue
		}
		rowRep[y] = int32(nd)
		nd++
		// x passes of this row, padded by 2*rx.
		start := len(hb)
		hb = append(hb, make([]float32, 2*W)...)
		a, b := hb[start:start+W], hb[start+W:start+2*W]
		for x, v := range row {
			a[px+x] = float32(v)
		}
		inv := 1 / float32(2*rx+1)
		boxRow(a, b, rx, inv)
		boxRow(b, a, rx, inv)
		boxRow(a, b, rx, inv)
		copy(a, b)
		hb = hb[:start+W]
	}
	s.hb = hb

	// Distinct columns: change[c] counts run ends at c (col c != col c-1).
	if cap(s.chg) < w+2 {
		s.chg = make([]int32, w+2)
	}
	cum := s.chg[:w+2]
	clear(cum)
	for _, r := range rs {
		cum[r.x0-ox+1]++
		cum[r.x1-ox+1]++
	}
	for c := 1; c < len(cum); c++ {
		cum[c] += cum[c-1]
	} // cum[c+1] = number of ends at positions <= c
	if cap(s.colRep) < w {
		s.colRep = make([]int32, w)
	}
	colRep := s.colRep[:w]
	reach := 3 * rx
	var reps []int
	for x := 0; x < w; x++ {
		lo, hi := max(0, x-reach), min(w, x+reach)
		if x == 0 || cum[hi+1]-cum[lo] > 0 {
			reps = append(reps, x)
		}
		colRep[x] = int32(len(reps) - 1)
	}

	// y passes per distinct column, padded by 2*ry; results transposed.
	py := 2 * ry
	H := h + 2*py
	if cap(s.colA) < H {
		s.colA, s.colB = make([]float32, H), make([]float32, H)
	}
	ca, cb := s.colA[:H], s.colB[:H]
	k := len(reps)
	if cap(s.res) < k*h {
		s.res = make([]uint8, k*h)
	}
	res := s.res[:k*h]
	inv := 1 / float32(2*ry+1)
	for j, x := range reps {
		clear(ca)
		X := x + px
		for y := 0; y < h; y++ {
			ca[py+y] = hb[int(rowRep[y])*W+X]
		}
		boxRow(ca, cb, ry, inv)
		boxRow(cb, ca, ry, inv)
		boxRow(ca, cb, ry, inv)
		for y := 0; y < h; y++ {
			var t uint8
			if cb[py+y] >= 0.5 {
				t = 1
			}
			res[y*k+j] = t
		}
	}
	for y := 0; y < h; y++ {
		row := m[y*w : (y+1)*w]
		rr := res[y*k : (y+1)*k]
		for x, c := range colRep {
			row[x] |= rr[c]
		}
	}
}
