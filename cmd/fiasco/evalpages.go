package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/train"
)

// pagesHelp documents eval's --pages.
const pagesHelp = "write one JSON line per page to `FILE`: its set, ID, the fold that tested it, word counts and P/R/F as the figures count them (and --versus's), for finding the pages a model loses on"

// pageLine is one line of eval --pages.
type pageLine struct {
	Set  string `json:"set"`
	ID   string `json:"id"`
	Fold string `json:"fold,omitempty"` // --cv, --nested, --by-set: the fold (or held-out set) that tested it
	// Error says why the page could not be prepared; it is scored as
	// empty output.
	Error string `json:"error,omitempty"`
	pageFigures
	Versus *pageFigures `json:"versus,omitempty"`
}

// pageFigures are one model's figures on one page: word counts as the
// CleanEval scorer makes them (segment tags dropped), P, R and F in
// percent, and the blocks kept of those labelled clean by the gold.
type pageFigures struct {
	Gold    int     `json:"gold_words"`
	Out     int     `json:"out_words"`
	Matched int     `json:"matched_words"`
	P       float64 `json:"p"`
	R       float64 `json:"r"`
	F       float64 `json:"f"`
	Blocks  int     `json:"blocks"`
	Kept    int     `json:"kept"`
	Clean   int     `json:"clean"` // blocks the gold alignment labels clean
	TP      int     `json:"kept_clean"`
}

func figuresOf(s train.PageScore) pageFigures {
	w, n := s.Words, s.Nodes
	r2 := func(x float64) float64 { return float64(int(x*10000+0.5)) / 100 }
	return pageFigures{Gold: w.Gold, Out: w.Out, Matched: w.Matched, P: r2(w.P()), R: r2(w.R()), F: r2(w.F()),
		Blocks: n.TP + n.FP + n.TN + n.FN, Kept: n.TP + n.FP, Clean: n.TP + n.FN, TP: n.TP}
}

// writePageFigures writes eval --pages: a line per result, in the results'
// order. fold names each result's fold (nil: none); vres, when not nil,
// are --versus's results on the same pages.
func writePageFigures(path string, results, vres []train.PageResult, fold []string) error {
	ps, err := train.ScorePages(results)
	if err != nil {
		return err
	}
	var vs []train.PageScore
	if vres != nil {
		if vs, err = train.ScorePages(vres); err != nil {
			return err
		}
	}
	return writeOutput(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for i, s := range ps {
			l := pageLine{Set: s.Set, ID: s.ID, pageFigures: figuresOf(s)}
			if fold != nil {
				l.Fold = fold[i]
			}
			if e := results[i].Example; e.Err != nil {
				l.Error = firstLine(e.Err.Error())
			}
			if vs != nil {
				v := figuresOf(vs[i])
				l.Versus = &v
			}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return nil
	})
}

// nestedFolds names the fold that tested each result of a nested run.
func nestedFolds(res *train.NestedResult) []string {
	fold := make([]string, len(res.Results))
	for _, f := range res.Folds {
		for _, j := range f.Test {
			fold[j] = f.Name
		}
	}
	return fold
}

// pagesWritten says on stderr where --pages went.
func pagesWritten(stderr io.Writer, path string, n int) {
	fmt.Fprintf(stderr, "fiasco eval: %d pages' figures written to %s\n", n, path)
}
