package vision

import (
	"math"
	"testing"
)

// TestBlurThresholdMatchesReference: the structured blur-threshold equals
// thresholding the plain 2-D box cascade (boxBlur3 on the mask padded by
// 2r) on every block of a synthetic page and of the scenes, except where
// the reference value is within 1e-4 of 0.5 (float summation order).
func TestBlurThresholdMatchesReference(t *testing.T) {
	type page struct {
		runs []run
		n    int
	}
	var pages []page
	img, n := syntheticPage(t, 1280, 3000, 3)
	r, _ := decodeRuns(img, n)
	pages = append(pages, page{r, n})
	for _, s := range loadScenes(t) {
		img, _ := s.render(t)
		r, _ := decodeRuns(img, len(s.Blocks))
		pages = append(pages, page{r, len(s.Blocks)})
	}
	checked := 0
	for _, p := range pages {
		by := make([][]run, p.n)
		for _, r := range p.runs {
			by[r.block] = append(by[r.block], r)
		}
		for _, rs := range by {
			if len(rs) == 0 {
				continue
			}
			for _, lh := range []float64{8, 17, 22, 40} {
				compareBlur(t, rs, lh)
				checked++
			}
		}
	}
	t.Logf("%d block masks compared", checked)
}

func compareBlur(t *testing.T, rs []run, lh float64) {
	t.Helper()
	x0, y0, x1, y1 := rs[0].x0, rs[0].y, rs[0].x1, rs[len(rs)-1].y+1
	for _, r := range rs {
		x0, x1 = min(x0, r.x0), max(x1, r.x1)
	}
	w, h := int(x1-x0), int(y1-y0)
	m := make([]uint8, w*h)
	for _, r := range rs {
		for x := r.x0; x < r.x1; x++ {
			m[int(r.y-y0)*w+int(x-x0)] = 1
		}
	}
	rx, ry := blurRadii(lh)
	W, H := w+4*rx, h+4*ry
	pm := make([]uint8, W*H)
	for y := 0; y < h; y++ {
		copy(pm[(y+2*ry)*W+2*rx:], m[y*w:(y+1)*w])
	}
	ref, _ := boxBlur3(pm, W, H, rx, ry, 2*ry, 2*ry+h, nil, nil)
	fast := append([]uint8(nil), m...)
	var s scratch
	blurThreshold(fast, w, h, rs, x0, y0, rx, ry, &s)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := ref[(y+2*ry)*W+2*rx+x]
			want := m[y*w+x]
			if v >= 0.5 {
				want = 1
			}
			if fast[y*w+x] != want && math.Abs(float64(v)-0.5) > 1e-4 {
				t.Fatalf("block at (%d,%d) %dx%d, line height %v: pixel (%d,%d) = %d, reference %d (blur %v)", x0, y0, w, h, lh, x, y, fast[y*w+x], want, v)
			}
		}
	}
}
