package gold

import (
	"strings"
	"testing"
)

// TestPolicies reads the annotated test files under each policy and checks
// the clean text against the mapping that Policy.Options documents.
func TestPolicies(t *testing.T) {
	cases := []struct {
		file   string
		f      Format
		policy Policy
		want   string // clean words, space-separated
	}{
		{"l3s.html", L3S, Corpus, "Big Headline 16 January 2008 The story starts here, and ends. A comment"},
		{"l3s.html", L3S, Article, "Big Headline The story starts here, and ends."},
		{"plain.txt", Plain, Corpus, "The Headline Of The Story by someone on January 31, 2011 First paragraph of the story. A reader comment."},
		{"plain.txt", Plain, Article, "The Headline Of The Story by someone on January 31, 2011 First paragraph of the story."},
		{"krdwrd.html", KrdWrd, Corpus, "Good text in bold Maybe text"},
		{"krdwrd.html", KrdWrd, Article, "Good text in bold"},
		{"cleaneval.txt", CleanEval, Corpus, "A Title First paragraph, two lines & an entity. item one item two"},
		{"cleaneval.txt", CleanEval, Article, "A Title First paragraph, two lines & an entity. item one item two"},
	}
	for _, c := range cases {
		g, err := ReadOptions("testdata/"+c.file, c.f, c.policy.Options())
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(g.Words, " "); got != c.want {
			t.Errorf("%s under %v: clean text %q, want %q", c.file, c.policy, got, c.want)
		}
	}
}

// TestL3SVariants checks the variants the corpus measurement compares:
// supplemental and related in or out.
func TestL3SVariants(t *testing.T) {
	for _, c := range []struct {
		classes []int
		mapping string
		want    string
	}{
		{[]int{L3SHeadline, L3SFullText, L3SComments}, "headline+full text+comments", "Big Headline The story starts here, and ends. A comment"},
		{[]int{L3SComments, L3SRelated, L3SFullText, L3SHeadline}, "headline+full text+related+comments", "Big Headline The story starts here, and ends. Related link A comment"},
		{[]int{}, "", ""},
	} {
		o := Options{L3SClasses: c.classes}
		if m := o.Mapping(L3S); m != c.mapping {
			t.Errorf("Mapping(%v) = %q, want %q", c.classes, m, c.mapping)
		}
		g, err := ReadOptions("testdata/l3s.html", L3S, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(g.Words, " "); got != c.want {
			t.Errorf("classes %v: clean text %q, want %q", c.classes, got, c.want)
		}
	}
	if _, err := Parse([]byte("<span class=x-nc-sel2>a</span>"), L3S, Options{L3SClasses: []int{6}}); err == nil {
		t.Error("no error for L3S class 6")
	}
}

func TestPolicyNames(t *testing.T) {
	for _, p := range []Policy{Corpus, Article} {
		q, err := ParsePolicy(strings.ToUpper(p.String()))
		if err != nil || q != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), q, err)
		}
	}
	if _, err := ParsePolicy("news"); err == nil {
		t.Error("no error for an unknown policy")
	}
	if s := Corpus.Options().String(); s != "l3s=headline+full text+supplemental+comments dragnet=content+comments krdwrd=good+uncertain" {
		t.Errorf("corpus mapping %q", s)
	}
	if s := (Options{}).String(); s != "l3s=headline+full text+supplemental dragnet=content krdwrd=good" {
		t.Errorf("zero mapping %q", s)
	}
}
