package gold

import (
	"strings"

	"github.com/fiasco-project/fiasco/score"
)

// SplitLineFeedJoins returns g's [Gold.Reference] with every word that
// joins two words of the page's source across a line feed split back into
// them ("and" at the end of one line and "hotly" at the start of the
// next, where the gold has "andhotly"; "ignore." and "While", where it has
// "ignore.While"), and how many words it split.
//
// CleanEval's annotators cleaned a text version of each page in which the
// tool had dropped every line feed not preceded by a carriage return, so
// where a page's lines end in LF alone and its text is wrapped by hand,
// the gold joins the last word of each line to the first of the next
// (CleanEval dev pages 7, 9 and 54 hold most such words; see the package
// documentation). A browser shows a line break as a space, and so does
// every cleaner's output, so no output that shows the page's words
// matches them: each is a gold word no cleaning finds, and where its
// text is kept, its two halves are output words that match nothing. Scoring against the split reference measures the
// cleaning without this.
//
// src is the page as stored, in an ASCII-compatible charset. The words on
// either side of a line feed are its runs of printable ASCII other than
// '<' and '>' (so a tag ends them), and a run that a byte outside ASCII
// continues is a fragment of a word, not a word: "Nigeria’s\noil" joins
// nothing. A gold word, as the scorer splits the reference (at its white
// space and around segment markers), is split where it equals two such
// words joined, case and punctuation alike, and only as often as the
// source joins them; lines the scorer skips (those that start with "URL")
// are left as they are.
func (g *Gold) SplitLineFeedJoins(src []byte) (string, int) {
	ref := g.Reference()
	joins := lineFeedJoins(src)
	if len(joins) == 0 {
		return ref, 0
	}
	var out strings.Builder
	n, last := 0, 0
	split := func(start, end int) {
		w := ref[start:end]
		cuts := joins[w]
		if len(cuts) == 0 {
			return
		}
		joins[w] = cuts[1:]
		cut := start + cuts[0]
		out.WriteString(ref[last:cut])
		out.WriteByte(' ')
		last = cut
		n++
	}
	// The words of ref as the scorer reads them (score.Tokens).
	score.Fields(ref, func(start, end int) { scorerWords(ref, start, end, split) })
	if n == 0 {
		return ref, 0
	}
	out.WriteString(ref[last:])
	return out.String(), n
}

// lineFeedJoins maps each pair of words that a line feed of src parts,
// joined, to the lengths of the first word, one per line feed.
func lineFeedJoins(src []byte) map[string][]int {
	joins := map[string][]int{}
	for i := 1; i+1 < len(src); i++ {
		if src[i] != '\n' || !wordByte(src[i-1]) || !wordByte(src[i+1]) {
			continue
		}
		a := i - 1
		for a > 0 && wordByte(src[a-1]) {
			a--
		}
		b := i + 1
		for b < len(src) && wordByte(src[b]) {
			b++
		}
		if a > 0 && src[a-1] >= 0x80 || b < len(src) && src[b] >= 0x80 {
			continue
		}
		w := string(src[a:i]) + string(src[i+1:b])
		joins[w] = append(joins[w], i-a)
	}
	return joins
}

// wordByte reports printable ASCII other than the angle brackets of tags.
func wordByte(c byte) bool { return c > ' ' && c < 0x7f && c != '<' && c != '>' }

// scorerWords calls f with the bounds of each word of the field
// s[start:end] (no white space in it) as the scorer splits it around
// segment markers.
func scorerWords(s string, start, end int, f func(start, end int)) {
	from := start
	for i := start; i+3 <= end; i++ {
		if score.IsTag(s[i : i+3]) {
			if i > from {
				f(from, i)
			}
			from = i + 3
			i += 2
		}
	}
	if from < end {
		f(from, end)
	}
}
