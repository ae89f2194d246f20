// Package mojibake turns text that went through one wrong decoding back
// into the characters it was written in, where the evidence leaves no
// doubt. Packages preclean, meta and gold apply it alike, to a page's
// text, its metadata and gold text.
//
// A page written in UTF-8 that a program read as windows-1252 or
// ISO-8859-1 and wrote out again in UTF-8 shows "Israelâ€™s" for
// "Israel’s", "RÃ©sumÃ©" for "Résumé" and "Â " for a no-break space; read
// as ISO-8859-1, the same bytes give C1 control characters ("â\u0080\u0099"),
// which no text holds and a browser shows as nothing. Windows-1252 text
// read as ISO-8859-1 keeps its C1 controls ("Britain\u0092s").
//
// [Repair] re-encodes such characters to the bytes they stood for
// (ISO-8859-1's, or windows-1252's for its 27 characters at 0x80..0x9F)
// and decodes those as UTF-8 where the evidence is one of these:
//
//   - a stretch of two sequences or more, each encoding a graphic
//     character, the first no combining mark, the letters all of one
//     script (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, Thai,
//     Devanagari, Bengali, Tamil, Georgian, or Chinese, Japanese and
//     Korean together): a word of Cyrillic, Greek or CJK mojibake
//     ("ÐŸÑ€Ð¸Ð²ÐµÑ‚" is "Привет"), which no text writes by chance;
//   - one sequence of two to four bytes that starts with a pattern that
//     mojibake of English and western European text produces and no
//     language writes: "Â" or "Ã" before a character that stands for
//     0x80..0xBF, "â" before two (U+2000..U+2FFF: quotation marks,
//     dashes, the ellipsis), "ï»¿" (a byte-order mark), "ðŸ" before two
//     more (an emoji);
//   - one sequence that holds a C1 control and encodes a character
//     mojibake of real text gives (a letter of Latin-1 or Latin
//     Extended-A, a basic Greek, Cyrillic, Hebrew or Arabic letter,
//     punctuation and symbols of U+2000..U+2BFF, CJK, Hangul, an emoji):
//     windows-1252 text read as ISO-8859-1 holds C1 controls too, and
//     "OPCIÓ\u0085" is "OPCIÓ…", not "OPCIӅ".
//
// A sequence whose lead comes after a letter, so that it may end a word,
// is text where its second character is a no-break space, or a mark that
// follows words ("”", "»", "…", "’", "›", "–", "—", or the C1 control
// windows-1252 writes them with) and no letter comes after it: "«AMANHÃ»"
// and "NEPÂLBHÂSHÂ " are Portuguese and French in capitals, "hâlâ…"
// Turkish. So the mojibake of a capital at the end of a word before such
// a mark ("AVÃ”" for "AVÔ") stays, and so does that of other Latin
// letters standing alone ("Å‚" for "ł"): "Ä" and "Å" end Finnish and
// Swedish words in capitals.
//
// A text that also writes a repaired word as the repair would make it,
// within 200 bytes ("CafÃ©" and "Café", "Ã©" and "é": a page about
// mojibake), shows the mojibake on purpose: those words stay as they are.
//
// A C1 control left over takes windows-1252's character where that
// charset has one (U+0092 is "’", U+0085 "…"); the five it leaves
// undefined stay, for the caller to drop. A repair that gives a
// character that shows nothing (a byte-order mark, a soft hyphen, a
// zero-width space, a word joiner) drops it, as package preclean would.
//
// Repair takes time linear in the length of its text, and returns text
// without any of these patterns as it is, without a copy. Of the some two
// million translations in a Debian machine's message catalogues, in every
// language it ships, four change, each of them mojibake itself; none of
// them changes in capitals, and every one that windows-1252 can write
// comes back from windows-1252 read as ISO-8859-1 (the package's tests).
package mojibake

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cp1252 maps the 27 characters windows-1252 puts at 0x80..0x9F to
// their bytes.
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87,
	'ˆ': 0x88, '‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E,
	'‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97,
	'˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// fromC1 is the inverse of cp1252 on 0x80..0x9F: the windows-1252
// character of a C1 control, 0 where windows-1252 leaves it undefined.
var fromC1 = func() (t [32]rune) {
	for r, b := range cp1252 {
		t[b-0x80] = r
	}
	return t
}()

