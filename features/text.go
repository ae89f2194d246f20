package features

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens splits s into lower-cased word tokens: maximal runs of letters,
// digits, apostrophes and hyphens inside words. Chinese characters, kana
// and the prolonged sound mark (see unspaced) are a token each, since
// Chinese and Japanese do not put spaces between words: a run of them
// would make a paragraph one token.
func Tokens(s string) []string {
	var z tokenizer
	return z.appendTokens(nil, s)
}

// tokenizer holds the buffers of appendTokens, for reuse.
type tokenizer struct {
	buf  []byte         // the lower-cased ASCII tokens of the text
	pend []pendingToken // the tokens of dst whose text is in buf
}

type pendingToken struct{ k, off, n int }

// appendTokens appends the tokens of s (see Tokens) to dst. Bytes below
// utf8.RuneSelf are classified by table (the same answers as the unicode
// functions, see asciiClass); any other byte is decoded and classified as
// a rune, as before. A token of ASCII bytes only is trimmed here, and, if
// it has upper-case letters, lower-cased into one string made for all
// such tokens of s: what normToken returns for it. Any other token goes
// through normToken.
func (z *tokenizer) appendTokens(dst []string, s string) []string {
	z.buf, z.pend = z.buf[:0], z.pend[:0]
	start := -1
	nonASCII := false // the current token has a byte >= utf8.RuneSelf
	upper := false    // the current token has an ASCII upper-case letter
	emit := func(end int) {
		if nonASCII {
			dst = append(dst, normToken(s[start:end]))
			return
		}
		// strings.TrimRight(t, "'’-") on ASCII text.
		for end > start && (s[end-1] == '\'' || s[end-1] == '-') {
			end--
		}
		if !upper {
			dst = append(dst, s[start:end])
			return
		}
		off := len(z.buf)
		for _, c := range []byte(s[start:end]) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			z.buf = append(z.buf, c)
		}
		z.pend = append(z.pend, pendingToken{len(dst), off, end - start})
		dst = append(dst, "")
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			cl := asciiClass[c]
			if cl&(clLetter|clDigit) != 0 || (c == '\'' || c == '-') && start >= 0 {
				if start < 0 {
					start, nonASCII, upper = i, false, false
				}
				if cl&clUpper != 0 {
					upper = true
				}
			} else if start >= 0 {
				emit(i)
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unspaced(r) {
			if start >= 0 {
				emit(i)
				start = -1
			}
			dst = append(dst, s[i:i+size])
		} else if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '’' && start >= 0 {
			if start < 0 {
				start = i
			}
			nonASCII = true
		} else if start >= 0 {
			emit(i)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		emit(len(s))
	}
	if len(z.pend) > 0 {
		low := string(z.buf)
		for _, p := range z.pend {
			dst[p.k] = low[p.off : p.off+p.n]
		}
	}
	return dst
}

// WordCount counts the words of s as a reader would: its fields between
// white space (strings.Fields), where a field that holds Chinese or
// Japanese counts as its tokens (Tokens: a character each), since those
// languages put no spaces between words.
func WordCount(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, unspaced) >= 0 {
			n += max(1, len(Tokens(f)))
		} else {
			n++
		}
	}
	return n
}

// unspaced reports whether r is a letter of a script written without
// spaces between words that Tokens counts as a word of its own: a Chinese
// character (Han), hiragana, katakana, or the prolonged sound mark ー.
func unspaced(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) && unicode.IsLetter(r)
}

func normToken(t string) string {
	t = strings.TrimRight(t, "'’-")
	t = strings.ReplaceAll(t, "’", "'")
	return strings.ToLower(t)
}

// Character classes of the ASCII bytes, from the unicode package's own
// answers (so the fast paths agree with it by construction).
const (
	clSpace  = 1 << iota // unicode.IsSpace
	clLetter             // unicode.IsLetter
	clUpper              // unicode.IsUpper
	clDigit              // unicode.IsDigit
	clPunct              // unicode.IsPunct
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		r := rune(c)
		if unicode.IsSpace(r) {
			t[c] |= clSpace
		}
		if unicode.IsLetter(r) {
			t[c] |= clLetter
		}
		if unicode.IsUpper(r) {
			t[c] |= clUpper
		}
		if unicode.IsDigit(r) {
			t[c] |= clDigit
		}
		if unicode.IsPunct(r) {
			t[c] |= clPunct
		}
	}
	return t
}()

// runeClass is asciiClass for any rune.
func runeClass(r rune) uint8 {
	if r < utf8.RuneSelf && r >= 0 {
		return asciiClass[r]
	}
	var c uint8
	if unicode.IsSpace(r) {
		c |= clSpace
	}
	if unicode.IsLetter(r) {
		c |= clLetter
	}
	if unicode.IsUpper(r) {
		c |= clUpper
	}
	if unicode.IsDigit(r) {
		c |= clDigit
	}
	if unicode.IsPunct(r) {
		c |= clPunct
	}
	return c
}

// textStats are the character-level counts of a text.
type textStats struct {
	chars, punct, digits, symbols, upper, letters int
	sentences                                     int
	finalPunct                                    bool
}

// Kinds of non-space characters, for charStats's counts.
const (
	kindLower = iota // a letter that is not upper case
	kindUpperLetter
	kindDigit
	kindPunct
	kindSymbol
	kindSpace
)

