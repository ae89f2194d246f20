package load

import (
	"bytes"
	"unicode"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// The statistical detector decodes the lines holding non-ASCII bytes with
// each candidate charset and scores the decoded characters against a tiny
// model of the languages written in it: a list of common characters in
// rough frequency order, plus the script they belong to. Undecodable bytes
// and C1 controls score badly, characters of the wrong script too. The best
// mean score wins if it is positive.

type model struct {
	name   string
	enc    encoding.Encoding
	common map[rune]float64
	script func(r rune) bool
	// soup marks the single-byte charsets in which the two bytes of a
	// CJK character read as two plausible letters (Thai, Arabic,
	// Hebrew: alphabets without case): such a guess gives way to a CJK
	// charset that decodes the sample without a fault (guess).
	soup bool
	cjk  bool // a multi-byte CJK charset
}

func newModel(name string, enc encoding.Encoding, common string, script func(rune) bool) *model {
	m := &model{name: name, enc: enc, common: map[rune]float64{}, script: script}
	rs := []rune(common)
	for i, r := range rs {
		w := 1 + 2*(1-float64(i)/float64(len(rs))) // 3 for the first, 1 for the last
		if _, ok := m.common[r]; !ok {
			m.common[r] = w
		}
	}
	return m
}

func isLatin(r rune) bool    { return unicode.Is(unicode.Latin, r) }
func isCyrillic(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }
func isGreek(r rune) bool    { return unicode.Is(unicode.Greek, r) }
func isHan(r rune) bool      { return unicode.Is(unicode.Han, r) }
func isKana(r rune) bool {
	return unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || r == 'ー'
}
func isJapanese(r rune) bool { return isKana(r) || isHan(r) }
func isHangul(r rune) bool   { return unicode.Is(unicode.Hangul, r) }
func isArabic(r rune) bool   { return unicode.Is(unicode.Arabic, r) }
func isHebrew(r rune) bool   { return unicode.Is(unicode.Hebrew, r) }
func isThai(r rune) bool     { return unicode.Is(unicode.Thai, r) }

// isAlphabet reports a letter of the alphabets the detector models
// beside Latin: one that does not stand inside a Latin word.
func isAlphabet(r rune) bool {
	return isCyrillic(r) || isGreek(r) || isArabic(r) || isHebrew(r) || isThai(r)
}

const (
	western  = "éáíóúèàñçüöäêâôßãõîûëïåøæœìòùýÿðþ"
	central  = "áéíóúěščřžýůňťďąęłśćźżńőűöüăâîșțşţđľĺŕ"
	cyrillic = "оеаинтсвлркдмпуяыьгзбчйхжшюцщэфъё" + "іїєґў"
	greek    = "αοιετνσρκπλμυηωδγχθφβζξψάέήίόύώς"
	hanzi    = "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日网新闻"
	japan    = "のにはをたがでてとしれさいなっるかもすりあんうこらまおくきけつ日本人年大中出見行事時分自上生思者方会新的前手入後間気今何物子言発場同来目社"
	hanzi5   = "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實日網新聞"
	arabic   = "اليمونهرتبعدةكفقسحجأىشصطخزإذضثغظءآؤئ" + "پچژکگی" // and Persian's
	hebrew   = "יוהלארבתמםנשדעכקפחצגסןזטךףץ"
	// Thai's twenty most frequent, marks among them: the whole alphabet
	// would let any byte soup (GBK read in windows-874) score as Thai.
	thai   = "านรอกเ\u0e48งมยลวดทส\u0e49\u0e35ต\u0e31\u0e34"
	hangul = "이다는의에고하을가지기리사한로서도자일대정를어수으아시인구해나라스보적전부게있우주국제만면성것장들상했습니요그와과내비발위무여된화동경및원방문신소미세업"
)

var models = []*model{
	newModel("windows-1252", charmap.Windows1252, western, isLatin),
	newModel("windows-1250", charmap.Windows1250, central, isLatin),
	newModel("iso-8859-2", charmap.ISO8859_2, central, isLatin),
	newModel("windows-1251", charmap.Windows1251, cyrillic, isCyrillic),
	newModel("koi8-r", charmap.KOI8R, cyrillic, isCyrillic),
	// KOI8-U reads Russian as KOI8-R does (a tie keeps KOI8-R, listed
	// first); its і ї є ґ are KOI8-R's box-drawing signs.
	newModel("koi8-u", charmap.KOI8U, cyrillic, isCyrillic),
	newModel("windows-1253", charmap.Windows1253, greek, isGreek),
	// ISO-8859-7 differs from windows-1253 in Ά (0xB6, ¶ there) and a
	// few signs.
	newModel("iso-8859-7", charmap.ISO8859_7, greek, isGreek),
	soup(newModel("windows-1256", charmap.Windows1256, arabic, isArabic)),
	soup(newModel("iso-8859-6", charmap.ISO8859_6, arabic, isArabic)),
	soup(newModel("windows-1255", charmap.Windows1255, hebrew, isHebrew)),
	soup(newModel("windows-874", charmap.Windows874, thai, isThai)),
	cjk(newModel("shift_jis", japanese.ShiftJIS, japan, isJapanese)),
	cjk(newModel("euc-jp", japanese.EUCJP, japan, isJapanese)),
	// GB18030 decodes GBK and its four-byte sequences too (the WHATWG
	// standard's gbk decoder is gb18030's).
	cjk(newModel("gbk", simplifiedchinese.GB18030, hanzi, isHan)),
	cjk(newModel("big5", traditionalchinese.Big5, hanzi5, isHan)),
	cjk(newModel("euc-kr", korean.EUCKR, hangul, isHangul)),
}

func soup(m *model) *model { m.soup = true; return m }

// fewFaults reports a CJK reading of a sample with hardly a fault: one
// (a character cut at the end of a page, a stray byte), or one in twenty
// runes. Text in Thai, Arabic or Hebrew read so breaks its byte pairs
// within a few words.
func fewFaults(r result) bool { return r.faults <= 1 || r.faults*20 <= r.runes }
func cjk(m *model) *model     { m.cjk = true; return m }

// neutral reports punctuation and symbols that pages in every language use.
func neutral(r rune) bool {
	switch {
	case r >= 0x2000 && r <= 0x206F, r >= 0xA0 && r <= 0xBF, r == 0xD7, r == 0xF7,
		r == 0x20AC, r == 0x2122, r == 0x192, r >= 0x3000 && r <= 0x303F, r >= 0xFF01 && r <= 0xFF5E:
		return true
	}
	return false
}

func (m *model) score(r rune) float64 {
	if r == unicode.ReplacementChar || r >= 0x80 && r <= 0x9F || r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
		return -8
	}
	if w, ok := m.common[r]; ok {
		return w
	}
	if lr := unicode.ToLower(r); lr != r {
		if w, ok := m.common[lr]; ok {
			return w - 0.5
		}
	}
	if neutral(r) {
		return 0.3
	}
	if r >= 0xFF61 && r <= 0xFF9F {
		return -0.5 // half-width katakana: single bytes in Shift_JIS, rare in text
	}
	if m.script(r) {
		return 0.3
	}
	return -2
}

