package features

import (
	"math"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Hello, World!", "hello world"},
		{"It's a well-known fact—really.", "it's a well-known fact really"},
		{"Don’t stop 2024-05", "don't stop 2024-05"},
		{"  ", ""},
		{"Größe über", "größe über"},
		{"end-", "end"},
		// Chinese and Japanese put no spaces between words: a character
		// (kana, Han, the prolonged sound mark) is a token each.
		{"東京で2023年にコーヒーをtea", "東 京 で 2023 年 に コ ー ヒ ー を tea"},
	}
	for _, tt := range tests {
		got := strings.Join(Tokens(tt.in), " ")
		if got != tt.want {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCharStats(t *testing.T) {
	st := charStats(`He said "Go." Then he left! Why? 42 $`)
	if st.sentences != 4 {
		t.Errorf("sentences = %d, want 4", st.sentences)
	}
	if st.digits != 2 || st.symbols != 1 {
		t.Errorf("digits, symbols = %d, %d, want 2, 1", st.digits, st.symbols)
	}
	if st.finalPunct {
		t.Error("final punctuation reported for a text ending in $")
	}
	if !charStats("One sentence.").finalPunct {
		t.Error("final punctuation missed")
	}
	// 。！？ end a sentence with no space after them, and a paragraph.
	for _, c := range []struct {
		text      string
		sentences int
		final     bool
	}{
		{"十月の終わり、八幡平を歩いた。紅葉は見頃でした！次はどこへ？", 3, true},
		{"彼は「行こう。」と言った。", 2, true},
		{"山歩きの記録", 1, false},
		{"記録：", 1, true},
	} {
		st := charStats(c.text)
		if st.sentences != c.sentences || st.finalPunct != c.final {
			t.Errorf("%q: %d sentences, final punctuation %v; want %d, %v", c.text, st.sentences, st.finalPunct, c.sentences, c.final)
		}
	}
	// Reference marks after a sentence's end leave it ended; other
	// brackets at the end ("[more]", "[PDF]") do not.
	for _, c := range []struct {
		text string
		want bool
	}{
		{"The bridge opened in 1879.[1]", true},
		{"The bridge opened in 1879.[1][12] ", true},
		{"The bridge opened in 1879. [citation needed]", true},
		{"The bridge opened in 1879.[note 3]", true},
		{"The bridge opened in 1879.[a]", true},
		{"The bridge opened in 1879 [1]", false},
		{"Read the whole story. [more]", false},
		{"Abstract. [PDF]", false},
		{"[1]", false},
		{"Items [1234]", false},
	} {
		if got := charStats(c.text).finalPunct; got != c.want {
			t.Errorf("%q: final punctuation %v, want %v", c.text, got, c.want)
		}
	}
}

func TestLexicon(t *testing.T) {
	if n := LexiconSize(); n < 70000 {
		t.Fatalf("embedded lexicon has %d words, want > 70000", n)
	}
	for _, w := range []string{"house", "houses", "walked", "the", "2007", "quickly"} {
		if !IsKnownWord(w) {
			t.Errorf("IsKnownWord(%q) = false", w)
		}
	}
	for _, w := range []string{"xqzzt", "haus", "qwerty12"} {
		if IsKnownWord(w) {
			t.Errorf("IsKnownWord(%q) = true", w)
		}
	}
	if !IsStopWord("the") || IsStopWord("house") {
		t.Error("stop word list wrong")
	}
}

func TestLang(t *testing.T) {
	en := Tokens(strings.Repeat("the cat sat on the mat and it was happy with the day ", 10))
	de := Tokens(strings.Repeat("die Katze saß auf der Matte und sie war glücklich mit dem Tag ", 10))
	if ok, _ := Lang(en); !ok {
		t.Error("English text not recognised as English")
	}
	if ok, share := Lang(de); ok {
		t.Errorf("German text taken for English (stop-word share %.2f)", share)
	}
}

// TestLogLikelihood checks G² against a hand computation: a word seen 10
// times in 1000 tokens and 2 times in 1000 tokens.
func TestLogLikelihood(t *testing.T) {
	// E1 = E2 = 6; G² = 2 (10 ln(10/6) + 2 ln(2/6))
	want := 2 * (10*math.Log(10.0/6) + 2*math.Log(2.0/6))
	if got := logLikelihood(10, 2, 1000, 1000); math.Abs(got-want) > 1e-12 {
		t.Errorf("G² = %v, want %v", got, want)
	}
}

func TestLearnKeywords(t *testing.T) {
	clean := [][]string{Tokens(strings.Repeat("government minister said parliament vote ", 20))}
	dirty := [][]string{Tokens(strings.Repeat("home login contact privacy copyright said ", 20))}
	kw, err := LearnKeywords(clean, dirty, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(kw.Clean) != 3 || len(kw.Dirty) != 3 {
		t.Fatalf("got %d clean and %d dirty keywords, want 3 and 3", len(kw.Clean), len(kw.Dirty))
	}
	if _, ok := kw.Clean["said"]; ok {
		t.Error("a word equally frequent on both sides became a keyword")
	}
	// Ties in G² are broken alphabetically: government, minister, parliament
	// and contact, copyright, home.
	for _, w := range []string{"government", "minister", "parliament"} {
		if kw.Clean[w] <= 0 {
			t.Errorf("clean keyword %q has log-odds %v", w, kw.Clean[w])
		}
	}
	c, d, o := kw.score([]string{"government", "contact", "x", "y"})
	// 100 clean and 120 dirty tokens: the two log-odds (with +0.5
	// smoothing) add up to 2 ln(120.5/100.5).
	if want := math.Log(120.5 / 100.5); c != 0.25 || d != 0.25 || math.Abs(o-want) > 1e-12 {
		t.Errorf("score = %v, %v, %v, want 0.25, 0.25, %v", c, d, o, want)
	}
}

const page = `<html><body>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul>
<div class="article"><h1>A title</h1>
<p>This is the first paragraph of the article. It has two sentences.</p>
<p>Another paragraph, with <a href="x">a link</a> inside.</p></div>
<div id="footer">Copyright 2007</div>
</body></html>`

func TestExtract(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(doc)
	tab := Extract(bs, nil)
	if len(tab.Values) != len(bs) {
		t.Fatalf("%d rows for %d blocks", len(tab.Values), len(bs))
	}
	col := func(name string) int { c, _ := Select([]string{name}); return c[0] }
	byText := map[string][]float64{}
	for i, b := range bs {
		if len(tab.Values[i]) != len(schema) {
			t.Fatalf("row %d has %d columns, want %d", i, len(tab.Values[i]), len(schema))
		}
		byText[b.Text] = tab.Values[i]
	}
	home := byText["Home"]
	para := byText["This is the first paragraph of the article. It has two sentences."]
	if home == nil || para == nil {
		t.Fatalf("blocks not found; got %q", texts(bs))
	}
	check := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("Home link_ratio", home[col("link_ratio")], 1)
	check("Home in_list", home[col("in_list")], 1)
	check("Home attr_boiler", home[col("attr_boiler")], 1)
	check("Home tag_li", home[col("tag_li")], 1)
	check("para link_ratio", para[col("link_ratio")], 0)
	check("para attr_content", para[col("attr_content")], 1)
	check("para tag_p", para[col("tag_p")], 1)
	check("para sentences", para[col("sentences")], math.Log1p(2))
	check("para tokens", para[col("tokens")], math.Log1p(12))
	check("para final_punct", para[col("final_punct")], 1)
	check("para vis_found", para[col("vis_found")], 0)
	kw := &Keywords{Clean: map[string]float64{"paragraph": 2}, Dirty: map[string]float64{"home": -3}}
	rows := tab.Rows(kw)
	check("para kw_clean", rows[indexOf(bs, para, tab)][col("kw_clean")], 1.0/12)
	// Columns gives the projection of Rows.
	cols, _ := Select([]string{"kw_odds", "tokens", "kw_clean"})
	want := Project(rows, cols)
	got := tab.Columns(kw, cols)
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("Columns row %d col %d = %v, Project(Rows) %v", i, j, got[i][j], want[i][j])
			}
		}
	}
	if tab.Values[0][col("kw_clean")] != 0 {
		t.Error("Rows modified the table")
	}
}

