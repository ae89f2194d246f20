package pipeline

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestIsStamp reads isStamp's cases from testdata/stamps.tsv.
func TestIsStamp(t *testing.T) { testCases(t, "stamps.tsv", "isStamp", isStamp, 20) }

// TestIsByline reads isByline's cases from testdata/bylines.tsv.
func TestIsByline(t *testing.T) { testCases(t, "bylines.tsv", "isByline", isByline, 15) }

// testCases reads the cases of a predicate from testdata/name: a text, a
// tab, and yes or no; lines starting with # and blank lines are skipped.
// It fails when fewer than min cases are read.
func testCases(t *testing.T, name, fn string, f func(string) bool, min int) {
	t.Helper()
	file, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	n := 0
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" && !strings.Contains(l, "\t") {
			continue
		}
		text, want, ok := strings.Cut(l, "\t")
		if !ok || want != "yes" && want != "no" {
			t.Fatalf("%s:%d: want TEXT<tab>yes|no, got %q", name, line, l)
		}
		n++
		if got := f(strings.ReplaceAll(text, `\n`, "\n")); got != (want == "yes") {
			t.Errorf("%s:%d: %s(%q) = %v, want %v", name, line, fn, text, got, !got)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < min {
		t.Fatalf("%s: %d cases read", name, n)
	}
}

// TestStamps: under the corpus policy a block that is only a time stamp
// is never kept, whatever its value and the smoothing; a heading that is
// a date, a table's header cell and an element in the role of a heading
// are left to their values, and so is every block under the article
// policy.
func TestStamps(t *testing.T) {
	page := `<html><body><div class="post"><div>05-06-2005, 05:41 PM</div><p>I have been hanging around here for a couple of months, waiting for this film to come out at last.</p></div>` +
		`<h2>December 26, 2006</h2><p>The council met on Tuesday to approve the budget for the coming year, after a long debate.</p>` +
		`<div role="heading">April 2005</div><table><tr><th>May 7, 2005</th></tr><tr><td>The budget passed by a wide margin after the mayor spoke for an hour.</td></tr></table></body></html>`
	d, err := Prepare(context.Background(), "stamps.html", []byte(page), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stamp, headings := -1, 0
	for i, b := range d.Blocks {
		switch b.Text {
		case "05-06-2005, 05:41 PM":
			stamp = i
		case "December 26, 2006", "April 2005", "May 7, 2005":
			headings++
		}
	}
	if stamp < 0 || headings != 3 {
		t.Fatalf("blocks %d (stamp %d, %d headings): %v", len(d.Blocks), stamp, headings, d.Blocks)
	}
	never := NeverKept(d)
	for i := range d.Blocks {
		if want := i == stamp; (never != nil && never[i] == stampReason) != want {
			t.Errorf("NeverKept = %q: want %q for block %d only", never, stampReason, stamp)
		}
	}
	s := make([]float64, len(d.Blocks))
	for i := range s {
		s[i] = 1
	}
	for _, c := range []struct {
		policy string
		kept   bool
	}{{"", false}, {classify.PolicyCorpus, false}, {classify.PolicyArticle, true}, {"Article", true}} {
		for _, smooth := range []float64{0, 0.25} {
			m := &classify.Model{Smooth: smooth}
			m.Info.Policy = c.policy
			keep := Keep(m, d, s, 0)
			for i, k := range keep {
				want := i != stamp || c.kept
				if k != want {
					t.Errorf("policy %q, smoothing %v: block %d (%q) kept %v, want %v", c.policy, smooth, i, d.Blocks[i].Text, k, want)
				}
			}
			r := &Result{Doc: d, Score: s, Model: m}
			if got := r.NeverKept(); (got != nil && got[stamp] == stampReason) == c.kept {
				t.Errorf("policy %q: Result.NeverKept = %q", c.policy, got)
			}
		}
	}
}

// FuzzIsStamp: isStamp never panics, and a stamp has a digit and at most
// maxStampTokens tokens, each of which a stamp's word.
func FuzzIsStamp(f *testing.F) {
	for _, s := range []string{"05-06-2005, 05:41 PM", "Today, 5pm", "2012-11-08T10:00", "1st", "th", ":", "99:99", "May 5k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isStamp(s) {
			return
		}
		tokens := strings.Fields(s)
		if !strings.ContainsAny(s, "0123456789") || len(tokens) == 0 || len(tokens) > maxStampTokens {
			t.Fatalf("isStamp(%q): %d tokens", s, len(tokens))
		}
		for _, tok := range tokens {
			if stampToken(strings.ToLower(tok)) == stampNone {
				t.Fatalf("isStamp(%q), but %q is no stamp's word", s, tok)
			}
		}
	})
}

// TestBylines: under the corpus policy a byline is never kept, named
// "byline"; a heading that is one is left to its value, and so is every
// block under the article policy.
func TestBylines(t *testing.T) {
	page := `<html><body><div class="post"><p>The council met on Tuesday to approve the budget for the coming year, after a long debate.</p>` +
		`<p>Posted by jamie k at 04:29 PM | <a href="/p">Permalink</a></p></div>` +
		`<h3>Posted by jamie k at 05:12 PM</h3><p>The budget passed by a wide margin after the mayor spoke for an hour.</p></body></html>`
	d, err := Prepare(context.Background(), "bylines.html", []byte(page), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byline := -1
	for i, b := range d.Blocks {
		if strings.HasPrefix(b.Text, "Posted by jamie k at 04:29") {
			byline = i
		}
	}
	if byline < 0 {
		t.Fatalf("no byline block among %d", len(d.Blocks))
	}
	never := NeverKept(d)
	for i, b := range d.Blocks {
		want := ""
		if i == byline {
			want = bylineReason
		}
		got := ""
		if never != nil {
			got = never[i]
		}
		if got != want {
			t.Errorf("block %d (%q): NeverKept %q, want %q", i, b.Text, got, want)
		}
	}
	s := make([]float64, len(d.Blocks))
	for i := range s {
		s[i] = 1
	}
	for _, policy := range []string{classify.PolicyCorpus, classify.PolicyArticle} {
		m := &classify.Model{}
		m.Info.Policy = policy
		keep := Keep(m, d, s, 0)
		for i, k := range keep {
			want := i != byline || policy == classify.PolicyArticle
			if k != want {
				t.Errorf("policy %q: block %d (%q) kept %v, want %v", policy, i, d.Blocks[i].Text, k, want)
			}
		}
	}
}

// FuzzIsByline: isByline never panics, and a byline has a digit and at
// most maxBylineTokens tokens.
func FuzzIsByline(f *testing.F) {
	for _, s := range []string{"Posted by Tim at 5:12 PM", "by 5 pm", "By Don, at 10:46 PM", "posted 15分", "by"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isByline(s) {
			return
		}
		if n := len(strings.Fields(s)); !strings.ContainsAny(asciiDigits(s), "0123456789") || n == 0 || n > maxBylineTokens {
			t.Fatalf("isByline(%q): %d tokens", s, n)
		}
	})
}
