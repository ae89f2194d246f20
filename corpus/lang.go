package corpus

import (
	"strings"
	"unicode"
)

// stopWords are frequent function words of a few languages, chosen to be
// rare in the others.
var stopWords = map[string][]string{
	"en": {"the", "and", "of", "to", "is", "that", "for", "with", "was", "are", "this", "have", "from", "which", "not", "be", "by", "they", "you", "it", "on", "at", "as", "has", "were", "their", "been", "would", "there", "what"},
	"de": {"der", "die", "und", "das", "ist", "nicht", "mit", "sich", "auf", "für", "dem", "den", "ein", "eine", "auch", "von", "zu", "wird", "sind", "bei", "oder", "wie", "aus", "nach", "werden", "noch", "einer", "über", "wir", "ich"},
	"fr": {"le", "la", "les", "et", "des", "est", "une", "du", "dans", "pour", "qui", "que", "pas", "sur", "au", "avec", "il", "ce", "sont", "par", "plus", "ne", "nous", "aux", "cette", "mais", "ou", "été", "leur", "vous"},
	"es": {"el", "los", "las", "y", "que", "del", "en", "por", "una", "con", "para", "es", "se", "lo", "como", "más", "pero", "sus", "le", "ya", "fue", "este", "ha", "sí", "porque", "esta", "entre", "cuando", "muy", "sin"},
	"it": {"il", "di", "che", "la", "e", "per", "gli", "della", "non", "sono", "del", "una", "nel", "alla", "si", "anche", "come", "più", "ma", "questo", "delle", "dei", "nella", "ha", "essere", "stato", "loro", "tra", "quando", "molto"},
	"nl": {"de", "het", "een", "van", "en", "is", "niet", "dat", "op", "zijn", "te", "voor", "met", "die", "ook", "aan", "er", "maar", "om", "hij", "wordt", "bij", "nog", "naar", "kan", "worden", "dan", "uit", "wel", "heeft"},
	"pt": {"o", "os", "as", "do", "da", "dos", "das", "em", "um", "uma", "para", "com", "não", "que", "se", "por", "mais", "no", "na", "ao", "foi", "são", "como", "mas", "também", "pelo", "pela", "seu", "sua", "ou"},
	"pl": {"i", "w", "nie", "się", "na", "jest", "do", "że", "to", "z", "jak", "ale", "po", "co", "tak", "za", "od", "już", "przez", "tylko", "jego", "przy", "być", "który", "która", "są", "dla", "oraz", "czy", "jej"},
}

// iso639_3 maps the codes Lang returns to ISO 639-3, as Common Crawl's
// WARC-Identified-Content-Language has them.
var iso639_3 = map[string]string{
	"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "pl": "pol",
}

var stopIndex = func() map[string][]string {
	idx := map[string][]string{}
	for lang, words := range stopWords {
		for _, w := range words {
			idx[w] = append(idx[w], lang)
		}
	}
	return idx
}()

// Lang guesses the language of a text by its function words: an ISO 639-1
// code (en, de, fr, es, it, nl, pt, pl), or "" when the text is too short
// or none of them stands out. It is a guess for filtering a corpus, not a
// language identifier: other languages are "".
func Lang(text string) string {
	counts := map[string]float64{}
	words := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		words++
		langs := stopIndex[w]
		for _, l := range langs {
			counts[l] += 1 / float64(len(langs))
		}
	}
	if words < 20 {
		return ""
	}
	best, first, second := "", 0.0, 0.0
	for l, c := range counts {
		switch {
		case c > first || c == first && l < best:
			best, first, second = l, c, first
		case c > second:
			second = c
		}
	}
	if best == "" || first/float64(words) < 0.08 || first < 1.5*second {
		return ""
	}
	return best
}
