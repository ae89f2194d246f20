package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
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
figures (eval warns when a scored set has the name of one the model, or
--versus's, trained on, as --data or --extra, unless it scores the other
--split). Without --policy, a --model is scored under the policy it was
trained for (stderr names the policy the gold was mapped to). --versus M
scores a second model on the same pages (a file, or text or rendered: the
policy's embedded ones) and prints the paired differences, the first
model minus the second, with 95% intervals from a bootstrap that draws
the same pages for both (--bootstrap resamples, default 1000); when the
second reads visual features the first must too, so that the pages are
rendered (--render --versus text, not --no-render --versus rendered).
With --cv K
the pages are split into K folds and each fold is cleaned by a model trained
on the others (SVM options as for fiasco train).

` + evalNestedHelp + `

A page that fails to load or to be classified is named on stderr and
scored as empty output, except where its gold cannot be read: such a page
cannot be scored and is left out, of --pages and --blocks too (as are
failed pages of --extra sets).
The report is still printed, and the exit status is then 3.

` + shrinkingHelp

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", evalHelp)
	df := dataFlags{keepFailed: true}
	df.add(fs)
	mf := addModelFlags(fs.FlagSet)
	mf.strict = true // figures are those of the model the flags name: no text model for want of a browser
	cv := fs.Int("cv", 0, "cross-validate with this many folds over pages (or sites: --folds-by) instead of using a model")
	sf := addSVMFlags(fs.FlagSet, fiascoNames)
	sf.addMaxSV(fs.FlagSet, "--cv, --nested, --by-set: ", "; with visual features, the text model trained beside the visual one in each fold is cut as the embedded text model was, not to N")
	maxBlocks := fs.Int("max-blocks", 0, "--cv, --nested, --by-set: train on at most this many blocks (0: all)")
	featFlag := fs.String("features", "", featuresHelp)
	keywords := fs.Int("keywords", 100, "--cv, --nested, --by-set: clean and dirty keywords to learn")
	nf := addNestedFlags(fs)
	versus := fs.String("versus", "", "also score `MODEL` (a file, or text or rendered: the policy's embedded model) on the same pages and print the paired differences with bootstrap intervals (not with --cv, --nested, --by-set)")
	quiet := fs.Bool("q", false, "no progress bars")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := renderUnused(fs, mf.noRender, stderr); err != nil {
		return err
	}
	if err := noArgs(fs, pos); err != nil {
		return err
	}
	df.skipSets = append(append([]string{}, df.dirs...), nf.extra...) // --skip-pages may name either
	if err := df.check(); err != nil {
		return err
	}
	if err := validateModelFlags("eval", mf); err != nil {
		return err
	}
	if *cv < 0 || *cv == 1 || *cv == 0 && fs.given("cv") != "" {
		return usagef("eval", "--cv %d: want 2 or more folds", *cv)
	}
	if *maxBlocks < 0 {
		return usagef("eval", "--max-blocks %d: want 0 (all) or more", *maxBlocks)
	}
	if err := linearGamma("eval", sf.kernel, fs.given("g", "grid-gamma")); err != nil {
		return err
	}
	if err := unusedKernelParam("eval", sf, fs); err != nil {
		return err
	}
	for _, o := range []struct{ flag, path string }{{"--pages", nf.pages}, {"--blocks", nf.blocks}} {
		if err := checkNotInput("eval", o.flag, o.path, df.skipSets, mf.model, *versus); err != nil {
			return err
		}
	}
	if err := checkCacheDir("eval", nf.cacheDir, df.skipSets); err != nil {
		return err
	}
	if err := nf.check(fs, &df, mf, *cv); err != nil {
		return err
	}
	if *keywords < 1 {
		return usagef("eval", "--keywords %d: want 1 or more", *keywords)
	}
	if err := sf.checkMaxSV("eval"); err != nil {
		return err
	}
	if *versus != "" && (nf.active() || *cv != 0) {
		return usagef("eval", "--versus compares two models on the same pages: not with --cv, --nested or --by-set")
	}
	if nf.outer > 0 {
		df.folds, df.inner, df.foldsFlag = nf.outer, nf.inner, fmt.Sprintf("--nested %d,%d", nf.outer, nf.inner)
	}
	if nf.active() {
		return df.evalDone(evalNested(ctx, &df, mf, sf, nf, *maxBlocks, *featFlag, *keywords, *quiet, stdout, stderr), stdout, stderr)
	}
	if *cv > 0 && mf.model != "" {
		return usagef("eval", "--cv trains a model per fold: it cannot score --model %s", mf.model)
	}
	if *cv > 0 {
		df.folds, df.foldsFlag = *cv, fmt.Sprintf("--cv %d", *cv)
		return df.evalDone(evalCV(ctx, &df, mf, sf, nf, *cv, *maxBlocks, *featFlag, *keywords, *quiet, stdout, stderr), stdout, stderr)
	}
	c, stop, err := mf.cleaner(ctx)
	if err != nil {
		return err
	}
	defer stop()
	var vm *classify.Model
	if *versus != "" {
		// After mf.cleaner: without --policy, a --model's own policy stands.
		if vm, err = versusModel(*versus, df.policy.String()); err != nil {
			return err
		}
		if p := vm.Info.Policy; p != "" && p != df.policy.String() {
			return usagef("eval", "--versus %s was trained for --policy %s, the pages are scored under %s", *versus, p, df.policy)
		}
	}
	if vm != nil && vm.Visual && c.Prepare.Visual == nil {
		return usagef("eval", "--versus %s reads visual features and %s does not, so the pages are not rendered: name the rendered one first (e.g. --render --versus text)", *versus, modelName(mf, c.Model))
	}
	// Without --policy, mf.cleaner took the model's own policy (mf.policy
	// is df.policy).
	fmt.Fprintf(stderr, "fiasco eval: gold mapped to --policy %s\n", df.policy)
	if p := c.Model.Info.Policy; p != "" && p != df.policy.String() {
		fmt.Fprintf(stderr, "fiasco eval: note: %s was trained for --policy %s\n", modelName(mf, c.Model), p)
	}
	names, models := []string{modelName(mf, c.Model)}, []*classify.Model{c.Model}
	if vm != nil {
		names, models = append(names, "--versus "+*versus), append(models, vm)
	}
	warnTrainedOn(stderr, names, models, df.dirs, df.split)
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
	failedPages := map[*train.Example]bool{} // a page failing for both models counts once
	onError := func(e *train.Example, err error) {
		fmt.Fprintf(stderr, "fiasco eval: %s: %v (counted as empty output)\n", e.Doc.Page.Name, err)
		if !failedPages[e] {
			failedPages[e] = true
			*df.failed++
		}
	}
	results := train.Classify(c.Model, ex, th, onError)
	fmt.Fprintln(stdout, modelLine(mf, c.Model, th, c.Prepare.Visual != nil))
	if err := reportIntervals(results, nf, sf.seed, stdout); err != nil {
		return err
	}
	if vm == nil {
		return df.evalDone(savePages(nf, results, nil, nil, stderr), stdout, stderr)
	}
	// The same pages, the same prepared documents: only the model differs.
	vres := train.Classify(vm, ex, vm.Threshold, onError)
	if sameKeep(results, vres) {
		fmt.Fprintf(stderr, "fiasco eval: note: --versus %s keeps every block %s keeps, on every page: every difference is 0\n", *versus, modelName(mf, c.Model))
	}
	n := nf.bootstrap
	if n <= 0 {
		n = 1000
	}
	ps, err := train.PairedBootstrap(results, vres, n, sf.seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n--versus %s on the same pages (%s minus it; 95%% intervals, %d resamples, seed %d; P(<=0): share of resamples where it is not ahead)\n", *versus, modelName(mf, c.Model), ps.Resamples, sf.seed)
	for _, f := range []struct {
		name string
		d    train.Difference
	}{{"word P (micro)", ps.WordP}, {"word R (micro)", ps.WordR}, {"word F (micro)", ps.WordF}, {"node accuracy", ps.NodeAccuracy}, {"node F", ps.NodeF}} {
		fmt.Fprintf(stdout, "  %-16s %+6.2f  [%+.2f, %+.2f]  P(<=0) %.3f\n", f.name, 100*f.d.Value, 100*f.d.Lo, 100*f.d.Hi, f.d.PNotAbove)
	}
	return df.evalDone(savePages(nf, results, nil, vres, stderr), stdout, stderr)
}

// versusModel loads --versus: a model file, or text or rendered for the
// policy's embedded models.
func versusModel(name, policy string) (*classify.Model, error) {
	switch name {
	case "text":
		return classify.DefaultFor(policy, false)
	case "rendered":
		return classify.DefaultFor(policy, true)
	}
	m, err := classify.Load(name)
	if err != nil {
		return nil, fmt.Errorf("--versus: %w", err)
	}
	return m, nil
}

// trainedSets returns the base names of the sets m was trained on, each
// with the size of the sample taken of it (0: all of it), and the --split
// it used, from m.Info (or, for a model made before the extra sets were
// recorded there, from its recorded command).
func trainedSets(m *classify.Model) (map[string]int, string) {
	sets := map[string]int{}
	for _, d := range m.Info.Data {
		sets[gold.SetName(d)] = 0
	}
	extra, pages, split := m.Info.Extra, m.Info.ExtraPages, m.Info.Split
	if len(extra) == 0 {
		args := strings.Fields(m.Info.Command)
		for i, a := range args {
			flag, val, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !strings.HasPrefix(a, "-") {
				continue
			}
			if !eq && i+1 < len(args) {
				val = args[i+1]
			}
			switch flag {
			case "extra":
				extra = append(extra, val)
			case "extra-pages":
				pages, _ = strconv.Atoi(val)
			case "split":
				split = val
			}
		}
	}
	for _, d := range extra {
		if set := gold.SetName(d); set != "" {
			if _, ok := sets[set]; !ok {
				sets[set] = pages
			}
		}
	}
	return sets, split
}

// warnTrainedOn warns, once per set, where a data set to be scored has
// the name of one that a model of models (named by names) was trained on,
// as --data or --extra: those pages, or some of them, are not unseen. A
// set that publishes a split (a split/ directory) scored on the other
// split than the one the model trained on is not warned of.
func warnTrainedOn(stderr io.Writer, names []string, models []*classify.Model, dirs []string, split string) {
	sets := make([]map[string]int, len(models))
	splits := make([]string, len(models))
	for i, m := range models {
		sets[i], splits[i] = trainedSets(m)
	}
	for _, d := range dirs {
		set := gold.SetName(d)
		_, err := os.Stat(filepath.Join(d, "split"))
		hasSplit := err == nil
		var who []string
		sample := -1
		for i := range models {
			n, ok := sets[i][set]
			if !ok || hasSplit && split != "" && splits[i] != "" && split != splits[i] {
				continue
			}
			who = append(who, names[i])
			if n == 0 || sample == 0 {
				sample = 0
			} else {
				sample = max(sample, n)
			}
		}
		if len(who) == 0 {
			continue
		}
		what := "pages of a set named " + set
		if sample > 0 {
			what = fmt.Sprintf("a sample of %d pages of a set named %s", sample, set)
		}
		its := "its"
		if len(who) > 1 {
			its = "their"
		}
		fmt.Fprintf(stderr, "fiasco eval: warning: %s trained on %s: %s figures there are not all from unseen pages\n", strings.Join(who, " and "), what, its)
	}
}

// modelLine is the report's first line: which model scored the pages, at
// which threshold, and whether they were rendered.
func modelLine(mf *modelFlags, m *classify.Model, th float64, rendered bool) string {
	line := "model: " + modelName(mf, m)
	if !mf.thSet {
		line += fmt.Sprintf(", threshold %g", th)
	}
	// What the model does beyond its threshold, where the flags did not
	// name it (modelName): a saved report tells, as both change the
	// figures.
	if !mf.smoothSet && m.Smooth > 0 {
		line += fmt.Sprintf(", smoothed at %g", m.Smooth)
	}
	if !mf.floorGiven() && m.Floor {
		line += ", the prose floor"
		if m.FloorShare > 0 {
			line += fmt.Sprintf(" at %g", m.FloorShare)
		}
	}
	if m.Stack != nil {
		line += ", a second stage"
	}
	if rendered {
		return line + ", pages rendered"
	}
	return line + ", pages not rendered"
}

// floorGiven reports whether --floor or --floor-share was given.
func (m *modelFlags) floorGiven() bool {
	_, given := m.floorValue()
	return given || m.floorShareSet
}

// modelName names the model eval scores, for its report.
func modelName(mf *modelFlags, m *classify.Model) string {
	name := "the text model"
	switch {
	case mf.model != "":
		name = mf.model
	case m.Visual:
		name = "the rendered model"
	}
	if mf.thSet {
		name += fmt.Sprintf(" at threshold %g", mf.threshold)
	}
	var without []string
	switch {
	case mf.smoothSet && m.Smooth > 0:
		name += fmt.Sprintf(" smoothed at %g", m.Smooth)
	case mf.smoothSet:
		without = append(without, "smoothing")
	}
	if mf.floorGiven() {
		if m.Floor {
			name += " with the prose floor"
			if m.FloorShare > 0 {
				name += fmt.Sprintf(" at %g", m.FloorShare)
			}
		} else {
			without = append(without, "the prose floor")
		}
	}
	if len(without) > 0 {
		name += " without " + strings.Join(without, " or ")
	}
	return name
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
	if err := checkRenderFeatures(mf.noRender, featFlag, feats, "eval"); err != nil {
		return err
	}
	var prep pipeline.PrepareOptions
	var rend *cachedRenderer
	if nf.cacheDir != "" && !needsRender(mf.noRender, feats) {
		return usagef("eval", "--cache-dir keeps renderings: --features names no visual feature, so nothing renders")
	}
	if err := mf.visualOnly(needsRender(mf.noRender, feats), "--features names no visual feature"); err != nil {
		return err
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
	if nf.bySite {
		warnSites(stderr, "eval", ex, nil, false)
	}
	th := 0.0
	if mf.thSet {
		th = mf.threshold
	}
	to, err := foldOptions(df, mf, train.TrainOptions{Params: params, MaxBlocks: maxBlocks, Keywords: keywords, Features: feats, Threshold: th, Seed: sf.seed, Stack: nf.stack, MaxSV: sf.maxSV})
	if err != nil {
		return err
	}
	bar := newProgress(stderr, "cv", "folds", folds, quiet)
	results, err := train.CrossValidate(ctx, ex, train.CVOptions{Folds: folds, Seed: sf.seed, BySite: nf.bySite,
		Train: to,
		Each:  func(done, total int) { bar.Set(done) }})
	bar.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d-fold cross-validation over %s, C = %g, gamma = %s, threshold %g%s, seed %d\n", folds, nf.dealt(), params.C, gammaString(params.Gamma, params.Kernel == svm.Linear), th, cutOptions(to), sf.seed)
	sf.reportMaxSV(stdout)
	nf.reportStack(stdout)
	if err := reportIntervals(results, nf, sf.seed, stdout); err != nil {
		return err
	}
	return savePages(nf, results, nil, nil, stderr)
}

// sameKeep reports whether two runs over the same pages kept the same
// blocks of every page.
func sameKeep(a, b []train.PageResult) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Example != b[i].Example || !slices.Equal(a[i].Keep, b[i].Keep) {
			return false
		}
	}
	return true
}

// cutOptions names what a fold's models do after the threshold, as the
// header of eval --cv says them: the smoothing, the prose floor, the
// rescue and the blend with the text model ("" for none).
func cutOptions(to train.TrainOptions) string {
	var s string
	if to.Smooth > 0 {
		s += fmt.Sprintf(", smoothed at %g", to.Smooth)
	}
	if to.Floor {
		s += fmt.Sprintf(", prose floor at %g", pipeline.FloorShareOf(&classify.Model{Floor: true, FloorShare: to.FloorShare}))
	}
	if to.Rescue {
		s += ", prose rescue"
	}
	if to.Blend > 0 {
		s += fmt.Sprintf(", blended %g with the text model", to.Blend)
	}
	return s
}

func report(results []train.PageResult, stdout io.Writer) error {
	rep, err := train.Evaluate(results)
	if err != nil {
		return err
	}
	rep.Print(stdout)
	return nil
}
