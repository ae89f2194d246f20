package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/pipeline"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score a model (or cross-validated training) against gold data",
		run:     runEval,
	})
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: fiasco eval --data DIR [--data DIR...] [--model M | --cv K] [options]

Cleans every page of the data sets and scores the output against the gold
standard as the CleanEval scorer does (word-level precision, recall and F,
micro- and macro-averaged, with and without segment tags; segment-tag
figures), beside keeping every block (the baseline) and keeping the blocks
the gold alignment labels clean (the oracle); and node-level accuracy,
precision and recall of the clean class.

With --model (default: the embedded model) the pages are cleaned by that
model; only pages it was not trained on give honest figures. With --cv K
the pages are split into K folds and each fold is cleaned by a model trained
on the others (SVM options as for fiasco train).

Options:`)
		fs.PrintDefaults()
	}
	df := dataFlags{keepFailed: true}
	df.add(fs)
	mf := addModelFlags(fs)
	cv := fs.Int("cv", 0, "cross-validate with this many folds over pages instead of using a model")
	sf := addSVMFlags(fs)
	maxBlocks := fs.Int("max-blocks", 0, "--cv: train on at most this many blocks (0: all)")
	featFlag := fs.String("features", "", "features to train on: groups (linguistic, keyword, structural, visual, text, all) and names, comma-separated (default: text, plus visual when rendering)")
	keywords := fs.Int("keywords", 100, "--cv: clean and dirty keywords to learn")
	quiet := fs.Bool("q", false, "no progress bars")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	var results []pipeline.PageResult
	if *cv > 0 {
		params, err := sf.params()
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 2
		}
		feats, err := featureSet(*featFlag)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 2
		}
		var prep pipeline.PrepareOptions
		if needsRender(mf.noRender, feats) {
			v, stop, err := mf.render.visualizer(ctx)
			if err != nil {
				fmt.Fprintf(stderr, "fiasco eval: %v (or pass --no-render)\n", err)
				return 1
			}
			defer stop()
			prep.Visual = v
		}
		ex, err := df.load(ctx, prep, *quiet, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 1
		}
		th := 0.0
		if mf.thSet {
			th = mf.threshold
		}
		bar := newProgress(stderr, "cv", "folds", *cv, *quiet)
		results, err = pipeline.CrossValidate(ctx, ex, pipeline.CVOptions{Folds: *cv, Seed: sf.seed,
			Train: pipeline.TrainOptions{Params: params, MaxBlocks: *maxBlocks, Keywords: *keywords, Features: feats, Threshold: th, Seed: sf.seed},
			Each:  func(done, total int) { bar.Set(done) }})
		bar.Done()
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%d-fold cross-validation over pages, C = %g, gamma = %g\n", *cv, params.C, params.Gamma)
	} else {
		c, stop, err := mf.cleaner(ctx, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 1
		}
		defer stop()
		ex, err := df.load(ctx, c.Prepare, *quiet, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
			return 1
		}
		th := c.Model.Threshold
		if c.Threshold != nil {
			th = *c.Threshold
		}
		results = pipeline.Classify(c.Model, ex, th, func(e *pipeline.Example, err error) {
			fmt.Fprintf(stderr, "fiasco eval: %s: %v (counted as empty output)\n", e.Doc.Page.Name, err)
		})
	}
	rep, err := pipeline.Evaluate(results)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco eval: %v\n", err)
		return 1
	}
	rep.Print(stdout)
	return 0
}
