package readability

// A measurement, for the speed report, of what one merged word table
// would save in features.Extract and Table.Columns: today every token
// costs a stop-word lookup, a lexicon lookup (up to six more for
// inflections), an insert into a fresh per-block type map and one or two
// keyword lookups. Prototype only; fiasco does not use it.

import (
	"context"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
)

// pageTokens returns the tokens of every block of every CleanEval dev page.
func pageTokens(tb testing.TB) (*features.Keywords, [][][]string) {
	tb.Helper()
	pages, err := LoadPages(DefaultDataDir())
	if err != nil {
		tb.Skip(err)
	}
	m, err := classify.Default(false)
	if err != nil {
		tb.Fatal(err)
	}
	c := &pipeline.Cleaner{Model: m}
	var out [][][]string
	for _, p := range pages {
		r, err := c.Clean(context.Background(), p.Name, p.Data)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, r.Table.Tokens)
	}
	return m.Keywords, out
}

type wordCounts struct {
	types, stop, unknown, alpha, nc, nd int
	sum                                 float64
}

// current is what Extract and Keywords.score do per block today.
func wordsCurrent(kw *features.Keywords, toks []string) (c wordCounts) {
	types := map[string]struct{}{}
	for _, w := range toks {
		types[w] = struct{}{}
		if features.IsStopWord(w) {
			c.stop++
		}
		if hasLetter(w) {
			c.alpha++
			if !features.IsKnownWord(w) {
				c.unknown++
			}
		}
	}
	c.types = len(types)
	for _, t := range toks {
		if o, ok := kw.Clean[t]; ok {
			c.nc++
			c.sum += o
		} else if o, ok := kw.Dirty[t]; ok {
			c.nd++
			c.sum += o
		}
	}
	return c
}

const (
	fStop = 1 << iota
	fKnown
	fClean
	fDirty
)

type wordInfo struct {
	flags uint8
	odds  float64
}

// wordTable is the merged word wordTable: built once per model from the lexicon,
// the stop words and the keywords; words outside it are looked up the
// slow way once per page and remembered in a per-page overlay.
type wordTable struct {
	words map[string]wordInfo
}

func newWordTable(kw *features.Keywords, vocab []string) *wordTable {
	t := &wordTable{words: map[string]wordInfo{}}
	// The real wordTable would be built from the embedded lists; here from the
	// tokens seen (what a page can look up), which gives the same lookups.
	for _, w := range vocab {
		var in wordInfo
		if features.IsStopWord(w) {
			in.flags |= fStop
		}
		if features.IsKnownWord(w) {
			in.flags |= fKnown
		}
		if o, ok := kw.Clean[w]; ok {
			in.flags |= fClean
			in.odds = o
		} else if o, ok := kw.Dirty[w]; ok {
			in.flags |= fDirty
			in.odds = o
		}
		if in.flags != 0 {
			t.words[w] = in
		}
	}
	return t
}

// merged computes the same wordCounts with one lookup per token and a type
// set reused across blocks.
func wordsMerged(t *wordTable, types map[string]struct{}, toks []string) (c wordCounts) {
	clear(types)
	for _, w := range toks {
		types[w] = struct{}{}
		in := t.words[w]
		if in.flags&fStop != 0 {
			c.stop++
		}
		if hasLetter(w) {
			c.alpha++
			if in.flags&fKnown == 0 {
				c.unknown++
			}
		}
		switch {
		case in.flags&fClean != 0:
			c.nc++
			c.sum += in.odds
		case in.flags&fDirty != 0:
			c.nd++
			c.sum += in.odds
		}
	}
	c.types = len(types)
	return c
}

func hasLetter(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' || r > 127 }) >= 0
}

func vocab(pages [][][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pages {
		for _, b := range p {
			for _, w := range b {
				if !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

func TestWordTableMatches(t *testing.T) {
	kw, pages := pageTokens(t)
	tab := newWordTable(kw, vocab(pages))
	types := map[string]struct{}{}
	for _, p := range pages {
		for _, b := range p {
			if a, m := wordsCurrent(kw, b), wordsMerged(tab, types, b); a != m {
				t.Fatalf("%v: current %+v, merged %+v", b, a, m)
			}
		}
	}
}

// BenchmarkLookups runs the per-token work of every block of every page.
//
//	go test -run XXX -bench Lookups
func BenchmarkLookups(b *testing.B) {
	kw, pages := pageTokens(b)
	tab := newWordTable(kw, vocab(pages))
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pages)), "µs/page")
	}
	b.Run("current", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pages {
				for _, t := range p {
					wordsCurrent(kw, t)
				}
			}
		}
		report(b)
	})
	b.Run("merged", func(b *testing.B) {
		types := map[string]struct{}{}
		for b.Loop() {
			for _, p := range pages {
				for _, t := range p {
					wordsMerged(tab, types, t)
				}
			}
		}
		report(b)
	})
}
