package render

import (
	"context"
	"image/color"
	"testing"
)

// TestCleanEvalPagesClean renders CleanEval dev pages as the pipeline hands
// them over and checks that the screenshot holds white and the palette's
// colours only (no text, images, borders or backgrounds of the page), and
// that every block with a box has its colour inside that box.
func TestCleanEvalPagesClean(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping CleanEval pages in -short mode")
	}
	pages := loadBenchPages(t)
	b := newBrowser(t, Options{})
	for _, p := range pages[:min(len(pages), 12)] {
		res, err := b.Render(context.Background(), p.doc, p.colors, RenderOptions{Highlight: true})
		if err != nil {
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		known := map[color.RGBA]int{white: -1}
		for i, c := range p.colors {
			known[c] = i
		}
		boxes, counts := colorBoxes(res.Image)
		other, total := 0, 0
		for c, n := range counts {
			total += n
			if _, ok := known[c]; !ok {
				other += n
			}
		}
		if frac := float64(other) / float64(total); frac > 0.001 {
			t.Errorf("%s: %.3f%% of the pixels are neither white nor a block colour", p.name, 100*frac)
		}
		rendered := 0
		for i, c := range p.colors {
			if res.Boxes[i].Empty() {
				continue
			}
			rendered++
			if got, ok := boxes[c]; ok && !got.In(res.Boxes[i].Inset(-2)) {
				t.Errorf("%s: block %d painted at %v, outside its box %v", p.name, i, got, res.Boxes[i])
			}
		}
		t.Logf("%s: %d blocks, %d rendered, image %v, %d other pixels", p.name, len(p.colors), rendered, res.Image.Bounds(), other)
	}
}
