package preclean

import "strings"

// The lexing of CSS text that reading a sheet needs: comments,
// brackets, strings and blocks, and the key of a selector.

// stripComments returns css without its /* comments */ (an unclosed one
// runs to the end), which separate no tokens in a selector (".a/**/.b"
// is ".a.b"), and without the <!-- and --> that old pages wrap a sheet
// in, which CSS ignores.
func stripComments(css string) string {
	if strings.Contains(css, "<!--") || strings.Contains(css, "-->") {
		css = strings.NewReplacer("<!--", " ", "-->", " ").Replace(css)
	}
	if !strings.Contains(css, "/*") {
		return css
	}
	var b strings.Builder
	for {
		i := strings.Index(css, "/*")
		if i < 0 {
			b.WriteString(css)
			break
		}
		b.WriteString(css[:i])
		j := strings.Index(css[i+2:], "*/")
		if j < 0 {
			break
		}
		css = css[i+2+j+2:]
	}
	return b.String()
}

// indexTop returns the index of the first byte of s in chars that is
// outside strings, parentheses and brackets, or -1.
func indexTop(s, chars string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			if depth > 0 {
				depth--
			} else if strings.IndexByte(chars, c) >= 0 {
				return i
			}
		case depth == 0 && strings.IndexByte(chars, c) >= 0:
			return i
		}
	}
	return -1
}

// closeBrace returns the index of the '}' that closes the '{' at s[open],
// or len(s) where none does.
func closeBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); {
		j := indexTop(s[i:], "{}")
		if j < 0 {
			break
		}
		i += j
		if s[i] == '{' {
			depth++
		} else if depth--; depth == 0 {
			return i
		}
		i++
	}
	return len(s)
}

// splitTop splits s at sep where sep is outside strings, parentheses and
// brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	for {
		i := indexTop(s, string(sep))
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
}

// selectorKey returns what an element must have for selector s to match
// it, read from s's last compound: "#id", ".class", a lower-case tag
// name, or "" where it cannot tell (an escape, a universal compound). It
// is an index for finding the selectors worth matching against an
// element, never the match itself.
func selectorKey(s string) string {
	if strings.ContainsAny(s, "\\") {
		return ""
	}
	// The last compound starts after the last combinator outside
	// brackets and parentheses.
	last := s
	for {
		i := indexTop(last, " >+~\t\n\r\f")
		if i < 0 {
			break
		}
		last = last[i+1:]
	}
	id, class, tag := "", "", ""
	for i := 0; i < len(last); {
		c := last[i]
		switch c {
		case '#', '.':
			j := i + 1
			for j < len(last) && nameByte(last[j]) {
				j++
			}
			if j > i+1 {
				if c == '#' && id == "" {
					id = last[i:j]
				} else if c == '.' && class == "" {
					class = last[i:j]
				}
			}
			i = j
		case '[', ':', '(':
			// Skip to the end of the bracket, or the pseudo-class name
			// and its argument.
			if c == ':' {
				j := i + 1
				for j < len(last) && (nameByte(last[j]) || last[j] == ':') {
					j++
				}
				if j < len(last) && last[j] == '(' {
					if k := closeParen(last, j); k > j {
						j = k + 1
					} else {
						return ""
					}
				}
				i = j
				continue
			}
			k := indexTop(last[i+1:], "])")
			if k < 0 {
				return ""
			}
			i += k + 2
		default:
			if i == 0 && nameByte(c) {
				j := 0
				for j < len(last) && nameByte(last[j]) {
					j++
				}
				tag = strings.ToLower(last[:j])
				i = j
				continue
			}
			i++
		}
	}
	switch {
	case id != "":
		return id
	case class != "":
		return class
	}
	return tag
}

// closeParen returns the index of the ')' closing the '(' at s[open], or -1.
func closeParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

func nameByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
