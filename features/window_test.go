package features

import (
	"math"
	"strings"
	"testing"
)

// TestWindow checks the window columns of testdata/article.html against
// a direct computation: the link share and the prose share of the
// characters of the three blocks on each side, prose read from the
// block's own tokens and final_punct columns (ten tokens or more, ending
// in sentence punctuation).
func TestWindow(t *testing.T) {
	bs := parseFile(t, "testdata/article.html")
	tab := Extract(bs, nil)
	isProseRow := func(j int) bool {
		tokens := math.Round(math.Expm1(tab.Values[j][colTokens]))
		return tab.Values[j][colFinalPunct] == 1 && tokens >= 10
	}
	// The boundaries of prose, on this page: "Posted by Ann on 3 May 2024
	// at 10:12" has ten tokens and ends in a digit, "About time too. ..."
	// sixteen and a full stop.
	for _, c := range []struct {
		prefix string
		want   bool
	}{{"The mayor", true}, {"Posted by Ann", false}, {"About time", true}, {"3 Comments", false}, {"Copyright", false}} {
		found := false
		for j, b := range bs {
			if strings.HasPrefix(b.Text, c.prefix) {
				found = true
				if isProseRow(j) != c.want {
					t.Errorf("%q: prose %v, want %v", c.prefix, !c.want, c.want)
				}
			}
		}
		if !found {
			t.Errorf("no block starts with %q", c.prefix)
		}
	}
	for i, b := range bs {
		chars, link, prose := 0, 0, 0
		for j := i - 3; j <= i+3; j++ {
			if j < 0 || j >= len(bs) || j == i {
				continue
			}
			chars += bs[j].Chars
			link += bs[j].LinkChars
			if isProseRow(j) {
				prose += bs[j].Chars
			}
		}
		wantLink, wantProse := 0.0, 0.0
		if chars > 0 {
			wantLink, wantProse = float64(link)/float64(chars), float64(prose)/float64(chars)
		}
		if got := tab.Values[i][colWinLink]; math.Abs(got-wantLink) > 1e-12 {
			t.Errorf("block %d %.20q: win_link = %v, want %v", i, b.Text, got, wantLink)
		}
		if got := tab.Values[i][colWinProse]; math.Abs(got-wantProse) > 1e-12 {
			t.Errorf("block %d %.20q: win_prose = %v, want %v", i, b.Text, got, wantProse)
		}
	}
	// What the columns are for, on a page with a longer menu: inside the
	// menu the window holds links, inside the article prose. (The shares
	// weigh blocks by their characters, so at the menu's edge the first
	// paragraph outweighs the links.)
	bs = parseString(t, `<body><div>Valley News</div><ul>`+
		`<li><a href="/">Home</a><li><a href="/n">News</a><li><a href="/s">Sport</a><li><a href="/w">Weather</a>`+
		`<li><a href="/b">Business</a><li><a href="/c">Culture</a><li><a href="/t">Travel</a><li><a href="/a">About us</a></ul>`+
		`<p>The new bridge over the river opened on Saturday morning, ten years after the vote.</p>`+
		`<p>The mayor cut the ribbon at nine and thanked the builders for their patient work.</p>`+
		`<p>Work on the bridge stopped twice, once for a flood and once when the money ran out.</p>`+
		`<p>The final cost was almost twice the first estimate that the council had approved.</p></body>`)
	tab = Extract(bs, nil)
	for _, menu := range []string{"News", "Sport", "Weather", "Business"} {
		if v := column(t, bs, tab, menu, "win_link"); v < 0.5 {
			t.Errorf("menu item %q: win_link = %v, want most of the window's text in links", menu, v)
		}
		if v := column(t, bs, tab, menu, "win_prose"); v > 0.5 {
			t.Errorf("menu item %q: win_prose = %v, want little prose around it", menu, v)
		}
	}
	for _, para := range []string{"The mayor", "Work on the bridge"} {
		if v := column(t, bs, tab, para, "win_prose"); v < 0.8 {
			t.Errorf("paragraph %q: win_prose = %v, want mostly prose around it", para, v)
		}
		if v := column(t, bs, tab, para, "win_link"); v > 0.1 {
			t.Errorf("paragraph %q: win_link = %v, want few links around it", para, v)
		}
	}
}

// TestIsProse checks the boundaries of prose.
func TestIsProse(t *testing.T) {
	for _, c := range []struct {
		tokens int
		final  bool
		want   bool
	}{{9, true, false}, {10, true, true}, {10, false, false}, {200, true, true}, {0, true, false}} {
		if got := isProse(c.tokens, c.final); got != c.want {
			t.Errorf("isProse(%d, %v) = %v, want %v", c.tokens, c.final, got, c.want)
		}
	}
}

// TestTableProse: Table.Prose applies the rule to a page's blocks as
// Extract tokenised them, and is false outside the table.
func TestTableProse(t *testing.T) {
	texts := []string{
		"The council met on Tuesday and approved the new bridge over the river.", // 13 tokens, a full stop
		"The council met on Tuesday and approved the new bridge over the river",  // no final punctuation
		"Read the whole story.", // too short
		"Did the council approve the plan for a new bridge over the river on Tuesday?",
	}
	var src strings.Builder
	for _, s := range texts {
		src.WriteString("<p>" + s + "</p>\n")
	}
	bs := parseString(t, "<html><body>"+src.String()+"</body></html>")
	if len(bs) != len(texts) {
		t.Fatalf("%d blocks, want %d", len(bs), len(texts))
	}
	tab := Extract(bs, nil)
	for i, want := range []bool{true, false, false, true} {
		if got := tab.Prose(i); got != want {
			t.Errorf("block %d (%q, %d tokens): Prose %v, want %v", i, texts[i], len(tab.Tokens[i]), got, want)
		}
	}
	if tab.Prose(-1) || tab.Prose(len(texts)) {
		t.Error("Prose is true outside the table")
	}
}