// closing holds the marks that follow a word. A lead character that
// ends a word (a letter before it) and stands before one of them, or
// before a no-break space, is read as text, not as mojibake, unless a
// letter follows the sequence: "«AMANHÃ»", "hâlâ…", "NEPÂLBHÂSHÂ ".
var closing = map[rune]bool{'”': true, '»': true, '…': true, '’': true, '›': true, '–': true, '—': true}

// byteOf returns the byte that r stands for in mojibake: r itself for
// U+0080..U+00FF, windows-1252's byte for its 27 characters above.
func byteOf(r rune) (byte, bool) {
	if r >= 0x80 && r <= 0xFF {
		return byte(r), true
	}
	b, ok := cp1252[r]
	return b, ok
}

// isC1 reports a C1 control character.
func isC1(r rune) bool { return r >= 0x80 && r <= 0x9F }

// shown returns the character r shows as windows-1252 text read as
// ISO-8859-1: windows-1252's character for a C1 control it defines, r
// itself otherwise.
func shown(r rune) rune {
	if isC1(r) && fromC1[r-0x80] != 0 {
		return fromC1[r-0x80]
	}
	return r
}

// invisible reports the characters a repair may produce that show
// nothing (a soft hyphen, a zero-width space, a word joiner, a byte-order
// mark): Repair drops them, as package preclean would, so that page and
// gold text agree.
func invisible(r rune) bool {
	return r == 0xAD || r == 0x200B || r == 0x2060 || r == 0xFEFF || isC1(r) || r < 0x20
}

