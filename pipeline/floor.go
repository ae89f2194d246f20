package pipeline

import (
	"math"
	"slices"

	"github.com/fiasco-project/fiasco/classify"
)

// FloorShare and FloorMinWords set the prose floor (classify.Model.Floor:
// the corpus policy's embedded models have it, the rendered one at a
// tenth, classify.Model.FloorShare; the article policy's do not; Cleaner.Floor, fiasco clean --floor and --floor=false,
// set it for a run): on a page whose prose blocks (features.Table.Prose:
// ten word tokens or more, ending like a sentence) hold at least
// FloorMinWords word tokens, and whose kept prose blocks hold fewer word
// tokens than FloorShare times that (the model's own share,
// classify.Model.FloorShare, where it has one), every prose block is kept
// as well. A model that all but empties a page of running text (a
// directory of entries with a paragraph each, a page of teasers, a blog
// post whose archive of links the model keeps instead) then keeps its
// running text. Only kept prose counts: until 2026-11-29 the floor
// counted every kept block's words, and a long kept list of links kept
// it from firing (RESULTS.md, "The floor counts kept prose"). A page
// that would keep no block at all keeps its prose blocks however few
// words they hold: under a model with the floor, a page with a prose
// block that is not NeverKept's never comes out empty (RESULTS.md, "No
// page of prose empty").
const (
	FloorShare    = 0.25
	FloorMinWords = 50
)

// FloorShareOf is the share at which m's prose floor fires: its own
// FloorShare, or FloorShare where it has none (whether m has the floor
// at all is m.Floor).
func FloorShareOf(m *classify.Model) float64 {
	if m.FloorShare > 0 {
		return m.FloorShare
	}
	return FloorShare
}

// Keep returns which blocks of d to keep, given their decision values s
// under m and the threshold th: classify.KeepSmooth with m.Smooth
// (classify.Keep when it is 0), and with m.Floor the prose floor
// (FloorShare) after it. The blocks NeverKept names (an advertisement's
// label, a block in a box named for what it holds, a legal notice, and
// under the corpus policy a time stamp or a byline) are never kept: they
// go to the smoothing and the fallback as values that are not numbers,
// and the floor neither counts nor keeps them.
func Keep(m *classify.Model, d *Doc, s []float64, th float64) []bool {
	keep, _, _ := keepFloor(m, d, s, th)
	return keep
}

// keepFloor is Keep, and per block whether the smoothing gave it another
// final label than the plain cut (classify.Keep) would, and whether the
// floor kept it, which the threshold or the smoothing dropped (each nil
// when there is none). A block the smoothing dropped and the floor kept
// again is marked floor only.
func keepFloor(m *classify.Model, d *Doc, s []float64, th float64) (keep, smoothed, floor []bool) {
	never := neverFor(m, d)
	if never != nil {
		s = slices.Clone(s)
		for i := range s {
			if neverKept(never, i) {
				s[i] = math.NaN()
			}
		}
	}
	if m == nil {
		return classify.Keep(s, th), nil, nil
	}
	keep = classify.KeepSmooth(s, th, m.Smooth)
	if m.Floor && d != nil && d.Table != nil {
		floor = proseFloor(d, keep, FloorShareOf(m), never)
	}
	if m.Smooth > 0 {
		// The final label against the plain cut's, the floor's blocks
		// aside.
		plain := classify.Keep(s, th)
		for i, k := range plain {
			if k != keep[i] && (floor == nil || !floor[i]) {
				if smoothed == nil {
					smoothed = make([]bool, len(keep))
				}
				smoothed[i] = true
			}
		}
	}
	return keep, smoothed, floor
}

// proseFloor keeps every prose block of d that keep drops when the kept
// prose blocks hold fewer than share of the prose's word tokens (at least
// FloorMinWords of them, or any number when keep keeps no block at all),
// and returns which it kept (nil when none). The blocks never names are
// neither counted nor kept (never may be nil).
func proseFloor(d *Doc, keep []bool, share float64, never []string) (floor []bool) {
	prose, kept, anyKept := 0, 0, slices.Contains(keep, true)
	for i, k := range keep {
		if i >= len(d.Table.Tokens) {
			break
		}
		if neverKept(never, i) {
			continue
		}
		n := len(d.Table.Tokens[i])
		if d.Table.Prose(i) {
			prose += n
			if k {
				kept += n
			}
		}
	}
	if (prose < FloorMinWords && anyKept) || float64(kept) >= share*float64(prose) {
		return nil
	}
	for i := range keep {
		if d.Table.Prose(i) && !keep[i] && !neverKept(never, i) {
			if floor == nil {
				floor = make([]bool, len(keep))
			}
			keep[i], floor[i] = true, true
		}
	}
	return floor
}
