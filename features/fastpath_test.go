package features

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
)

// The straightforward forms of Tokens, charStats and the word counts of
// Extract, rune by rune through the unicode package, as they were before
// the ASCII fast paths and the per-page vocabulary. The fast forms must
// give exactly the same answers on every input.

func tokensRef(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) && unicode.IsLetter(r) || r == 'ー' {
			// A word of its own (Chinese, Japanese).
			if start >= 0 {
				out = append(out, normToken(s[start:i]))
				start = -1
			}
			out = append(out, string(r))
			continue
		}
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) ||
			(r == '\'' || r == '’' || r == '-') && start >= 0
		if inWord {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, normToken(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, normToken(s[start:]))
	}
	return out
}

func charStatsRef(s string) textStats {
	var st textStats
	prevEnd := false
	wideEnd := false // prevEnd, and the mark was 。！？ or ．
	last := rune(0)
	for _, r := range s {
		if unicode.IsSpace(r) {
			if prevEnd {
				st.sentences++
				prevEnd = false
			}
			wideEnd = false
			continue
		}
		closing := strings.ContainsRune("\"”)'’」』）】〕", r)
		if wideEnd && !closing && !strings.ContainsRune(".!?。！？．", r) {
			st.sentences++ // no space needed after 。
		}
		st.chars++
		switch {
		case unicode.IsLetter(r):
			st.letters++
			if unicode.IsUpper(r) {
				st.upper++
			}
		case unicode.IsDigit(r):
			st.digits++
		case unicode.IsPunct(r):
			st.punct++
		default:
			st.symbols++
		}
		switch {
		case r == '.' || r == '!' || r == '?':
			prevEnd, wideEnd = true, false
		case strings.ContainsRune("。！？．", r):
			prevEnd, wideEnd = true, true
		case closing:
			wideEnd = wideEnd && prevEnd
		default:
			prevEnd, wideEnd = false, false
		}
		last = r
	}
	if st.chars > 0 {
		st.sentences++
		// Reference marks at the end ("[1]", "[citation needed]") stand
		// after the sentence's end: the reference drops them, by
		// regular expression.
		if m := citationsRef.FindStringIndex(s); m != nil && m[0] > 0 {
			last, _ = utf8.DecodeLastRuneInString(strings.TrimRightFunc(s[:m[0]], unicode.IsSpace))
		}
		st.finalPunct = strings.ContainsRune(".!?:\"”。！？．：」』", last)
	}
	return st
}

var citationsRef = regexp.MustCompile(`(?i)([\t\n\v\f\r \x{85}\p{Z}]*\[[\t\n\v\f\r \x{85}\p{Z}]*([0-9]{1,3}|[a-z]|note ?[0-9]{1,3}|citation needed)[\t\n\v\f\r \x{85}\p{Z}]*\])+[\t\n\v\f\r \x{85}\p{Z}]*$`)

func ancestryRef(n *html.Node) ancestors {
	var a ancestors
	for p := n; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
		}
		switch p.DataAtom {
		case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
			a.list = true
		case atom.Table:
			a.table = true
		case atom.Form:
			a.form = true
		case atom.Nav, atom.Header, atom.Footer, atom.Aside:
			a.boilerElem = true
		case atom.Article, atom.Main:
			a.contentElem = true
		}
		for _, at := range p.Attr {
			if at.Key != "class" && at.Key != "id" && at.Key != "role" {
				continue
			}
			val := strings.ToLower(at.Val)
			if containsAny(val, boilerWords) {
				a.boilerAttr = true
			}
			if containsAny(val, contentWords) {
				a.contentAttr = true
			}
		}
	}
	return a
}

// keywordScoreRef is Keywords.score without the filter.
func keywordScoreRef(kw *Keywords, tokens []string) (clean, dirty, odds float64) {
	if kw == nil || len(tokens) == 0 {
		return 0, 0, 0
	}
	n, nc, nd := 0, 0, 0
	sum := 0.0
	for _, t := range tokens {
		if o, ok := kw.Clean[t]; ok {
			nc++
			n++
			sum += o
		} else if o, ok := kw.Dirty[t]; ok {
			nd++
			n++
			sum += o
		}
	}
	l := float64(len(tokens))
	if n > 0 {
		odds = sum / float64(n)
	}
	return float64(nc) / l, float64(nd) / l, odds
}

