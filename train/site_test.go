package train

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSite(t *testing.T) {
	ex := synthPages(t, "a", 1, 1)[0]
	for _, c := range []struct {
		url, gold, address, want string
	}{
		{"http://www.Example.org/news/1", "http://other.org/", "http://third.org/", "example.org"},
		{" https://blogs.example.com:8080/x?y=1 ", "", "", "example.com"},
		{"http://news.bbc.co.uk/1/hi/", "", "", "bbc.co.uk"},
		{"http://someone.blogspot.com/2008/", "", "", "someone.blogspot.com"},
		{"http://192.0.2.7/page", "", "", "192.0.2.7"},
		{"http://WWW.example.org", "", "", "example.org"},
		{"", "http://www.gold.example/p", "http://third.org/", "gold.example"},
		{"not a url", "", "https://news.example.net/story", "example.net"},
		{"", "", "", "a/0"},
	} {
		ex.Doc.Page.URL, ex.Gold.URL, ex.Doc.Page.Address = c.url, c.gold, c.address
		if got := ex.Site(); got != c.want {
			t.Errorf("URL %q, gold %q, address %q: site %q, want %q", c.url, c.gold, c.address, got, c.want)
		}
		if got, want := ex.HasSite(), c.want != "a/0"; got != want {
			t.Errorf("URL %q, gold %q, address %q: HasSite %v, want %v", c.url, c.gold, c.address, got, want)
		}
	}
	failed := &Example{Set: "b", ID: "7"}
	if got := failed.Site(); got != "b/7" || failed.HasSite() {
		t.Errorf("page that failed to load: site %q (known %v), want b/7", got, failed.HasSite())
	}
	if n := Unsited([]*Example{ex, failed}); n != 2 {
		t.Errorf("Unsited = %d, want 2", n)
	}
}

func TestGroupFolds(t *testing.T) {
	// 5 pages of site a, 3 of b, 2 of c, then 10 sites of one page.
	var g []string
	for i, n := range []int{5, 3, 2} {
		for range n {
			g = append(g, string(rune('a'+i)))
		}
	}
	for i := range 10 {
		g = append(g, fmt.Sprint("s", i))
	}
	f := GroupFolds(g, 4, 3)
	foldOf := map[string]int{}
	size := make([]int, 4)
	for i, s := range g {
		if k, ok := foldOf[s]; ok && k != f[i] {
			t.Errorf("site %s in folds %d and %d", s, k, f[i])
		}
		foldOf[s] = f[i]
		size[f[i]]++
	}
	// 20 pages in 4 folds: the greedy deal gives a alone (5), b (3) and c
	// (2) each topped up to 5 with single pages.
	for k, n := range size {
		if n != 5 {
			t.Errorf("fold %d has %d pages, want 5 (sizes %v)", k, n, size)
		}
	}
	if again := GroupFolds(g, 4, 3); fmt.Sprint(again) != fmt.Sprint(f) {
		t.Error("the same seed gave different folds")
	}
	if other := GroupFolds(g, 4, 4); fmt.Sprint(other) == fmt.Sprint(f) {
		t.Error("another seed gave the same folds")
	}
	// As many folds as sites: one site a fold, none empty; more folds than
	// sites: the extra folds stay empty; no folds asked: one.
	three := []string{"a", "a", "b", "c", "c", "c"}
	if got := fmt.Sprint(foldSizes(GroupFolds(three, 3, 1), 3)); got != "[3 2 1]" {
		t.Errorf("3 sites in 3 folds: sizes %s, want [3 2 1]", got)
	}
	if got := fmt.Sprint(foldSizes(GroupFolds(three, 5, 1), 5)); got != "[3 2 1 0 0]" {
		t.Errorf("3 sites in 5 folds: sizes %s, want [3 2 1 0 0]", got)
	}
	if got := fmt.Sprint(GroupFolds(three, 0, 1)); got != "[0 0 0 0 0 0]" {
		t.Errorf("0 folds: %s, want all in fold 0", got)
	}
	// One page a site: sizes differ by at most one, as with Folds.
	single := make([]string, 103)
	for i := range single {
		single[i] = fmt.Sprint(i)
	}
	count := make([]int, 10)
	for _, k := range GroupFolds(single, 10, 7) {
		count[k]++
	}
	for k, n := range count {
		if n < 10 || n > 11 {
			t.Errorf("single pages: fold %d has %d, want 10 or 11", k, n)
		}
	}
}

