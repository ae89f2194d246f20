package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteSmooth is KeepSmooth's objective maximised by trying every
// labelling (n at most 12), the reference the Viterbi is tested against.
// It returns the best objective value.
func bruteSmooth(score []float64, th, smooth float64) float64 {
	n := len(score)
	best := -1e300
	for mask := 0; mask < 1<<n; mask++ {
		v := 0.0
		for i := 0; i < n; i++ {
			if mask>>i&1 == 1 {
				v += score[i] - th
			}
			if i > 0 && mask>>i&1 == mask>>(i-1)&1 {
				v += smooth
			}
		}
		best = max(best, v)
	}
	return best
}

func objective(keep []bool, score []float64, th, smooth float64) float64 {
	v := 0.0
	for i, k := range keep {
		if k {
			v += score[i] - th
		}
		if i > 0 && k == keep[i-1] {
			v += smooth
		}
	}
	return v
}

func TestKeepSmoothOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n := 2 + r.IntN(11)
		score := make([]float64, n)
		for i := range score {
			score[i] = 4*r.Float64() - 2
		}
		th := []float64{-0.5, -0.25, 0}[r.IntN(3)]
		smooth := []float64{0.1, 0.25, 0.5, 1}[r.IntN(4)]
		keep := viterbi(score, th, smooth)
		ks := KeepSmooth(score, th, smooth)
		if slices.Contains(keep, true) && !slices.Equal(ks, keep) {
			t.Fatalf("KeepSmooth(%v, %g, %g) = %v, not the Viterbi labelling %v", score, th, smooth, ks, keep)
		}
		if !slices.Contains(keep, true) {
			// Nothing kept: the fallback's one block, when within its margin.
			best := 0
			for i, v := range score {
				if v > score[best] {
					best = i
				}
			}
			want := make([]bool, n)
			want[best] = score[best] >= th-FallbackMargin
			if !slices.Equal(ks, want) {
				t.Fatalf("KeepSmooth(%v, %g, %g) = %v, want the fallback's %v", score, th, smooth, ks, want)
			}
		}
		got, want := objective(keep, score, th, smooth), bruteSmooth(score, th, smooth)
		if got < want-1e-9 {
			t.Fatalf("scores %v, threshold %g, smoothing %g: labelling %v reaches %g, the best is %g", score, th, smooth, keep, got, want)
		}
	}
}

func TestKeepSmooth(t *testing.T) {
	for _, c := range []struct {
		name   string
		score  []float64
		th, sm float64
		want   []bool
	}{
		{"no smoothing is Keep", []float64{1, -0.1, 1}, 0, 0, []bool{true, false, true}},
		{"a doubtful block between kept ones is kept", []float64{1, -0.1, 1}, 0, 0.1, []bool{true, true, true}},
		{"a sure one is not", []float64{1, -0.3, 1}, 0, 0.1, []bool{true, false, true}},
		{"a doubtful block among dropped ones is dropped", []float64{-1, 0.1, -1, 0.9, 0.9}, 0, 0.1, []bool{false, false, false, true, true}},
		{"the threshold shifts the values", []float64{0.5, 0.1, 0.5}, 0.2, 0.1, []bool{true, true, true}},
		{"at the ends one neighbour counts", []float64{0.05, -1, 1, 1, -0.05}, 0, 0.1, []bool{false, false, true, true, true}},
		{"nothing kept: the fallback keeps the best block", []float64{-1, 0.1, -1}, 0, 0.1, []bool{false, true, false}},
		{"nor beyond its margin", []float64{-3, -1.1, -3}, 0, 0.1, []bool{false, false, false}},
		{"one block is Keep", []float64{-0.2}, 0, 1, []bool{true}},
		{"a tie stays with the previous block", []float64{1, -0.2, 1}, 0, 0.1, []bool{true, true, true}},
		{"the last block's tie goes to keeping", []float64{-1, -1, 0.9, 0.9, -0.1}, 0, 0.1, []bool{false, false, true, true, true}},
		{"a value that is not a number is dropped", []float64{1, math.NaN(), 1, 1}, 0, 0.25, []bool{true, false, true, true}},
		{"and keeps the rest of the page", []float64{math.NaN(), 1, 1}, 0, 0.25, []bool{false, true, true}},
		{"a smoothing that is not a number is Keep", []float64{1, -0.1, 1}, 0, math.NaN(), []bool{true, false, true}},
		{"empty", nil, 0, 1, []bool{}},
	} {
		got := KeepSmooth(c.score, c.th, c.sm)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: KeepSmooth(%v, %g, %g) = %v, want %v", c.name, c.score, c.th, c.sm, got, c.want)
		}
	}
}

func TestCheckSmooth(t *testing.T) {
	for _, v := range []float64{0, 0.25, MaxSmooth} {
		if err := CheckSmooth(v); err != nil {
			t.Errorf("CheckSmooth(%g): %v", v, err)
		}
	}
	for _, v := range []float64{-0.1, MaxSmooth + 1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if CheckSmooth(v) == nil {
			t.Errorf("CheckSmooth(%g) accepted", v)
		}
	}
}

// BenchmarkKeepSmooth: smoothing a page of 130 blocks (the mean of
// CleanEval dev's pages), against Keep's cut on the same values: the
// Viterbi's cost beside the 3 ms of CPU that cleaning a page takes.
func BenchmarkKeepSmooth(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	score := make([]float64, 130)
	for i := range score {
		score[i] = 4*r.Float64() - 2
	}
	b.Run("keep", func(b *testing.B) {
		for b.Loop() {
			Keep(score, -0.25)
		}
	})
	b.Run("smooth", func(b *testing.B) {
		for b.Loop() {
			KeepSmooth(score, -0.25, 0.25)
		}
	})
}

// TestFallbackNaN: a value that is not a number is never kept, by the
// fallback either, and does not hide the page's best block from it
// (pipeline masks the blocks a rule never keeps so).
func TestFallbackNaN(t *testing.T) {
	nan := math.NaN()
	for _, smooth := range []float64{0, 0.25} {
		if got := KeepSmooth([]float64{nan, -0.5, -0.75}, 0, smooth); !slices.Equal(got, []bool{false, true, false}) {
			t.Errorf("smooth %v: %v, want the best number kept", smooth, got)
		}
		if got := KeepSmooth([]float64{nan, nan}, 0, smooth); slices.Contains(got, true) {
			t.Errorf("smooth %v: %v, want nothing kept", smooth, got)
		}
	}
}
