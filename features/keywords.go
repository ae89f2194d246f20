package features

import (
	"errors"
	"math"
	"sort"
)

// Keywords are the words whose frequency differs most between clean and
// dirty training text, with their smoothed log-odds.
type Keywords struct {
	Clean map[string]float64 `json:"clean"` // keyword -> log-odds (> 0)
	Dirty map[string]float64 `json:"dirty"` // keyword -> log-odds (< 0)
}

// LearnKeywords ranks every word seen at least minCount times by Dunning's
// log-likelihood keyness between the clean and the dirty token lists and
// keeps the k most key words of each side. Stop words and numbers are
// skipped: they are covered by other features.
func LearnKeywords(clean, dirty [][]string, k, minCount int) (*Keywords, error) {
	if k <= 0 {
		return nil, errors.New("features: keyword count must be positive")
	}
	fc, nc := freq(clean)
	fd, nd := freq(dirty)
	if nc == 0 || nd == 0 {
		return nil, errors.New("features: keyness needs both clean and dirty training text")
	}
	type scored struct {
		w    string
		g2   float64
		odds float64
	}
	var cs, ds []scored
	seen := map[string]bool{}
	consider := func(w string) {
		if seen[w] {
			return
		}
		seen[w] = true
		a, b := float64(fc[w]), float64(fd[w])
		if a+b < float64(minCount) || IsStopWord(w) || isNumber(w) {
			return
		}
		g2 := logLikelihood(a, b, float64(nc), float64(nd))
		odds := math.Log((a+0.5)/(float64(nc)+0.5)) - math.Log((b+0.5)/(float64(nd)+0.5))
		if odds > 0 {
			cs = append(cs, scored{w, g2, odds})
		} else {
			ds = append(ds, scored{w, g2, odds})
		}
	}
	for w := range fc {
		consider(w)
	}
	for w := range fd {
		consider(w)
	}
	top := func(s []scored) map[string]float64 {
		sort.Slice(s, func(i, j int) bool {
			if s[i].g2 != s[j].g2 {
				return s[i].g2 > s[j].g2
			}
			return s[i].w < s[j].w
		})
		if len(s) > k {
			s = s[:k]
		}
		m := make(map[string]float64, len(s))
		for _, x := range s {
			m[x.w] = x.odds
		}
		return m
	}
	return &Keywords{Clean: top(cs), Dirty: top(ds)}, nil
}

// score returns the share of tokens that are clean keywords, the share that
// are dirty keywords and the mean log-odds over keyword tokens.
func (kw *Keywords) score(tokens []string) (clean, dirty, odds float64) {
	if kw == nil || len(tokens) == 0 {
		return 0, 0, 0
	}
	return kw.scoreWith(kw.filter(), tokens)
}

// scoreWith is score with f = kw.filter(), which rules out most tokens
// that are no keyword without a map lookup.
func (kw *Keywords) scoreWith(f *kwFilter, tokens []string) (clean, dirty, odds float64) {
	if kw == nil || len(tokens) == 0 {
		return 0, 0, 0
	}
	n, nc, nd := 0, 0, 0
	sum := 0.0
	for _, t := range tokens {
		if !f.mayHave(t) {
			continue
		}
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

// kwFilter is a one-hash Bloom filter of the keywords (clean and dirty):
// a word whose bit is clear is in neither map. It is built from the maps
// for each page (a few hundred words), so it always matches them.
type kwFilter [kwFilterBits / 64]uint64

const kwFilterBits = 4096

// filter returns the filter of kw's words (nil kw: an empty filter).
func (kw *Keywords) filter() *kwFilter {
	f := new(kwFilter)
	if kw == nil {
		return f
	}
	for w := range kw.Clean {
		f.add(w)
	}
	for w := range kw.Dirty {
		f.add(w)
	}
	return f
}

func kwHash(w string) uint32 {
	h := uint32(len(w))
	if len(w) > 0 {
		h = h*131 + uint32(w[0])
		h = h*131 + uint32(w[len(w)-1])
		h = h*131 + uint32(w[len(w)/2])
		if len(w) > 3 {
			h = h*131 + uint32(w[1])
		}
	}
	h *= 0x9e3779b1
	return h >> (32 - 12) // 12 bits: kwFilterBits
}

func (f *kwFilter) add(w string) {
	h := kwHash(w)
	f[h/64] |= 1 << (h % 64)
}

func (f *kwFilter) mayHave(w string) bool {
	h := kwHash(w)
	return f[h/64]&(1<<(h%64)) != 0
}

func freq(docs [][]string) (map[string]int, int) {
	f := map[string]int{}
	n := 0
	for _, d := range docs {
		for _, w := range d {
			f[w]++
			n++
		}
	}
	return f, n
}

// logLikelihood is Dunning's G² for a word seen a times in a corpus of c
// tokens and b times in one of d tokens.
func logLikelihood(a, b, c, d float64) float64 {
	e1 := c * (a + b) / (c + d)
	e2 := d * (a + b) / (c + d)
	g := 0.0
	if a > 0 {
		g += a * math.Log(a/e1)
	}
	if b > 0 {
		g += b * math.Log(b/e2)
	}
	return 2 * g
}

func isNumber(w string) bool {
	for _, r := range w {
		if (r < '0' || r > '9') && r != '-' && r != '\'' {
			return false
		}
	}
	return true
}
