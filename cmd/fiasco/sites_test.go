package main

import (
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/train"
)

// TestWarnSites counts what --folds-by site cannot keep apart: pages with
// no address, --extra pages of a scored site and, with --by-set, pages of
// a site that two sets share.
func TestWarnSites(t *testing.T) {
	page := func(set, id, url string) *train.Example {
		return &train.Example{Set: set, ID: id, Gold: &gold.Gold{URL: url}}
	}
	ex := []*train.Example{
		page("a", "1", "http://news.one.example/x"),
		page("a", "2", "http://www.one.example/y"), // the same site as a/1
		page("a", "3", ""),
		page("b", "1", "http://two.example/"),
		page("b", "2", "http://one.example/z"), // one.example is in a and b
		page("b", "3", ""),
	}
	extra := []*train.Example{page("x", "1", "http://two.example/q"), page("x", "2", "http://three.example/"), page("x", "3", "")}
	var b strings.Builder
	warnSites(&b, "eval", ex, extra, true)
	for _, want := range []string{
		"fiasco eval: --folds-by site: 2 of 6 pages state no address",
		"fiasco eval: --folds-by site: 1 of 3 --extra pages come from sites among the scored pages",
		"fiasco eval: --folds-by site: 3 pages are of a site that another --data set has too",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	b.Reset()
	warnSites(&b, "eval", ex[:2], nil, false)
	if b.Len() != 0 {
		t.Errorf("pages of known sites, no extra: warned %q", b.String())
	}
}
