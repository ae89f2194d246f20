package gold

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/score"
)

func TestSplitLineFeedJoins(t *testing.T) {
	for _, c := range []struct {
		name, src, gold, want string
		n                     int
	}{{
		name: "lines ending in LF alone",
		src:  "<td>The conflict is one of the most closely watched and\nhotly debated disputes\nof our time.</td>",
		gold: "<p>The conflict is one of the most closely watched andhotly debated disputesof our time.",
		want: "<p>The conflict is one of the most closely watched and hotly debated disputes of our time.",
		n:    2,
	}, {
		name: "CR LF or a space before the line feed: the gold has the space; punctuation joins",
		src:  "watched and\r\nhotly debated \ndisputes of our time.\nIt went on",
		gold: "<p>watched and hotly debated disputes of our time.It went on",
		want: "<p>watched and hotly debated disputes of our time. It went on",
		n:    1,
	}, {
		name: "case and punctuation as in the source; a word split as often as the source joins it",
		src:  "<p>It was\nover, and\nOver. It was\nover.</p>",
		gold: "<p>It wasover, andOver. It wasover. It wasover again Wasover,",
		want: "<p>It was over, and Over. It was over. It wasover again Wasover,",
		n:    3,
	}, {
		name: "segment markers around the word, as the scorer splits them",
		src:  "<p>The\nend of it</p>",
		gold: "<p>Theend<l>of it\n<h>Theend",
		want: "<p>The end<l>of it\n<h>Theend",
		n:    1,
	}, {
		name: "a fragment of a word outside ASCII joins nothing",
		src:  "Nigeria’s\noil and K\ning",
		gold: "<p>Nigeria’soil soil and \u212aing",
		want: "<p>Nigeria’soil soil and \u212aing",
	}, {
		name: "a fragment after the line feed, a run from the first byte",
		src:  "and\nhotly’s and\nhot",
		gold: "<p>andhotly’s andhot",
		want: "<p>andhotly’s and hot",
		n:    1,
	}, {
		name: "lines the scorer skips are left; other white space splits words",
		src:  "http://example.com/\na and\nhotly U\nRLs",
		gold: "<p>andhotly\u00a0x\tandhotly\nURLs a\n URL: http://example.com/a",
		want: "<p>and hotly\u00a0x\tandhotly\nURLs a\n URL: http://example.com/a",
		n:    1,
	}, {
		name: "no line feed",
		src:  "<p>nothing</p>",
		gold: "<p>nothing",
		want: "<p>nothing",
	}} {
		t.Run(c.name, func(t *testing.T) {
			raw := "URL: http://example.com/\n" + c.gold + "\n"
			g := parseCleanEval(raw)
			g.Format, g.Raw = CleanEval, raw
			got, n := g.SplitLineFeedJoins([]byte(c.src))
			if want := "URL: http://example.com/\n" + c.want + "\n"; got != want || n != c.n {
				t.Errorf("got %q, %d\nwant %q, %d", got, n, want, c.n)
			}
			if len(score.Tokens(got, score.Options{})) != len(score.Tokens(raw, score.Options{}))+n {
				t.Errorf("the scorer reads %d words, want %d more than %d", len(score.Tokens(got, score.Options{})), n, len(score.Tokens(raw, score.Options{})))
			}
		})
	}
}

// FuzzSplitLineFeedJoins: whatever the page and the gold, the split
// reference is the reference with n spaces put between bytes of its
// words, never inside a character, and the scorer reads n more words in
// it.
func FuzzSplitLineFeedJoins(f *testing.F) {
	f.Add([]byte("watched and\nhotly"), "<p>watched andhotly debated")
	f.Add([]byte("k\ning"), "<p>\u212aing")
	f.Add([]byte("U\nRLs"), "URL: x\n<p>URLs URL")
	f.Fuzz(func(t *testing.T, src []byte, text string) {
		if !utf8.ValidString(text) {
			return
		}
		g := parseCleanEval(text)
		g.Format, g.Raw = CleanEval, text
		got, n := g.SplitLineFeedJoins(src)
		if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(text, " ", "") || strings.Count(got, " ")-strings.Count(text, " ") != n || !utf8.ValidString(got) ||
			len(score.Tokens(got, score.Options{})) != len(score.Tokens(text, score.Options{}))+n {
			t.Errorf("SplitLineFeedJoins(%q) of %q = %q, %d", src, text, got, n)
		}
	})
}