// preferDefault is the lead in mean score another candidate needs over
// windows-1252 (models[0]), the most common legacy charset on the web.
const preferDefault = 0.25

// minLead is the lead in total score another candidate needs over
// windows-1252, totals counted as the mean score times the sample's
// non-ASCII bytes (so that a two-byte charset is not behind for decoding
// half as many runes): with the lead in mean, a gate on the sample's
// size. minDistinct is the number of distinct common characters it needs.
const (
	minLead     = 3
	minDistinct = 3
)

// maxSample bounds the bytes the detector decodes.
const maxSample = 64 << 10

// sample returns the lines of data that hold non-ASCII bytes, up to
// maxSample bytes. Lines start after an ASCII newline, so a multi-byte
// sequence is never cut at the start.
func sample(data []byte) []byte {
	var out []byte
	for len(data) > 0 && len(out) < maxSample {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if !hasHigh(line) {
			continue
		}
		if room := maxSample - len(out); len(line) > room {
			// Cut after an ASCII byte so no sequence is split.
			cut := room
			for cut > 0 && line[cut-1] >= 0x80 {
				cut--
			}
			line = line[:cut]
		}
		out = append(out, line...)
	}
	return out
}

// countHigh counts the non-ASCII bytes of b.
func countHigh(b []byte) int {
	n := 0
	for _, c := range b {
		if c >= 0x80 {
			n++
		}
	}
	return n
}

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// guess runs the statistical detector. It returns ok=false when no
// candidate scores above zero.
func guess(data []byte, st u8stats) (encoding.Encoding, string, bool) {
	if st.valid > 0 && st.mostlyUTF8() {
		return nil, "utf-8", true
	}
	return guessSample(sample(data))
}

