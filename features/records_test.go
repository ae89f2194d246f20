package features

import (
	"math"
	"testing"
)

// TestRecords checks the record columns of testdata/records.html, worked
// out by hand: a menu's four items; a comment thread's three comments,
// whose classes differ after their first word; a thread of three replies,
// one holding two prose blocks (counted once), one a list of answers (a
// group of its own, nearer its blocks than the replies), one empty
// (counted among the records); and blocks in no record.
func TestRecords(t *testing.T) {
	bs := parseFile(t, "testdata/records.html")
	tab := Extract(bs, nil)
	// The replies: Dee (1 + 15 + 14 words, two prose blocks), Eve (1 +
	// 1 + 2 + 16 words, one prose block), and the empty one.
	replies := struct{ prose, words float64 }{2.0 / 3, math.Log1p(50.0 / 3)}
	for _, c := range []struct {
		prefix                    string
		prose, link, count, words float64
	}{
		// Each menu item is a record of four; all their text is links.
		{"Home", 0, 1, math.Log1p(4), 0},
		{"Weather", 0, 1, math.Log1p(4), 0},
		// The <div class="by"> and <div class="body"> of a comment are one
		// of their kind each: the record is the <li class="comment ...">,
		// one of three, one of which holds prose (16 tokens ending in a
		// full stop); 1 + 3 + 1 + 16 + 1 + 2 words, none in links.
		{"Ann", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		{"Great news", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		{"About time", 1.0 / 3, 0, math.Log1p(3), math.Log1p(24.0 / 3)},
		{"Dee", replies.prose, 0, math.Log1p(3), replies.words},
		{"We used to take", replies.prose, 0, math.Log1p(3), replies.words},
		{"Eve", replies.prose, 0, math.Log1p(3), replies.words},
		// The answers are the nearer group: three, one of prose, 1 + 2 + 16
		// words.
		{"Agreed", 1.0 / 3, 0, math.Log1p(3), math.Log1p(19.0 / 3)},
		{"The ferry had", 1.0 / 3, 0, math.Log1p(3), math.Log1p(19.0 / 3)},
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
