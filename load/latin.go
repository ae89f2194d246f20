package load

import (
	"math"
	"sync"
	"unicode"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
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
// one with rho times its share among them; symbols, C1 controls and
// letters in odd places score alike in every language. The best language
// stands for its charset; windows-1252 keeps the page unless another
// charset leads it by latinLead.

// latinLang is a language written in a Latin charset: the share of
// non-ASCII letters among its letters (rho), and of each of its non-ASCII
// lower-case letters among those.
type latinLang struct {
	name string
	// logASCII and logOther are the log-probabilities of an ASCII letter
	// and of a Latin letter outside share.
	logASCII, logOther float64
	share              map[rune]float64 // log-probability of the letter
}

// rho and the shares, per mille, are those TestGuessLocales counts (with
// -v) in the translations of the message catalogues under
// /usr/share/locale of a Debian system (the half it does not test on);
// letters under 5 per mille are left out (but Estonian's š and ž), and so
// are letters of other languages in the counts (names, as Dutch ð or
// Portuguese º). Romanian is counted with ş and ţ (cedilla), as
// windows-1250 writes them. English is set by hand: a letter in two
// thousand is not ASCII (café, naïve, Zürich).
var (
	langEN = lang("en", 0.5, "é400 ü80 ö80 è60 à60 á60 ñ60 ç40 ê40 í40 ó40 ä40 ï20 â20 ô20 ø20 å20")
	langFR = lang("fr", 33.3, "é738 à76 è72 ê61 ô19 î13 ç6 â5")
	langDE = lang("de", 15.8, "ü554 ä221 ö153 ß59")
	langES = lang("es", 21.0, "ó464 á235 í137 ú79 ñ42 é40")
	langPT = lang("pt", 40.8, "ã315 ç213 á119 í110 é75 ó44 õ42 ú40 ê23 â8 à6")
	langIT = lang("it", 5.8, "è579 à196 ò95 ù73 é38 ì5")
	langNL = lang("nl", 1.4, "é358 ë240 ï232 ó55 á17 í15")
	langSV = lang("sv", 41.3, "ä467 ö309 å221")
	langDA = lang("da", 20.3, "æ387 ø321 å249 é34")
	langNB = lang("nb", 18.1, "å523 ø421 æ47 é8")
	langFI = lang("fi", 45.6, "ä902 ö97")
	langET = lang("et", 35.8, "ä397 õ313 ü236 ö46 ž3 š2")
	langCA = lang("ca", 26.7, "ó260 à190 é176 í98 è74 ò59 ç55 ú52 ï24 ü12")
	langIS = lang("is", 116.0, "ð308 á181 í144 ó81 æ62 ý55 ú54 þ53 ö48 é14")
	langSQ = lang("sq", 73.8, "ë984 ç16")
	langHU = lang("hu", 114.1, "á339 é253 í97 ó96 ö71 ő63 ü39 ú24 ű17")
	langPL = lang("pl", 59.4, "ł202 ż150 ą135 ę130 ś122 ó109 ć105 ń33 ź13")
	langCS = lang("cs", 125.8, "í259 á189 ř103 č81 é77 ý72 ž70 ě61 š38 ů31 ú7 ó5")
	langSK = lang("sk", 109.2, "á190 č115 í110 ú95 ý93 é90 ť90 ž81 ľ48 š46 ň9 ô9 ó9 ä8")
	langSL = lang("sl", 26.1, "č560 š274 ž165")
	langHR = lang("hr", 24.6, "č331 š231 ć175 ž160 đ86")
	langRO = lang("ro", 54.8, "ă497 ţ189 ş167 î113 â35")
	langTR = lang("tr", 111.6, "ı445 ş138 ç132 ü119 ğ88 ö58")
	langLT = lang("lt", 61.1, "š226 ė186 ų162 į112 ą101 ž93 č48 ū45 ę29")
	langLV = lang("lv", 95.7, "ā337 ē217 ī180 š110 ū41 ļ41 ņ36 ķ14 ž14 ģ7")
)

// latinCharsets are the candidates, windows-1252 first.
var latinCharsets = []struct {
	name  string
	enc   encoding.Encoding
	langs []*latinLang
}{
	{"windows-1252", charmap.Windows1252, []*latinLang{langEN, langFR, langDE, langES, langPT, langIT, langNL, langSV, langDA, langNB, langFI, langET, langCA, langIS, langSQ}},
	{"windows-1250", charmap.Windows1250, []*latinLang{langHU, langPL, langCS, langSK, langSL, langHR, langRO, langSQ, langDE}},
	{"iso-8859-2", charmap.ISO8859_2, []*latinLang{langHU, langPL, langCS, langSK, langSL, langHR, langRO, langSQ, langDE}},
	{"windows-1254", charmap.Windows1254, []*latinLang{langTR}},
	{"windows-1257", charmap.Windows1257, []*latinLang{langLT, langLV, langET}},
}

// lang makes a latinLang of rho and "é740 à78 ...", per mille.
func lang(name string, rho float64, shares string) *latinLang {
	rho /= 1000
	l := &latinLang{name: name, logASCII: math.Log(1 - rho), logOther: math.Log(rho * shareOther), share: map[rune]float64{}}
	rs := []rune(shares)
	for i := 0; i < len(rs); {
		r := rs[i]
		i++
		v := 0.0
		for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
			v = 10*v + float64(rs[i]-'0')
		}
		for ; i < len(rs) && rs[i] == ' '; i++ {
		}
		l.share[r] = math.Log(rho * v / 1000)
	}
	return l
}

// Probabilities (per letter of text) of what is not a language's letter.
const (
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
// another Latin charset needs.
const latinLead = 4

// latinGuess chooses among the Latin charsets for a sample that the
// detector read as one of them.
func latinGuess(s []byte) (encoding.Encoding, string) {
	best, bestScore := 0, math.Inf(-1)
	var base float64
	for i, cs := range latinCharsets {
		sc := latinScore(s, latinTableOf(i), cs.langs)
		if i == 0 {
			base = sc
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	if best != 0 && (bestScore < base+latinLead || sameText(s, best)) {
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
	var counts [256]int // Latin letters scored by their share
	var common float64  // what every language scores alike
	ascii := 0          // ASCII letters
	lowerInWord := false
	n := len(s)
	for i, b := range s {
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
			counts[b]++
		}
	}
	best := math.Inf(-1)
	for _, l := range langs {
		sum := float64(ascii) * l.logASCII
		for b := 0x80; b < 256; b++ {
			if c := counts[b]; c > 0 {
				if v, ok := l.share[t.low[b]]; ok {
					sum += float64(c) * v
				} else {
					sum += float64(c) * l.logOther
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
