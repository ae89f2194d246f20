package main

import (
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/train"
)

// warnSites tells, for --folds-by site, where dealing by site cannot keep
// its promise: pages whose site is unknown (each is dealt as a site of its
// own), --extra pages from a site among the scored pages (they are in
// every training set) and, with --by-set, pages of a site that another
// data set has too (the sets, not the sites, are held out).
func warnSites(w io.Writer, cmd string, ex, extra []*train.Example, bySet bool) {
	if n := train.Unsited(ex); n > 0 {
		fmt.Fprintf(w, "fiasco %s: --folds-by site: %d of %d pages state no address (CleanEval wrapper, gold URL line, canonical link, og:url or base href); each is dealt as a site of its own\n", cmd, n, len(ex))
	}
	setsOf := map[string]map[string]bool{}
	for _, e := range ex {
		if !e.HasSite() {
			continue
		}
		if setsOf[e.Site()] == nil {
			setsOf[e.Site()] = map[string]bool{}
		}
		setsOf[e.Site()][e.Set] = true
	}
	shared := 0
	for _, e := range extra {
		if e.HasSite() && setsOf[e.Site()] != nil {
			shared++
		}
	}
	if shared > 0 {
		fmt.Fprintf(w, "fiasco %s: --folds-by site: %d of %d --extra pages come from sites among the scored pages; they are trained on in every fold\n", cmd, shared, len(extra))
	}
	if !bySet {
		return
	}
	across := 0
	for _, e := range ex {
		if e.HasSite() && len(setsOf[e.Site()]) > 1 {
			across++
		}
	}
	if across > 0 {
		fmt.Fprintf(w, "fiasco %s: --folds-by site: %d pages are of a site that another --data set has too; --by-set holds out sets, so those sites are trained on\n", cmd, across)
	}
}
