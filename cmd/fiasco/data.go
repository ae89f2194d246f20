package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/train"
)

// limitHelp is the one meaning of --limit, in every command that reads
// data sets (train, eval, features, oracle): train.DataOptions.Limit.
const limitHelp = "use the first N pages of each data set, their IDs sorted as strings: 1, 10, 100, 11, ... (0: all)"

// dataFlags select gold data sets (train, eval, features, oracle).
type dataFlags struct {
	cmd     string // the command, for messages
	dirs    []string
	limit   int
	split   string
	policy  gold.Policy
	workers int
	// policySet: --policy was given.
	policySet bool
	// keepFailed keeps pages that fail to load, for eval to score as empty.
	keepFailed bool
	// sample > 0 takes a seeded sample of that many pages of each set
	// (train.DataOptions.Sample; --extra-pages for the --extra sets).
	sample     int
	sampleSeed uint64
	// skip: --skip-pages patterns (train.DataOptions.Skip); skipSets: the
	// set directories they may name (--data and --extra; nil: --data).
	skip, skipSets []string
	// failed counts the pages that failed to load (or, in eval, to be
	// classified), shared by the copies a command makes for its --extra
	// sets: a command that runs to the end with some returns done's
	// failedError (exit status 1), as fiasco clean does.
	failed *int
	// unscored counts, where keepFailed, the pages that failed and are
	// left out all the same: their gold could not be read.
	unscored int
	// folds > 0 is the number of folds the pages are dealt into (--cv,
	// --nested's outer folds, --folds): load refuses fewer pages before
	// preparing (and rendering) any. foldsFlag names the flag and its value.
	folds     int
	foldsFlag string
	// dealt are pages loaded before these sets that are dealt into the
	// same folds (train --grid's --data pages, when its --extra sets
	// load): counted with them.
	dealt int
	// inner > 0: --nested's inner folds, dealt from the pages an outer
	// fold trains on (all but the largest outer fold's), checked with them.
	inner int
}

// evalDone is done for eval, which says first, after its report on
// stdout, how many pages the report leaves out.
func (d *dataFlags) evalDone(err error, stdout, stderr io.Writer) error {
	if err == nil && d.unscored > 0 {
		fmt.Fprintf(stdout, "\nnot scored above: %s whose gold could not be read (named on stderr)\n", plural(d.unscored, "page"))
	}
	return d.done(err, stderr)
}

// done returns err, or where the command ran to the end with failed
// pages (each named on stderr already), says so on stderr and returns a
// failedError.
func (d *dataFlags) done(err error, stderr io.Writer) error {
	if err == nil && d.failed != nil && *d.failed > 0 {
		fmt.Fprintf(stderr, "fiasco %s: %s failed (named above)\n", d.cmd, plural(*d.failed, "page"))
		return &failedError{n: *d.failed, what: "pages"}
	}
	return err
}

func (d *dataFlags) add(fs *flagSet) {
	d.cmd = fs.cmd
	d.failed = new(int)
	fs.Func("data", "data set directory with html/ and gold/ (repeatable)", func(s string) error {
		d.dirs = append(d.dirs, s)
		return nil
	})
	fs.IntVar(&d.limit, "limit", 0, limitHelp)
	fs.Func("skip-pages", "leave out the pages whose SET/ID matches `PATTERN` (a shell pattern of Go's path.Match, e.g. 'cleanportaleval/bbc.co.uk_*'; SET is a data set directory's last element, ID a page's file name without .html; repeatable)", func(s string) error {
		set, id, ok := strings.Cut(s, "/")
		if _, err := path.Match(s, ""); err != nil || !ok || set == "" || id == "" || strings.Contains(id, "/") {
			return fmt.Errorf("%q: want SET/ID as a shell pattern, e.g. 'cleanportaleval/bbc.co.uk_*'", s)
		}
		d.skip = append(d.skip, s)
		return nil
	})
	fs.StringVar(&d.split, "split", "", "restrict the sets that publish a split (dragnet) to it: training or test; the other sets are used whole")
	d.policy = gold.Corpus
	fs.Var(&policyValue{p: &d.policy, set: &d.policySet}, "policy", policyHelp) // before any model flags: see addModelFlags
	fs.IntVar(&d.workers, "workers", 0, "pages prepared at once (0: one per CPU)")
}

