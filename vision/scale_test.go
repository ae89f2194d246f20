package vision

import (
	"image"
	"math"
	"testing"
)

// halve downsamples by 2 with a 2x2 box filter, as a capture at scale 0.5
// would: bar edges at odd coordinates blend with white or each other.
func halve(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			for c := 0; c < 4; c++ {
				s := 0
				for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					s += int(img.Pix[(2*y+d[1])*img.Stride+4*(2*x+d[0])+c])
				}
				out.Pix[y*out.Stride+4*x+c] = uint8((s + 2) / 4)
			}
		}
	}
	return out
}

// TestHalfScale measures a synthetic page at full and at half resolution
// (line heights given, scaled) and bounds the change of each feature:
// every block found at both, Lines and Blobs equal, the mean absolute
// difference of Solidity I and III and RelWidth under 0.03, of Solidity II
// under 0.3 and of Headline under 0.1.
func TestHalfScale(t *testing.T) {
	img, n := syntheticPage(t, 1280, 3000, 9)
	full, err := Measure(img, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lh := make([]float64, n)
	for i, f := range full {
		lh[i] = f.LineHeight
	}
	half, err := Measure(halve(img), n, Options{LineHeight: lh, Scale: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var d [5]float64
	diffLines := 0
	for i := range full {
		a, b := full[i], half[i]
		if a.Found != b.Found || a.Blobs != b.Blobs {
			t.Errorf("block %d: full %+v\nhalf %+v", i, a, b)
			continue
		}
		if a.Lines != b.Lines {
			diffLines++
		}
		d[0] += math.Abs(a.SolidityI - b.SolidityI)
		d[1] += math.Abs(a.SolidityII - b.SolidityII)
		d[2] += math.Abs(a.SolidityIII - b.SolidityIII)
		d[3] += math.Abs(a.RelWidth - b.RelWidth)
		d[4] += math.Abs(a.Headline - b.Headline)
	}
	for i := range d {
		d[i] /= float64(n)
	}
	t.Logf("%d blocks; mean |full-half|: SolidityI %.4f II %.4f III %.4f RelWidth %.4f Headline %.4f; Lines differ on %d", n, d[0], d[1], d[2], d[3], d[4], diffLines)
	if diffLines > 0 || d[0] > 0.03 || d[1] > 0.3 || d[2] > 0.03 || d[3] > 0.03 || d[4] > 0.1 {
		t.Errorf("features do not survive half-scale capture")
	}
}
