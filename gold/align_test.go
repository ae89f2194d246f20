package gold

import (
	"math"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
)

func findBlocks(t *testing.T, page string) []*blocks.Block {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return blocks.Find(doc)
}

// byText maps the first words of each block's text to its score.
func byText(bs []*blocks.Block, sc []float64) map[string]float64 {
	m := map[string]float64{}
	for i, b := range bs {
		m[b.Text] = sc[i]
	}
	return m
}

const page = `<html><body>
<div><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About the site</a></div>
<h1>The Story Of The Day</h1>
<table><tr><td>Intro to the story, which goes on
<blockquote>A quoted passage that the story cites at length.</blockquote>
and the rest of the story after the quote, about the news of the day.</td></tr></table>
<div>Related: the news of the day in other places</div>
<p>Copyright the site, all rights reserved.</p>
</body></html>`

func TestLabelCleanEval(t *testing.T) {
	g, err := Parse([]byte("URL: x\n<h>The Story of the Day\n<p>Intro to the story, which goes on\n"+
		"<p>A quoted passage that the story cites at length.\n"+
		"<p>and the rest of the story after the quote, about the news of the day.\n"), CleanEval, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs := findBlocks(t, page)
	sc := Label(bs, g)
	m := byText(bs, sc)
	checks := map[string]float64{
		"Home | News | About the site":                     0,
		"The Story Of The Day":                             1,
		"A quoted passage that the story cites at length.": 1,
		"Related: the news of the day in other places":     0,
		"Copyright the site, all rights reserved.":         0,
	}
	for text, want := range checks {
		got, ok := m[text]
		if !ok {
			t.Fatalf("no block %q in %v", text, m)
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%q: score %.2f, want %.0f", text, got, want)
		}
	}
	// The <td> is interrupted by the <blockquote>: both of its runs must
	// align, which needs the page words in reading order.
	for text, s := range m {
		if strings.HasPrefix(text, "Intro") && s != 1 {
			t.Errorf("td score %.2f, want 1", s)
		}
	}
	keep := Labels(sc, Threshold)
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d blocks kept, want 3", n)
	}
}

func TestLabelAnnotated(t *testing.T) {
	// The annotated page: the same text with labels; the nav words "news"
	// and "the" also occur in the clean text, but the full-page alignment
	// puts them where they belong.
	ann := `<html><body><div><span class="x-nc-sel0">Home | News | About the site</span></div>
<h1><span class="x-nc-sel1">The Story Of The Day</span></h1>
<table><tr><td><span class="x-nc-sel2">Intro to the story, which goes on</span>
<blockquote><span class="x-nc-sel2">A quoted passage that the story cites at length.</span></blockquote>
<span class="x-nc-sel2">and the rest of the story after the quote, about the news of the day.</span></td></tr></table>
<div><span class="x-nc-sel4">Related: the news of the day in other places</span></div>
<p><span class="x-nc-sel0">Copyright the site, all rights reserved.</span></p></body></html>`
	g, err := Parse([]byte(ann), L3S, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs := findBlocks(t, page)
	sc := Label(bs, g)
	for i, b := range bs {
		want := 0.0
		if strings.HasPrefix(b.Text, "The Story") || strings.HasPrefix(b.Text, "Intro") || strings.HasPrefix(b.Text, "A quoted") {
			want = 1
		}
		if math.Abs(sc[i]-want) > 1e-9 {
			t.Errorf("%q: score %.2f, want %.0f", b.Text, sc[i], want)
		}
	}
}

func TestLabelMinRun(t *testing.T) {
	// A lone gold word inside a boilerplate block does not count with
	// MinRun 2; a one-word block that is all gold does.
	bs := findBlocks(t, `<html><body><div>Login Search Register</div><p>Fresh words in a row</p><p>Contact</p></body></html>`)
	g, _ := Parse([]byte("URL: x\n<h>Search\n<p>Fresh words in a row\n<p>Contact\n"), CleanEval, Options{})
	opt := DefaultAlign
	for _, c := range []struct {
		minRun int
		want   []float64
	}{{2, []float64{0, 1, 1}}, {1, []float64{1.0 / 3, 1, 1}}} {
		opt.MinRun = c.minRun
		sc := LabelOptions(bs, g, opt)
		for i := range c.want {
			if math.Abs(sc[i]-c.want[i]) > 1e-9 {
				t.Fatalf("MinRun %d: scores %v, want %v", c.minRun, sc, c.want)
			}
		}
	}
}

func TestNormalize(t *testing.T) {
	o := AlignOptions{Fold: true, Strip: true}
	for in, want := range map[string]string{"Kosovo’s": "kosovos", "Kosovo?s": "kosovos", "|": "|", "--": "--", "ÉTÉ,": "été"} {
		if got := o.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLabelDice(t *testing.T) {
	g, err := Parse([]byte("URL: x\n<h>The Story of the Day\n<p>Intro to the story, which goes on\n"+
		"A quoted passage that the story cites at length.\n"+
		"and the rest of the story after the quote, about the news of the day.\n"), CleanEval, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs := findBlocks(t, page)
	sc := LabelDice(bs, g)
	for i, b := range bs {
		// The <td> subtree (with its blockquote) is the best place of the
		// long paragraph, so both are clean; the heading matches the <h1>.
		want := 0.0
		if strings.HasPrefix(b.Text, "The Story") || strings.HasPrefix(b.Text, "Intro") || strings.HasPrefix(b.Text, "A quoted") {
			want = 1
		}
		if sc[i] != want {
			t.Errorf("%q: Dice label %.0f, want %.0f", b.Text, sc[i], want)
		}
	}
}
