package train

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site names the web site a page came from, for folds that keep a site's
// pages together: the registrable domain of the page's address (see
// registrable: news.example.co.uk and www.example.co.uk are one site). The
// address is the CleanEval wrapper's id, else the gold file's "URL:" line,
// else the address the page states (canonical link, og:url or base;
// load.Page.Address). A page with none of them is a site of its own, named
// by its set and ID; HasSite tells which.
func (e *Example) Site() string {
	if h := e.host(); h != "" {
		return h
	}
	return e.Set + "/" + e.ID
}

// HasSite reports whether Site found the page's address.
func (e *Example) HasSite() bool { return e.host() != "" }

func (e *Example) host() string {
	var cands []string
	if e.Doc != nil && e.Doc.Page != nil {
		cands = append(cands, e.Doc.Page.URL)
	}
	if e.Gold != nil {
		cands = append(cands, e.Gold.URL)
	}
	if e.Doc != nil && e.Doc.Page != nil {
		cands = append(cands, e.Doc.Page.Address)
	}
	for _, c := range cands {
		if u, err := url.Parse(strings.TrimSpace(c)); err == nil && u.Host != "" {
			return registrable(u.Hostname())
		}
	}
	return ""
}

// registrable returns the domain a host belongs to, as a registrar sells
// it: one label below the public suffix (news.bbc.co.uk and www.bbc.co.uk
// are bbc.co.uk; a blog at x.blogspot.com stays x.blogspot.com, whose
// suffix is blogspot.com). A host the suffix list cannot place (an IP
// address, a bare suffix) stands for itself.
func registrable(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return strings.TrimPrefix(host, "www.")
}

// Unsited counts the examples whose site is unknown (HasSite false).
func Unsited(ex []*Example) int {
	n := 0
	for _, e := range ex {
		if !e.HasSite() {
			n++
		}
	}
	return n
}

// Sites returns the number of distinct sites among the examples.
func Sites(ex []*Example) int {
	seen := map[string]bool{}
	for _, e := range ex {
		seen[e.Site()] = true
	}
	return len(seen)
}

// GroupFolds assigns each of n items to one of k folds so that items of
// the same group share a fold: the distinct groups are shuffled by a PCG
// seeded with seed, ordered by size, largest first (the shuffle breaking
// ties), and each goes to the fold with the fewest items so far (the
// lowest-numbered on a tie). With every group a single item the folds'
// sizes differ by at most one, as with Folds. It needs k distinct groups
// at least; with fewer, some folds stay empty. A k below 1 counts as 1.
func GroupFolds(group []string, k int, seed uint64) []int {
	k = max(k, 1) // no folds asked: one
	idx := map[string]int{}
	var names []string
	var size []int
	for _, g := range group {
		i, ok := idx[g]
		if !ok {
			i = len(names)
			idx[g] = i
			names = append(names, g)
			size = append(size, 0)
		}
		size[i]++
	}
	order := rand.New(rand.NewPCG(seed, 0x73697465)).Perm(len(names))
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	foldOf := make([]int, len(names))
	load := make([]int, k)
	for _, g := range order {
		f := 0
		for j := 1; j < k; j++ {
			if load[j] < load[f] {
				f = j
			}
		}
		foldOf[g] = f
		load[f] += size[g]
	}
	fold := make([]int, len(group))
	for i, g := range group {
		fold[i] = foldOf[idx[g]]
	}
	return fold
}

// siteFolds deals the examples into k folds, by page or, with bySite, by
// site (GroupFolds over Example.Site).
func siteFolds(ex []*Example, k int, seed uint64, bySite bool) []int {
	if !bySite {
		return Folds(len(ex), k, seed)
	}
	g := make([]string, len(ex))
	for i, e := range ex {
		g[i] = e.Site()
	}
	return GroupFolds(g, k, seed)
}

// plural gives "1 site", "2 sites".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
