package features

import (
	"math"
	"testing"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/vision"
)

// A page laid out as header, left sidebar, main column of paragraphs and
// footer: the layout features must place each where it is.
func TestMainLayout(t *testing.T) {
	type box struct {
		chars                    int
		left, top, right, bottom float64
	}
	page := []box{
		{40, 0, 0.00, 1, 0.05},         // 0 header, full width
		{20, 0.02, 0.10, 0.18, 0.12},   // 1 sidebar link
		{20, 0.02, 0.13, 0.18, 0.15},   // 2 sidebar link
		{900, 0.25, 0.10, 0.75, 0.30},  // 3 paragraph
		{1200, 0.25, 0.32, 0.75, 0.60}, // 4 paragraph
		{800, 0.25, 0.62, 0.75, 0.85},  // 5 paragraph
		{60, 0.25, 0.95, 0.75, 0.97},   // 6 footer in the column
		{0, 0.3, 0.5, 0.4, 0.6},        // 7 no text: ignored
		{500, 0.80, 0.99, 0.98, 0.995}, // 8 far right, bottom
	}
	var bs []*blocks.Block
	var vis []vision.Features
	for _, b := range page {
		bs = append(bs, &blocks.Block{Chars: b.chars})
		vis = append(vis, vision.Features{Found: true, Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom})
	}
	lay := mainLayout(bs, vis)
	if !lay.ok {
		t.Fatal("no layout")
	}
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.4f, want %.4f ± %g", name, got, want, tol)
		}
	}
	near("column left", lay.left, 0.25, 1.0/columnBins)
	near("column right", lay.right, 0.75, 1.0/columnBins)
	// Blocks 3, 4, 5 and 6 lie in the column (3960 chars); the middle 90%
	// of their characters runs from paragraph 3's centre to paragraph 5's.
	near("span top", lay.top, 0.20, 1e-9)
	near("span bottom", lay.bottom, 0.735, 1e-9)

	near("paragraph overlap", lay.overlap(&vis[4]), 1, 1e-9)
	near("paragraph offset", lay.offset(&vis[4]), 0, 1e-9)
	near("paragraph outside", lay.outside(&vis[4]), 0, 1e-9)
	near("sidebar overlap", lay.overlap(&vis[1]), 0, 1e-9)
	near("sidebar offset", lay.offset(&vis[1]), 0.8, 1e-9) // |0.10-0.50| / 0.5
	near("header overlap", lay.overlap(&vis[0]), 0.5, 1e-9)
	near("header outside", lay.outside(&vis[0]), 0.025-0.20, 1e-9)
	near("footer outside", lay.outside(&vis[6]), 0.96-0.735, 1e-9)

	near("paragraph density", lay.columnDensity(&vis[4]), 1, 1e-9)
	if d := lay.columnDensity(&vis[1]); d <= 0 || d > 0.05 {
		t.Errorf("sidebar density = %.4f, want in (0, 0.05]", d)
	}
	if (mainLayout(bs, make([]vision.Features, len(bs))) != layout{}) {
		t.Error("a page with no rendered block has a layout")
	}
}
