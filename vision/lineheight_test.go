package vision

import "testing"

func TestEstimateLineHeight(t *testing.T) {
	// Rows are given as (extent, count) groups; extent {0,0} is blank.
	type grp struct{ x0, x1, n int32 }
	for _, c := range []struct {
		name string
		rows []grp
		want float64
	}{
		{"one line", []grp{{0, 100, 18}}, 18},
		{"lines with gaps", []grp{{0, 100, 18}, {0, 0, 4}, {0, 100, 18}, {0, 0, 4}, {0, 60, 18}}, 22},
		{"ragged touching lines", []grp{{0, 100, 20}, {0, 70, 20}, {0, 90, 20}, {0, 30, 20}}, 20},
		{"justified touching, short last line", []grp{{0, 100, 60}, {0, 40, 20}}, 20},
		{"paragraph gap is not a line gap", []grp{{0, 100, 18}, {0, 0, 4}, {0, 80, 18}, {0, 0, 30}, {0, 100, 18}, {0, 0, 4}, {0, 50, 18}}, 22},
		{"jittered edges (anti-aliasing)", []grp{{0, 100, 9}, {0, 101, 1}, {0, 100, 8}, {0, 0, 4}, {1, 100, 18}}, 22},
		{"tiny", []grp{{0, 5, 2}}, 4},
		{"empty", nil, 4},
	} {
		var x0, x1 []int32
		for _, g := range c.rows {
			for range g.n {
				x0 = append(x0, g.x0)
				x1 = append(x1, g.x1)
			}
		}
		if got := estimateLineHeight(x0, x1); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
