package features

import (
	"math"
	"sort"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/vision"
)

// layout is where a page's main text sits once rendered: its main column
// [left, right] across the page and the span [top, bottom] down it, all
// relative to the page (0..1).
type layout struct {
	ok                       bool
	left, right, top, bottom float64
	// density is the column profile relative to its peak (0..1).
	density [columnBins]float64
}

// columnBins is the resolution of the column profile across the page.
const columnBins = 256

// mainLayout finds the main column as the page's densest text column: every
// found block spreads its characters evenly over the bins its box covers
// (so a wide header counts for little in any one bin, a column of long
// paragraphs for a lot); the column is the run of bins around the peak
// whose density is at least half the peak's. The span down the page is the
// range holding the middle 90% of the characters of the blocks that lie
// mostly inside that column.
func mainLayout(bs []*blocks.Block, vis []vision.Features) layout {
	var prof [columnBins]float64
	found := false
	for i, b := range bs {
		if i >= len(vis) || !vis[i].Found || b.Chars == 0 {
			continue
		}
		l, r := bin(vis[i].Left), rbin(vis[i].Right)
		if r < l {
			continue
		}
		w := float64(b.Chars) / float64(r-l+1)
		for k := l; k <= r; k++ {
			prof[k] += w
		}
		found = true
	}
	if !found {
		return layout{}
	}
	peak := 0
	for k := range prof {
		if prof[k] > prof[peak] {
			peak = k
		}
	}
	l, r := peak, peak
	for l > 0 && prof[l-1] >= prof[peak]/2 {
		l--
	}
	for r < columnBins-1 && prof[r+1] >= prof[peak]/2 {
		r++
	}
	lay := layout{ok: true, left: float64(l) / columnBins, right: float64(r+1) / columnBins}
	for k := range prof {
		lay.density[k] = prof[k] / prof[peak]
	}

	type ych struct{ y, chars float64 }
	var ys []ych
	var total float64
	for i, b := range bs {
		if i >= len(vis) || !vis[i].Found || b.Chars == 0 {
			continue
		}
		if lay.overlap(&vis[i]) < 0.5 {
			continue
		}
		c := float64(b.Chars)
		ys = append(ys, ych{(vis[i].Top + vis[i].Bottom) / 2, c})
		total += c
	}
	if total == 0 {
		lay.top, lay.bottom = 0, 1
		return lay
	}
	sort.Slice(ys, func(i, j int) bool { return ys[i].y < ys[j].y })
	lay.top, lay.bottom = ys[0].y, ys[len(ys)-1].y
	acc := 0.0
	for _, p := range ys {
		acc += p.chars
		if acc >= 0.05*total {
			lay.top = p.y
			break
		}
	}
	acc = 0
	for i := len(ys) - 1; i >= 0; i-- {
		acc += ys[i].chars
		if acc >= 0.05*total {
			lay.bottom = ys[i].y
			break
		}
	}
	return lay
}

// bin is the bin that holds a left edge at x, rbin the last bin a right
// edge at x covers.
func bin(x float64) int {
	return min(columnBins-1, max(0, int(math.Floor(x*columnBins))))
}

func rbin(x float64) int {
	return min(columnBins-1, max(0, int(math.Ceil(x*columnBins))-1))
}

// overlap is the share of v's width that lies inside the main column.
func (l layout) overlap(v *vision.Features) float64 {
	w := v.Right - v.Left
	if w <= 0 {
		return 0
	}
	in := math.Min(v.Right, l.right) - math.Max(v.Left, l.left)
	return math.Max(0, in) / w
}

// offset is the distance of v's centre from the main column's centre, in
// column widths.
func (l layout) offset(v *vision.Features) float64 {
	cw := math.Max(l.right-l.left, 1.0/columnBins)
	return math.Abs((v.Left+v.Right)/2-(l.left+l.right)/2) / cw
}

// outside is how far v's centre lies above (negative) or below (positive)
// the main text's span, relative to the page height; 0 inside it.
func (l layout) outside(v *vision.Features) float64 {
	y := (v.Top + v.Bottom) / 2
	switch {
	case y < l.top:
		return y - l.top
	case y > l.bottom:
		return y - l.bottom
	}
	return 0
}

// columnDensity is the text density of the column under v's centre
// relative to the main column's peak: 1 in the main column, less in a
// sidebar or margin that holds less text.
func (l layout) columnDensity(v *vision.Features) float64 {
	return l.density[bin((v.Left+v.Right)/2)]
}
