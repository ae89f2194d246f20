package preclean

import (
	"unicode"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// stripInvisible returns s without the characters that show nothing and
// separate nothing (dom.Invisible): control characters but the white
// space among them, the soft hyphen, the zero-width space (but between
// letters of Thai, Lao, Khmer and Myanmar, where it marks a word break),
// the word joiner and U+FEFF. A reader sees "banner" where the page says
// "ban&shy;ner", and a paragraph that holds only &#8203; is no
// paragraph. Zero-width joiners and non-joiners stay: they shape Arabic,
// Persian, Indic scripts and emoji.
func stripInvisible(s string) string {
	i := firstInvisible(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		keep := !dom.Invisible(r) || r == utf8.RuneError && size == 1
		if r == 0x200B {
			// Between words of a script written without spaces (Thai,
			// Lao, Khmer, Myanmar) a zero-width space marks the word
			// break a tokeniser needs: kept there.
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			keep = unspaced(prev) && unspaced(next)
		}
		if keep {
			b = append(b, s[i:i+size]...)
			prev = r
		}
		i += size
	}
	return string(b)
}

// unspaced reports a letter of a script written without spaces between
// words, whose zero-width spaces stripInvisible keeps.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// firstInvisible returns the byte offset of the first invisible rune of s,
// or -1, looking at bytes: the runes it removes above ASCII all start with
// 0xC2, 0xE2 or 0xEF in UTF-8.
func firstInvisible(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20:
			if c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' {
				return i
			}
		case c == 0x7F:
			return i
		case c == 0xC2, c == 0xE2, c == 0xEF:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if dom.Invisible(r) {
				return i
			}
		}
	}
	return -1
}
