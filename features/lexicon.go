package features

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"hash/maphash"
	"strings"
	"sync"
)

//go:embed data/words.txt.gz
var wordsGz []byte

//go:embed data/stopwords-en.txt
var stopwordsTxt string

var (
	lexOnce sync.Once
	lexicon wordSet // the word list and the stop words, the latter flagged lexStop
	stops   map[string]struct{}
)

// lexStop marks the stop words in lexicon.
const lexStop = 1

func loadLists() {
	stops = map[string]struct{}{}
	for _, line := range strings.Split(stopwordsTxt, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, w := range strings.Fields(line) {
			stops[w] = struct{}{}
		}
	}
	words := make(map[string]uint8, 80000)
	defer func() { lexicon = newWordSet(words) }()
	zr, err := gzip.NewReader(bytes.NewReader(wordsGz))
	if err != nil {
		return // the embedded list is part of the build; tests catch a broken one
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		words[sc.Text()] = 0
	}
	for w := range stops {
		words[w] = lexStop
	}
}

// wordSet is a read-only set of words with a byte of flags each, held in
// two pointer-free arrays: a hash picks a bucket, and a bucket's entries
// (length, flags, bytes) lie next to each other in one byte array. As a
// map[string]uint8 the lexicon's 75,000 strings would be pointers that
// every garbage collection cycle traces (measured: a collection cost 5.8
// ms of CPU with the map alive, 0.9 ms without, and a batch collects every
// few pages); lookups cost the same either way.
type wordSet struct {
	seed  maphash.Seed
	mask  uint64
	start []uint32         // bucket b is data[start[b]:start[b+1]]
	data  []byte           // entries: length byte, flags byte, the word
	long  map[string]uint8 // words of more than 255 bytes (none in the list)
	n     int
}

func newWordSet(words map[string]uint8) wordSet {
	s := wordSet{seed: maphash.MakeSeed(), n: len(words), long: map[string]uint8{}}
	nb := 1
	for nb < len(words)/2 {
		nb *= 2
	}
	s.mask = uint64(nb - 1)
	count := make([]uint32, nb+1)
	size := 0
	for w := range words {
		if len(w) > 255 {
			continue
		}
		count[s.bucket(w)+1] += uint32(2 + len(w))
		size += 2 + len(w)
	}
	for b := 1; b <= nb; b++ {
		count[b] += count[b-1]
	}
	s.start = append([]uint32(nil), count...)
	s.data = make([]byte, size)
	for w, f := range words {
		if len(w) > 255 {
			s.long[w] = f
			continue
		}
		b := s.bucket(w)
		e := s.data[count[b]:]
		e[0], e[1] = byte(len(w)), f
		copy(e[2:], w)
		count[b] += uint32(2 + len(w))
	}
	return s
}

func (s *wordSet) bucket(w string) uint64 { return maphash.String(s.seed, w) & s.mask }

// lookup returns the flags of w and whether w is in the set.
func (s *wordSet) lookup(w string) (flags uint8, ok bool) {
	if len(w) > 255 {
		flags, ok = s.long[w]
		return flags, ok
	}
	if s.start == nil {
		return 0, false
	}
	b := s.bucket(w)
	e := s.data[s.start[b]:s.start[b+1]]
	for len(e) >= 2 {
		n := int(e[0])
		if n == len(w) && string(e[2:2+n]) == w {
			return e[1], true
		}
		e = e[2+n:]
	}
	return 0, false
}

func (s *wordSet) has(w string) bool {
	_, ok := s.lookup(w)
	return ok
}

// IsStopWord reports whether the lower-cased token w is an English
// closed-class word.
func IsStopWord(w string) bool {
	lexOnce.Do(loadLists)
	_, ok := stops[w]
	return ok
}

// IsKnownWord reports whether the lower-cased token w is in the embedded
// English word list. Numbers count as known.
func IsKnownWord(w string) bool {
	lexOnce.Do(loadLists)
	if lexicon.has(w) {
		return true
	}
	return knownForm(w)
}

// knownForm reports whether w, which is not in the lexicon, is still
// known: a number, or a simple inflection of a listed word.
func knownForm(w string) bool {
	digits := true
	for _, r := range w {
		if r < '0' || r > '9' {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	// Simple inflections the list lacks.
	for _, suf := range inflections {
		if strings.HasSuffix(w, suf) {
			if lexicon.has(strings.TrimSuffix(w, suf)) {
				return true
			}
		}
	}
	return false
}

var inflections = [...]string{"'s", "s", "es", "ed", "ing", "ly"}

// wordKind is what the linguistic features need to know of a token, with
// one lexicon lookup for a listed word.
func wordKind(w string) (stop, known bool) {
	lexOnce.Do(loadLists)
	if f, ok := lexicon.lookup(w); ok {
		return f&lexStop != 0, true // every stop word is in the lexicon
	}
	return false, knownForm(w)
}

// LexiconSize is the number of words in the embedded word list.
func LexiconSize() int {
	lexOnce.Do(loadLists)
	return lexicon.n
}

// Lang is Lang over the tokens of all blocks of t, in order, without
// joining them into one slice first.
func (t *Table) Lang() (english bool, share float64) {
	total, n := 0, 0
	for _, toks := range t.Tokens {
		total += len(toks)
		for _, w := range toks {
			if IsStopWord(w) {
				n++
			}
		}
	}
	if total == 0 {
		return true, 0
	}
	share = float64(n) / float64(total)
	return total < 50 || share >= 0.15, share
}

// Lang reports whether the tokens of a page look English: at least 15% of
// them are English closed-class words (English running text has about 40%;
// other languages a few percent, from shared loan words). Pages with fewer
// than 50 tokens count as English.
func Lang(tokens []string) (english bool, share float64) {
	if len(tokens) == 0 {
		return true, 0
	}
	n := 0
	for _, t := range tokens {
		if IsStopWord(t) {
			n++
		}
	}
	share = float64(n) / float64(len(tokens))
	return len(tokens) < 50 || share >= 0.15, share
}