// guessSample is guess's detector on s, data's sample (sample).
func guessSample(s []byte) (encoding.Encoding, string, bool) {
	if len(s) == 0 {
		return nil, "", false
	}
	// Totals are the mean times the sample's non-ASCII bytes: a charset
	// whose characters take two bytes decodes half as many runes as
	// windows-1252, which reads every byte as a letter, and a sum of
	// rune scores would lag for that alone (a Chinese page in GBK was
	// taken for windows-1252).
	high := float64(countHigh(s))
	base := models[0].evaluate(s)
	best, bestRes := -1, result{}
	if base.mean > 0 {
		best, bestRes = 0, base
	}
	bestCJK, cjkRes := -1, result{} // the best CJK candidate without a fault
	for i, m := range models[1:] {
		r := m.evaluate(s)
		// Another charset must beat windows-1252, the most common legacy
		// charset, clearly: by a margin in mean and in total score, with
		// several distinct common characters of its languages.
		if r.mean <= 0 || r.distinct < minDistinct || r.mean < base.mean+preferDefault || r.mean*high < base.mean*high+minLead {
			continue
		}
		if m.cjk && fewFaults(r) && (bestCJK < 0 || r.mean > cjkRes.mean) {
			bestCJK, cjkRes = i+1, r
		}
		if best < 0 || r.mean > bestRes.mean {
			best, bestRes = i+1, r
		}
	}
	if best < 0 {
		return nil, "", false
	}
	if models[best].soup && bestCJK >= 0 {
		// Text in Thai, Arabic or Hebrew read as a CJK charset
		// breaks its byte pairs within a few words (fewFaults); a
		// CJK page read in windows-874 gives letters that fit all
		// too well.
		best = bestCJK
	}
	if LatinCharset(models[best].name) {
		enc, name := latinGuess(s)
		return enc, name, true
	}
	return models[best].enc, models[best].name, true
}

// result is a candidate's score on a sample.
type result struct {
	mean     float64 // mean score per non-ASCII rune
	sum      float64 // total score
	distinct int     // distinct common characters decoded
	faults   int     // runes that no text holds: U+FFFD, C1 controls, other controls
	runes    int     // non-ASCII runes scored
}

// evaluate decodes s and scores its non-ASCII runes in context.
func (m *model) evaluate(s []byte) result {
	if t := byteTableOf(m.enc); t != nil {
		// One rune per byte: the runes of the decoded sample, read from
		// the table.
		return m.scoreRunes(len(s), func(i int) rune { return t.r[s[i]] })
	}
	dec, err := m.enc.NewDecoder().Bytes(s)
	if err != nil {
		return result{mean: -8, faults: 1}
	}
	rs := []rune(string(dec))
	return m.scoreRunes(len(rs), func(i int) rune { return rs[i] })
}

