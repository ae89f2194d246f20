package score

import (
	"html"
	"strings"
	"unicode"

	"github.com/fiasco-project/fiasco/internal/difflib"
)

// Options control how Score tokenises and aligns.
type Options struct {
	// Tags keeps the segment markers <p>, <h>, <l> as word tokens in the
	// word-level counts (the reference scorer's default). Without it they
	// are dropped before the word alignment.
	Tags bool
	// Unlabelled turns every segment marker into <p> (the reference's -u).
	Unlabelled bool
	// ASCII deletes characters outside ASCII before comparing (the
	// reference's -a).
	ASCII bool
	// Entities decodes HTML character references (&amp;, &#8217;) in both
	// texts first. Not in the reference; some gold files (CleanPortalEval's
	// msnbc pages) hold such references where the page shows characters.
	Entities bool
}

// Counts are the outcome of one alignment: Matched tokens are in both
// sequences (true positives), Out are all tokens of the output, Gold all
// tokens of the gold standard.
type Counts struct {
	Matched, Out, Gold int
}

// P is precision, Matched/Out. When both sequences are empty it is 1 (the
// output is exactly right); when only the output is empty it is 0.
func (c Counts) P() float64 { return c.ratio(c.Out) }

// R is recall, Matched/Gold. When both sequences are empty it is 1; when
// only the gold standard is empty it is 0.
func (c Counts) R() float64 { return c.ratio(c.Gold) }

// F is the harmonic mean of P and R, 0 when both are 0.
func (c Counts) F() float64 { return fscore(c.P(), c.R()) }

func (c Counts) ratio(den int) float64 {
	if c.Out == 0 && c.Gold == 0 {
		return 1
	}
	if den == 0 {
		return 0
	}
	return float64(c.Matched) / float64(den)
}

func fscore(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Result is the score of one page (or an aggregate of pages). The word
// figures follow Options.Tags; the Tag figures count segment markers matched
// in an alignment with markers as tokens. Precision, recall and F are
// fractions in [0, 1].
type Result struct {
	Matched, OutWords, GoldWords int
	P, R, F                      float64

	TagMatched, OutTags, GoldTags int
	TagP, TagR, TagF              float64

	Pages int // 1 for a page, the number of pages for an aggregate
}

// Score compares a cleaned page with its gold standard, both in CleanEval
// text format (plain text is fine too: it simply has no segment markers).
func Score(output, gold string, opt Options) Result {
	out := Tokens(output, opt)
	g := Tokens(gold, opt)
	m := difflib.Matcher{AutoJunk: true}

	tagged := m.Blocks(out, g)
	var r Result
	r.Pages = 1
	tc := countTags(out, g, tagged)
	r.TagMatched, r.OutTags, r.GoldTags = tc.Matched, tc.Out, tc.Gold

	if opt.Tags {
		r.Matched = matched(tagged)
		r.OutWords, r.GoldWords = len(out), len(g)
	} else {
		out, g = dropTags(out), dropTags(g)
		r.Matched = matched(m.Blocks(out, g))
		r.OutWords, r.GoldWords = len(out), len(g)
	}
	r.fill()
	return r
}

// fill computes the ratios from the counts.
func (r *Result) fill() {
	w := Counts{r.Matched, r.OutWords, r.GoldWords}
	r.P, r.R, r.F = w.P(), w.R(), w.F()
	t := Counts{r.TagMatched, r.OutTags, r.GoldTags}
	r.TagP, r.TagR, r.TagF = t.P(), t.R(), t.F()
}

// Micro sums the counts of rs and computes P, R and F from the sums.
func Micro(rs []Result) Result {
	var s Result
	for _, r := range rs {
		s.Matched += r.Matched
		s.OutWords += r.OutWords
		s.GoldWords += r.GoldWords
		s.TagMatched += r.TagMatched
		s.OutTags += r.OutTags
		s.GoldTags += r.GoldTags
		s.Pages += r.Pages
	}
	s.fill()
	return s
}

// Macro sums the counts of rs and averages P, R and F (and the tag figures)
// over the results, each result weighing the same.
func Macro(rs []Result) Result {
	s := Micro(rs)
	s.P, s.R, s.F, s.TagP, s.TagR, s.TagF = 0, 0, 0, 0, 0, 0
	if len(rs) == 0 {
		return s
	}
	for _, r := range rs {
		s.P += r.P
		s.R += r.R
		s.F += r.F
		s.TagP += r.TagP
		s.TagR += r.TagR
		s.TagF += r.TagF
	}
	n := float64(len(rs))
	s.P, s.R, s.F = s.P/n, s.R/n, s.F/n
	s.TagP, s.TagR, s.TagF = s.TagP/n, s.TagR/n, s.TagF/n
	return s
}

func matched(ms []difflib.Match) int {
	n := 0
	for _, m := range ms {
		n += m.Size
	}
	return n
}

func countTags(out, gold []string, ms []difflib.Match) Counts {
	var c Counts
	for _, w := range out {
		if IsTag(w) {
			c.Out++
		}
	}
	for _, w := range gold {
		if IsTag(w) {
			c.Gold++
		}
	}
	for _, m := range ms {
		for _, w := range out[m.A : m.A+m.Size] {
			if IsTag(w) {
				c.Matched++
			}
		}
	}
	return c
}

func dropTags(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		if !IsTag(w) {
			out = append(out, w)
		}
	}
	return out
}

