package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/train"
)

func init() {
	register(&command{
		name:    "oracle",
		summary: "score the output of gold-labelled blocks (the oracle) and of keeping all blocks",
		run:     runOracle,
	})
}

const oracleHelp = `usage: fiasco oracle --data DIR [--data DIR...] [options]

Prepares every page of the data sets as fiasco clean does (without
rendering), labels its blocks by the gold alignment and scores the output
of the blocks labelled clean (the oracle: what a perfect block classifier
reaches) and of keeping all blocks, as the CleanEval scorer does.`

// oracleOptions are runOracle's flags past the data sets.
type oracleOptions struct {
	align                                         gold.AlignOptions
	threshold                                     float64
	unwrapKW, splitBR, unlabelled, entities, dice bool
	outDir                                        string
	mixed, worst                                  int
}

func runOracle(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("oracle", oracleHelp)
	var df dataFlags
	df.add(fs)
	var o oracleOptions
	fs.Float64Var(&o.threshold, "threshold", gold.Threshold, "share of gold words that makes a block clean")
	fold := fs.Bool("fold", gold.DefaultAlign.Fold, "lowercase tokens for alignment")
	strip := fs.Bool("strip", gold.DefaultAlign.Strip, "keep only letters and digits of tokens for alignment")
	minRun := fs.Int("minrun", gold.DefaultAlign.MinRun, "discard matched runs shorter than this unless they cover whole blocks")
	autoJunk := fs.Bool("autojunk", gold.DefaultAlign.AutoJunk, "difflib's popular-word rule in the alignment")
	uncertain := fs.Bool("uncertain", false, "KrdWrd: count tag 2 (uncertain) as content")
	fs.BoolVar(&o.unwrapKW, "unwrap-kw", false, "replace <kw> elements by their children before finding blocks")
	fs.BoolVar(&o.unlabelled, "unlabelled", false, "score segment markers without their type (all <p>)")
	fs.StringVar(&o.outDir, "o", "", "write each page's oracle output (CleanEval format) to this directory as <set>/<id>.txt")
	fs.IntVar(&o.mixed, "mixed", 0, "report the words in blocks whose gold share is between 0.1 and 0.9, with N examples")
	fs.BoolVar(&o.splitBR, "split-br", false, "experiment: wrap each <br>-separated line of a non-inline element in a <div> before finding blocks")
	fs.BoolVar(&o.entities, "entities", false, "decode HTML character references in output and gold before scoring")
	fs.BoolVar(&o.dice, "dice", false, "label blocks by FIASCO's Dice overlap of gold segments and subtrees instead of the word alignment")
	fs.IntVar(&o.worst, "worst", 0, "list the N pages with the lowest oracle F, of those below 100")
	quiet := fs.Bool("q", false, "no progress bar")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := noArgs(fs, pos); err != nil {
		return err
	}
	if err := df.check(); err != nil {
		return err
	}
	if o.outDir != "" {
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return usagef("oracle", "-o %s: %v", o.outDir, errors.Unwrap(err))
		}
	}
	// A set that is not there is a mistake of the command line, refused
	// before any work (exit 1, as train and eval do); a set that is there
	// and fails fails alone, the others scored (exit 3). After -o, whose
	// mistakes are the command line's (exit 2), before --skip-pages says
	// anything.
	for _, dir := range df.dirs {
		if fi, err := os.Stat(dir); errors.Is(err, iofs.ErrNotExist) {
			return fmt.Errorf("%s: no such directory", dir)
		} else if err != nil {
			return err
		} else if !fi.IsDir() {
			return fmt.Errorf("%s: not a directory (a data set is a directory with html/ and gold/)", dir)
		}
	}
	o.align = gold.AlignOptions{Fold: *fold, Strip: *strip, MinRun: *minRun, AutoJunk: *autoJunk, AutoJunkAbove: gold.DefaultAlign.AutoJunkAbove}
	failed := 0
	header := false
	skipped := map[string]int{}
	defer func() { // what --skip-pages left out, over all the sets
		for _, pat := range df.skip {
			if n := skipped[pat]; n > 0 {
				fmt.Fprintf(stderr, "fiasco oracle: --skip-pages %s left out %s\n", pat, plural(n, "page"))
			} else {
				fmt.Fprintf(stderr, "fiasco oracle: warning: --skip-pages %s matches no page\n", pat)
			}
		}
	}()
	for _, dir := range df.dirs {
		// The pages go through pipeline.Prepare, as fiasco clean's do.
		opt := df.options(pipeline.PrepareOptions{})
		opt.Gold.Uncertain = *uncertain
		bar := newProgress(stderr, "load", "pages", 0, *quiet)
		opt.Each = bar.Update
		var pageErrs []string
		opt.OnError = func(page string, err error) { pageErrs = append(pageErrs, pageFailed(page, err)) }
		var orphans []gold.Orphan
		opt.OnUnpaired = func(o gold.Orphan) { orphans = append(orphans, o) }
		opt.OnSkip = func(_, _, pat string) { skipped[pat]++ }
		var warnings []string
		opt.OnWarning = func(msg string) { warnings = append(warnings, msg) }
		ex, err := train.LoadData(ctx, []string{dir}, opt)
		bar.Done()
		for _, w := range warnings {
			fmt.Fprintf(stderr, "fiasco oracle: warning: %s\n", w)
		}
		for _, o := range orphans {
			fmt.Fprintf(stderr, "fiasco oracle: skipped %s: %s\n", o.Path, o.Why)
		}
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(stderr, "fiasco oracle: %v\n", err)
			failed++
			continue
		}
		for _, m := range pageErrs {
			fmt.Fprintf(stderr, "fiasco oracle: page failed: %s\n", m)
		}
		failed += len(pageErrs)
		printHeader := func() {
			if !header { // once, before the first set's rows: not above an error alone
				header = true
				fmt.Fprintf(stdout, "%-18s %5s %-9s %6s %6s %6s | %6s %6s %6s | %6s %6s\n",
					"set", "pages", "output", "microP", "microR", "microF", "macroP", "macroR", "macroF", "F+tags", "tagF")
			}
		}
		failed += oracleSet(dir, ex, o, printHeader, stdout, stderr)
	}
	if failed > 0 {
		return &failedError{n: failed, what: "pages or data sets"}
	}
	return nil
}

