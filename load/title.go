package load

import "strings"

// closeTitle repairs a <title> that is never closed. HTML's parser reads
// everything after <title> as the title's text until </title>; when the
// end tag is missing (a page cut or spliced by its crawler, a typo such
// as </titel>), the whole page becomes the title and the body is empty, in
// Chromium as in golang.org/x/net/html. Browsers before HTML5 recovered,
// as this does: the title ends at its first '<'. It returns the text with
// "</title>" inserted there, and whether it changed anything.
//
// Only the first <title> start tag of the text counts, and nothing
// changes when an end tag follows it anywhere, or when no markup follows
// it (a page whose last element is its title loses nothing).
func closeTitle(text string) (string, bool) {
	start := indexTag(text, "<title", 0)
	if start < 0 {
		return text, false
	}
	gt := strings.IndexByte(text[start:], '>')
	if gt < 0 {
		return text, false
	}
	body := start + gt + 1
	if indexTag(text, "</title", body) >= 0 {
		return text, false
	}
	lt := strings.IndexByte(text[body:], '<')
	if lt < 0 {
		return text, false
	}
	cut := body + lt
	return text[:cut] + "</title>" + text[cut:], true
}

// indexTag returns the index of the first tag opening prefix (such as
// "<title" or "</title", lower case) at or after from, matched without
// regard to case and followed by white space, '/' or '>' as the
// tokenizer requires; -1 when there is none.
func indexTag(text, prefix string, from int) int {
	for i := from; i+len(prefix) <= len(text); {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if i+len(prefix) > len(text) {
			return -1
		}
		if strings.EqualFold(text[i:i+len(prefix)], prefix) {
			if k := i + len(prefix); k == len(text) || strings.IndexByte(" \t\n\f\r/>", text[k]) >= 0 {
				return i
			}
		}
		i++
	}
	return -1
}