// check reports a missing --data as a usage error.
func (d *dataFlags) check() error {
	if len(d.dirs) == 0 {
		return usagef(d.cmd, "no data: give --data DIR (e.g. --data ../shared/data/cleaneval-en-dev)")
	}
	if d.limit < 0 {
		return usagef(d.cmd, "--limit %d: want 0 (all) or more", d.limit)
	}
	if d.split != "" && d.split != "training" && d.split != "test" {
		return usagef(d.cmd, "--split %q: want training or test", d.split)
	}
	if d.workers < 0 {
		return usagef(d.cmd, "--workers %d: want 0 (one per CPU) or more", d.workers)
	}
	if err := checkDistinct(d.cmd, "--data", d.dirs); err != nil {
		return err
	}
	return d.checkSkip()
}

// checkSkip rejects a --skip-pages pattern whose SET names none of the
// sets read: a typo would leave every page in without a word.
func (d *dataFlags) checkSkip() error {
	sets := d.skipSets
	if sets == nil {
		sets = d.dirs
	}
	var names []string
	for _, dir := range sets {
		names = append(names, gold.SetName(dir))
	}
	for _, pat := range d.skip {
		if !namesSet(pat, sets) {
			return usagef(d.cmd, "--skip-pages %s names no set read here (%s): SET is a data set directory's last element", pat, strings.Join(names, ", "))
		}
	}
	return nil
}

// checkDistinct rejects a data set given twice (by another spelling or
// through a symbolic link too): its pages would count twice, and in
// cross-validation a page could be trained on and scored in one fold.
//
// Sets are named by their directory's last element (in reports, --pages,
// --blocks and folds): two directories of one name would merge into one
// set, so they are rejected too.
func checkDistinct(cmd, flagName string, dirs []string) error {
	names := map[string]string{}
	for i, d := range dirs {
		if sameDirAs(d, dirs[:i]) {
			return usagef(cmd, "%s %s is given twice: each data set once", flagName, d)
		}
		name := gold.SetName(d)
		if first, ok := names[name]; ok {
			return usagef(cmd, "%s %s and %s are both named %s: a set is named by its directory, so rename one (or link it under another name)", flagName, first, d, name)
		}
		names[name] = d
	}
	return nil
}

// sameDirAs reports whether dir is one of dirs: the same directory on
// disk, or, where either cannot be read, the same path.
func sameDirAs(dir string, dirs []string) bool {
	fi, err := os.Stat(dir)
	for _, o := range dirs {
		if filepath.Clean(o) == filepath.Clean(dir) {
			return true
		}
		if err != nil {
			continue
		}
		if fo, err := os.Stat(o); err == nil && os.SameFile(fi, fo) {
			return true
		}
	}
	return false
}

// options returns the train.DataOptions the flags select.
func (d *dataFlags) options(prep pipeline.PrepareOptions) train.DataOptions {
	opt := train.DataOptions{Prepare: prep, Workers: d.workers, Limit: d.limit, Split: d.split, KeepFailed: d.keepFailed,
		Sample: d.sample, SampleSeed: d.sampleSeed, Skip: d.skip}
	opt.Gold = d.policy.Options()
	if d.folds > 0 {
		opt.Listed = func(pages int) error {
			if pages == 0 {
				return nil // the load says why (--split, --skip-pages)
			}
			if pages+d.dealt < d.folds {
				return usagef(d.cmd, "%s: %d folds for %s: each fold needs a page at least (fewer folds, or more pages)",
					d.foldsFlag, d.folds, plural(pages+d.dealt, "page"))
			}
			if train := pages - (pages+d.folds-1)/d.folds; d.inner > train {
				return usagef(d.cmd, "%s: %d inner folds for the %s an outer fold trains on: each fold needs a page at least (fewer folds, or more pages)",
					d.foldsFlag, d.inner, plural(train, "page"))
			}
			return nil
		}
	}
	return opt
}

