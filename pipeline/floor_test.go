package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestFloor: with Model.Floor, a page whose kept blocks hold less than
// FloorShare of its prose words keeps every prose block as well; a page
// that keeps enough, a page with too little prose, and a model without
// Floor are left as classify.Keep decides.
func TestFloor(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Floor {
		t.Error("the embedded text model has no Floor")
	}
	floor := *m
	m.Floor = false
	sentence := "The council met on Tuesday to discuss the new bridge over the river and its cost."
	page := func(paras int) *Doc {
		var b strings.Builder
		b.WriteString("<html><body><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul>")
		for i := range paras {
			fmt.Fprintf(&b, "<p>Entry %d. %s</p>", i, sentence)
		}
		b.WriteString("<p>Contact</p></body></html>")
		d, err := Prepare(context.Background(), "p.html", []byte(b.String()), PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	prose := func(d *Doc) (n int) {
		for i := range d.Blocks {
			if d.Table.Prose(i) {
				n++
			}
		}
		return n
	}
	// values: every prose block at v, the rest far below; the first
	// block (a link) is the page's best, so classify.Keep keeps it when
	// nothing reaches the threshold.
	values := func(d *Doc, v float64) []float64 {
		s := make([]float64, len(d.Blocks))
		for i := range s {
			s[i] = -3
			if d.Table.Prose(i) {
				s[i] = v
			}
		}
		s[0] = -0.1
		return s
	}
	count := func(keep []bool) (n int) {
		for _, k := range keep {
			if k {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		paras int
		v     float64
		m     *classify.Model
		want  func(d *Doc) int
	}{
		// Five paragraphs of 17 words, all dropped: the floor keeps them.
		{5, -2, &floor, func(d *Doc) int { return prose(d) + 1 }},
		// Without Floor, only the best block.
		{5, -2, m, func(*Doc) int { return 1 }},
		// Kept already: nothing changes.
		{5, 0.5, &floor, prose},
		// Two paragraphs hold fewer than FloorMinWords words, and the
		// fallback keeps the link (within classify.FallbackMargin): the
		// page keeps a block, so the floor stays off.
		{2, -2, &floor, func(*Doc) int { return 1 }},
	} {
		d := page(c.paras)
		if got := prose(d); got != c.paras {
			t.Fatalf("%d paragraphs: %d prose blocks", c.paras, got)
		}
		keep, smoothed, floor := keepFloor(c.m, d, values(d, c.v), 0)
		if smoothed != nil {
			// Every prose block has the same value: smoothing changes nothing.
			t.Errorf("%d paragraphs at %v: smoothed %v", c.paras, c.v, smoothed)
		}
		got, want := count(keep), c.want(d)
		if got != want {
			t.Errorf("%d paragraphs at %v, Floor %v: %d blocks kept, want %d", c.paras, c.v, c.m.Floor, got, want)
		}
		plain := classify.Keep(values(d, c.v), 0)
		if wantFloored := got > count(plain); (floor != nil) != wantFloored {
			t.Errorf("%d paragraphs at %v, Floor %v: floor %v, want floored %v", c.paras, c.v, c.m.Floor, floor, wantFloored)
		}
		if floor != nil && len(floor) != len(keep) {
			t.Errorf("%d paragraphs at %v: %d floor flags for %d blocks", c.paras, c.v, len(floor), len(keep))
		}
		for i := range floor {
			// The floor marks exactly the blocks it added.
			if floor[i] != (keep[i] && !plain[i]) {
				t.Errorf("%d paragraphs at %v: block %d floor %v, kept %v, kept by the threshold %v", c.paras, c.v, i, floor[i], keep[i], plain[i])
			}
		}
	}
}

// TestFloorSmoothed: keepFloor marks as smoothed exactly the blocks whose
// final label differs from the plain cut's because of the smoothing; a
// block the smoothing dropped and the floor kept again is marked floor
// only.
func TestFloorSmoothed(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	sm := *m
	sm.Smooth, sm.Floor = 0.25, true
	sentence := "The council met on Tuesday to discuss the new bridge over the river and its cost."
	var b strings.Builder
	b.WriteString("<html><body><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul>")
	for i := range 5 {
		fmt.Fprintf(&b, "<p>Entry %d. %s</p>", i, sentence)
	}
	b.WriteString("<p>Contact</p></body></html>")
	d, err := Prepare(context.Background(), "p.html", []byte(b.String()), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var prose []int
	for i := range d.Blocks {
		if d.Table.Prose(i) {
			prose = append(prose, i)
		}
	}
	if len(prose) != 5 || prose[0] < 2 {
		t.Fatalf("prose blocks %v of %d, want 5 after the two links", prose, len(d.Blocks))
	}
	for _, c := range []struct {
		name  string
		set   func(s []float64) // the values, from -3 everywhere
		floor bool              // the floor fires
		marks []int             // the blocks marked smoothed
	}{
		// The links kept, one paragraph just above the threshold among
		// dropped ones: the smoothing drops it, the page keeps two words
		// of its 90 words of prose, and the floor keeps every paragraph,
		// that one too: no block is marked smoothed.
		{"floored", func(s []float64) { s[0], s[1], s[prose[2]] = 1.5, 1.5, 0.1 }, true, nil},
		// Every paragraph kept but the middle one, just below: the
		// smoothing keeps it, and the floor has nothing to do.
		{"kept", func(s []float64) {
			for _, i := range prose {
				s[i] = 1
			}
			s[prose[2]] = -0.1
		}, false, []int{prose[2]}},
	} {
		s := make([]float64, len(d.Blocks))
		for i := range s {
			s[i] = -3
		}
		c.set(s)
		plain := classify.Keep(s, 0)
		keep, smoothed, floor := keepFloor(&sm, d, s, 0)
		if (floor != nil) != c.floor {
			t.Errorf("%s: floor %v, want it to fire %v", c.name, floor, c.floor)
		}
		var marks []int
		for i := range smoothed {
			if smoothed[i] {
				marks = append(marks, i)
			}
		}
		if fmt.Sprint(marks) != fmt.Sprint(c.marks) || (smoothed == nil) != (c.marks == nil) {
			t.Errorf("%s: smoothed %v (blocks %v), want blocks %v", c.name, smoothed, marks, c.marks)
		}
		for i := range keep {
			sf := smoothed != nil && smoothed[i]
			ff := floor != nil && floor[i]
			if sf && keep[i] == plain[i] {
				t.Errorf("%s: block %d marked smoothed with the plain cut's label %v", c.name, i, keep[i])
			}
			if keep[i] != plain[i] && !sf && !ff {
				t.Errorf("%s: block %d kept %v against the plain cut, marked neither smoothed nor floor", c.name, i, keep[i])
			}
		}
	}
}

// entriesPage prepares a page of head followed by five paragraphs of
// prose (one entry each).
func entriesPage(t *testing.T, head string) *Doc {
	t.Helper()
	var b strings.Builder
	b.WriteString("<html><body>" + head)
	for i := range 5 {
		fmt.Fprintf(&b, "<p>Entry %d. The council met on Tuesday to discuss the new bridge over the river and its cost.</p>", i)
	}
	b.WriteString("</body></html>")
	d, err := Prepare(context.Background(), "p.html", []byte(b.String()), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFloorShare: a model's FloorShare replaces FloorShare. A page that
// keeps one paragraph of five (a fifth of its prose) is floored at the
// default share (a quarter), not at a tenth.
func TestFloorShare(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	d := entriesPage(t, "<ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul>")
	s := make([]float64, len(d.Blocks))
	first := -1
	for i := range s {
		s[i] = -3
		if d.Table.Prose(i) && first < 0 {
			first, s[i] = i, 1
		}
	}
	if first < 0 {
		t.Fatal("no prose block")
	}
	for _, c := range []struct {
		share   float64
		floored bool
	}{{0, true}, {0.25, true}, {0.1, false}, {0.19, false}, {0.22, true}} {
		fm := *m
		fm.Smooth, fm.FloorShare = 0, c.share
		_, _, floor := keepFloor(&fm, d, s, 0)
		if (floor != nil) != c.floored {
			t.Errorf("share %g: floored %v, want %v", c.share, floor != nil, c.floored)
		}
	}
}

// TestFloorCountsProse: the floor weighs the prose a model keeps, not
// what it keeps at all: a page whose kept blocks are a long list of links
// while its prose is dropped (a blog post beside its archive, Dragnet's
// R59) keeps its prose; a page that keeps a share of its prose stays as
// the model cut it.
func TestFloorCountsProse(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	fm := *m
	fm.Floor, fm.Smooth, fm.FloorShare = true, 0, 0.25
	var list strings.Builder
	list.WriteString("<ul>")
	for i := range 30 {
		fmt.Fprintf(&list, "<li><a href=/a%d>Archive of month %d</a></li>", i, i)
	}
	list.WriteString("</ul>")
	d := entriesPage(t, list.String())
	var prose, other []int
	listWords := 0
	for i := range d.Blocks {
		if d.Table.Prose(i) {
			prose = append(prose, i)
		} else {
			other = append(other, i)
			listWords += len(d.Table.Tokens[i])
		}
	}
	if len(prose) != 5 || listWords < 100 {
		t.Fatalf("%d prose blocks and %d words in the others, want 5 and a list longer than the prose", len(prose), listWords)
	}
	for _, c := range []struct {
		name      string
		keptProse int // how many of the prose blocks the values keep
		floor     bool
	}{
		{"the list kept, the prose dropped", 0, true},
		{"the list and two paragraphs of five kept", 2, false},
	} {
		s := make([]float64, len(d.Blocks))
		for _, i := range other {
			s[i] = 1
		}
		for j, i := range prose {
			s[i] = -2
			if j < c.keptProse {
				s[i] = 1
			}
		}
		keep, _, floor := keepFloor(&fm, d, s, 0)
		if (floor != nil) != c.floor {
			t.Errorf("%s: floor %v, want it to fire: %v", c.name, floor, c.floor)
		}
		for _, i := range prose {
			if want := c.floor || s[i] >= 0; keep[i] != want {
				t.Errorf("%s: prose block %d kept %v, want %v", c.name, i, keep[i], want)
			}
		}
		for _, i := range other {
			if !keep[i] {
				t.Errorf("%s: block %d of the list dropped", c.name, i)
			}
		}
	}
}

// TestAdLabels: a block whose whole text is an advertisement's label is
// never kept, whatever its value and the smoothing; a sentence that
// speaks of advertisements is, and so is a heading ("Werbung" titling a
// section on a firm's advertising).
func TestAdLabels(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Advertisement", true},
		{" ADVERTISEMENT ", true},
		{"- Anzeige -", true},
		{"Publicité", true},
		{"Sponsored  content", true},
		{"Ads", true},
		{"Advertising revenue fell by a tenth last year.", false},
		{"Adverts", false},
		{"", false},
	} {
		if got := adLabel(c.text); got != c.want {
			t.Errorf("adLabel(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	page := `<html><body><article><p>The council met on Tuesday to approve the budget for the coming year, after a long debate.</p><div>Advertisement</div><p>Members voted for the plan by a wide margin, and the mayor thanked them for their work.</p><h2>Werbung</h2><p>The firm's posters of the fifties are collected today, and a museum shows them every summer.</p></article></body></html>`
	d, err := Prepare(context.Background(), "ad.html", []byte(page), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ad := -1
	for i, b := range d.Blocks {
		if b.Text == "Advertisement" {
			ad = i
		}
	}
	if ad < 0 {
		t.Fatalf("no block holds the label: %d blocks", len(d.Blocks))
	}
	s := make([]float64, len(d.Blocks))
	for i := range s {
		s[i] = 1 // every block well above the threshold
	}
	for _, smooth := range []float64{0, 0.25} {
		m := &classify.Model{Smooth: smooth}
		keep, smoothed, _ := keepFloor(m, d, s, 0)
		for i, k := range keep {
			if k == (i == ad) {
				t.Errorf("smoothing %v: block %d (%q) kept %v", smooth, i, d.Blocks[i].Text, k)
			}
		}
		if smoothed != nil {
			t.Errorf("smoothing %v: blocks marked smoothed %v; the label is no smoothing's doing", smooth, smoothed)
		}
	}
	if keep := Keep(nil, d, s, 0); keep[ad] {
		t.Error("without a model the label is kept")
	}
}

// TestFloorEmptyPage: a page whose prose holds fewer than FloorMinWords
// words keeps it when it would otherwise keep no block at all (every
// block beyond the fallback's margin, classify.FallbackMargin, as
// Dragnet's page 68 was), and stays as the model cut it when the
// threshold or the fallback keeps any block, prose or not. Without
// Model.Floor the page stays empty.
func TestFloorEmptyPage(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	fm := *m
	fm.Floor, fm.Smooth = true, 0.25
	d, err := Prepare(context.Background(), "p.html", []byte("<html><body><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul>"+
		"<p>Entry 1. The council met on Tuesday to discuss the new bridge over the river and its cost.</p>"+
		"<p>Entry 2. The council met on Tuesday to discuss the new bridge over the river and its cost.</p></body></html>"), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var prose, words int
	first := -1
	for i := range d.Blocks {
		if d.Table.Prose(i) {
			if first < 0 {
				first = i
			}
			prose++
			words += len(d.Table.Tokens[i])
		}
	}
	if prose != 2 || first < 1 || words >= FloorMinWords {
		t.Fatalf("%d prose blocks of %d words, the first at %d: want 2 after the links, under %d words", prose, words, first, FloorMinWords)
	}
	for _, c := range []struct {
		name  string
		floor bool              // the model has the floor
		fires bool              // the floor keeps blocks
		set   func(s []float64) // the values, from -3 everywhere
		want  []int             // the blocks kept
	}{
		// Beyond the fallback's margin everywhere: the two paragraphs
		// are kept.
		{"empty", true, true, func(s []float64) {}, []int{first, first + 1}},
		// The same without the floor: nothing.
		{"no floor", false, false, func(s []float64) {}, nil},
		// A link within the margin: the fallback keeps it, and the
		// floor, below FloorMinWords, does not fire.
		{"fallback", true, false, func(s []float64) { s[0] = -0.5 }, []int{0}},
		// A link kept by the threshold: the same.
		{"kept", true, false, func(s []float64) { s[0] = 1 }, []int{0}},
	} {
		s := make([]float64, len(d.Blocks))
		for i := range s {
			s[i] = -3
		}
		c.set(s)
		mm := fm
		mm.Floor = c.floor
		keep, smoothed, floor := keepFloor(&mm, d, s, 0)
		if smoothed != nil {
			// The plain cut keeps what the smoothing keeps: every value
			// but the one link's is the same.
			t.Errorf("%s: smoothed %v", c.name, smoothed)
		}
		var got []int
		for i, k := range keep {
			if k {
				got = append(got, i)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
		if (floor != nil) != c.fires {
			t.Errorf("%s: floor %v, want it to fire %v", c.name, floor, c.fires)
		}
	}
}

// TestResultFallback: Fallback marks a block kept below the threshold by
// neither smoothing nor the floor (the fallback's best block), and
// nothing on a page whose blocks the threshold, smoothing or the floor
// kept.
func TestResultFallback(t *testing.T) {
	for _, c := range []struct {
		name      string
		keep      []bool
		score     []float64
		smoothed  []bool
		floor     []bool
		want      []bool
		threshold float64
	}{
		{"the fallback's block", []bool{false, true, false}, []float64{-2, -0.6, -1.2}, nil, nil, []bool{false, true, false}, -0.25},
		{"kept by the threshold", []bool{true, false}, []float64{0.3, -1}, nil, nil, nil, -0.25},
		{"at the threshold", []bool{true}, []float64{-0.25}, nil, nil, nil, -0.25},
		{"kept by smoothing", []bool{true, true, true}, []float64{0.5, -0.4, 0.5}, []bool{false, true, false}, nil, nil, -0.25},
		{"kept by the floor", []bool{true, false}, []float64{-1, -2}, nil, []bool{true, false}, nil, -0.25},
		{"nothing kept", []bool{false, false}, []float64{-3, -2}, nil, nil, nil, -0.25},
	} {
		r := &Result{Keep: c.keep, Score: c.score, Smoothed: c.smoothed, Floor: c.floor, Threshold: c.threshold}
		if got := r.Fallback(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Fallback %v, want %v", c.name, got, c.want)
		}
	}
}
