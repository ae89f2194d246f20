package preclean

import "unicode/utf8"

// stripInvisible returns s without the characters that show nothing and
// separate nothing: control characters (C0 but tab, line feed, form feed
// and carriage return; DEL; C1), the soft hyphen, the zero-width space,
// the word joiner and the zero-width no-break space (U+FEFF). A reader
// sees "banner" where the page says "ban&shy;ner", and a paragraph that
// holds only &#8203; is no paragraph. Zero-width joiners and non-joiners
// stay: they shape Arabic, Persian, Indic scripts and emoji.
func stripInvisible(s string) string {
	i := firstInvisible(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !invisible(r) || r == utf8.RuneError && size == 1 {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// invisible reports the runes stripInvisible removes.
func invisible(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\f' && r != '\r'
	case r >= 0x7F && r <= 0x9F:
		return true
	}
	switch r {
	case 0xAD, 0x200B, 0x2060, 0xFEFF:
		return true
	}
	return false
}

// firstInvisible returns the byte offset of the first invisible rune of s,
// or -1, looking at bytes: the runes it removes above ASCII all start with
// 0xC2, 0xE2 or 0xEF in UTF-8.
func firstInvisible(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20:
			if c != '\t' && c != '\n' && c != '\f' && c != '\r' {
				return i
			}
		case c == 0x7F:
			return i
		case c == 0xC2, c == 0xE2, c == 0xEF:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if invisible(r) {
				return i
			}
		}
	}
	return -1
}