// pageFailed is the message for a page that could not be used.
func pageFailed(page string, err error) string {
	msg := firstLine(err.Error())
	if !strings.Contains(msg, page) {
		msg = page + ": " + msg
	}
	return msg
}

// load prepares and aligns the pages of the data sets, reporting progress
// and failed pages on stderr.
func (d *dataFlags) load(ctx context.Context, prep pipeline.PrepareOptions, quiet bool, stderr io.Writer) ([]*train.Example, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	bar := newProgress(stderr, "load", "pages", 0, quiet)
	opt := d.options(prep)
	opt.Each = bar.Update
	var failed []string
	opt.OnError = func(page string, err error) { failed = append(failed, pageFailed(page, err)) }
	var orphans []gold.Orphan
	opt.OnUnpaired = func(o gold.Orphan) { orphans = append(orphans, o) }
	skipped := map[string]int{}
	opt.OnSkip = func(_, _, pat string) { skipped[pat]++ }
	var warnings []string
	opt.OnWarning = func(msg string) { warnings = append(warnings, msg) }
	ex, err := train.LoadData(ctx, d.dirs, opt)
	bar.Done()
	for _, w := range warnings {
		fmt.Fprintf(stderr, "fiasco %s: warning: %s\n", d.cmd, w)
	}
	for _, pat := range d.skip {
		// Told where the pattern names one of these sets (the --data and
		// the --extra sets are loaded apart).
		switch n := skipped[pat]; {
		case n > 0:
			fmt.Fprintf(stderr, "fiasco %s: --skip-pages %s left out %s\n", d.cmd, pat, plural(n, "page"))
		case namesSet(pat, d.dirs) && err == nil:
			fmt.Fprintf(stderr, "fiasco %s: warning: --skip-pages %s matches no page\n", d.cmd, pat)
		}
	}
	for _, o := range orphans { // also where a set has no pair: they say why
		fmt.Fprintf(stderr, "fiasco %s: skipped %s: %s\n", d.cmd, o.Path, o.Why)
	}
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		fmt.Fprintf(stderr, "fiasco %s: page failed: %s\n", d.cmd, f)
	}
	if d.failed != nil {
		*d.failed += len(failed)
	}
	if d.keepFailed {
		d.unscored = len(failed)
		for _, e := range ex {
			if e.Err != nil {
				d.unscored--
			}
		}
	}
	blocks := 0
	var noGold, unmatched, truncated []string
	pages := len(ex) + len(failed) // with keepFailed the failed pages are among ex too, to be scored as empty
	for _, e := range ex {
		if e.Gold != nil && len(e.Gold.Words) == 0 {
			noGold = append(noGold, e.Set+"/"+e.ID)
		}
		// Not a page cut at a size limit (said below), nor one without a
		// text block (frames): their gold is not found for other reasons.
		if e.Doc != nil && e.Gold != nil && !e.Doc.Page.Truncated && len(e.Doc.Blocks) > 0 &&
			len(e.Gold.Words) >= unmatchedGoldWords && matchedWords(e) < 0.1*float64(len(e.Gold.Words)) {
			unmatched = append(unmatched, e.Set+"/"+e.ID)
		}
		if e.Doc != nil {
			blocks += len(e.Doc.Blocks)
			if e.Doc.Page.Truncated {
				truncated = append(truncated, e.Set+"/"+e.ID)
			}
		}
		if e.Err != nil {
			pages--
		}
	}
	fmt.Fprintf(stderr, "fiasco %s: %s (%d failed), %s from %s\n", d.cmd, plural(pages, "page"), len(failed), plural(blocks, "block"), strings.Join(d.dirs, ", "))
	if len(orphans) > 0 {
		fmt.Fprintf(stderr, "fiasco %s: %s skipped (named above)\n", d.cmd, plural(len(orphans), "file"))
	}
	if len(noGold) > 0 {
		fmt.Fprintf(stderr, "fiasco %s: warning: %s without a clean word in the gold (%s): every block counts as dirty there\n",
			d.cmd, plural(len(noGold), "page"), listSome(noGold, 3))
	}
	if len(unmatched) > 0 {
		fmt.Fprintf(stderr, "fiasco %s: warning: %s whose gold (%d words or more) matches under a tenth of its words in the page (%s): is the gold another page's, or misnamed?\n",
			d.cmd, plural(len(unmatched), "page"), unmatchedGoldWords, listSome(unmatched, 3))
	}
	if len(truncated) > 0 {
		fmt.Fprintf(stderr, "fiasco %s: %s cut at a size limit (%s; %d bytes, %d tags or %d text blocks): only what came before the cut is used, against the whole gold\n",
			d.cmd, plural(len(truncated), "page"), listSome(truncated, 3), load.DefaultMaxBytes, load.DefaultMaxTags, pipeline.DefaultMaxBlocks)
	}
	if d.policy == gold.Article {
		// Said per set, of the pages whose gold is CleanEval's: a set
		// may mix them with gold of finer labels (annotated pages, or
		// plain text with a COMMENTS line).
		var sets []string
		coarse, all := map[string]int{}, map[string]int{}
		for _, e := range ex {
			if e.Gold == nil {
				continue
			}
			if all[e.Set] == 0 {
				sets = append(sets, e.Set)
			}
			all[e.Set]++
			if e.Gold.Format == gold.CleanEval {
				coarse[e.Set]++
			}
		}
		for _, set := range sets {
			switch n := coarse[set]; {
			case n == 0:
			case n == all[set]:
				fmt.Fprintf(stderr, "fiasco %s: note: %s's gold is clean text without finer labels; under --policy article it counts as it is, comments included\n", d.cmd, set)
			default:
				fmt.Fprintf(stderr, "fiasco %s: note: %d of %s's %d pages have gold of clean text without finer labels (CleanEval's format); under --policy article it counts as it is, comments included\n", d.cmd, n, set, all[set])
			}
		}
	}
	if len(ex) == 0 {
		return nil, errors.New("no usable pages")
	}
	return ex, nil
}