// fastPathInputs are strings that exercise the borders of the fast paths:
// ASCII next to non-ASCII letters, digits and spaces, curly apostrophes,
// trailing hyphens, invalid UTF-8, upper case on both sides.
var fastPathInputs = []string{
	"", " ", "a", "A", "Hello, World!", "It's a well-known fact—really.",
	"Don’t stop 2024-05", "Größe über ÄRGER", "end-", "end'-'", "x’", "X’Y", "’tis",
	"ABC-DEF'S déjà-VU", "naïve Café", "ǅemal ǈ", "İstanbul ΣΟΦΊΑ", "\u00a0nbsp\u00a0 x",
	"a\u0085b\u2028c\u3000d", "١٢٣ ४५६ 789", "bad \xff\xfe bytes \xc3", "\xe2\x80 half", "ß SS ﬁ",
	"Mr. Smith said: \"Go.\" Then—he left!) Why? 'Yes.' ”Done.”", "$5 + 3 = 8 ^_^ ~`|<>",
	"tab\tnew\nline\rcr\vvt\fff", "Ωmega’S APOSTROPHE’’ end’-", "e\u0301 combining",
	"In 1879.[1][12]", "Done. [citation needed] ", "Done.\u00a0[note 3]", "Read on. [more]", "[1]", ".[x][1]",
	"十月の終わり、八幡平を歩いた。紅葉は「見頃」でした！次は？", "「終わり。」次。", "コーヒー2杯とtea。", "ＡＢＣ．ｄｅ", "中文。 English. 日本語",
}

func randomText(r *rand.Rand) string {
	pieces := []string{"a", "Z", "q", "0", "9", " ", " ", "\t", "\n", "'", "-", "’", ".", "!", "?", ",",
		"\"", "”", ")", "(", "$", "é", "É", "ß", "Σ", "ж", "Ж", "日本", "\u00a0", "\u2028", "\xff",
		"\xc3", "١", "İ", "ǅ", "_", "—", "\u0301", "。", "！", "」", "）", "ー", "カ", "ひ", "Word", "WORD", "word's", "x-y-", "can’t",
		"[", "]", "[1]", "[12]", "[a]", "[ 7 ]", "[note 3]", "[citation needed]", "[more]", "[1234]"}
	var b strings.Builder
	for n := r.Intn(40); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func checkFastPaths(t *testing.T, s string) {
	t.Helper()
	if got, want := Tokens(s), tokensRef(s); !reflect.DeepEqual(got, want) {
		t.Errorf("Tokens(%q) = %q, want %q", s, got, want)
	}
	if got, want := charStats(s), charStatsRef(s); got != want {
		t.Errorf("charStats(%q) = %+v, want %+v", s, got, want)
	}
	for _, w := range tokensRef(s) {
		stop, known := wordKind(w)
		if stop != IsStopWord(w) || known != IsKnownWord(w) {
			t.Errorf("wordKind(%q) = %v, %v; want %v, %v", w, stop, known, IsStopWord(w), IsKnownWord(w))
		}
	}
}

func TestFastPathsMatch(t *testing.T) {
	for _, s := range fastPathInputs {
		checkFastPaths(t, s)
	}
	// Every ASCII byte alone and between letters.
	for c := 0; c < utf8.RuneSelf; c++ {
		checkFastPaths(t, string(rune(c)))
		checkFastPaths(t, "Ab"+string(rune(c))+"cD")
	}
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		checkFastPaths(t, randomText(r))
	}
}

func FuzzFastPaths(f *testing.F) {
	for _, s := range fastPathInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFastPaths(t, s) })
}