// scoreRunes scores the n runes at(0), ..., at(n-1) of a decoded sample:
// each non-ASCII rune with its neighbours.
func (m *model) scoreRunes(n int, at func(i int) rune) result {
	var res result
	scored := 0
	seen := map[rune]bool{}
	lowerInWord := false // the word so far holds a lower-case letter
	for i := range n {
		r := at(i)
		if r < 0x80 {
			lowerInWord = 'a' <= r && r <= 'z' || lowerInWord && 'A' <= r && r <= 'Z'
			continue
		}
		lowerBefore := lowerInWord
		lowerInWord = unicode.IsLower(r) || lowerInWord && unicode.IsLetter(r)
		sc := m.score(r)
		if sc == -8 {
			res.faults++
		}
		if _, ok := m.common[unicode.ToLower(r)]; ok && !seen[unicode.ToLower(r)] {
			seen[unicode.ToLower(r)] = true
			res.distinct++
		}
		var prev, next rune
		if i > 0 {
			prev = at(i - 1)
		}
		if i+1 < n {
			next = at(i + 1)
		}
		switch {
		case isThai(r) && !thaiFits(prev, r, next):
			sc = -2
		case sc > 0 && unicode.Is(unicode.Mn, r) && !(prev >= 0x80 && (unicode.IsLetter(prev) || unicode.Is(unicode.Mn, prev))):
			// A combining mark (Thai's vowels above and below and its
			// tone marks) after anything but a letter of its script:
			// the accented letters of a Latin page (è, é read in
			// windows-874).
			sc = -2
		case neutral(r) || sc <= 0 || isHan(r) || isKana(r) || isHangul(r) || !unicode.IsLetter(r):
		case !unicode.IsLetter(prev) && !unicode.IsLetter(next):
			// An accented letter standing alone is unlikely; a symbol
			// there is common (© 2006).
			sc = -1
		case isLatin(r) && prev >= 0x80 && next >= 0x80 && unicode.IsLetter(prev) && unicode.IsLetter(next):
			// An accented letter between two more: Latin-script
			// languages write mostly ASCII letters, and such runs are
			// more often the bytes of a CJK charset read one by one.
			sc = -1
		case isAlphabet(r) && (isASCIILetter(prev) || isASCIILetter(next)):
			// Cyrillic, Greek, Arabic, Hebrew or Thai inside a Latin word.
			sc = -2
		case unicode.IsUpper(r) && lowerBefore:
			// An upper-case letter after a lower-case one in a word
			// (a word is lower-case, Capitalised or ALL CAPS; the mixed
			// case of "ЅсМмЙПОз" is GBK read as windows-1251).
			sc = -1.5
		}
		res.sum += sc
		scored++
	}
	res.runes = scored
	if scored > 0 {
		res.mean = res.sum / float64(scored)
	}
	return res
}

// thaiFits reports whether the Thai character r may stand between prev
// and next as Thai is written: a leading vowel (เ แ โ ใ ไ) before a
// consonant, no mark after a leading vowel or a second tone mark, no
// Thai digit inside a word. Bytes of another charset read in
// windows-874 break these at every few characters.
func thaiFits(prev, r, next rune) bool {
	consonant := func(r rune) bool { return r >= 0x0E01 && r <= 0x0E2E }
	leading := func(r rune) bool { return r >= 0x0E40 && r <= 0x0E44 }
	tone := func(r rune) bool { return r >= 0x0E48 && r <= 0x0E4B }
	digit := func(r rune) bool { return r >= 0x0E50 && r <= 0x0E59 }
	letter := func(r rune) bool { return isThai(r) && !digit(r) && r != 0x0E3F }
	switch {
	case leading(r):
		return consonant(next)
	case unicode.Is(unicode.Mn, r):
		return !leading(prev) && !(tone(r) && tone(prev))
	case digit(r):
		return !letter(prev) && !letter(next)
	}
	return true
}

func isASCIILetter(r rune) bool { return r < 0x80 && (r|0x20) >= 'a' && (r|0x20) <= 'z' }
