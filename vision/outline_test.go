package vision

import (
	"image"
	"image/color"
	"testing"
)

func TestOutline(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
	boxes := []image.Rectangle{image.Rect(20, 40, 120, 80), {}, image.Rect(150, 100, 280, 190), image.Rect(0, 0, 50, 20)}
	out := Outline(img, boxes, []int{1, 0, 0}, []string{"0", "1", "", "3"})
	if out == nil || out.Rect != img.Rect {
		t.Fatalf("bounds %v", out.Rect)
	}
	if img.RGBAAt(19, 60) != (color.RGBA{255, 255, 255, 255}) {
		t.Fatal("input modified")
	}
	// Left edge of box 0 (class 1: green), right edge of box 2 (class 0: red),
	// box 3 has no class: grey.
	for _, c := range []struct {
		p    image.Point
		want color.RGBA
	}{
		{image.Pt(19, 60), ClassColor(1)},
		{image.Pt(281, 150), ClassColor(0)},
		{image.Pt(51, 10), ClassColor(-1)},
		{image.Pt(70, 60), color.RGBA{255, 255, 255, 255}}, // inside untouched
	} {
		if got := out.RGBAAt(c.p.X, c.p.Y); got != c.want {
			t.Errorf("pixel %v = %v, want %v", c.p, got, c.want)
		}
	}
	// The label of box 0 is drawn: white glyph pixels on a green tag.
	white, green := 0, 0
	for y := 38; y < 53; y++ {
		for x := 18; x < 29; x++ {
			switch out.RGBAAt(x, y) {
			case color.RGBA{255, 255, 255, 255}:
				white++
			case ClassColor(1):
				green++
			}
		}
	}
	if white == 0 || green == 0 {
		t.Errorf("label: %d white, %d green pixels", white, green)
	}
	if ClassColor(7) == ClassColor(0) || ClassColor(-1) == ClassColor(1) {
		t.Error("class colours not distinct")
	}
}
