package vision

import "sort"

// estimateLineHeight guesses the line pitch, in pixels, of a block from its
// mask, given as each row's horizontal extent (x0 == x1 for an empty row).
//
// Rows are grouped into segments of consecutive non-empty rows with the same
// extent (within extentSlack px, for anti-aliased edges); a line boundary changes the extent (ragged text) or leaves a gap
// (line-height larger than the highlighted content box). The bar height H
// is the lower median of the segment heights (ignoring segments under 3 px
// when taller ones exist); the inter-line gap G is the median of the empty
// runs between segments that are shorter than H (longer ones separate
// paragraphs). The estimate is H+G, at least 4. Lines of a justified
// paragraph whose bars touch cannot be told apart: the whole paragraph is
// then one "line" (pass Options.LineHeight to avoid this).
func estimateLineHeight(x0, x1 []int32) float64 {
	var segs, gaps []int
	h := len(x0)
	y := 0
	lastEnd := -1
	for y < h {
		if x0[y] == x1[y] {
			y++
			continue
		}
		s := y
		for y < h && x0[y] != x1[y] && abs32(x0[y]-x0[s]) <= extentSlack && abs32(x1[y]-x1[s]) <= extentSlack {
			y++
		}
		if lastEnd >= 0 && s > lastEnd {
			gaps = append(gaps, s-lastEnd)
		}
		segs = append(segs, y-s)
		lastEnd = y
	}
	if len(segs) == 0 {
		return 4
	}
	sort.Ints(segs)
	tall := segs
	for i, v := range segs {
		if v >= 3 {
			tall = segs[i:]
			break
		}
	}
	H := tall[(len(tall)-1)/2]
	var small []int
	for _, g := range gaps {
		if g < H {
			small = append(small, g)
		}
	}
	L := float64(H)
	if len(small) > 0 {
		sort.Ints(small)
		L += float64(small[(len(small)-1)/2])
	}
	return max(L, 4)
}

// extentSlack is the jitter in px of a row's extent tolerated within a line.
const extentSlack = 2

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
