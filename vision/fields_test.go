package vision

import (
	"image"
	"image/color"
	"testing"
)

// TestFields: every field has a name, used once, and a getter.
func TestFields(t *testing.T) {
	seen := map[string]bool{}
	for i, f := range Fields {
		if f.Name == "" || f.Get == nil {
			t.Errorf("field %d: name %q, getter %v", i, f.Name, f.Get != nil)
		}
		if seen[f.Name] {
			t.Errorf("field %q defined twice", f.Name)
		}
		seen[f.Name] = true
	}
}

// TestFontSize: the font sizes given reach found blocks, and FontSizeRel
// relates them to the median over the found blocks with a font size.
func TestFontSize(t *testing.T) {
	pal, err := Palette(5)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 200, 200))
	fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
	for i := 0; i < 4; i++ { // block 4 is not drawn
		fill(img, image.Rect(10, 10+40*i, 150, 30+40*i), pal[i])
	}
	// Block 3 has no font size: the median is over 10, 20 and 30.
	font := []float64{10, 20, 30, 0, 99}
	fs, err := Measure(img, 5, Options{FontSize: font})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0.5, 1, 1.5, 0} {
		if !fs[i].Found || fs[i].FontSize != font[i] || fs[i].FontSizeRel != want {
			t.Errorf("block %d: found %v, font %v, relative %v; want %v, %v", i, fs[i].Found, fs[i].FontSize, fs[i].FontSizeRel, font[i], want)
		}
	}
	if fs[4] != (Features{}) {
		t.Errorf("block 4 not drawn but %+v", fs[4])
	}
	nofont, _ := Measure(img, 5, Options{})
	if nofont[0].FontSize != 0 || nofont[0].FontSizeRel != 0 {
		t.Errorf("without font sizes: %v, %v", nofont[0].FontSize, nofont[0].FontSizeRel)
	}
}
