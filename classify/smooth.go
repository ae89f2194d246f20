package classify

import (
	"fmt"
	"math"
	"slices"
)

// MaxSmooth bounds Model.Smooth: a switch cost far above the decision
// values' range (about -2 to 2) would keep or drop whole pages.
const MaxSmooth = 4

// KeepSmooth is Keep with sequence smoothing: with smooth > 0 the blocks,
// in document order, are kept or dropped together so as to maximise
//
//	sum over kept blocks of (score - threshold)
//	+ smooth * (the number of neighbouring pairs kept or dropped alike)
//
// (Viterbi over the two states), so that a block is kept against its own
// value only where its neighbours' values outweigh it: an isolated block
// changes side when its distance from the threshold is at most twice
// smooth, one at either end of the page at most smooth.
// Ties go to staying with the previous block's state, and the last block
// to keeping. With smooth 0 it is Keep. Keep's fallback applies to the
// result: when no block is kept, the one with the highest value is if
// that value lies within FallbackMargin of the threshold. Unlike Keep's,
// what it keeps need not shrink as the threshold rises: a run of blocks
// kept together may give way, at a higher threshold, to the fallback's
// one block of higher value that the smoothing had dropped.
func KeepSmooth(score []float64, threshold, smooth float64) []bool {
	if !(smooth > 0) || len(score) < 2 {
		return Keep(score, threshold)
	}
	out := viterbi(score, threshold, smooth)
	if !slices.Contains(out, true) {
		fallback(out, score, threshold)
	}
	return out
}

// viterbi returns KeepSmooth's labelling before the fallback.
func viterbi(score []float64, threshold, smooth float64) []bool {
	n := len(score)
	// from[i][k] is the state of block i-1 on the best path that ends
	// with block i in state k (0 dropped, 1 kept).
	from := make([][2]uint8, n)
	gain := func(v float64) float64 { // a value that is not a number keeps nothing, as in Keep
		if math.IsNaN(v) {
			return math.Inf(-1)
		}
		return v - threshold
	}
	drop, keep := 0.0, gain(score[0])
	for i := 1; i < n; i++ {
		u := gain(score[i])
		nd, fd := drop+smooth, uint8(0)
		if keep > nd {
			nd, fd = keep, 1
		}
		nk, fk := keep+smooth, uint8(1)
		if drop > nk {
			nk, fk = drop, 0
		}
		drop, keep = nd, nk+u
		from[i] = [2]uint8{fd, fk}
	}
	out := make([]bool, n)
	state := uint8(0)
	if keep >= drop {
		state = 1
	}
	for i := n - 1; i >= 0; i-- {
		out[i] = state == 1
		state = from[i][state]
	}
	return out
}

// CheckFloorShare refuses a floor share (Model.FloorShare) that is not a
// number from 0 (the default, pipeline.FloorShare) to below 1.
func CheckFloorShare(share float64) error {
	if !(share >= 0 && share < 1) {
		return fmt.Errorf("floor share %v: want a share from 0 (the default) to below 1", share)
	}
	return nil
}

// CheckSmooth refuses a smoothing weight (Model.Smooth) that is not a
// number from 0 to MaxSmooth.
func CheckSmooth(smooth float64) error {
	if !(smooth >= 0 && smooth <= MaxSmooth) {
		return fmt.Errorf("smoothing %v: want a switch cost from 0 to %d", smooth, MaxSmooth)
	}
	return nil
}

// fallback keeps the block of score with the highest value, the first of
// equals, when that value is within FallbackMargin of threshold.
func fallback(keep []bool, score []float64, threshold float64) {
	best := -1
	for i, v := range score {
		if !math.IsNaN(v) && (best < 0 || v > score[best]) { // a value that is not a number is never kept
			best = i
		}
	}
	if best >= 0 && score[best] >= threshold-FallbackMargin {
		keep[best] = true
	}
}
