package features

import (
	"strings"
	"unicode"
)

// Tokens splits s into lower-cased word tokens: maximal runs of letters,
// digits, apostrophes and hyphens inside words.
func Tokens(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) ||
			(r == '\'' || r == '’' || r == '-') && start >= 0
		if inWord {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, normToken(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, normToken(s[start:]))
	}
	return out
}

func normToken(t string) string {
	t = strings.TrimRight(t, "'’-")
	t = strings.ReplaceAll(t, "’", "'")
	return strings.ToLower(t)
}

// textStats are the character-level counts of a text.
type textStats struct {
	chars, punct, digits, symbols, upper, letters int
	sentences                                     int
	finalPunct                                    bool
}

func charStats(s string) textStats {
	var st textStats
	prevEnd := false
	last := rune(0)
	for _, r := range s {
		if unicode.IsSpace(r) {
			if prevEnd {
				st.sentences++
				prevEnd = false
			}
			continue
		}
		st.chars++
		switch {
		case unicode.IsLetter(r):
			st.letters++
			if unicode.IsUpper(r) {
				st.upper++
			}
		case unicode.IsDigit(r):
			st.digits++
		case unicode.IsPunct(r):
			st.punct++
		default:
			st.symbols++
		}
		switch {
		case r == '.' || r == '!' || r == '?':
			prevEnd = true
		case r == '"' || r == '”' || r == ')' || r == '\'' || r == '’':
			// a closing quote or bracket keeps a sentence end
		default:
			prevEnd = false
		}
		last = r
	}
	if st.chars > 0 {
		st.sentences++ // the last sentence, ended or not
		st.finalPunct = last == '.' || last == '!' || last == '?' || last == ':' || last == '"' || last == '”'
	}
	return st
}
