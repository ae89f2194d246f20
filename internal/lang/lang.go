// Package lang guesses the language of a page's kept text, for filtering
// a corpus: [Guess] returns an ISO 639-1 code or "" and [ISO639_3] the
// code Common Crawl's WARC-Identified-Content-Language uses. It knows
// about twenty languages, by script or by their function words; it is not
// a language identifier.
package lang

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
	"ru": {"и", "в", "не", "на", "что", "с", "он", "как", "это", "по", "но", "из", "к", "у", "за", "от", "о", "так", "же", "для", "бы", "все", "его", "только", "было", "она", "мы", "они", "если", "уже"},
	"uk": {"і", "в", "не", "на", "що", "з", "та", "як", "це", "до", "але", "від", "за", "по", "й", "у", "ми", "він", "вона", "вони", "для", "також", "був", "була", "було", "які", "який", "цей", "якщо", "вже"},
	"ar": {"في", "من", "على", "إلى", "أن", "عن", "مع", "هذا", "التي", "الذي", "ما", "لا", "كان", "هذه", "بين", "كل", "قد", "ذلك", "بعد", "أو", "حيث", "عند", "إن", "لم", "كانت", "وقد", "منذ", "هو", "هي", "ثم"},
	"fa": {"و", "در", "به", "از", "که", "این", "را", "با", "است", "برای", "آن", "یک", "تا", "می", "بر", "هم", "نیز", "شود", "کرد", "شده", "بود", "اما", "خود", "هر", "باید", "دارد", "کند", "شد", "ما", "او"},
}

// scripts are writing systems that one language uses (nearly) alone:
// a text mostly in one of them is that language, words or not (Chinese,
// Japanese and Thai do not space their words).
var scripts = []struct {
	lang  string
	table *unicode.RangeTable
}{
	{"ja", unicode.Hiragana}, {"ja", unicode.Katakana}, {"ko", unicode.Hangul},
	{"el", unicode.Greek}, {"he", unicode.Hebrew}, {"th", unicode.Thai},
	{"ka", unicode.Georgian}, {"hy", unicode.Armenian},
}

// iso639_3 maps the codes Guess returns to ISO 639-3, as Common Crawl's
// WARC-Identified-Content-Language has them.
var iso639_3 = map[string]string{
	"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "pl": "pol",
	"ru": "rus", "uk": "ukr", "ar": "ara", "fa": "fas",
	"ja": "jpn", "ko": "kor", "zh": "zho", "el": "ell", "he": "heb", "th": "tha", "ka": "kat", "hy": "hye",
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

// Guess guesses the language of a text: an ISO 639-1 code, or "" when the
// text is too short or no language stands out. A text of 20 letters or
// more, most of them in a script one language has to itself, is that
// language (ja: kana among them, else zh for Han; ko, el, he, th, ka,
// hy); else its function words decide among en, de, fr, es, it, nl, pt,
// pl, ru, uk, ar and fa (Russian and Ukrainian by their letters where
// the words they share leave them tied). It is a guess for filtering a corpus, not a
// language identifier: other languages are "".
func Guess(text string) string {
	if l := scriptLang(text); l != "" {
		return l
	}
	return wordLang(text)
}

// scriptLang is Guess by script: "" unless a script of scripts, or Han,
// holds more than half of the text's letters.
func scriptLang(text string) string {
	letters, han, kana := 0, 0, 0
	counts := make([]int, len(scripts))
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if r < 0x370 { // Latin and the like: none of the scripts
			continue
		}
		if unicode.Is(unicode.Han, r) {
			han++
			continue
		}
		for i, sc := range scripts {
			if unicode.Is(sc.table, r) {
				counts[i]++
				if sc.lang == "ja" {
					kana++
				}
				break
			}
		}
	}
	if letters < 20 {
		return ""
	}
	switch {
	case kana > 0 && 2*(kana+han) > letters && 20*kana >= kana+han:
		return "ja" // Japanese mixes kana into its Han
	case 2*han > letters:
		return "zh"
	}
	for i, c := range counts {
		if 2*c > letters && scripts[i].lang != "ja" {
			return scripts[i].lang
		}
	}
	return ""
}

// cyrillicMarks are letters that tell Cyrillic languages apart, beside
// their function words, which they share in part: Russian writes ы and э
// and none of the others; Ukrainian writes і, ї, є or ґ.
const (
	russianOnly    = "ыэЫЭ"
	notRussian     = "іїєґўђјљњћџІЇЄҐЎЂЈЉЊЋЏ"
	ukrainianMarks = "іїєґІЇЄҐ"
	notUkrainian   = "ыэъёўЫЭЪЁЎ"
)

// wordLang is Guess by function words.
func wordLang(text string) string {
	l := wordCount(text)
	switch {
	case l == "ru" && (!strings.ContainsAny(text, russianOnly) || strings.ContainsAny(text, notRussian)):
		return "" // Bulgarian, Serbian, Belarusian share its words
	case l == "uk" && !strings.ContainsAny(text, ukrainianMarks):
		return ""
	}
	return l
}

// wordCount is wordLang before the Cyrillic letters are checked.
func wordCount(text string) string {
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
	best, next, first, second := "", "", 0.0, 0.0
	for l, c := range counts {
		switch {
		case c > first || c == first && l < best:
			best, next, first, second = l, best, c, first
		case c > second || c == second && l < next:
			next, second = l, c
		}
	}
	if (best == "ru" && next == "uk" || best == "uk" && next == "ru") && first < 1.5*second {
		// Russian and Ukrainian share many function words, each
		// counted half to either: where the words tie, the letters tell
		// the two apart, and the words count for the one they choose.
		best, first, second = cyrillicLetters(text), first+second, 0
	}
	if best == "" || first/float64(words) < 0.08 || first < 1.5*second {
		return ""
	}
	return best
}

// cyrillicLetters is "ru" for a text with ы or э and no letter Russian
// lacks, "uk" for one with і, ї, є or ґ and no letter Ukrainian lacks
// (ы, э, ъ, ё, ў), "" otherwise.
func cyrillicLetters(text string) string {
	switch {
	case strings.ContainsAny(text, russianOnly) && !strings.ContainsAny(text, notRussian):
		return "ru"
	case strings.ContainsAny(text, ukrainianMarks) && !strings.ContainsAny(text, notUkrainian):
		return "uk"
	}
	return ""
}

// ISO639_3 returns the ISO 639-3 code of a code Guess returns, "" for
// any other.
func ISO639_3(code string) string { return iso639_3[code] }
