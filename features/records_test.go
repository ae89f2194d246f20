package features

import (
	"math"
	"testing"
)

// TestRecords checks the record columns of testdata/records.html, worked
// out by hand: the menu's four items, the comment thread's three comments
// (one of which holds prose), and blocks in no record.
func TestRecords(t *testing.T) {
	bs := parseFile(t, "testdata/records.html")
	tab := Extract(bs, nil)
	for _, c := range []struct {
		prefix                    string
		prose, link, count, words float64
	}{
		// Each menu item is a record of four; all their text is links.
		{"Home", 0, 1, math.Log1p(4), 0},
		{"Weather", 0, 1, math.Log1p(4), 0},
		// The <div class="by"> and <div class="body"> of a comment are one
		// of their kind each: the record is the <li class="comment">, one
		// of three, one of which holds prose (16 tokens ending in a full
		// stop); 1 + 3 + 1 + 16 + 1 + 2 words, none in links.
		{"Ann", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		{"Great news", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		{"About time", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		// Two paragraphs and a heading: no three of a kind.
		{"The new bridge over", 0, 0, 0, 0},
		{"Copyright", 0, 0, 0, 0},
	} {
		for _, col := range []struct {
			name string
			want float64
		}{{"rec_prose", c.prose}, {"rec_link", c.link}, {"rec_count", c.count}, {"rec_words", c.words}} {
			if got := column(t, bs, tab, c.prefix, col.name); math.Abs(got-col.want) > 1e-12 {
				t.Errorf("%q: %s = %v, want %v", c.prefix, col.name, got, col.want)
			}
		}
	}
}
