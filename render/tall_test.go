package render

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"
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

// TestTallPage renders a 40,000 px page, captured in strips (Chromium needs
// none up to that height with --disable-gpu, but strips are faster; see
// doc.go), at scale 1 with the default strips and at scale 0.75 with strips
// of an odd height, and checks blocks near and across the strip borders.
func TestTallPage(t *testing.T) {
	ys := []int{10, 8000, 8185, 16370, 16390, 20000, 32770, 39970}
	colors := make([]color.RGBA, len(ys))
	for i := range colors {
		colors[i] = color.RGBA{uint8(30 * i), 0, 200, 255}
	}
	// The time limit is raised from the default 30 s: the capture takes a
	// few seconds alone, but more on a machine busy with other work.
	for _, opt := range []Options{{MaxHeight: 50000, Timeout: 3 * time.Minute}, {MaxHeight: 50000, Scale: 0.75, TileHeight: 3001, Timeout: 3 * time.Minute}} {
		t.Run(fmt.Sprintf("scale=%g", opt.Scale), func(t *testing.T) {
			b := newBrowser(t, opt)
			scale := b.Options().Scale
			res, err := b.Render(context.Background(), tallPage(40000, ys), colors, RenderOptions{Highlight: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("image %v page %d timings %+v", res.Image.Bounds(), res.PageHeight, res.Timings)
			want := image.Rect(0, 0, int(DefaultWidth*scale), int(40000*scale))
			if got := res.Image.Bounds(); got != want || res.Cropped {
				t.Errorf("image bounds %v (cropped %v), want %v", got, res.Cropped, want)
			}
			boxes, _ := colorBoxes(res.Image)
			for i, c := range colors {
				box := res.Boxes[i]
				if y := float64(ys[i]) * scale; float64(box.Min.Y) < y-1 || float64(box.Min.Y) > y+3 {
					t.Errorf("block %d: box %v, want top at %g", i, box, y)
				}
				if got, ok := boxes[c]; !ok || !near(got, box, 2) {
					t.Errorf("block %d: pixels at %v (found %v), box %v", i, got, ok, box)
				}
			}
		})
	}
}

func TestMaxHeightCrops(t *testing.T) {
	b := newBrowser(t, Options{MaxHeight: 5000})
	res, err := b.Render(context.Background(), tallPage(9000, []int{100, 8000}), testColors[:2], RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Cropped || res.PageHeight < 9000 || res.Image.Bounds().Dy() != 5000 {
		t.Errorf("cropped %v, page height %d, image %v; want cropped to 5000 of 9000", res.Cropped, res.PageHeight, res.Image.Bounds())
	}
	if res.Boxes[0].Empty() || !res.Boxes[1].Empty() {
		t.Errorf("boxes %v: want the first block only", res.Boxes)
	}
	if len(res.Beyond) != 2 || res.Beyond[0] || !res.Beyond[1] {
		t.Errorf("beyond %v: want the second block only", res.Beyond)
	}
}
