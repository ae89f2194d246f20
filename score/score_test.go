package score

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestTokens(t *testing.T) {
	text := "\ufeffURL: http://x.org/\r\n\r\n<p>Hello   world<h>Big\ttitle\n  URL line dropped\n<L>item\u00a0one"
	got := Tokens(text, Options{})
	want := []string{"<p>", "Hello", "world", "<h>", "Big", "title", "<L>", "item", "one"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = Tokens("<h>café <l>x", Options{Unlabelled: true, ASCII: true})
	want = []string{"<p>", "caf", "<p>", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("unlabelled ascii: got %q, want %q", got, want)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestScoreHand checks counts worked out by hand.
func TestScoreHand(t *testing.T) {
	gold := "URL: http://e.com/\n<h>The title\n<p>one two three four\n<l>five six\n"
	// Output: title kept, a boilerplate word inserted, "four" lost,
	// list item marked as a paragraph.
	out := "<h>The title\n<p>one two three menu\n<p>five six\n"
	r := Score(out, gold, Options{})
	// Words without tags: out = The title one two three menu five six (8),
	// gold = The title one two three four five six (8); "menu" replaces
	// "four": 7 matched.
	if r.Matched != 7 || r.OutWords != 8 || r.GoldWords != 8 {
		t.Fatalf("counts %+v", r)
	}
	if !near(r.P, 7.0/8) || !near(r.R, 7.0/8) || !near(r.F, 7.0/8) {
		t.Fatalf("ratios %+v", r)
	}
	// Tags: out <h> <p> <p>, gold <h> <p> <l>: 2 matched.
	if r.TagMatched != 2 || r.OutTags != 3 || r.GoldTags != 3 {
		t.Fatalf("tag counts %+v", r)
	}
	rt := Score(out, gold, Options{Tags: true})
	// With tags: 11 tokens each; "menu <p>" vs "four <l>" is a replaced run.
	if rt.Matched != 9 || rt.OutWords != 11 || rt.GoldWords != 11 {
		t.Fatalf("tagged counts %+v", rt)
	}
	ru := Score(out, gold, Options{Tags: true, Unlabelled: true})
	if ru.Matched != 10 || ru.TagMatched != 3 {
		t.Fatalf("unlabelled %+v", ru)
	}
}

func TestScoreEdges(t *testing.T) {
	r := Score("", "URL: x\n<p>a b", Options{})
	if r.P != 0 || r.R != 0 || r.F != 0 || r.GoldWords != 2 {
		t.Fatalf("empty output %+v", r)
	}
	r = Score("a b", "URL: x\n", Options{})
	if r.P != 0 || r.R != 0 || r.OutWords != 2 {
		t.Fatalf("empty gold %+v", r)
	}
	// A replaced run counts as deleted plus inserted: a x y d vs a b c d.
	r = Score("a x y d", "a b c d", Options{})
	if r.Matched != 2 || !near(r.P, 0.5) || !near(r.R, 0.5) {
		t.Fatalf("replace %+v", r)
	}
}

func TestMicroMacro(t *testing.T) {
	a := Score("a b c d", "a b c d", Options{})     // P=R=1
	b := Score("a b c d e f g h", "a b", Options{}) // P=.25, R=1
	mi := Micro([]Result{a, b})
	if mi.Matched != 6 || mi.OutWords != 12 || mi.GoldWords != 6 || !near(mi.P, 0.5) || !near(mi.R, 1) || mi.Pages != 2 {
		t.Fatalf("micro %+v", mi)
	}
	ma := Macro([]Result{a, b})
	if !near(ma.P, 0.625) || !near(ma.R, 1) || !near(ma.F, (1+0.4)/2) {
		t.Fatalf("macro %+v", ma)
	}
	if z := Macro(nil); z.F != 0 || z.Pages != 0 {
		t.Fatalf("macro of nothing %+v", z)
	}
}

// TestScoreAgainstReference compares Score with the counts that the
// reference scorer's logic gives on synthetic pages
// (testdata/gen_scores.py): URL lines, CRLF, tabs, NBSP, upper-case and
// glued markers, non-ASCII words, labelled and unlabelled, with and without
// markers as tokens.
func TestScoreAgainstReference(t *testing.T) {
	data, err := os.ReadFile("testdata/scores.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Out, Gold string
		Results   []struct {
			Unlabelled, Tags   bool
			Matched, Out, Gold int
			TagMatched         int `json:"tag_matched"`
			OutTags            int `json:"out_tags"`
			GoldTags           int `json:"gold_tags"`
		}
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for n, c := range cases {
		for _, w := range c.Results {
			r := Score(c.Out, c.Gold, Options{Tags: w.Tags, Unlabelled: w.Unlabelled})
			got := [6]int{r.Matched, r.OutWords, r.GoldWords, r.TagMatched, r.OutTags, r.GoldTags}
			want := [6]int{w.Matched, w.Out, w.Gold, w.TagMatched, w.OutTags, w.GoldTags}
			if got != want {
				t.Errorf("case %d tags=%v unlabelled=%v: got %v, want %v", n, w.Tags, w.Unlabelled, got, want)
			}
		}
	}
}

func TestScoreEntities(t *testing.T) {
	out, gold := "It’s here & now", "It&#8217;s here &amp; now"
	if r := Score(out, gold, Options{}); r.Matched != 2 {
		t.Fatalf("raw: %+v", r)
	}
	if r := Score(out, gold, Options{Entities: true}); r.Matched != 4 || r.F != 1 {
		t.Fatalf("entities: %+v", r)
	}
	if r := Score("", "URL: x\n", Options{}); r.P != 1 || r.R != 1 || r.F != 1 {
		t.Fatalf("empty against empty: %+v", r)
	}
}

// fieldsRef is how Tokens read a text's fields before Fields: the lines
// split at "\n", those starting with "URL" dropped, the rest split by
// strings.FieldsFunc.
func fieldsRef(text string) []string {
	text = strings.TrimPrefix(text, "\ufeff")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "URL") {
			continue
		}
		out = append(out, strings.FieldsFunc(line, IsSpace)...)
	}
	return out
}

func checkFields(t *testing.T, text string) {
	t.Helper()
	var got []string
	last := -1
	Fields(text, func(start, end int) {
		if start <= last || end <= start || end > len(text) {
			t.Fatalf("Fields(%q): bounds %d:%d after %d", text, start, end, last)
		}
		last = end
		got = append(got, text[start:end])
	})
	if want := fieldsRef(text); !slices.Equal(got, want) {
		t.Errorf("Fields(%q) = %q, want %q", text, got, want)
	}
}

func TestFields(t *testing.T) {
	for _, text := range []string{
		"", "\n", "one", " one  two\tthree\n", "\ufeffURL: http://x\n<p> a b\n",
		"a\r\nb\x1cc", "  URL x\nnot URL\nURLy", "a\u00a0b\u2003c", "x\xffy z", "<p>a<h>b\n\n<l> c",
	} {
		checkFields(t, text)
	}
}

func FuzzFields(f *testing.F) {
	for _, s := range []string{"a b\nURL c\n d", "\ufeff<p>x\u00a0y", "\xff\n\x1f"} {
		f.Add(s)
	}
	f.Fuzz(checkFields)
}