// Repair returns s with its mojibake undone (see the package doc). It
// returns s itself, without a copy, where nothing changes. It takes time
// linear in the length of s.
func Repair(s string) string {
	edits := find(s)
	if len(edits) == 0 {
		return s
	}
	edits = dropWritten(s, edits)
	if len(edits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	out := 0 // s[:out] is in b
	for _, e := range edits {
		b.WriteString(s[out:e.at])
		b.WriteString(e.text)
		out = e.end
	}
	b.WriteString(s[out:])
	return b.String()
}

// An edit replaces s[at:end] with text.
type edit struct {
	at, end int
	text    string
}

// find returns the repairs of s, in order.
func find(s string) []edit {
	var edits []edit
	for i := 0; ; {
		j := suspect(s, i)
		if j < 0 {
			return edits
		}
		i = j + 2
		if s[j] == 0xC2 {
			// A C1 control that no sequence took: windows-1252's
			// character (U+0085 too, which is "…" there far more often
			// than the next line of text converted from EBCDIC).
			if fromC1[s[j+1]-0x80] != 0 {
				edits = append(edits, edit{j, j + 2, string(fromC1[s[j+1]-0x80])})
			}
			continue
		}
		if text, n := decodeRun(s[j:]); n > 0 {
			edits = append(edits, edit{j, j + n, text})
			i = j + n
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(s[:j])
		if r, n := decodeAt(s[j:], prev); n > 0 {
			text := ""
			if r = shown(r); !invisible(r) {
				text = string(r)
			}
			edits = append(edits, edit{j, j + n, text})
			i = j + n
		}
	}
}

// dropWritten returns edits without the repairs of the words that s also
// writes as the repair would make them, near them (writesNear): a text
// that holds "CafÃ©" and "Café", or "Ã©" and "é", shows the mojibake on
// purpose (a page about it), and the evidence is in doubt. A word is a
// run of characters between spaces, punctuation and symbols trimmed from
// its ends; a repair trimmed off with them ("[FILE\u0085]") stays. Each
// byte of s is read a bounded number of times.
func dropWritten(s string, edits []edit) []edit {
	kept := edits[:0:0]
	var at []int
	prevEnd := 0 // the end of the last word looked at: each byte is read once
	for k := 0; k < len(edits); {
		// The word around edits[k], and the edits within it.
		start := prevEnd
		if i := strings.LastIndexFunc(s[prevEnd:edits[k].at], unicode.IsSpace); i >= 0 {
			_, n := utf8.DecodeRuneInString(s[prevEnd+i:])
			start = prevEnd + i + n
		}
		last, end := k, edits[k].at
		for last < len(edits) && edits[last].at < max(end, edits[k].end) {
			if edits[last].end > end { // else the word's end lies beyond it already
				end = len(s)
				if e := strings.IndexFunc(s[edits[last].end:], unicode.IsSpace); e >= 0 {
					end = edits[last].end + e
				}
			}
			last++
		}
		prevEnd = end
		// The word repaired, and where the repairs stand in it.
		var w strings.Builder
		at = at[:0] // where each repair stands in the word
		out := start
		for _, e := range edits[k:last] {
			w.WriteString(s[out:e.at])
			at = append(at, w.Len())
			w.WriteString(e.text)
			out = e.end
		}
		w.WriteString(s[out:end])
		word := w.String()
		repaired := trimPunct(word)
		// A repaired character is in the word, not trimmed off with its
		// punctuation ("[FILE\u0085]", "\u0084%s\u0093" are no words
		// written right).
		left := len(word) - len(strings.TrimLeftFunc(word, isPunct))
		shows := false
		for i, e := range edits[k:last] {
			shows = shows || e.text != "" && at[i] < left+len(repaired) && at[i]+len(e.text) > left
		}
		if !shows || !writesNear(s, start, end, repaired) {
			kept = append(kept, edits[k:last]...)
		}
		k = last
	}
	return kept
}

// nearBytes is how far from a word of mojibake dropWritten looks for
// the word written right: a sentence or two, so that a long text (a
// page's gold, read whole) that writes a word right in one place and
// garbled in another is still repaired.
const nearBytes = 200

// writesNear reports whether s writes word, as a word of its own, within
// nearBytes of s[start:end].
func writesNear(s string, start, end int, word string) bool {
	lo, hi := max(0, start-nearBytes), min(len(s), end+nearBytes)
	for lo > 0 && !utf8.RuneStart(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8.RuneStart(s[hi]) {
		hi++
	}
	left, right := strings.Fields(s[lo:start]), strings.Fields(s[end:hi])
	if cut(s, lo) && len(left) > 0 {
		left = left[1:] // a word cut by the window
	}
	if cut(s, hi) && len(right) > 0 {
		right = right[:len(right)-1]
	}
	for _, f := range append(left, right...) {
		if trimPunct(f) == word {
			return true
		}
	}
	return false
}

// cut reports whether s[:i] and s[i:] split a word: no space on either
// side of i.
func cut(s string, i int) bool {
	if i == 0 || i == len(s) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i:])
	return !unicode.IsSpace(before) && !unicode.IsSpace(after)
}

// trimPunct trims punctuation and symbols from the ends of w.
func trimPunct(w string) string { return strings.TrimFunc(w, isPunct) }

func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// suspect returns the byte offset, from i on, of the next rune that
// may start a repair, or -1: a C1 control (0xC2 0x80..0x9F in UTF-8) or
// a character that stands for a lead byte of UTF-8, "Â".."ô" (0xC3
// 0x82..0xB4). Looking at bytes keeps clean text cheap.
func suspect(s string, i int) int {
	for ; i+1 < len(s); i++ {
		switch c := s[i+1]; s[i] {
		case 0xC2:
			if c >= 0x80 && c <= 0x9F {
				return i
			}
		case 0xC3:
			if c >= 0x82 && c <= 0xB4 {
				return i
			}
		}
	}
	return -1
}

// sequence reads one UTF-8 sequence of mojibake at the start of s: the
// character it encodes, the length in bytes of s it spans (0 where s
// starts with none), the characters that stand for its first and second
// bytes, and whether it holds a C1 control.
func sequence(s string) (r rune, n int, lead, second rune, c1 bool) {
	lead, size := utf8.DecodeRuneInString(s)
	b0, ok := byteOf(lead)
	if !ok {
		return 0, 0, 0, 0, false
	}
	var want int
	switch {
	case b0 >= 0xC2 && b0 <= 0xDF:
		want = 2
	case b0 >= 0xE0 && b0 <= 0xEF:
		want = 3
	case b0 >= 0xF0 && b0 <= 0xF4:
		want = 4
	default:
		return 0, 0, 0, 0, false
	}
	var buf [4]byte
	buf[0] = b0
	n = size
	for k := 1; k < want; k++ {
		c, size := utf8.DecodeRuneInString(s[n:])
		b, ok := byteOf(c)
		if !ok || b < 0x80 || b > 0xBF {
			return 0, 0, 0, 0, false
		}
		if k == 1 {
			second = c
		}
		c1 = c1 || isC1(c)
		buf[k] = b
		n += size
	}
	r, rs := utf8.DecodeRune(buf[:want])
	if r == utf8.RuneError || rs != want {
		return 0, 0, 0, 0, false
	}
	return r, n, lead, second, c1
}

// decodeRun decodes the longest stretch at the start of s of sequences
// (sequence) that holds two or more, each encoding a graphic character,
// the first no combining mark, the letters all of one script of the
// scripts list: a word of Cyrillic, Greek or CJK mojibake
// ("ÐŸÑ€Ð¸Ð²ÐµÑ‚" is "Привет"), which no text writes by chance. It
// returns the text and the length in bytes of s it spans, 0 where there
// is none such.
func decodeRun(s string) (string, int) {
	var buf [64]byte
	raw := buf[:0]
	n, seqs, script := 0, 0, -1
	for {
		r, size, _, _, _ := sequence(s[n:])
		if size == 0 || !unicode.IsGraphic(r) || seqs == 0 && unicode.IsMark(r) {
			break
		}
		if unicode.IsLetter(r) {
			k := scriptOf(r)
			if k < 0 || script >= 0 && k != script {
				break
			}
			script = k
		}
		raw = utf8.AppendRune(raw, r)
		n += size
		seqs++
	}
	if seqs < 2 {
		return "", 0
	}
	return string(raw), n
}

// scripts are the scripts whose text decodeRun repairs; Han, Hiragana,
// Katakana and Hangul count as one, as Japanese and Korean text mix them.
var scripts = [][]*unicode.RangeTable{
	{unicode.Latin}, {unicode.Greek}, {unicode.Cyrillic}, {unicode.Armenian},
	{unicode.Hebrew}, {unicode.Arabic}, {unicode.Thai}, {unicode.Devanagari},
	{unicode.Bengali}, {unicode.Tamil}, {unicode.Georgian},
	{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul},
}

// scriptOf returns the index in scripts of the letter r's script, -1
// where it is none of them.
func scriptOf(r rune) int {
	for k, ts := range scripts {
		if unicode.In(r, ts...) {
			return k
		}
	}
	return -1
}

// decodeAt decodes the one sequence at the start of s where it has the
// evidence the package doc names, prev being the character before it:
// the character it encodes and the length in bytes of s it spans; n is
// 0 where there is none.
func decodeAt(s string, prev rune) (r rune, n int) {
	r, n, lead, second, c1 := sequence(s)
	if n == 0 {
		return 0, 0
	}
	if unicode.IsLetter(shown(prev)) {
		// The lead may end a word.
		next, _ := utf8.DecodeRuneInString(s[n:])
		if m := shown(second); m == '\u00A0' || closing[m] && !unicode.IsLetter(shown(next)) {
			return 0, 0
		}
	}
	switch {
	case c1:
		// Windows-1252 text read as ISO-8859-1 holds C1 controls too
		// ("OPCIÓ\u0085" is "OPCIÓ…"): only a character that
		// mojibake of real text gives counts.
		if !common(r) {
			return 0, 0
		}
	case lead == 'Â', lead == 'Ã', lead == 'â':
	case lead == 'ï' && r == '\uFEFF':
	case lead == 'ð' && second == 'Ÿ':
	default:
		return 0, 0
	}
	return r, n
}

// common reports the characters that a sequence holding a C1 control is
// taken to encode: the letters of Latin-1 and Latin Extended-A, the basic
// Greek, Cyrillic, Hebrew and Arabic letters, punctuation and symbols
// (U+2000..U+2BFF), CJK and Hangul, emoji, the byte-order mark.
func common(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0x17F, r >= 0x386 && r <= 0x3CE, r >= 0x400 && r <= 0x45F,
		r >= 0x5D0 && r <= 0x5EA, r >= 0x621 && r <= 0x64A, r >= 0x2000 && r <= 0x2BFF,
		r >= 0x3000 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7A3, r >= 0x1F000 && r <= 0x1FAFF,
		r == 0xFEFF:
		return true
	}
	return false
}