// charKind is the kind of a character of class cl, tested in charStats's
// order: letter (upper or not), digit, punctuation, anything else.
func charKind(cl uint8) uint8 {
	switch {
	case cl&clSpace != 0:
		return kindSpace
	case cl&clLetter != 0:
		if cl&clUpper != 0 {
			return kindUpperLetter
		}
		return kindLower
	case cl&clDigit != 0:
		return kindDigit
	case cl&clPunct != 0:
		return kindPunct
	}
	return kindSymbol
}

// What a character does to a pending sentence end.
const (
	sentReset = iota // anything else ends the chance
	sentEnd          // . ! ? end a sentence, and so do 。！？．
	sentKeep         // a closing quote or bracket keeps a sentence end
)

func sentenceAct(r rune) uint8 {
	switch {
	case r == '.' || r == '!' || r == '?':
		return sentEnd
	case r == '"' || r == '”' || r == ')' || r == '\'' || r == '’':
		return sentKeep
	case r < 0x3000:
	case fullStop(r):
		return sentEnd
	case r == '」' || r == '』' || r == '）' || r == '】' || r == '〕':
		return sentKeep
	}
	return sentReset
}

// fullStop reports whether r ends a sentence of Chinese or Japanese: 。！？
// or the full-width full stop ．. Such a sentence needs no space after it.
func fullStop(r rune) bool {
	return r == '。' || r == '！' || r == '？' || r == '．'
}

// asciiKind and asciiSent are charKind and sentenceAct of the ASCII bytes.
var asciiKind, asciiSent = func() (k, a [utf8.RuneSelf]uint8) {
	for c := range k {
		k[c] = charKind(asciiClass[c])
		a[c] = sentenceAct(rune(c))
	}
	return k, a
}()

func charStats(s string) textStats {
	var st textStats
	var n [kindSpace]int // non-space characters by kind
	prevEnd := false
	wide := false // prevEnd comes from one of fullStop's marks
	last := rune(0)
	for i := 0; i < len(s); {
		var r rune
		var kind, act uint8
		if c := s[i]; c < utf8.RuneSelf {
			r, kind, act = rune(c), asciiKind[c], asciiSent[c]
			i++
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(s[i:])
			kind, act = charKind(runeClass(r)), sentenceAct(r)
			i += size
		}
		if kind == kindSpace {
			if prevEnd {
				st.sentences++
				prevEnd = false
			}
			continue
		}
		if prevEnd && wide && act == sentReset {
			// 。 and its kin end a sentence where the next starts at once.
			st.sentences++
		}
		n[kind]++
		end := act == sentEnd || act == sentKeep && prevEnd
		wide = end && (act == sentKeep && wide || act == sentEnd && fullStop(r))
		prevEnd = end
		last = r
	}
	st.letters = n[kindLower] + n[kindUpperLetter]
	st.upper = n[kindUpperLetter]
	st.digits = n[kindDigit]
	st.punct = n[kindPunct]
	st.symbols = n[kindSymbol]
	st.chars = st.letters + st.digits + st.punct + st.symbols
	if st.chars > 0 {
		st.sentences++ // the last sentence, ended or not
		if last == ']' {
			last = beforeCitations(s)
		}
		st.finalPunct = last == '.' || last == '!' || last == '?' || last == ':' || last == '"' || last == '”' ||
			last >= 0x3000 && (fullStop(last) || last == '：' || last == '」' || last == '』')
	}
	return st
}

// beforeCitations returns the last character of s that is not space
// before the reference marks that end it ("... in 1879.[1][12]", "...
// river. [citation needed]"): brackets holding one to three digits, one
// letter, "note" and a number, or "citation needed" (Wikipedia's and its
// copies'); ']' where s ends in other brackets ("[more]", "[PDF]").
func beforeCitations(s string) rune {
	t := strings.TrimRightFunc(s, unicode.IsSpace)
	cut := false
	for strings.HasSuffix(t, "]") {
		open := strings.LastIndexByte(t, '[')
		if open < 0 || !citationMark(t[open+1:len(t)-1]) {
			break
		}
		t = strings.TrimRightFunc(t[:open], unicode.IsSpace)
		cut = true
	}
	if !cut || t == "" {
		return ']'
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return r
}

// citationMark reports whether m, the text between a reference mark's
// brackets, is one: 1 to 3 digits, one letter, "note" and 1 to 3 digits,
// or "citation needed" (any case).
func citationMark(m string) bool {
	m = strings.ToLower(strings.TrimSpace(m))
	if m == "citation needed" {
		return true
	}
	if len(m) == 1 && m[0] >= 'a' && m[0] <= 'z' {
		return true
	}
	m = strings.TrimPrefix(strings.TrimPrefix(m, "note"), " ")
	if len(m) < 1 || len(m) > 3 {
		return false
	}
	for i := 0; i < len(m); i++ {
		if m[i] < '0' || m[i] > '9' {
			return false
		}
	}
	return true
}

// EndsSentence reports whether s ends as the final_punct column counts a
// sentence's end: in . ! ? : or a closing quotation mark, reference marks
// after it ("[1]") set aside; Chinese and Japanese ones in 。！？．： or 」』.
func EndsSentence(s string) bool {
	return charStats(s).finalPunct
}