// unmatchedGoldWords is the size of a gold from which the loader warns
// when under a tenth of its words are found in the page's blocks
// (matchedWords): a gold file swapped with another page's, or named after
// the wrong page.
const unmatchedGoldWords = 20

// matchedWords approximates how many of the gold's words the alignment
// found in e's blocks: each block's tokens times its share.
func matchedWords(e *train.Example) float64 {
	var n float64
	for i, s := range e.Share {
		if i < len(e.Doc.Table.Tokens) {
			n += s * float64(len(e.Doc.Table.Tokens[i]))
		}
	}
	return n
}

// noArgs rejects positional arguments, for commands that take none.
func noArgs(fs *flagSet, pos []string) error {
	if len(pos) > 0 {
		return usagef(fs.cmd, "unexpected argument %q (options start with -)", pos[0])
	}
	return nil
}

// policyHelp documents --policy (clean, inspect, train, eval, features, oracle).
const policyHelp = "what to keep: corpus (CleanEval's policy: the page's own running text, headings and lists, comments included; default) or article (the main article only); in train and eval also the mapping of each data set's gold labels"

// policyValue is the --policy flag. Commands with both data and model
// flags (eval) register it once; the model flags then read the same value.
type policyValue struct {
	p   *gold.Policy
	set *bool // given on the command line
}

func (v *policyValue) String() string {
	if v == nil || v.p == nil {
		return gold.Corpus.String()
	}
	return v.p.String()
}

func (v *policyValue) Set(s string) error {
	p, err := gold.ParsePolicy(s)
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "gold: "))
	}
	*v.p = p
	if v.set != nil {
		*v.set = true
	}
	return nil
}

// listSome joins the first n of names, saying how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// namesSet reports whether the SET part of a --skip-pages pattern matches
// the name of one of the set directories dirs.
func namesSet(pat string, dirs []string) bool {
	setPat, _, _ := strings.Cut(pat, "/")
	for _, dir := range dirs {
		if ok, _ := path.Match(setPat, gold.SetName(dir)); ok {
			return true
		}
	}
	return false
}