// oracleSet scores the pages of one data set and prints its rows. It
// returns how many pages failed.
func oracleSet(dir string, ex []*train.Example, o oracleOptions, header func(), stdout, stderr io.Writer) int {
	failed := 0
	var orc, orcT, all, allT []score.Result
	type pageF struct {
		id string
		f  float64
	}
	var pf []pageF
	var mixedWords, allWords int
	var mixedEx []string
	name := gold.SetName(dir)
	for i, e := range ex {
		ex[i] = nil // one page at a time: let the others' documents go
		orcR, allR, text, err := oraclePage(e, o, func(b *blocks.Block, s float64) {
			n := len(strings.Fields(b.Text))
			allWords += n
			if s > 0.1 && s < 0.9 {
				mixedWords += n
				if len(mixedEx) < o.mixed {
					t := b.Text
					if len(t) > 160 {
						t = t[:160] + "..."
					}
					mixedEx = append(mixedEx, fmt.Sprintf("%s block %d <%s> %.2f %q", e.ID, b.ID, b.Node.Data, s, t))
				}
			}
		})
		if err == nil && o.outDir != "" {
			d := filepath.Join(o.outDir, name)
			if err = os.MkdirAll(d, 0o755); err == nil {
				err = os.WriteFile(filepath.Join(d, e.ID+".txt"), []byte(text), 0o644)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "fiasco oracle: %s: %v\n", e.ID, err)
			failed++
			continue
		}
		orc, orcT = append(orc, orcR[0]), append(orcT, orcR[1])
		all, allT = append(all, allR[0]), append(allT, allR[1])
		pf = append(pf, pageF{e.ID, orcR[0].F})
	}
	row := func(label string, rs, rt []score.Result) {
		mi, ma, mt := score.Micro(rs), score.Macro(rs), score.Micro(rt)
		fmt.Fprintf(stdout, "%-18s %5d %-9s %6.2f %6.2f %6.2f | %6.2f %6.2f %6.2f | %6.2f %6.2f\n",
			name, len(rs), label, 100*mi.P, 100*mi.R, 100*mi.F, 100*ma.P, 100*ma.R, 100*ma.F, 100*mt.F, 100*mt.TagF)
	}
	if len(orc) == 0 { // every page failed, here or when loading (counted there)
		fmt.Fprintf(stderr, "fiasco oracle: %s: no page scored\n", name)
		return failed
	}
	header()
	row("oracle", orc, orcT)
	row("keep-all", all, allT)
	if o.mixed > 0 {
		fmt.Fprintf(stdout, "  mixed blocks hold %d of %d words (%.2f%%)\n", mixedWords, allWords, 100*float64(mixedWords)/float64(max(allWords, 1)))
		for _, e := range mixedEx {
			fmt.Fprintf(stdout, "    %s\n", e)
		}
	}
	for k := 0; k < o.worst && k < len(pf); k++ { // the pages below F 100, lowest first
		m := k
		for j := k + 1; j < len(pf); j++ {
			if pf[j].f < pf[m].f {
				m = j
			}
		}
		pf[k], pf[m] = pf[m], pf[k]
		if pf[k].f >= 0.99995 { // shown as 100.00
			break
		}
		fmt.Fprintf(stdout, "  worst %-40s F %6.2f\n", pf[k].id, 100*pf[k].f)
	}
	return failed
}

