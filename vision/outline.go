package vision

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// ClassColors colour the outlines drawn by Outline, indexed by class:
// 0 dirty (boilerplate, red), 1 clean (content, green). Other classes are
// drawn in blue, negative ones (unknown) in grey.
var ClassColors = []color.RGBA{
	{220, 30, 30, 255}, // 0: dirty
	{20, 160, 40, 255}, // 1: clean
}

var (
	otherColor   = color.RGBA{30, 80, 220, 255}
	unknownColor = color.RGBA{128, 128, 128, 255}
)

// ClassColor is the outline colour of a class (see ClassColors).
func ClassColor(class int) color.RGBA {
	switch {
	case class < 0:
		return unknownColor
	case class < len(ClassColors):
		return ClassColors[class]
	}
	return otherColor
}

// Outline returns a copy of img with each non-empty boxes[i] outlined (2 px)
// in ClassColor(classes[i]) and, when labels[i] is not empty, labels[i]
// written at the box's top-left corner in white on the outline colour
// (basicfont 7x13). classes and labels may be nil or shorter than boxes
// (missing classes count as unknown, missing labels as empty).
func Outline(img image.Image, boxes []image.Rectangle, classes []int, labels []string) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, img, b.Min, draw.Src)
	face := basicfont.Face7x13
	for i, r := range boxes {
		if r.Empty() {
			continue
		}
		class := -1
		if i < len(classes) {
			class = classes[i]
		}
		c := image.NewUniform(ClassColor(class))
		const t = 2
		for _, e := range []image.Rectangle{
			image.Rect(r.Min.X-t, r.Min.Y-t, r.Max.X+t, r.Min.Y), // top
			image.Rect(r.Min.X-t, r.Max.Y, r.Max.X+t, r.Max.Y+t), // bottom
			image.Rect(r.Min.X-t, r.Min.Y, r.Min.X, r.Max.Y),     // left
			image.Rect(r.Max.X, r.Min.Y, r.Max.X+t, r.Max.Y),     // right
		} {
			draw.Draw(out, e.Intersect(b), c, image.Point{}, draw.Src)
		}
		if i >= len(labels) || labels[i] == "" {
			continue
		}
		adv := font.MeasureString(face, labels[i]).Ceil()
		tag := image.Rect(r.Min.X-t, r.Min.Y-t, r.Min.X-t+adv+4, r.Min.Y-t+face.Height+2)
		if tag.Min.Y < b.Min.Y {
			tag = tag.Add(image.Pt(0, b.Min.Y-tag.Min.Y))
		}
		draw.Draw(out, tag.Intersect(b), c, image.Point{}, draw.Src)
		d := font.Drawer{
			Dst:  out,
			Src:  image.White,
			Face: face,
			Dot:  fixed.P(tag.Min.X+2, tag.Min.Y+1+face.Ascent),
		}
		d.DrawString(labels[i])
	}
	return out
}
