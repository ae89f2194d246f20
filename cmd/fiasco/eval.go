package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/train"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score a model (or cross-validated training) against gold data",
		run:     runEval,
	})
}

const evalHelp = `usage: fiasco eval --data DIR [--data DIR...] [--model M | --cv K | --nested OUTER,INNER | --by-set] [options]

Cleans every page of the data sets and scores the output against the gold
standard as the CleanEval scorer does (word-level precision, recall and F,
micro- and macro-averaged, with and without segment tags; segment-tag
figures), beside keeping every block (the baseline) and keeping the blocks
the gold alignment labels clean (the oracle); and node-level accuracy,
precision and recall of the clean class.

With --model (default: the embedded model of --policy) the pages are
cleaned by that model; only pages it was not trained on give honest
figures. Without --policy, a --model is scored under the policy it was
trained for (stderr names the policy the gold was mapped to). With --cv K
the pages are split into K folds and each fold is cleaned by a model trained
on the others (SVM options as for fiasco train).

` + evalNestedHelp + `

` + shrinkingHelp

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", evalHelp)
	df := dataFlags{keepFailed: true}
	df.add(fs)
	mf := addModelFlags(fs.FlagSet)
	mf.strict = true // figures are those of the model the flags name: no text model for want of a browser
	cv := fs.Int("cv", 0, "cross-validate with this many folds over pages instead of using a model")
	sf := addSVMFlags(fs.FlagSet, fiascoNames)
	maxBlocks := fs.Int("max-blocks", 0, "--cv, --nested, --by-set: train on at most this many blocks (0: all)")
	featFlag := fs.String("features", "", featuresHelp)
	keywords := fs.Int("keywords", 100, "--cv, --nested, --by-set: clean and dirty keywords to learn")
	nf := addNestedFlags(fs)
	quiet := fs.Bool("q", false, "no progress bars")
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
	if err := validateModelFlags("eval", mf); err != nil {
		return err
	}
	if err := nf.check(fs, &df, mf); err != nil {
		return err
	}
	if nf.active() {
		return evalNested(ctx, &df, mf, sf, nf, *maxBlocks, *featFlag, *keywords, *quiet, stdout, stderr)
	}
	if *cv < 0 || *cv == 1 {
		return usagef("eval", "--cv %d: want 2 or more folds", *cv)
	}
	if *cv > 0 && mf.model != "" {
		return usagef("eval", "--cv trains a model per fold: it cannot score --model %s", mf.model)
	}
	if *cv > 0 {
		return evalCV(ctx, &df, mf, sf, nf, *cv, *maxBlocks, *featFlag, *keywords, *quiet, stdout, stderr)
	}
	c, stop, err := mf.cleaner(ctx)
	if err != nil {
		return err
	}
	defer stop()
	// Without --policy, mf.cleaner took the model's own policy (mf.policy
	// is df.policy).
	fmt.Fprintf(stderr, "fiasco eval: gold mapped to --policy %s\n", df.policy)
	if nf.cacheDir != "" && c.Prepare.Visual == nil {
		return usagef("eval", "--cache-dir keeps renderings: the model reads no visual features, so nothing renders")
	}
	rend, err := cachedCleaner(ctx, c, mf, nf.cacheDir)
	if err != nil {
		return err
	}
	ex, err := df.load(ctx, c.Prepare, *quiet, stderr)
	if err != nil {
		return err
	}
	if err := rend.loaded(stderr); err != nil {
		return err
	}
	th := c.Model.Threshold
	if c.Threshold != nil {
		th = *c.Threshold
	}
	results := train.Classify(c.Model, ex, th, func(e *train.Example, err error) {
		fmt.Fprintf(stderr, "fiasco eval: %s: %v (counted as empty output)\n", e.Doc.Page.Name, err)
	})
	return reportIntervals(results, nf, sf.seed, stdout)
}

// evalCV cross-validates training by page.
func evalCV(ctx context.Context, df *dataFlags, mf *modelFlags, sf *svmFlags, nf *nestedFlags, folds, maxBlocks int, featFlag string, keywords int, quiet bool, stdout, stderr io.Writer) error {
	params, err := sf.params()
	if err != nil {
		return &usageError{cmd: "eval", err: err}
	}
	feats, err := featureSet(featFlag)
	if err != nil {
		return &usageError{cmd: "eval", err: err}
	}
	if err := checkRenderFeatures(mf.noRender, feats, "eval"); err != nil {
		return err
	}
	var prep pipeline.PrepareOptions
	var rend *cachedRenderer
	if nf.cacheDir != "" && !needsRender(mf.noRender, feats) {
		return usagef("eval", "--cache-dir keeps renderings: --features names no visual feature, so nothing renders")
	}
	if needsRender(mf.noRender, feats) {
		if rend, err = newCachedRenderer(ctx, "eval", &mf.render, nf.cacheDir); err != nil {
			return err
		}
		defer rend.close()
		prep.Visual = rend.v
	}
	ex, err := df.load(ctx, prep, quiet, stderr)
	if err != nil {
		return err
	}
	if err := rend.loaded(stderr); err != nil {
		return err
	}
	th := 0.0
	if mf.thSet {
		th = mf.threshold
	}
	bar := newProgress(stderr, "cv", "folds", folds, quiet)
	results, err := train.CrossValidate(ctx, ex, train.CVOptions{Folds: folds, Seed: sf.seed,
		Train: train.TrainOptions{Params: params, MaxBlocks: maxBlocks, Keywords: keywords, Features: feats, Threshold: th, Seed: sf.seed, Stack: nf.stack},
		Each:  func(done, total int) { bar.Set(done) }})
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d-fold cross-validation over pages, C = %g, gamma = %g\n", folds, params.C, params.Gamma)
	return reportIntervals(results, nf, sf.seed, stdout)
}

func report(results []train.PageResult, stdout io.Writer) error {
	rep, err := train.Evaluate(results)
	if err != nil {
		return err
	}
	rep.Print(stdout)
	return nil
}
