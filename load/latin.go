package load

import (
	"math"
	"sync"
	"unicode"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// The Latin charsets share their ASCII half and differ in the letters of
// the other: byte 0xF5 is õ in windows-1252 (Portuguese, Estonian) and ő
// in windows-1250 (Hungarian), 0xE6 æ (Danish) or ć (Polish, Croatian).
// Each reads the other's text as letters, so the detector's common
// characters (detect.go), pooled over the languages of a charset, tell
// them apart badly. Once it has chosen a Latin charset, latinGuess
// weighs the sample as the text of each language written in each Latin
// charset, a naive Bayes model of the language's letters: each ASCII
// letter is one with the language's probability 1-rho, each other letter
// one with rho times its share among them, times the share of its
// occurrences that follow a vowel, a consonant or no letter (French î
// follows a vowel, maître, Latvian ī a consonant, dzīve), each word of
// three letters or more counted once; symbols, C1 controls and letters in
// odd places score alike in every language. The best language stands for
// its charset; windows-1252 keeps the page unless another charset leads
// it by latinLead and reads the sample differently.

// latinLang is a language written in a Latin charset.
type latinLang struct {
	name string
	// logASCII and logOther are the log-probabilities of an ASCII letter
	// and of a Latin letter outside its alphabet.
	logASCII, logOther float64
	// letter holds, for each non-ASCII lower-case letter of its alphabet,
	// the log-probability of the letter after a vowel, a consonant and
	// no letter (prevVowel, prevConsonant, prevNone).
	letter map[rune][3]float64
}

// Classes of the character before a letter.
const (
	prevVowel = iota
	prevConsonant
	prevNone
)

// latinAlphabets are the languages of the Latin charsets and the
// non-ASCII lower-case letters their words take. The probabilities come
// from latinCounts (latin_counts.go), counted in real text of each
// language by TestGuessLocales -update; English, which has none there,
// is set by hand (englishLang).
var latinAlphabets = map[string]string{
	"fr": "éàèêôîçâûëïùœÿæ",
	"de": "üäöß",
	"es": "óáíúñéü",
	"pt": "ãçáíéóõúêâàôü",
	"it": "èàòùéìíóî",
	"nl": "éëïóáíèöüêâ",
	"sv": "äöåé",
	"da": "æøåé",
	"nb": "åøæéóòô",
	"fi": "äöåšž",
	"et": "äõüöšž",
	"ca": "óàéíèòçúïü",
	"is": "ðáíóæýúþöé",
	"sq": "ëç",
	"hu": "áéíóöőüúű",
	"pl": "łżąęśóćńź",
	"cs": "íářčéýžěšůúóňťď",
	"sk": "áčíúýťéžľšôóňäĺďŕ",
	"sl": "čšž",
	"hr": "čšćžđ",
	"ro": "ăţşîâ",
	"tr": "ışçüğöâîû",
	"lt": "šėųįąžčūę",
	"lv": "āēīšūļņķžģč",
}

// latinCharsets are the candidates, windows-1252 first, with the
// languages written in them.
var latinCharsets = []struct {
	name  string
	enc   encoding.Encoding
	langs []string
}{
	{"windows-1252", charmap.Windows1252, []string{"en", "fr", "de", "es", "pt", "it", "nl", "sv", "da", "nb", "fi", "et", "ca", "is", "sq"}},
	{"windows-1250", charmap.Windows1250, []string{"hu", "pl", "cs", "sk", "sl", "hr", "ro", "sq", "de"}},
	{"iso-8859-2", charmap.ISO8859_2, []string{"hu", "pl", "cs", "sk", "sl", "hr", "ro", "sq", "de"}},
	{"windows-1254", charmap.Windows1254, []string{"tr"}},
	{"windows-1257", charmap.Windows1257, []string{"lt", "lv", "et"}},
}

// LatinCharset reports whether name (a WHATWG name) is one of the Latin
// charsets the statistical detector weighs against each other
// (windows-1252, windows-1250, iso-8859-2, windows-1254, windows-1257).
func LatinCharset(name string) bool {
	for _, cs := range latinCharsets {
		if cs.name == name {
			return true
		}
	}
	return false
}

var (
	latinLangsOnce sync.Once
	latinLangs     [][]*latinLang // by charset, as latinCharsets
)

// latinLangsOf returns the languages of the Latin charset i.
func latinLangsOf(i int) []*latinLang {
	latinLangsOnce.Do(func() {
		byName := map[string]*latinLang{"en": englishLang()}
		for name, alphabet := range latinAlphabets {
			byName[name] = countedLang(name, alphabet, latinCounts[name])
		}
		for _, cs := range latinCharsets {
			langs := make([]*latinLang, len(cs.langs))
			for k, name := range cs.langs {
				langs[k] = byName[name]
			}
			latinLangs = append(latinLangs, langs)
		}
	})
	return latinLangs[i]
}

// countedLang makes a latinLang of the letters of alphabet as c counts
// them: add-one smoothed shares, and shares of the classes before them.
func countedLang(name, alphabet string, c langCount) *latinLang {
	letters := []rune(alphabet)
	rho := (float64(c.other) + 1) / (float64(c.ascii+c.other) + 2)
	l := &latinLang{name: name, logASCII: math.Log(1 - rho), logOther: math.Log(rho * shareOther / 3), letter: map[rune][3]float64{}}
	for _, r := range letters {
		n := c.letters[r]
		all := n[0] + n[1] + n[2]
		share := max((float64(all)+1)/(float64(c.other)+float64(len(letters))), minShare)
		var lp [3]float64
		for k := range lp {
			lp[k] = math.Log(rho * share * (float64(n[k]) + 1) / (float64(all) + 3))
		}
		l.letter[r] = lp
	}
	return l
}

// englishLang is English, set by hand: a letter in two thousand is not
// ASCII (café, naïve, Zürich), é most of them; the class before a letter
// is not known.
func englishLang() *latinLang {
	const rho = 0.0005
	l := &latinLang{name: "en", logASCII: math.Log(1 - rho), logOther: math.Log(rho * shareOther / 3), letter: map[rune][3]float64{}}
	shares := map[rune]float64{'é': 400, 'ü': 60, 'ö': 60, 'è': 40, 'à': 40, 'á': 40, 'ñ': 40, 'ç': 30, 'ê': 30, 'í': 30, 'ó': 30, 'ä': 30,
		'ï': 15, 'â': 15, 'ô': 15, 'ø': 15, 'å': 15, 'ú': 15, 'ý': 15, 'œ': 15, 'š': 15, 'ž': 15, 'ë': 10, 'ì': 10, 'ò': 10, 'ù': 10, 'ã': 10, 'õ': 10, 'ß': 10, 'æ': 10, 'û': 10, 'î': 10}
	for r, v := range shares {
		p := math.Log(rho * v / 1000 / 3)
		l.letter[r] = [3]float64{p, p, p}
	}
	return l
}

// langCount is what TestGuessLocales counts in a language's text: its
// ASCII letters, its other Latin letters, and for each letter of its
// alphabet the occurrences after a vowel, a consonant and no letter.
type langCount struct {
	ascii, other int
	letters      map[rune][3]int
}

// Probabilities (per letter of text) of what is not a language's letter.
const (
	// minShare is the least share, among a language's non-ASCII letters,
	// of a letter of its alphabet: the translations the counts come from
	// hold few of some letters that prose holds often (Italian ì, in
	// lunedì and così, is 20 of its 4,148 accented letters there).
	minShare = 0.02
	// shareOther is the share, among a language's non-ASCII letters, of a
	// Latin letter outside its list.
	shareOther = 0.0005
)

var (
	// logSymbol is a symbol or punctuation mark (in every language and
	// charset alike: a charset does not win by reading them as letters).
	logSymbol = math.Log(0.001)
	// logInWord is a symbol between two letters ("ma³y": windows-1250's
	// "mały" read as windows-1252).
	logInWord = math.Log(0.00001)
	// logAlone is a letter with no letter on either side ("Ł 5": the
	// pound sign of windows-1252 read as windows-1250).
	logAlone = math.Log(0.00001)
	// logForeign is a letter of another script.
	logForeign = math.Log(0.0001)
	// logMixedCase is an upper-case letter after a lower-case one in a
	// word, added to the letter's own.
	logMixedCase = math.Log(0.05)
	// logBad is a C1 control, a control character or U+FFFD.
	logBad = math.Log(0.000001)
)

// latinLead is the lead in log-probability over windows-1252 that
// another Latin charset needs (a likelihood ratio of about 400): a prior,
// windows-1252 being by far the most common of them on the web. Chosen on
// the training half of TestGuessLocales' translations (3,000 lines of
// each Western language alone, 100 pages of 200 characters of each other
// language), before minShare: at 6, 4 of 34,427 Western lines are
// misread and 96.6% of the other pages read right; at 8, 3 and 95.3%; at
// 12, 2 and 90.1%. With minShare, at 6: 5 and 96.5%. Before the second
// weighing: 161 and 37.8%.
const latinLead = 6

// latinGuess chooses among the Latin charsets for a sample that the
// detector read as one of them.
func latinGuess(s []byte) (encoding.Encoding, string) {
	best, bestScore := 0, math.Inf(-1)
	var base float64
	for i := range latinCharsets {
		sc := latinScore(s, latinTableOf(i), latinLangsOf(i))
		if i == 0 {
			base = sc
		} else {
			sc -= latinLead // a prior: windows-1252 is by far the most common
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	if best != 0 && (bestScore < base || sameText(s, best)) {
		best = 0
	}
	return latinCharsets[best].enc, latinCharsets[best].name
}

// sameText reports whether the sample reads the same in the Latin charset
// i as in windows-1252 (Ž, š and ž are the same bytes in windows-1250).
func sameText(s []byte, i int) bool {
	a, b := byteTableOf(latinCharsets[0].enc), byteTableOf(latinCharsets[i].enc)
	for _, c := range s {
		if c >= 0x80 && a.r[c] != b.r[c] {
			return false
		}
	}
	return true
}

// Kinds of byte in a Latin charset, for latinScore.
const (
	kindASCII   = iota
	kindBad     // C1 control, control character, U+FFFD
	kindSymbol  // not a letter (ª and º included)
	kindNeutral // a symbol that stands between letters in any language (neutralInWord)
	kindForeign // a letter of another script
	kindLatin   // a Latin letter
)

// latinTable is what latinScore needs of a charset's bytes.
type latinTable struct {
	kind   [256]uint8
	letter [256]bool // ASCII letters too
	upper  [256]bool
	lower  [256]bool
	low    [256]rune // the lower-case rune of a Latin letter
	vowel  [256]bool // a vowel letter (a, e, i, o, u, y, with or without marks)
}

var (
	latinTablesOnce sync.Once
	latinTables     []*latinTable
)

func latinTableOf(i int) *latinTable {
	latinTablesOnce.Do(func() {
		for _, cs := range latinCharsets {
			bt := byteTableOf(cs.enc)
			t := &latinTable{}
			for b := range 256 {
				r := bt.r[b]
				letter := unicode.IsLetter(r) && r != 'ª' && r != 'º'
				t.letter[b] = unicode.IsLetter(r)
				t.vowel[b] = isVowel(r)
				t.upper[b], t.lower[b] = unicode.IsUpper(r), unicode.IsLower(r)
				switch {
				case r < 0x80:
					t.kind[b] = kindASCII
				case r == unicode.ReplacementChar || r <= 0x9F || unicode.IsControl(r):
					t.kind[b] = kindBad
				case !letter && neutralInWord(r):
					t.kind[b] = kindNeutral
				case !letter:
					t.kind[b] = kindSymbol
				case !unicode.Is(unicode.Latin, r):
					t.kind[b] = kindForeign
				default:
					t.kind[b] = kindLatin
					t.low[b] = unicode.ToLower(r)
				}
			}
			latinTables = append(latinTables, t)
		}
	})
	return latinTables[i]
}

// latinScore is the log-probability of the sample s, read in the charset
// of table t, under the most likely of langs: of each non-ASCII byte, in
// its context.
func latinScore(s []byte, t *latinTable, langs []*latinLang) float64 {
	var counts [256][3]int // Latin letters scored by their share, by the class before them
	var common float64     // what every language scores alike
	ascii := 0             // ASCII letters
	lowerInWord := false
	n := len(s)
	// A word that holds a non-ASCII byte counts once: a page repeats a
	// name (in its title, headings and text) that is no more evidence of
	// its language the second time.
	seen := map[uint64]bool{} // the words by their FNV-1a hash
	wordEnd := 0              // the end of the current word, once it was looked at
	for i := 0; i < n; i++ {
		b := s[i]
		if i >= wordEnd && t.letter[b] && (i == 0 || !t.letter[s[i-1]]) {
			end := i + 1
			high := b >= 0x80
			for end < n && t.letter[s[end]] {
				high = high || s[end] >= 0x80
				end++
			}
			wordEnd = end
			if high && end-i >= 3 { // a word, not a letter standing alone (« » are Ť ť in iso-8859-2)
				w := uint64(14695981039346656037)
				for _, c := range s[i:end] {
					w = (w ^ uint64(c)) * 1099511628211
				}
				if seen[w] {
					i = end - 1
					lowerInWord = false
					continue
				}
				seen[w] = true
			}
		}
		if b < 0x80 {
			lowerInWord = 'a' <= b && b <= 'z' || lowerInWord && 'A' <= b && b <= 'Z'
			if t.letter[b] {
				ascii++
			}
			continue
		}
		lowerBefore := lowerInWord
		k := t.kind[b]
		lowerInWord = (k == kindLatin || k == kindForeign) && (t.lower[b] || lowerBefore)
		prevLetter := i > 0 && t.letter[s[i-1]]
		nextLetter := i+1 < n && t.letter[s[i+1]]
		switch {
		case k == kindBad:
			common += logBad
		case k == kindNeutral:
			common += logSymbol
		case k == kindSymbol:
			if prevLetter && nextLetter {
				common += logInWord
			} else {
				common += logSymbol
			}
		case k == kindForeign:
			common += logForeign
		case !prevLetter && !nextLetter:
			// A letter standing alone is unlikely; a symbol there is
			// common ("£ 5" in windows-1252 is "Ł 5" in windows-1250).
			common += logAlone
		default:
			if t.upper[b] && lowerBefore {
				common += logMixedCase
			}
			switch {
			case !prevLetter:
				counts[b][prevNone]++
			case t.vowel[s[i-1]]:
				counts[b][prevVowel]++
			default:
				counts[b][prevConsonant]++
			}
		}
	}
	best := math.Inf(-1)
	for _, l := range langs {
		sum := float64(ascii) * l.logASCII
		for b := 0x80; b < 256; b++ {
			c := counts[b]
			if c[0]+c[1]+c[2] == 0 {
				continue
			}
			lp, ok := l.letter[t.low[b]]
			for k, n := range c {
				if ok {
					sum += float64(n) * lp[k]
				} else {
					sum += float64(n) * l.logOther
				}
			}
		}
		best = max(best, sum)
	}
	return best + common
}

// neutralInWord reports punctuation that stands between letters in any
// language: apostrophes, hyphens and dashes, the middle dot (Catalan
// l·l), the no-break space, the soft hyphen and the acute accent.
func neutralInWord(r rune) bool {
	return r >= 0x2010 && r <= 0x201F || r == 0xB7 || r == 0xA0 || r == 0xAD || r == 0xB4
}

// isVowel reports a vowel letter: a, e, i, o, u or y, with or without
// marks (the letter its canonical decomposition starts with), and æ, ø,
// œ, ı.
func isVowel(r rune) bool {
	r = unicode.ToLower(r)
	if d := norm.NFD.String(string(r)); d != "" {
		r = []rune(d)[0]
	}
	switch r {
	case 'a', 'e', 'i', 'o', 'u', 'y', 'æ', 'ø', 'œ', 'ı':
		return true
	}
	return false
}