// oraclePage scores one prepared page: [0] without and [1] with segment
// tags as tokens, for the oracle output and for keeping all blocks. text
// is the oracle output.
func oraclePage(e *train.Example, o oracleOptions, visit func(*blocks.Block, float64)) (orc, all [2]score.Result, text string, err error) {
	page, bs := e.Doc.Page, e.Doc.Blocks
	if o.unwrapKW || o.splitBR {
		// Experiments on the precleaned document: find the blocks anew.
		if o.unwrapKW {
			dom.Unwrap(page.Doc, func(n *html.Node) bool { return n.Data == "kw" })
		}
		if o.splitBR {
			splitLines(page.Doc)
		}
		bs = blocks.Find(page.Doc)
	}
	goldText := e.Gold.Reference()
	var scores []float64
	switch {
	case o.dice:
		scores = gold.LabelDice(bs, e.Gold)
	case o.align == gold.DefaultAlign && len(e.Share) == len(bs) && !o.unwrapKW && !o.splitBR:
		scores = e.Share // LoadData aligned the blocks with these options
	default:
		scores = gold.LabelOptions(bs, e.Gold, o.align)
	}
	for i, b := range bs {
		visit(b, scores[i])
	}
	keep := gold.Labels(scores, o.threshold)
	score := func(keep []bool) (r [2]score.Result, err error) {
		var buf bytes.Buffer
		if err := export.Write(&buf, export.CleanEval, page, bs, keep, nil); err != nil {
			return r, err
		}
		text = buf.String()
		r[0] = score.Score(text, goldText, score.Options{Unlabelled: o.unlabelled, Entities: o.entities})
		r[1] = score.Score(text, goldText, score.Options{Tags: true, Unlabelled: o.unlabelled, Entities: o.entities})
		return r, nil
	}
	if all, err = score(nil); err != nil {
		return orc, all, text, err
	}
	orc, err = score(keep)
	return orc, all, text, err
}

// splitLines wraps the <br>-separated lines of every non-inline element
// that has <br> children in <div> elements.
func splitLines(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		splitLines(c)
	}
	if n.Type != html.ElementNode || blocks.IsInline(n) {
		return
	}
	hasBR := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Br {
			hasBR = true
		}
	}
	if !hasBR {
		return
	}
	var line *html.Node
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (c.DataAtom == atom.Br || !blocks.IsInline(c)) {
			line = nil
		} else {
			if line == nil {
				line = &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
				n.InsertBefore(line, c)
			}
			n.RemoveChild(c)
			line.AppendChild(c)
		}
		c = next
	}
}
