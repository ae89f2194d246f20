package classify

import (
	"math"
	"testing"

	"github.com/fiasco-project/fiasco/features"
)

// StackRows against values worked out by hand for a page of four blocks.
func TestStackRows(t *testing.T) {
	tok, err := features.Select([]string{"tokens"})
	if err != nil {
		t.Fatal(err)
	}
	width := len(features.All())
	tab := &features.Table{}
	for _, n := range []float64{0, 9, 99, 3} { // the column holds log(1 + tokens)
		r := make([]float64, width)
		r[tok[0]] = math.Log1p(n)
		tab.Values = append(tab.Values, r)
	}
	dec := []float64{-5, 1, 2, -0.5} // -5 is clipped to -3
	rows := StackRows(dec, tab)
	if len(rows) != 4 || len(rows[0]) != len(StackFeatures) {
		t.Fatalf("got %d rows of %d", len(rows), len(rows[0]))
	}
	none := float64(stackNone)
	mean := (-3 + 1 + 2 - 0.5) / 4.0
	want := [][]float64{
		{-3, none, 1, none, 2, (1 + 2 - 0.5) / 3, 1, mean, 0.5, 0},
		{1, -3, 2, none, -0.5, (-3 + 2 - 0.5) / 3, 2, mean, 0.5, math.Log(10)},
		{2, 1, -0.5, -3, none, (-3 + 1 - 0.5) / 3, 1, mean, 0.5, math.Log(100)},
		{-0.5, 2, none, 1, none, (-3 + 1 + 2) / 3.0, 2, mean, 0.5, math.Log(4)},
	}
	for i := range want {
		for j := range want[i] {
			if math.Abs(rows[i][j]-want[i][j]) > 1e-12 {
				t.Errorf("block %d, %s: %v, want %v", i, StackFeatures[j], rows[i][j], want[i][j])
			}
		}
	}
	if got := StackRows(nil, nil); len(got) != 0 {
		t.Errorf("no blocks: %d rows", len(got))
	}
	one := StackRows([]float64{0.5}, nil) // no table: no token count
	if one[0][5] != none || one[0][9] != 0 || one[0][8] != 1 {
		t.Errorf("one block: %v", one[0])
	}
}
