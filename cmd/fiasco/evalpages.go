package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
// order. ps are the results' scores when the caller has them (nil: they
// are computed); vres, when not nil, are --versus's results on the same
// pages.
func writePageFigures(path string, results []train.PageResult, ps []train.PageScore, vres []train.PageResult) error {
	var err error
	if ps == nil {
		if ps, err = train.ScorePages(results); err != nil {
			return err
		}
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
			l := pageLine{Set: s.Set, ID: s.ID, Fold: results[i].Fold, pageFigures: figuresOf(s)}
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

// checkPagesPath fails early, before any page is cleaned, when --pages
// names a file whose directory does not exist.
func checkPagesPath(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("eval", "--pages %s: %v", path, err)
	case !fi.IsDir():
		return usagef("eval", "--pages %s: %s is not a directory", path, dir)
	}
	return nil
}

// savePages writes eval --pages when it was given (path not empty) and
// says on stderr where it went; ps and vres as for writePageFigures.
func savePages(path string, results []train.PageResult, ps []train.PageScore, vres []train.PageResult, stderr io.Writer) error {
	if path == "" {
		return nil
	}
	if err := writePageFigures(path, results, ps, vres); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "fiasco eval: %d pages' figures written to %s\n", len(results), path)
	return nil
}
