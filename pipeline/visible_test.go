package pipeline

import (
	"context"
	"os"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/vision"
)

// TestMinVisibleShare: the visual model decides a page whose rendering
// shows at least MinVisibleShare of its text (in characters), the text
// model every block of one that shows less; blocks below the capture count
// as seen.
func TestMinVisibleShare(t *testing.T) {
	page, err := os.ReadFile("../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	vm, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// show marks blocks found, in order, until share of the text is.
	show := func(share float64, beyond bool) (*Doc, float64) {
		d, err := Prepare(ctx, "article.html", page, PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, b := range d.Blocks {
			total += b.Chars
		}
		d.Visual = make([]vision.Features, len(d.Blocks))
		seen := 0
		for i, b := range d.Blocks {
			if float64(seen+b.Chars) > share*float64(total) {
				continue
			}
			seen += b.Chars
			if beyond {
				d.Visual[i].Beyond = true
			} else {
				d.Visual[i].Found, d.Visual[i].Lines, d.Visual[i].RelWidth = true, 3, 0.8
			}
		}
		return d, float64(seen) / float64(total)
	}
	textScores := func(d *Doc) []float64 {
		s, err := tm.Decide(d.Table, d.English)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		share    float64
		beyond   bool
		textOnly bool
	}{
		{0.15, false, true}, {0.40, false, false}, {0.90, false, false},
		{0.40, true, false}, // the blocks below the capture count as seen: the text model decides them, the visual one the rest
	} {
		d, got := show(c.share, c.beyond)
		if (got < MinVisibleShare) != c.textOnly || visibleShare(d) != got {
			t.Fatalf("share %.2f (beyond %v): the page shows %.2f, visibleShare %.2f", c.share, c.beyond, got, visibleShare(d))
		}
		s, err := Decide(vm, d)
		if err != nil {
			t.Fatal(err)
		}
		ts := textScores(d)
		same := 0
		for i := range s {
			// Shifted by the thresholds' difference (0 for the embedded pair).
			if s[i] == ts[i]-tm.Threshold+vm.Threshold {
				same++
			}
		}
		if c.textOnly && same != len(s) {
			t.Errorf("share %.2f: %d of %d blocks decided by the text model, want all", got, same, len(s))
		}
		if !c.textOnly && same == len(s) {
			t.Errorf("share %.2f (beyond %v): every block decided by the text model, want the visual model's for the blocks in view", got, c.beyond)
		}
		// Unseen reports what the text model decided.
		n, all := (&Result{Doc: d, Model: vm, Score: s}).Unseen()
		want := 0
		switch {
		case c.textOnly:
			want = len(s)
		case c.beyond:
			for _, v := range d.Visual {
				if v.Beyond {
					want++
				}
			}
		}
		if n != want || all != c.textOnly {
			t.Errorf("share %.2f (beyond %v): Unseen() = %d, %v; want %d, %v", got, c.beyond, n, all, want, c.textOnly)
		}
		// UnseenBlocks marks the blocks Unseen counts.
		u := (&Result{Doc: d, Model: vm, Score: s}).UnseenBlocks()
		if want == 0 && u != nil || want > 0 && len(u) != len(s) {
			t.Errorf("share %.2f (beyond %v): UnseenBlocks() = %v for %d unseen of %d", got, c.beyond, u, want, len(s))
		}
		marked := 0
		for i, x := range u {
			if x {
				marked++
			}
			if x != (c.textOnly || d.Visual[i].Beyond) {
				t.Errorf("share %.2f (beyond %v): block %d unseen %v", got, c.beyond, i, x)
			}
		}
		if marked != want {
			t.Errorf("share %.2f (beyond %v): %d blocks marked unseen, want %d", got, c.beyond, marked, want)
		}
		if n, all := (&Result{Doc: d, Model: tm, Score: s}).Unseen(); n != 0 || all {
			t.Errorf("share %.2f: the text model's Result: Unseen() = %d, %v; want 0, false", got, n, all)
		}
	}
}