// TestExtractWordCounts checks the word columns of Extract, computed
// through the per-page vocabulary, against a direct count per block.
func TestExtractWordCounts(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var texts []string
	for range 300 {
		texts = append(texts, randomText(r)+" the of and "+randomText(r))
	}
	texts = append(texts, fastPathInputs...)
	bs := blocksOf(t, texts)
	tab := Extract(bs, nil)
	for i, b := range bs {
		toks := tokensRef(b.Text)
		if !reflect.DeepEqual(tab.Tokens[i], toks) {
			t.Fatalf("block %d: tokens %q, want %q", i, tab.Tokens[i], toks)
		}
		if len(toks) == 0 {
			continue
		}
		types := map[string]struct{}{}
		stop, unknown, alpha, wl := 0, 0, 0, 0
		for _, w := range toks {
			types[w] = struct{}{}
			wl += len([]rune(w))
			if IsStopWord(w) {
				stop++
			}
			if hasLetter(w) {
				alpha++
				if !IsKnownWord(w) {
					unknown++
				}
			}
		}
		nt := float64(len(toks))
		v := tab.Values[i]
		want := map[int]float64{
			colTypeRatio:     float64(len(types)) / nt,
			colMeanWordLen:   float64(wl) / nt,
			colStopwordShare: float64(stop) / nt,
		}
		if alpha > 0 {
			want[colUnknownShare] = float64(unknown) / float64(alpha)
		}
		for c, w := range want {
			if v[c] != w {
				t.Errorf("block %d (%q): column %s = %v, want %v", i, b.Text, schema[c].Name, v[c], w)
			}
		}
		if a := ancestryRef(b.Node); a != ancestryOf(tab, i) {
			t.Errorf("block %d: ancestry %+v, want %+v", i, ancestryOf(tab, i), a)
		}
	}
}

func ancestryOf(t *Table, i int) ancestors {
	v := t.Values[i]
	return ancestors{
		list: v[colInList] == 1, table: v[colInTable] == 1, form: v[colInForm] == 1,
		boilerElem: v[colInBoilerElem] == 1, contentElem: v[colInContentElem] == 1,
		boilerAttr: v[colAttrBoiler] == 1, contentAttr: v[colAttrContent] == 1,
	}
}

