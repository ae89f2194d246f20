package features

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

//go:embed data/words.txt.gz
var wordsGz []byte

//go:embed data/stopwords-en.txt
var stopwordsTxt string

var (
	lexOnce sync.Once
	lexicon map[string]struct{}
	stops   map[string]struct{}
)

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
	lexicon = make(map[string]struct{}, 80000)
	zr, err := gzip.NewReader(bytes.NewReader(wordsGz))
	if err != nil {
		return // the embedded list is part of the build; tests catch a broken one
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		lexicon[sc.Text()] = struct{}{}
	}
	for w := range stops {
		lexicon[w] = struct{}{}
	}
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
	if _, ok := lexicon[w]; ok {
		return true
	}
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
	for _, suf := range []string{"'s", "s", "es", "ed", "ing", "ly"} {
		if strings.HasSuffix(w, suf) {
			if _, ok := lexicon[strings.TrimSuffix(w, suf)]; ok {
				return true
			}
		}
	}
	return false
}

// LexiconSize is the number of words in the embedded word list.
func LexiconSize() int {
	lexOnce.Do(loadLists)
	return len(lexicon)
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
