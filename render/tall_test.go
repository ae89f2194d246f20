package render

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
)

// tallPage is a page of the given height in CSS px with one single-line
// block at each of the y positions given.
func tallPage(height int, ys []int) []byte {
	var s strings.Builder
	s.WriteString(`<!DOCTYPE html><html><head><style>body{margin:0;font:16px/20px "DejaVu Sans",sans-serif}` +
		`p{position:absolute;left:10px;margin:0}</style></head><body>`)
	fmt.Fprintf(&s, `<div style="height:%dpx"></div>`, height)
	for i, y := range ys {
		fmt.Fprintf(&s, `<p style="top:%dpx" data-fiasco-block="%d">Block number %d</p>`, y, i, i)
	}
	s.WriteString(`</body></html>`)
	return []byte(s.String())
}

func TestTallPage(t *testing.T) {
	for _, tile := range []int{0, 100000} {
		t.Run(fmt.Sprint("tile", tile), func(t *testing.T) {
			b := newBrowser(t, Options{TileHeight: tile, MaxHeight: 50000})
			ys := []int{10, 8000, 16370, 16390, 20000, 32770, 39970}
			colors := make([]color.RGBA, len(ys))
			for i := range colors {
				colors[i] = color.RGBA{uint8(40 * i), 0, 200, 255}
			}
			res, err := b.Render(context.Background(), tallPage(40000, ys), colors, RenderOptions{Highlight: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("image %v page %d timings %+v", res.Image.Bounds(), res.PageHeight, res.Timings)
			if got := res.Image.Bounds(); got != image.Rect(0, 0, DefaultWidth, 40000) {
				t.Errorf("image bounds %v, want 1280x40000", got)
			}
			boxes, _ := colorBoxes(res.Image)
			for i, c := range colors {
				want := res.Boxes[i]
				if want.Min.Y < ys[i] || want.Min.Y > ys[i]+3 {
					t.Errorf("block %d: box %v, want top at %d", i, want, ys[i])
				}
				if got, ok := boxes[c]; !ok || !near(got, want, 2) {
					t.Errorf("block %d: pixels at %v (found %v), box %v", i, got, ok, want)
				}
			}
		})
	}
}
