package train

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/score"
)

// Scores are word-level figures of a set of pages against their gold.
type Scores struct {
	Micro, Macro             score.Result // words with segment tags as tokens
	MicroNoTags, MacroNoTags score.Result // words only
}

// NodeScores are block-level figures against the aligned gold labels,
// with clean as the positive class.
type NodeScores struct {
	TP, FP, TN, FN int
}

// Accuracy is the share of blocks classified as labelled.
func (n NodeScores) Accuracy() float64 {
	return ratio(n.TP+n.TN, n.TP+n.FP+n.TN+n.FN)
}

// P is the precision of the clean class.
func (n NodeScores) P() float64 { return ratio(n.TP, n.TP+n.FP) }

// R is the recall of the clean class.
func (n NodeScores) R() float64 { return ratio(n.TP, n.TP+n.FN) }

// F is the F1 of the clean class.
func (n NodeScores) F() float64 {
	p, r := n.P(), n.R()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Report compares classified pages with their gold standard, beside two
// references on the same pages: keeping every block (the baseline, no
// cleaning) and keeping exactly the blocks labelled clean by the gold
// alignment (the oracle, the best any block classifier can do).
type Report struct {
	Pages  int
	Failed int // pages that could not be prepared, scored as empty output
	// RenderFailed counts those of them whose rendering failed (a
	// *pipeline.RenderError: the browser crashed or timed out on them).
	RenderFailed int
	Model        Scores
	Baseline     Scores
	Oracle       Scores
	Nodes        NodeScores
	// Joined counts the gold words, on JoinedPages pages, that join two
	// words of a page's source across a line feed
	// (gold.Gold.SplitLineFeedJoins), and Split is the model's micro
	// figures without segment tags against the gold with them split.
	Joined, JoinedPages int
	Split               score.Result
}

// Evaluate scores the results. A page whose result has no Keep (its
// cleaning failed) counts as an empty output.
func Evaluate(results []PageResult) (*Report, error) {
	var r Report
	var m, b, o, mn, bn, on, sp []score.Result
	for _, pr := range results {
		e := pr.Example
		// The gold file as the CleanEval scorer reads it (CleanEval format),
		// or the clean text rendered in that format (the other formats).
		g := e.Gold.Reference()
		// The gold with its words joined at line feeds split, for the
		// model's row against it (the same as g where there are none).
		split := g
		if e.Joined > 0 {
			split = e.Split
			r.Joined += e.Joined
			r.JoinedPages++
		}
		if e.Doc == nil { // the page failed to load: empty output all round
			for _, rs := range []*[]score.Result{&m, &b, &o} {
				*rs = append(*rs, score.Score("", g, score.Options{Tags: true}))
			}
			for _, rs := range []*[]score.Result{&mn, &bn, &on} {
				*rs = append(*rs, score.Score("", g, score.Options{}))
			}
			sp = append(sp, score.Score("", split, score.Options{}))
			r.Pages++
			r.Failed++
			var re *pipeline.RenderError
			if errors.As(e.Err, &re) {
				r.RenderFailed++
			}
			continue
		}
		all := make([]bool, len(e.Doc.Blocks))
		for i := range all {
			all[i] = true
		}
		labels := e.Labels()
		oracle := make([]bool, len(labels))
		for i, y := range labels {
			oracle[i] = y > 0
		}
		keep := pr.Keep
		if keep == nil {
			keep = make([]bool, len(e.Doc.Blocks))
		}
		for i, y := range labels {
			switch {
			case keep[i] && y > 0:
				r.Nodes.TP++
			case keep[i]:
				r.Nodes.FP++
			case y > 0:
				r.Nodes.FN++
			default:
				r.Nodes.TN++
			}
		}
		for _, c := range []struct {
			keep              []bool
			tags, none, split *[]score.Result // split: against split (the model's only)
		}{{keep, &m, &mn, &sp}, {all, &b, &bn, nil}, {oracle, &o, &on, nil}} {
			var buf bytes.Buffer
			if err := export.Write(&buf, export.CleanEval, e.Doc.Page, e.Doc.Blocks, c.keep, nil); err != nil {
				return nil, fmt.Errorf("%s: %w", e.Doc.Page.Name, err)
			}
			*c.tags = append(*c.tags, score.Score(buf.String(), g, score.Options{Tags: true}))
			none := score.Score(buf.String(), g, score.Options{})
			*c.none = append(*c.none, none)
			if c.split == nil {
				continue
			}
			if e.Joined > 0 {
				none = score.Score(buf.String(), split, score.Options{})
			}
			*c.split = append(*c.split, none)
		}
		r.Pages++
	}
	agg := func(t, n []score.Result) Scores {
		return Scores{score.Micro(t), score.Macro(t), score.Micro(n), score.Macro(n)}
	}
	r.Model, r.Baseline, r.Oracle = agg(m, mn), agg(b, bn), agg(o, on)
	r.Split = score.Micro(sp)
	return &r, nil
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) {
	if r.RenderFailed > 0 {
		fmt.Fprintf(w, "pages: %d (%d failed to load and %d to render, those scored as empty output)\n\n", r.Pages, r.Failed-r.RenderFailed, r.RenderFailed)
	} else {
		fmt.Fprintf(w, "pages: %d (%d failed to load, those scored as empty output)\n\n", r.Pages, r.Failed)
	}
	fmt.Fprintf(w, "%-37s%6s %6s %6s\n", "word level (CleanEval scorer)", "P", "R", "F")
	row := func(name string, x score.Result) {
		fmt.Fprintf(w, "  %-34s %6.2f %6.2f %6.2f\n", name, 100*x.P, 100*x.R, 100*x.F)
	}
	for _, s := range []struct {
		name string
		sc   Scores
	}{{"model", r.Model}, {"baseline (keep all)", r.Baseline}, {"oracle (gold labels)", r.Oracle}} {
		row(s.name+" micro", s.sc.MicroNoTags)
		row(s.name+" macro", s.sc.MacroNoTags)
		row(s.name+" micro, tags", s.sc.Micro)
		row(s.name+" macro, tags", s.sc.Macro)
		if s.name == "model" && r.Joined > 0 {
			row("model micro, gold's joins split", r.Split)
		}
	}
	fmt.Fprintf(w, "\n%-37s%6s %6s %6s\n", "segment tags", "P", "R", "F")
	for _, s := range []struct {
		name string
		sc   Scores
	}{{"model", r.Model}, {"oracle", r.Oracle}} {
		x := s.sc.Micro
		fmt.Fprintf(w, "  %-34s %6.2f %6.2f %6.2f\n", s.name, 100*x.TagP, 100*x.TagR, 100*x.TagF)
	}
	if r.Joined > 0 {
		words, pages, verb := "words", "pages", "join"
		if r.Joined == 1 {
			words, verb = "word", "joins"
		}
		if r.JoinedPages == 1 {
			pages = "page"
		}
		fmt.Fprintf(w, "\n(gold's joins split: %d gold %s on %d %s %s two words of the page's source across a line feed, as CleanEval's gold does where a line ends in LF alone (its annotation tool dropped those line feeds); no output that shows the page's words matches them; that row scores against the gold with them split: gold.Gold.SplitLineFeedJoins)\n", r.Joined, words, r.JoinedPages, pages, verb)
	}
	n := r.Nodes
	fmt.Fprintf(w, "\nnode level (clean class)   accuracy %.2f  P %.2f  R %.2f  F %.2f  (TP %d FP %d TN %d FN %d)\n",
		100*n.Accuracy(), 100*n.P(), 100*n.R(), 100*n.F(), n.TP, n.FP, n.TN, n.FN)
}
