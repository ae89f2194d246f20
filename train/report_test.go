package train

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
)

// TestEvaluateFailed: pages that could not be prepared count as empty
// output, and the report tells a failed rendering from a failed load.
func TestEvaluateFailed(t *testing.T) {
	ex := synthPages(t, "synth", 3, 5)
	var res []PageResult
	for i, e := range ex {
		pr := PageResult{Example: e}
		switch i {
		case 1:
			pr.Example = &Example{Set: e.Set, ID: e.ID, Gold: e.Gold, Err: errors.New("synth/1.html: not HTML")}
		case 2:
			pr.Example = &Example{Set: e.Set, ID: e.ID, Gold: e.Gold, Err: &pipeline.RenderError{Page: "synth/2.html", Err: errors.New("tab crashed")}}
		default:
			pr.Keep = make([]bool, len(e.Doc.Blocks))
			for j, y := range e.Labels() {
				pr.Keep[j] = y > 0
			}
		}
		res = append(res, pr)
	}
	rep, err := Evaluate(res)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 3 || rep.Failed != 2 || rep.RenderFailed != 1 {
		t.Errorf("pages %d, failed %d, render failed %d; want 3, 2, 1", rep.Pages, rep.Failed, rep.RenderFailed)
	}
	// The one page kept exactly by its labels is perfect; the two failed
	// pages' gold words are all missed.
	if m := rep.Model.MicroNoTags; m.P < 0.99 || m.R > 0.5 {
		t.Errorf("micro P %.3f, R %.3f: want P about 1 and R at most a half (two of three pages empty)", m.P, m.R)
	}
	var b strings.Builder
	rep.Print(&b)
	if want := "pages: 3 (1 failed to load and 1 to render, those scored as empty output)"; !strings.Contains(b.String(), want) {
		t.Errorf("report does not say %q:\n%s", want, b.String())
	}
}

// TestEvaluateSplit: the row against the gold with its line-feed joins
// split scores each page once, in step with the others: a page without
// joins as the gold is written, a page with joins against its split gold
// (which its output matches in full), a failed page as empty output.
func TestEvaluateSplit(t *testing.T) {
	ctx := t.Context()
	page := func(eol string) []byte {
		return []byte("<html><body><p>The river rose in the night and by morning" + eol + "the town was under water for the first time in years.</p></body></html>")
	}
	var res []PageResult
	for _, c := range []struct {
		src, gold string
		keep      bool
	}{
		{string(page("\n")), "<p>The river rose in the night and by morningthe town was under water for the first time in years.", true},
		{string(page("\r\n")), "<p>The river rose in the night and by morning the town was under water for the first time in years.", true},
		{string(page("\n")), "<p>The river rose in the night and by morningthe town was under water for the first time in years.", false},
	} {
		g, err := gold.Parse([]byte("URL: http://example.com/\n"+c.gold+"\n"), gold.CleanEval, gold.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := &Example{Set: "s", ID: strconv.Itoa(len(res)), Gold: g}
		if split, n := g.SplitLineFeedJoins([]byte(c.src)); n > 0 {
			e.Joined, e.Split = n, split
		}
		if c.keep {
			if e.Doc, err = pipeline.Prepare(ctx, "page.html", []byte(c.src), pipeline.PrepareOptions{}); err != nil {
				t.Fatal(err)
			}
			e.Share = gold.Label(e.Doc.Blocks, g)
		} else {
			e.Err = errors.New("page.html: not HTML")
		}
		pr := PageResult{Example: e}
		if e.Doc != nil {
			pr.Keep = make([]bool, len(e.Doc.Blocks))
			for i := range pr.Keep {
				pr.Keep[i] = true
			}
		}
		res = append(res, pr)
	}
	rep, err := Evaluate(res)
	if err != nil {
		t.Fatal(err)
	}
	// Each output is the page's 20 words. The first page's gold as written
	// has 19, of which 18 match ("morningthe" does not), the split gold 20,
	// all matched; the second page's 20 all match; the third page's gold
	// counts against its empty output either way, as written (19 words)
	// and split (20).
	if rep.Joined != 2 || rep.JoinedPages != 2 {
		t.Errorf("joined %d words on %d pages, want 2 on 2", rep.Joined, rep.JoinedPages)
	}
	m, s := rep.Model.MicroNoTags, rep.Split
	if m.Matched != 38 || m.OutWords != 40 || m.GoldWords != 58 {
		t.Errorf("as written: matched %d, out %d, gold %d; want 38, 40, 58", m.Matched, m.OutWords, m.GoldWords)
	}
	if s.Matched != 40 || s.OutWords != 40 || s.GoldWords != 60 {
		t.Errorf("split: matched %d, out %d, gold %d; want 40, 40, 60", s.Matched, s.OutWords, s.GoldWords)
	}
	for _, c := range []struct {
		rep  *Report
		want string
	}{
		{rep, "2 gold words on 2 pages join two words"},
		{&Report{Joined: 1, JoinedPages: 1}, "1 gold word on 1 page joins two words"},
		{&Report{}, ""},
	} {
		var b strings.Builder
		c.rep.Print(&b)
		if got := b.String(); c.want == "" && strings.Contains(got, "joins split") || c.want != "" && (!strings.Contains(got, c.want) || !strings.Contains(got, "model micro, gold's joins split")) {
			t.Errorf("report of %d joined words: want %q and the row:\n%s", c.rep.Joined, c.want, got)
		}
	}
}
