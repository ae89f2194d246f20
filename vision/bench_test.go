package vision

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"testing"
)

// BenchmarkMeasure: a 1280x8000 synthetic page with ~200 blocks. Compare
// with BenchmarkDecode (the single pass over the pixels) in the same run.
func BenchmarkMeasure(b *testing.B) {
	img, n := syntheticPage(b, 1280, 8000, 1)
	b.Logf("%d blocks", n)
	for _, w := range []int{1, 0} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for b.Loop() {
				if _, err := Measure(img, n, Options{Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	img, n := syntheticPage(b, 1280, 8000, 1)
	for b.Loop() {
		decodeRuns(img, n)
	}
}

// blurMask is a mask of text-like bars, w x h, for the blur benchmarks.
func blurMask(w, h int) []uint8 {
	m := make([]uint8, w*h)
	for y := 0; y < h; y++ {
		if y%22 >= 18 {
			continue
		}
		end := w - (y/22*37)%(w/3+1)
		for x := 0; x < end; x++ {
			m[y*w+x] = 1
		}
	}
	return m
}

// BenchmarkBlur compares the box cascade with imaging.Blur at the same
// sigma (line height 22: r = 11, sigma = sqrt(11*12)).
func BenchmarkBlur(b *testing.B) {
	const r = 11
	for _, sz := range []image.Point{{600, 400}, {1280, 5000}} {
		m := blurMask(sz.X, sz.Y)
		b.Run(fmt.Sprintf("box/%dx%d", sz.X, sz.Y), func(b *testing.B) {
			var out, tmp []float32
			for b.Loop() {
				out, tmp = boxBlur3(m, sz.X, sz.Y, r, r, 0, sz.Y, out, tmp)
			}
		})
		b.Run(fmt.Sprintf("imaging/%dx%d", sz.X, sz.Y), func(b *testing.B) {
			for b.Loop() {
				gaussBlur(m, sz.X, sz.Y, boxSigma(r))
			}
		})
	}
}

// TestBoxApproximatesGaussian: thresholded at 0.5, the box cascade and
// imaging.Blur at the same sigma agree on at least 99% of the pixels of a
// text-like mask, and the blurred values differ by at most 0.03.
func TestBoxApproximatesGaussian(t *testing.T) {
	const w, h, r = 300, 200, 11
	// Pad the mask by 2r as Measure does; compare inside.
	const W, H = w + 4*r, h + 4*r
	inner := blurMask(w, h)
	m := make([]uint8, W*H)
	for y := 0; y < h; y++ {
		copy(m[(y+2*r)*W+2*r:], inner[y*w:(y+1)*w])
	}
	boxAll, _ := boxBlur3(m, W, H, r, r, 2*r, 2*r+h, nil, nil)
	box := make([]float32, w*h)
	for y := 0; y < h; y++ {
		copy(box[y*w:(y+1)*w], boxAll[(y+2*r)*W+2*r:])
	}
	g := gaussBlur(inner, w, h, boxSigma(r))
	differ := 0
	maxd := 0.0
	for i := range box {
		if (box[i] >= 0.5) != (g[i] >= 0.5) {
			differ++
		}
		maxd = math.Max(maxd, math.Abs(float64(box[i]-g[i])))
	}
	t.Logf("threshold differs on %d of %d pixels, max |box-gauss| = %.3f", differ, w*h, maxd)
	if differ > w*h/100 || maxd > 0.03 {
		t.Errorf("box cascade is not close to the Gaussian: %d pixels differ, max diff %.3f", differ, maxd)
	}
}

// BenchmarkPNGDecode is the reference for BenchmarkMeasure: decoding the
// same 1280x8000 page from PNG, which every screenshot costs anyway.
func BenchmarkPNGDecode(b *testing.B) {
	img, _ := syntheticPage(b, 1280, 8000, 1)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := png.Decode(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlurThreshold is what Measure runs instead of the plain 2-D
// cascade: the same result (TestBlurThresholdMatchesReference) computed
// once per distinct row and column, on the 600x400 mask of BenchmarkBlur.
func BenchmarkBlurThreshold(b *testing.B) {
	const w, h, r = 600, 400, 11
	m := blurMask(w, h)
	var rs []run
	for y := 0; y < h; y++ {
		x := 0
		for x < w {
			if m[y*w+x] == 0 {
				x++
				continue
			}
			s := x
			for x < w && m[y*w+x] != 0 {
				x++
			}
			rs = append(rs, run{int32(s), int32(x), int32(y), 0})
		}
	}
	work := make([]uint8, len(m))
	var s scratch
	for b.Loop() {
		copy(work, m)
		blurThreshold(work, w, h, rs, 0, 0, r, r, &s)
	}
}
