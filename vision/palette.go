package vision

import (
	"fmt"
	"image/color"
	"math/bits"
	"sort"
	"sync"
)

// Palette geometry. Every palette colour has each channel on the grid
// {0, Step, 2*Step, ..., (Levels-1)*Step}; a pixel decodes only if each of its
// channels lies within Tolerance of a grid value.
const (
	Step      = 8  // grid step per channel
	Levels    = 32 // grid values per channel: 0, 8, ..., 248
	Tolerance = 2  // accepted deviation per channel when decoding

	nearWhiteLevel = 26 // colours whose every channel is >= 26*Step (208) are excluded
	greySpread     = 2  // colours whose channel levels differ by at most 2 (16) are excluded
)

// MaxColors is the largest n Palette accepts.
var MaxColors = len(paletteTable().colors)

// SafeColors is the number of leading palette colours that have a channel
// at exactly 0. For n <= SafeColors, any blend of a palette colour with the
// white background either decodes to that same colour or is rejected (see
// the package doc).
var SafeColors = paletteTable().safe

type palTable struct {
	colors []color.RGBA
	index  []int32 // grid cell (r<<10|g<<5|b) -> palette index, -1 if none
	safe   int
}

var (
	palOnce sync.Once
	pal     *palTable
)

func levelDepth(l int) int {
	if l == 0 {
		return 0
	}
	return 5 - bits.TrailingZeros(uint(l))
}

func paletteTable() *palTable {
	palOnce.Do(func() {
		type cand struct{ r, g, b, tier, depth int }
		var cs []cand
		for r := 0; r < Levels; r++ {
			for g := 0; g < Levels; g++ {
				for b := 0; b < Levels; b++ {
					lo := min(r, g, b)
					hi := max(r, g, b)
					if lo >= nearWhiteLevel || hi-lo <= greySpread {
						continue
					}
					d := max(levelDepth(r), levelDepth(g), levelDepth(b))
					cs = append(cs, cand{r, g, b, lo, d})
				}
			}
		}
		// Tier (lowest channel level) first: tier 0 colours are safe against
		// blends with white. Within a tier, coarse grid colours first so that
		// small palettes use well separated colours.
		sort.SliceStable(cs, func(i, j int) bool {
			a, b := cs[i], cs[j]
			if a.tier != b.tier {
				return a.tier < b.tier
			}
			return a.depth < b.depth
		})
		t := &palTable{index: make([]int32, Levels*Levels*Levels)}
		for i := range t.index {
			t.index[i] = -1
		}
		for i, c := range cs {
			t.colors = append(t.colors, color.RGBA{uint8(c.r * Step), uint8(c.g * Step), uint8(c.b * Step), 255})
			t.index[c.r<<10|c.g<<5|c.b] = int32(i)
			if c.tier == 0 {
				t.safe = i + 1
			}
		}
		pal = t
	})
	return pal
}

// Palette returns n distinct opaque colours; colour i marks text block i.
// The palette is a fixed sequence: Palette(n) is a prefix of Palette(m) for
// n <= m. It fails if n < 0 or n > MaxColors.
func Palette(n int) ([]color.RGBA, error) {
	t := paletteTable()
	if n < 0 || n > len(t.colors) {
		return nil, fmt.Errorf("vision: palette of %d colours requested, supported 0..%d", n, len(t.colors))
	}
	out := make([]color.RGBA, n)
	copy(out, t.colors)
	return out, nil
}

// level maps a channel value to its grid level, or -1 if it is farther
// than Tolerance from every grid value.
func level(v uint8) int {
	l := (int(v) + Step/2) / Step
	if l >= Levels {
		return -1
	}
	d := int(v) - l*Step
	if d < -Tolerance || d > Tolerance {
		return -1
	}
	return l
}

// Index decodes a colour to its palette index. It reports false for white,
// for colours off the grid (blends, anti-aliasing) and for grid colours that
// are not in the palette. Alpha is ignored (screenshots are opaque).
func Index(c color.RGBA) (int, bool) {
	return decode(c.R, c.G, c.B)
}

func decode(r, g, b uint8) (int, bool) {
	lr, lg, lb := level(r), level(g), level(b)
	if lr < 0 || lg < 0 || lb < 0 {
		return -1, false
	}
	i := paletteTable().index[lr<<10|lg<<5|lb]
	if i < 0 {
		return -1, false
	}
	return int(i), true
}