// blocksOf returns the blocks of a page that holds texts in nested lists,
// tables, forms, navigation and content elements with class and id words
// (some upper-case, some non-ASCII), so that blocks sit inside blocks.
func blocksOf(t *testing.T, texts []string) []*blocks.Block {
	t.Helper()
	opens := []string{
		`<div class="Main-Content">`, `<ul id="NAV"><li>`, `<table><tr><td class="x">`, `<form><p>`,
		`<nav><div role="navigation">`, `<article><section class="Ärger post">`, `<div id="side-bar"><p>`,
		`<div>`, `<blockquote class="TEXT">`, `<dl><dd>`, `<aside><span>`, `<main><h2>`,
	}
	closes := []string{
		`</div>`, `</li></ul>`, `</td></tr></table>`, `</p></form>`,
		`</div></nav>`, `</section></article>`, `</p></div>`,
		`</div>`, `</blockquote>`, `</dd></dl>`, `</span></aside>`, `</h2></main>`,
	}
	var b strings.Builder
	b.WriteString("<html><body>")
	depth := []int{}
	for i, s := range texts {
		k := (i * 7) % len(opens)
		b.WriteString(opens[k])
		b.WriteString(html.EscapeString(s))
		depth = append(depth, k)
		// Close two of every three elements at once, so that blocks nest.
		if i%3 != 0 {
			for len(depth) > 0 {
				k := depth[len(depth)-1]
				depth = depth[:len(depth)-1]
				b.WriteString(closes[k])
				b.WriteString(" tail ")
			}
		}
	}
	b.WriteString("</body></html>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(doc)
	if len(bs) < len(texts)/2 {
		t.Fatalf("only %d blocks for %d texts", len(bs), len(texts))
	}
	return bs
}

func TestKeywordFilter(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var vocab []string
	for range 3000 {
		vocab = append(vocab, Tokens(randomText(r))...)
	}
	vocab = append(vocab, "", "a", "zz", "the")
	for round := range 50 {
		kw := &Keywords{Clean: map[string]float64{}, Dirty: map[string]float64{}}
		for range r.Intn(300) {
			kw.Clean[vocab[r.Intn(len(vocab))]] = r.Float64()
			kw.Dirty[vocab[r.Intn(len(vocab))]] = -r.Float64()
		}
		if round%10 == 0 {
			kw.Clean[""] = 1
		}
		f := kw.filter()
		for range 200 {
			toks := make([]string, r.Intn(30))
			for i := range toks {
				toks[i] = vocab[r.Intn(len(vocab))]
			}
			a, b, c := kw.scoreWith(f, toks)
			x, y, z := keywordScoreRef(kw, toks)
			if a != x || b != y || c != z {
				t.Fatalf("score(%q) = %v %v %v, want %v %v %v", toks, a, b, c, x, y, z)
			}
		}
	}
	var nilKW *Keywords
	if a, b, c := nilKW.score([]string{"x"}); a != 0 || b != 0 || c != 0 {
		t.Error("nil keywords score")
	}
}

// TestWordSet checks the lexicon's word set against a map of the embedded
// lists: every word found with its flags, and near misses not found.
func TestWordSet(t *testing.T) {
	lexOnce.Do(loadLists)
	want := map[string]uint8{}
	zr, err := gzip.NewReader(bytes.NewReader(wordsGz))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		want[sc.Text()] = 0
	}
	for w := range stops {
		want[w] = lexStop
	}
	if lexicon.n != len(want) {
		t.Fatalf("word set has %d words, want %d", lexicon.n, len(want))
	}
	for w, f := range want {
		if g, ok := lexicon.lookup(w); !ok || g != f {
			t.Fatalf("lookup(%q) = %v, %v, want %v, true", w, g, ok, f)
		}
		for _, x := range []string{w + "q", w[:len(w)-1], "x" + w, strings.ToUpper(w)} {
			g, ok := lexicon.lookup(x)
			wf, wok := want[x]
			if ok != wok || g != wf {
				t.Fatalf("lookup(%q) = %v, %v, want %v, %v", x, g, ok, wf, wok)
			}
		}
	}
	long := strings.Repeat("a", 300)
	s := newWordSet(map[string]uint8{long: 1, "b": 0})
	if f, ok := s.lookup(long); !ok || f != 1 {
		t.Error("long word lost")
	}
	if _, ok := s.lookup(long + "a"); ok {
		t.Error("long non-word found")
	}
	if _, ok := s.lookup(""); ok {
		t.Error("empty word found")
	}
	var empty wordSet
	if _, ok := empty.lookup("x"); ok {
		t.Error("zero word set has a word")
	}
}

// Table.Lang is Lang over all tokens joined.
func TestTableLang(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for k := range 200 {
		var texts []string
		for range r.Intn(20) {
			texts = append(texts, randomText(r)+strings.Repeat(" the of and", r.Intn(3))+" Haus Katze "[:r.Intn(12)])
		}
		tab := &Table{}
		if len(texts) > 0 {
			tab = Extract(blocksOf(t, texts), nil)
		}
		if k%50 == 0 {
			tab = &Table{Tokens: [][]string{nil, {"the"}, {}}}
		}
		var all []string
		for _, toks := range tab.Tokens {
			all = append(all, toks...)
		}
		e1, s1 := tab.Lang()
		e2, s2 := Lang(all)
		if e1 != e2 || s1 != s2 {
			t.Fatalf("Table.Lang = %v %v, Lang = %v %v", e1, s1, e2, s2)
		}
	}
}

// Extract reuses pooled working memory; concurrent calls on different
// pages give what sequential ones give (run with -race).
func TestExtractConcurrent(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var pages [][]*blocks.Block
	var want []*Table
	for range 6 {
		var texts []string
		for range 40 + r.Intn(80) {
			texts = append(texts, randomText(r)+" the of and "+randomText(r))
		}
		bs := blocksOf(t, texts)
		pages = append(pages, bs)
		want = append(want, Extract(bs, nil))
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			for k := range 30 {
				i := (g + k) % len(pages)
				if got := Extract(pages[i], nil); !reflect.DeepEqual(got, want[i]) {
					done <- fmt.Errorf("page %d: concurrent Extract differs", i)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