func TestSelect(t *testing.T) {
	cols, err := Select([]string{"tokens", "vis_col_density"})
	if err != nil || cols[0] != index["tokens"] || cols[1] != contextCol(0)-1 {
		t.Errorf("Select = %v, %v", cols, err)
	}
	if _, err := Select([]string{"no_such_feature"}); err == nil || !strings.Contains(err.Error(), "no_such_feature") {
		t.Errorf("Select of an unknown name: err = %v", err)
	}
	for _, n := range LanguageIndependent(Names(Linguistic|Keyword|Structural, true)) {
		if strings.HasPrefix(n, "kw_") || n == "unknown_share" || n == "stopword_share" {
			t.Errorf("%s in the language-independent set", n)
		}
	}
}

func indexOf(bs []*blocks.Block, row []float64, tab *Table) int {
	for i := range bs {
		if &tab.Values[i][0] == &row[0] {
			return i
		}
	}
	return -1
}

func texts(bs []*blocks.Block) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Text)
	}
	return out
}

// TestWrappersChangeNothing: elements that wrap a page's content with no
// text of their own beside it (as frameworks write them) leave every
// feature as it is but depth and depth_rel (in the candidate group), which
// count every element (branch_depth and branch_depth_rel, in the
// structural group, count only those where the text divides); wrapped
// around each paragraph too, every feature of the text group (the context
// group's parent columns read the parent). depth and depth_rel are
// skipped by name; the other columns are checked by group.
func TestWrappersChangeNothing(t *testing.T) {
	data, err := os.ReadFile("../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	body := strings.Index(page, "<body>") + len("<body>")
	end := strings.LastIndex(page, "</body>")
	if body < len("<body>") || end < body {
		t.Fatal("testdata/article.html: no <body>...</body>")
	}
	whole := page[:body] + strings.Repeat("<div>", 20) + page[body:end] + strings.Repeat("</div>", 20) + page[end:]
	each := strings.ReplaceAll(whole, "<p>", "<section><div><p>")
	each = strings.ReplaceAll(each, "</p>", "</p></div></section>")
	a := parseString(t, page)
	ta := Extract(a, nil)
	all := All()
	for _, c := range []struct {
		name, src string
		groups    Group
	}{
		{"the page wrapped", whole, Linguistic | Keyword | Structural | Context},
		{"each paragraph wrapped too", each, Linguistic | Keyword | Structural},
	} {
		b := parseString(t, c.src)
		if len(a) != len(b) {
			t.Fatalf("%s: %d blocks, %d before", c.name, len(b), len(a))
		}
		tb := Extract(b, nil)
		for i := range a {
			for k, v := range ta.Values[i] {
				w := tb.Values[i][k]
				if n := all[k].Name; n == "depth" || n == "depth_rel" {
					if n == "depth" && v == w {
						t.Errorf("%s: block %d: %s %g both times: the wrappers did not wrap", c.name, i, n, v)
					}
					continue
				}
				if v != w && all[k].Group&c.groups != 0 {
					t.Errorf("%s: block %d (%.30q): %s %g, before %g", c.name, i, a[i].Text, all[k].Name, w, v)
				}
			}
		}
	}
}

// TestWordCount: fields between white space, a character each of Chinese
// and Japanese; the title's words are cut as the blocks' tokens are, so
// that a heading that repeats the title shares its words.
func TestWordCount(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"Hello, world — a well-known fact.", 6},
		{"冬の剪定", 4},
		{"東京で2023年 tea!", 6},
		{"«  »", 2},
	} {
		if got := WordCount(c.s); got != c.want {
			t.Errorf("WordCount(%q) = %d, want %d", c.s, got, c.want)
		}
		if !strings.ContainsFunc(c.s, unspaced) && WordCount(c.s) != len(strings.Fields(c.s)) {
			t.Errorf("WordCount(%q) differs from strings.Fields", c.s)
		}
	}
	title := titleWords("冬の剪定 - 緑の手帖")
	for _, w := range Tokens("冬の剪定") {
		if !title[w] && !IsStopWord(w) {
			t.Errorf("title words %v lack %q", title, w)
		}
	}
	if got := titleWords("The Well-Known Fact"); !got["well"] || !got["known"] || !got["fact"] || len(got) != 3 {
		t.Errorf("English title words %v", got)
	}
}
