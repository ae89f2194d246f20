package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/train"
)

// pagesHelp documents eval's --pages.
const pagesHelp = "write one JSON line per page to `FILE`: its set, ID, the fold that tested it, word counts and P/R/F as the figures count them (and --versus's), and gold_joined (the gold's words joined at line feeds: README), for finding the pages a model loses on"

// pageLine is one line of eval --pages.
type pageLine struct {
	Set  string `json:"set"`
	ID   string `json:"id"`
	Fold string `json:"fold,omitempty"` // --cv, --nested, --by-set: the fold (or held-out set) that tested it
	// Error says why the page could not be prepared; it is scored as
	// empty output.
	Error string `json:"error,omitempty"`
	// Joined counts the gold's words that join two words of the page's
	// source across a line feed (gold.Gold.SplitLineFeedJoins): no
	// output matches them.
	Joined int `json:"gold_joined,omitempty"`
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
			l := pageLine{Set: s.Set, ID: s.ID, Fold: results[i].Fold, Joined: results[i].Example.Joined, pageFigures: figuresOf(s)}
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

// checkOutputPath fails early, before any page is cleaned, when --pages
// or --blocks (flag) names a file that could not be written: its
// directory is missing or takes no new file, or the path is a directory.
func checkOutputPath(flag, path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("eval", "--%s %s: %v", flag, path, err)
	case !fi.IsDir():
		return usagef("eval", "--%s %s: %s is not a directory", flag, path, dir)
	}
	if err := checkWritable(path); err != nil {
		return usagef("eval", "--%s %s: %v", flag, path, err)
	}
	return checkOutKind("eval", "--"+flag, path, false)
}

// savePages writes eval --pages and --blocks when they were given and
// says on stderr where they went; ps and vres as for writePageFigures.
func savePages(nf *nestedFlags, results []train.PageResult, ps []train.PageScore, vres []train.PageResult, stderr io.Writer) error {
	if nf.pages != "" {
		if err := writePageFigures(nf.pages, results, ps, vres); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "fiasco eval: %s figures written to %s\n", pagesOf(len(results)), nf.pages)
	}
	if nf.blocks != "" {
		n, err := writeBlockLines(nf.blocks, results, vres)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "fiasco eval: %d blocks' decisions written to %s\n", n, nf.blocks)
	}
	return nil
}

// blocksHelp documents eval's --blocks.
const blocksHelp = "write one JSON line per block to `FILE`: its page's set, ID and fold, the block's number, parent and element, its words, the share of them the gold alignment counts as content, the decision value, the threshold it was cut at and whether it was kept (and --versus's), and its text, for finding the blocks a model loses on"

// blockLine is one line of eval --blocks.
type blockLine struct {
	Set    string  `json:"set"`
	ID     string  `json:"id"`
	Fold   string  `json:"fold,omitempty"`
	Block  int     `json:"block"`
	Parent int     `json:"parent"` // the nearest ancestor block, -1 for none
	Tag    string  `json:"tag"`
	Words  int     `json:"words"` // as the scorer counts them (score.Tokens)
	Gold   float64 `json:"gold"`  // share of the block's words aligned to gold content
	// Value is the block's decision value, Threshold the cut the page's
	// blocks were kept at (the fold's choice under --cv, --nested and
	// --by-set); smoothing and the prose floor may keep a block below it
	// or drop one above it. Both are absent, and Kept false, for a page
	// the model could not decide (eval's stderr says why).
	Value     *float64 `json:"value,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	Kept      bool     `json:"kept"`
	// The same from --versus's model.
	VersusValue     *float64 `json:"versus_value,omitempty"`
	VersusThreshold *float64 `json:"versus_threshold,omitempty"`
	VersusKept      *bool    `json:"versus_kept,omitempty"`
	Text            string   `json:"text"`
}

// writeBlockLines writes eval --blocks: a line per block of every page
// that was prepared (a page that failed has none; --pages names its
// error), pages in the results' order, blocks in document order. vres,
// when not nil, are --versus's results on the same pages. It returns the
// number of lines.
func writeBlockLines(path string, results []train.PageResult, vres []train.PageResult) (int, error) {
	n := 0
	// Six decimals, as clean --format json writes decision values.
	r6 := func(x float64) float64 { return math.Round(x*1e6) / 1e6 }
	ptr := func(x float64) *float64 { return &x }
	err := writeOutput(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false) // the blocks' text as it reads
		for i, r := range results {
			e := r.Example
			if e == nil || e.Doc == nil {
				continue
			}
			nb := len(e.Doc.Blocks)
			if len(e.Share) != nb {
				return fmt.Errorf("%s %s: %d gold shares for %d blocks", e.Set, e.ID, len(e.Share), nb)
			}
			// decided reports whether pr has a decision for every block
			// (false: the model could not decide the page).
			decided := func(pr train.PageResult) (bool, error) {
				switch {
				case pr.Score == nil && pr.Keep == nil:
					return false, nil
				case len(pr.Score) != nb || len(pr.Keep) != nb:
					return false, fmt.Errorf("%s %s: %d values and %d decisions for %d blocks", e.Set, e.ID, len(pr.Score), len(pr.Keep), nb)
				}
				return true, nil
			}
			ok, err := decided(r)
			if err != nil {
				return err
			}
			vok := false
			if vres != nil {
				if vok, err = decided(vres[i]); err != nil {
					return err
				}
			}
			for k, b := range e.Doc.Blocks {
				l := blockLine{Set: e.Set, ID: e.ID, Fold: r.Fold, Block: b.ID, Parent: b.Parent,
					Words: len(score.Tokens(b.Text, score.Options{})), Gold: r6(e.Share[k]), Text: b.Text}
				if b.Node != nil {
					l.Tag = b.Node.Data
				}
				if ok {
					l.Value, l.Threshold, l.Kept = ptr(r6(r.Score[k])), ptr(r6(r.Threshold)), r.Keep[k]
				}
				if vok {
					v := vres[i]
					kept := v.Keep[k]
					l.VersusValue, l.VersusThreshold, l.VersusKept = ptr(r6(v.Score[k])), ptr(r6(v.Threshold)), &kept
				}
				if err := enc.Encode(l); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	return n, err
}

// pagesOf is the possessive of n pages: "1 page's", "2 pages'".
func pagesOf(n int) string {
	if n == 1 {
		return "1 page's"
	}
	return fmt.Sprintf("%d pages'", n)
}
