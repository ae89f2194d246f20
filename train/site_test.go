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
	for _, c := range []struct{ url, want string }{
		{"http://www.Example.org/news/1", "example.org"},
		{" https://blogs.example.com:8080/x?y=1 ", "blogs.example.com"},
		{"http://WWW.example.org", "example.org"},
		{"", "a/0"},
		{"not a url", "a/0"},
	} {
		ex.Doc.Page.URL = c.url
		if got := ex.Site(); got != c.want {
			t.Errorf("URL %q: site %q, want %q", c.url, got, c.want)
		}
	}
	failed := &Example{Set: "b", ID: "7"}
	if got := failed.Site(); got != "b/7" {
		t.Errorf("page that failed to load: site %q, want b/7", got)
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
}
