package features

import (
	"math"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
)

// column returns the value of the named column for the block whose text
// starts with prefix.
func column(t *testing.T, bs []*blocks.Block, tab *Table, prefix, name string) float64 {
	t.Helper()
	c, err := Select([]string{name})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bs {
		if strings.HasPrefix(b.Text, prefix) {
			return tab.Values[i][c[0]]
		}
	}
	t.Fatalf("no block starts with %q", prefix)
	return 0
}

func parseFile(t *testing.T, name string) []*blocks.Block {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return blocks.Find(doc)
}

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
		for j, b := range bs {
			if strings.HasPrefix(b.Text, c.prefix) && isProseRow(j) != c.want {
				t.Errorf("%q: prose %v, want %v", c.prefix, !c.want, c.want)
			}
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
	// What the columns are for: the menu sits among links, the article's
	// paragraphs among prose.
	if v := column(t, bs, tab, "Home", "win_link"); v < 0.5 {
		t.Errorf("menu: win_link = %v, want most of the neighbours' text in links", v)
	}
	// (Its window reaches the menu's last link and, past the comments'
	// heading, the head of the comment.)
	if v := column(t, bs, tab, "The mayor", "win_prose"); v < 0.7 {
		t.Errorf("paragraph: win_prose = %v, want mostly prose around it", v)
	}
	if v := column(t, bs, tab, "The mayor", "win_link"); v > 0.05 {
		t.Errorf("paragraph: win_link = %v, want almost no links around it", v)
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

// TestAncestry checks the ancestry columns on testdata/article.html and
// on a page laid out in a table.
func TestAncestry(t *testing.T) {
	bs := parseFile(t, "testdata/article.html")
	tab := Extract(bs, nil)
	total, story, storyProse := 0, 0, 0
	for _, b := range bs {
		total += b.Chars
		for p := b.Node.Parent; p != nil; p = p.Parent {
			if p.Type == html.ElementNode && p.Data == "div" {
				for _, a := range p.Attr {
					if a.Key == "id" && a.Val == "story" {
						story += b.Chars
						if strings.HasSuffix(b.Text, ".") {
							storyProse += b.Chars
						}
					}
				}
				break
			}
		}
	}
	for _, c := range []struct {
		block, feature string
		want           float64
	}{
		// The article's paragraphs and heading share div#story.
		{"The mayor", "anc_div_share", float64(story) / float64(total)},
		{"River bridge opens", "anc_div_share", float64(story) / float64(total)},
		{"The mayor", "anc_div_link", 0},
		{"The mayor", "anc_div_blocks", math.Log1p(4)},
		{"The mayor", "anc_div_prose", float64(storyProse) / float64(story)},
		// No table on this page.
		{"The mayor", "anc_td_share", 0},
		{"The mayor", "anc_td_link", 0},
	} {
		if got := column(t, bs, tab, c.block, c.feature); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%q: %s = %v, want %v", c.block, c.feature, got, c.want)
		}
	}
	// The menu's group is <body>: the whole page, with its links.
	if v := column(t, bs, tab, "Home", "anc_div_share"); v != 1 {
		t.Errorf("menu: anc_div_share = %v, want 1 (its div group is the body)", v)
	}
	// Page columns are the same for every block.
	pt := column(t, bs, tab, "Home", "anc_page_tokens")
	if v := column(t, bs, tab, "Copyright", "anc_page_tokens"); v != pt || pt <= 0 {
		t.Errorf("anc_page_tokens: %v and %v, want one positive value per page", pt, v)
	}
	link := 0
	tokens := 0
	for i, b := range bs {
		link += b.LinkChars
		tokens += len(tab.Tokens[i])
	}
	if v, want := column(t, bs, tab, "Copyright", "anc_page_link"), float64(link)/float64(total); math.Abs(v-want) > 1e-12 || want == 0 {
		t.Errorf("anc_page_link = %v, want %v", v, want)
	}
	if want := math.Log1p(float64(tokens)); math.Abs(pt-want) > 1e-12 {
		t.Errorf("anc_page_tokens = %v, want %v", pt, want)
	}

	// A container with text of its own: the div's block counts in its
	// own div's sums, but its div group is the body.
	doc, err := html.Parse(strings.NewReader(`<body>Bare text of the body itself.<div>Intro of the div.<p>A paragraph of the div, with the words of a sentence.</p>Tail of the div.</div></body>`))
	if err != nil {
		t.Fatal(err)
	}
	bs = blocks.Find(doc)
	tab = Extract(bs, nil)
	if len(bs) != 3 {
		t.Fatalf("%d blocks, want body, div and p", len(bs))
	}
	if v := column(t, bs, tab, "A paragraph", "anc_div_blocks"); v != math.Log1p(2) {
		t.Errorf("p: anc_div_blocks = %v, want log1p(2): the div's own block and the p", v)
	}
	divShare := float64(bs[1].Chars+bs[2].Chars) / float64(bs[0].Chars+bs[1].Chars+bs[2].Chars)
	if v := column(t, bs, tab, "A paragraph", "anc_div_share"); math.Abs(v-divShare) > 1e-12 {
		t.Errorf("p: anc_div_share = %v, want %v", v, divShare)
	}
	if v := column(t, bs, tab, "Intro", "anc_div_share"); v != 1 {
		t.Errorf("div: anc_div_share = %v, want 1 (its group is the body)", v)
	}
	if v := column(t, bs, tab, "Bare text", "anc_div_blocks"); v != math.Log1p(3) {
		t.Errorf("body: anc_div_blocks = %v, want log1p(3) (its group is itself)", v)
	}
	stop, toks := 0, 0
	for _, i := range []int{1, 2} {
		for _, w := range tab.Tokens[i] {
			toks++
			if IsStopWord(w) {
				stop++
			}
		}
	}
	if v, want := column(t, bs, tab, "A paragraph", "anc_div_stop"), float64(stop)/float64(toks); math.Abs(v-want) > 1e-12 || stop == 0 {
		t.Errorf("p: anc_div_stop = %v, want %v", v, want)
	}

	bs = parseFile(t, "testdata/table.html")
	tab = Extract(bs, nil)
	menu := column(t, bs, tab, "Home", "anc_td_share")
	text := column(t, bs, tab, "The harvest", "anc_td_share")
	if menu <= 0 || text <= 0 || math.Abs(menu+text-1) > 1e-12 {
		t.Errorf("td groups: menu cell %v, text cell %v, want two shares adding up to the page", menu, text)
	}
	if v := column(t, bs, tab, "Home", "anc_td_link"); v != 1 {
		t.Errorf("menu cell: anc_td_link = %v, want 1", v)
	}
	if v := column(t, bs, tab, "The harvest", "anc_td_link"); v != 0 {
		t.Errorf("text cell: anc_td_link = %v, want 0", v)
	}
}