// IsTag reports whether w is a segment marker token: <p>, <h> or <l> in
// either case.
func IsTag(w string) bool {
	return len(w) == 3 && w[0] == '<' && w[2] == '>' && strings.ContainsRune("phlPHL", rune(w[1]))
}

// Tokens normalises a text as the reference scorer does and splits it into
// whitespace-delimited tokens: a leading byte-order mark is dropped, every
// line that starts with "URL" (after optional white space) is removed,
// segment markers become tokens of their own, and the text is split at
// Unicode white space. Unlike the reference, no empty tokens arise from
// leading or trailing white space.
func Tokens(text string, opt Options) []string {
	text = strings.TrimPrefix(text, "\ufeff")
	if opt.Entities {
		text = html.UnescapeString(text)
	}
	var out []string
	fields(text, 0, func(start, end int) { out = appendSplitTags(out, text[start:end], opt) })
	return out
}

// Fields calls f with the bounds of each field of text that Tokens reads,
// in order, before it splits them around segment markers: a leading
// byte-order mark is skipped, lines that start with "URL" (after optional
// white space) are skipped, and the rest is split at IsSpace. The bounds
// are byte offsets into text, for callers that must map the scorer's
// words back to it.
func Fields(text string, f func(start, end int)) {
	from := 0
	if strings.HasPrefix(text, "\ufeff") {
		from = len("\ufeff")
	}
	fields(text, from, f)
}

// fields is Fields from the byte offset from (past any byte-order mark).
func fields(text string, from int, f func(start, end int)) {
	for from <= len(text) {
		end := strings.IndexByte(text[from:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += from
		}
		if line := text[from:end]; !strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "URL") {
			start := -1
			for i, r := range line {
				switch {
				case IsSpace(r) && start >= 0:
					f(from+start, from+i)
					start = -1
				case !IsSpace(r) && start < 0:
					start = i
				}
			}
			if start >= 0 {
				f(from+start, end)
			}
		}
		from = end + 1
	}
}

// IsSpace reports whether the scorer splits words at r: Python's \s for
// str patterns plus the control characters that the reference turns into
// spaces.
func IsSpace(r rune) bool {
	return r < 0x20 || unicode.IsSpace(r) || r == 0x1c || r == 0x1d || r == 0x1e || r == 0x1f
}

// appendSplitTags appends the token f, split around any segment markers it
// contains, to out.
func appendSplitTags(out []string, f string, opt Options) []string {
	if opt.ASCII {
		f = strings.Map(func(r rune) rune {
			if r >= 0x80 {
				return -1
			}
			return r
		}, f)
		if f == "" {
			return out
		}
	}
	for {
		i := tagIndex(f)
		if i < 0 {
			break
		}
		if i > 0 {
			out = append(out, f[:i])
		}
		tag := f[i : i+3]
		if opt.Unlabelled {
			tag = "<p>"
		}
		out = append(out, tag)
		f = f[i+3:]
	}
	if f != "" {
		out = append(out, f)
	}
	return out
}

func tagIndex(s string) int {
	for i := 0; i+3 <= len(s); i++ {
		if s[i] == '<' && IsTag(s[i:i+3]) {
			return i
		}
	}
	return -1
}