// TestNestedCVBySite: with BySite no outer or inner fold trains on a site
// it tests, and too few sites for the folds is an error.
func TestNestedCVBySite(t *testing.T) {
	ex := synthPages(t, "a", 18, 4)
	for i, e := range ex {
		e.Doc.Page.URL = fmt.Sprintf("http://site%d.example/%d", i%6, i)
	}
	opt := NestedOptions{OuterFolds: 3, InnerFolds: 2, Seed: 5, BySite: true,
		Grid:  NestedGrid{Thresholds: []float64{0}},
		Train: TrainOptions{Keywords: 10, KeywordMinCount: 2}, Workers: 2}
	res, err := NestedCV(context.Background(), ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range res.Folds {
		tested := map[string]bool{}
		for _, i := range fc.Test {
			tested[ex[i].Site()] = true
		}
		if len(fc.Test) != 6 || len(tested) != 2 {
			t.Errorf("%s tests %d pages of %d sites, want 6 of 2", fc.Name, len(fc.Test), len(tested))
		}
		if fc.InnerPages != len(ex)-len(fc.Test) {
			t.Errorf("%s: %d inner pages, want %d", fc.Name, fc.InnerPages, len(ex)-len(fc.Test))
		}
		for i, e := range ex {
			if tested[e.Site()] && !slices.Contains(fc.Test, i) {
				t.Errorf("%s tests site %s and trains on its page %d", fc.Name, e.Site(), i)
			}
		}
	}
	// The inner folds of every outer fold keep sites together too.
	fold := siteFolds(ex, 3, opt.Seed, true)
	var splits []split
	for f := range 3 {
		var sp split
		for i, e := range ex {
			if fold[i] != f {
				sp.train = append(sp.train, e)
			}
		}
		splits = append(splits, sp)
	}
	r, err := newRun(ex, splits, opt)
	if err != nil {
		t.Fatal(err)
	}
	for s, sp := range splits {
		at := map[string]int{}
		for j, e := range sp.train {
			if k, ok := at[e.Site()]; ok && k != r.innerOf[s][j] {
				t.Errorf("outer fold %d: site %s in inner folds %d and %d", s+1, e.Site(), k, r.innerOf[s][j])
			}
			at[e.Site()] = r.innerOf[s][j]
		}
	}
	opt.OuterFolds = 7
	if _, err := NestedCV(context.Background(), ex, opt); err == nil || !strings.Contains(err.Error(), "7 outer folds for 6 sites") {
		t.Errorf("7 folds over 6 sites: error %v", err)
	}
	// A second stage by site: each inner training set holds 2 of the 6
	// sites, too few for 3 folds; said before any training.
	opt.OuterFolds, opt.Train.Stack = 3, 3
	trained := false
	opt.Progress = func(done, total int) { trained = true }
	if _, err := NestedCV(context.Background(), ex, opt); err == nil || !strings.Contains(err.Error(), "second stage: 3 folds for 2 sites") || trained {
		t.Errorf("stack of 3 folds over 2 sites: error %v, trained first: %v", err, trained)
	}
}

func foldSizes(fold []int, k int) []int {
	n := make([]int, k)
	for _, f := range fold {
		n[f]++
	}
	return n
}

// TestCrossValidateBySite: with BySite the folds of CrossValidate keep a
// site's pages together, the second stage's folds too.
func TestCrossValidateBySite(t *testing.T) {
	ex := synthPages(t, "a", 12, 6)
	for i, e := range ex {
		e.Doc.Page.URL = fmt.Sprintf("http://site%d.example/%d", i%4, i)
	}
	opt := CVOptions{Folds: 2, Seed: 3, BySite: true, Train: TrainOptions{Keywords: 10, KeywordMinCount: 2, Stack: 2}}
	res, err := CrossValidate(context.Background(), ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(ex) {
		t.Fatalf("%d results for %d pages", len(res), len(ex))
	}
	opt.Folds = 5
	if _, err := CrossValidate(context.Background(), ex, opt); err == nil || !strings.Contains(err.Error(), "5 folds for 4 sites") {
		t.Errorf("5 folds over 4 sites: error %v", err)
	}
	// Each training set of the 2 folds holds 2 sites: a second stage of 3
	// folds by site cannot be dealt.
	opt.Folds, opt.Train.Stack = 2, 3
	if _, err := CrossValidate(context.Background(), ex, opt); err == nil || !strings.Contains(err.Error(), "second stage: 3 folds for 2 sites") {
		t.Errorf("stack of 3 folds over 2 sites: error %v", err)
	}
}
