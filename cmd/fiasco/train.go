package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
	"github.com/fiasco-project/fiasco/train"
)

func init() {
	register(&command{
		name:    "train",
		summary: "train a cleaning model from gold data sets",
		run:     runTrain,
	})
}

const trainHelp = `usage: fiasco train --data DIR [--data DIR...] -o MODEL [options]

Trains a cleaning model: every page of the data sets is loaded, precleaned
and cut into blocks, its gold standard is aligned to the blocks to label
them clean or dirty, and an SVM learns from their features. SVM options are
svm-train's (-c, -g, -t, -w1, -w-1, -e, -m, -b), except its -h (shrinking),
which is --shrinking 0|1 here: -h asks for help. --grid picks C and gamma by
cross-validation over pages first (--folds-by site: over sites, as for
--stack's folds; --workers bounds its trainings run at once); its
accuracies are optimistic, the keywords and scaling being learnt from
all pages first (fiasco eval --cv or --nested scores a choice honestly).
A model holds two SVMs: one for pages whose text looks English, on every
feature, and one for the others, on the features that need no English
word lists (no keywords, stop words or known words); both take the same
C and gamma (but -g 0, whose gamma is 1/features: each SVM's own number of
features), and the counts train prints are the English one's. The
default features are the text and structure ones (with the context ones
under --policy article), as the embedded text models'; the embedded rendered models add shape (--features
text,shape; see the README on rebuilding them). Pages are rendered in
Chromium only when --features names visual features (visual, shape, style
or vis_ names).

A page that fails to load (its HTML or gold unreadable) is named on stderr
and left out; the model is still written, and the exit status is then 3.`

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", trainHelp)
	var df dataFlags
	df.add(fs)
	fs.Lookup("workers").Usage = "pages prepared at once, and --grid's trainings run at once (0: one per CPU)"
	sf := addSVMFlags(fs.FlagSet, fiascoNames)
	sf.addMaxSV(fs.FlagSet, "", "; --grid scores the uncut SVM")
	out := fs.String("o", "", "output model file (required)")
	noRender := fs.Bool("no-render", false, "never render pages: visual --features are an error (without it, pages render only for visual --features)")
	rf := &renderFlags{}
	rf.add(fs.FlagSet)
	threshold := fs.Float64("threshold", 0, "decision threshold stored in the model (higher = more precision)")
	grid := fs.Bool("grid", false, "choose C and gamma by a grid search first")
	log2c := fs.String("log2c", "-1,9,2", "grid: log2 C begin,end,step; null: C is -c's, not searched")
	log2g := fs.String("log2g", "-9,1,2", "grid: log2 gamma begin,end,step; null: gamma is -g's, not searched")
	folds := fs.Int("folds", 5, "grid: folds (pages, or sites with --folds-by site, are split, not blocks)")
	bySite, foldsBy := false, false
	fs.Func("folds-by", "--grid, --stack: deal their folds by `MODE`: page (the default) or site (a page's registrable domain, from its address: see fiasco eval -h)", func(s string) error {
		switch s {
		case "page", "site":
			bySite, foldsBy = s == "site", true
			return nil
		}
		return fmt.Errorf("want page or site")
	})
	floor := fs.Bool("floor", false, "store the prose floor in the model: on a page the model all but empties, every block of prose is kept (pipeline.FloorShare)")
	floorShare := new(float64)
	fs.Func("floor-share", "with --floor: the floor keeps a page's prose where its kept prose blocks hold less than this share of its words (above 0 and below 1; default: a quarter, pipeline.FloorShare)", func(s string) (err error) {
		*floorShare, err = parseFloorShare(s)
		return err
	})
	var blend float64
	fs.Func("blend", "store in a model with visual features the weight `W` (0 to 1) of the text model in each block's decision (classify.Model.Blend; fiasco clean blends with the embedded text model of the policy; default 0: none)", func(s string) (err error) {
		blend, err = parseBlend(s)
		return err
	})
	var smooth float64
	fs.Func("smooth", "store in the model "+smoothHelp+" (default 0: none)", func(s string) (err error) {
		smooth, err = parseSmooth(s)
		return err
	})
	stack := fs.Int("stack", 0, "add a second stage that re-decides each block from its own and its neighbours' first-stage values, trained on `K`-fold out-of-fold values (0: none; 2 to 20)")
	maxBlocks := fs.Int("max-blocks", 0, "train on a seeded sample of at most this many blocks (0: all)")
	featFlag := fs.String("features", "", featuresHelp)
	keywords := fs.Int("keywords", 100, "clean and dirty keywords to learn")
	var extraDirs []string
	fs.Func("extra", "data set `DIR` trained on as --data is, but sampled with --extra-pages (repeatable)", func(s string) error {
		extraDirs = append(extraDirs, s)
		return nil
	})
	extraPages := fs.Int("extra-pages", 0, "train on a seeded random sample of `N` pages of each --extra set (the sample follows --seed; with --limit, the sample is of the first pages that --limit leaves; 0: all)")
	extraWeight := fs.Float64("extra-weight", 1, "weigh each block of an --extra set `W` times a block of --data (the SVM's C times W)")
	quiet := fs.Bool("q", false, "no progress bars")
	cacheDir := fs.String("cache-dir", "", "keep rendered pages' measurements in `DIR` so that each page renders once across runs (train and eval share it)")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := renderUnused(fs, *noRender, stderr); err != nil {
		return err
	}
	if err := noArgs(fs, pos); err != nil {
		return err
	}
	if *out == "" {
		return usagef("train", "no output: give -o MODEL")
	}
	if err := checkNotInput("train", "-o", *out, append(append([]string(nil), df.dirs...), extraDirs...)); err != nil {
		return err
	}
	if err := checkCacheDir("train", *cacheDir, append(append([]string(nil), df.dirs...), extraDirs...)); err != nil {
		return err
	}
	if err := checkWritable(*out); err != nil {
		return usagef("train", "-o %s: %v", *out, err)
	}
	if err := checkOutKind("train", "-o", *out, true); err != nil {
		return err
	}
	if f := fs.given("log2c", "log2g", "folds"); f != "" && !*grid {
		return usagef("train", "%s sets the grid search: give --grid", flagName(f))
	}
	nullC, nullG := *grid && isNull(*log2c), *grid && isNull(*log2g)
	switch {
	case nullC && nullG:
		return usagef("train", "--log2c null and --log2g null: nothing to search")
	case fs.given("c") != "" && *grid && !nullC:
		return usagef("train", "-c and --grid: the grid search chooses C and gamma (--log2c and --log2g set its ranges; --log2c null keeps -c's C)")
	case fs.given("g") != "" && *grid && !nullG:
		return usagef("train", "-g and --grid: the grid search chooses C and gamma (--log2c and --log2g set its ranges; --log2g null keeps -g's gamma)")
	case nullC && sf.kernel == 0:
		return usagef("train", "--log2c null with a linear kernel (-t 0): nothing to search")
	}
	if err := linearGamma("train", sf.kernel, fs.given("g", "log2g")); err != nil {
		return err
	}
	if err := unusedKernelParam("train", sf, fs); err != nil {
		return err
	}
	if *folds < 2 {
		return usagef("train", "--folds %d: want 2 or more", *folds)
	}
	if *grid && len(extraDirs) == 0 {
		// With --extra the grid deals the extra pages into its folds too:
		// they are counted with the --data pages when they are listed.
		df.folds, df.foldsFlag = *folds, fmt.Sprintf("--folds %d", *folds)
	}
	if *keywords < 1 {
		return usagef("train", "--keywords %d: want 1 or more", *keywords)
	}
	if *floorShare > 0 && !*floor {
		return usagef("train", "--floor-share %g sets the prose floor's share, and the floor is off for this run (give --floor)", *floorShare)
	}
	if err := validateRenderFlags("train", rf); err != nil {
		return err
	}
	if math.IsNaN(*threshold) || math.IsInf(*threshold, 0) {
		return usagef("train", "--threshold %v: want a finite decision value", *threshold)
	}
	if *stack < 0 || *stack == 1 || *stack > 20 {
		return usagef("train", "--stack %d: want 0 (no second stage) or 2 to 20 folds", *stack)
	}
	if *maxBlocks < 0 {
		return usagef("train", "--max-blocks %d: want 0 (all) or more", *maxBlocks)
	}
	if err := sf.checkMaxSV("train"); err != nil {
		return err
	}
	df.skipSets = append(append([]string{}, df.dirs...), extraDirs...) // --skip-pages may name either
	if err := df.check(); err != nil {
		return err
	}
	if *extraPages < 0 {
		return usagef("train", "--extra-pages %d: want 0 (all) or more", *extraPages)
	}
	if !(*extraWeight > 0) || math.IsInf(*extraWeight, 0) {
		return usagef("train", "--extra-weight %v: want a positive number", *extraWeight)
	}
	if *extraWeight != 1 && len(extraDirs) == 0 {
		return usagef("train", "--extra-weight weighs the pages of --extra sets: give --extra DIR")
	}
	if *extraPages > 0 && len(extraDirs) == 0 {
		return usagef("train", "--extra-pages samples the --extra sets: give --extra DIR")
	}
	for _, e := range extraDirs {
		if sameDirAs(e, df.dirs) {
			return usagef("train", "--extra %s is also a --data set", e)
		}
		for _, d := range df.dirs {
			if gold.SetName(e) == gold.SetName(d) {
				return usagef("train", "--extra %s and --data %s are both named %s: a set is named by its directory, so rename one (or link it under another name)", e, d, gold.SetName(d))
			}
		}
	}
	if err := checkDistinct("train", "--extra", extraDirs); err != nil {
		return err
	}
	feats, err := featureSet(*featFlag)
	if err != nil {
		return &usageError{cmd: "train", err: err}
	}
	if feats == nil && df.policy == gold.Article {
		// The article policy's default adds the context features and
		// leaves out the record columns, as the embedded article models
		// (RESULTS.md, "Records").
		if feats, err = featureSet(articleFeatures); err != nil {
			return err
		}
	}
	if err := checkRenderFeatures(*noRender, *featFlag, feats, "train"); err != nil {
		return err
	}
	if blend > 0 && !needsRender(*noRender, feats) {
		return usagef("train", "--blend weighs a model with visual features against the text model: give visual --features")
	}
	params, err := sf.params()
	if err != nil {
		return &usageError{cmd: "train", err: err}
	}
	to := train.TrainOptions{Params: params, Threshold: *threshold, MaxBlocks: *maxBlocks, Keywords: *keywords, Features: feats, Seed: sf.seed, Stack: *stack, StackBySite: bySite, Floor: *floor, FloorShare: *floorShare, Blend: blend, Smooth: smooth, MaxSV: sf.maxSV, Policy: df.policy.String()}
	if foldsBy && !*grid && *stack == 0 {
		return usagef("train", "--folds-by deals the folds of --grid and --stack: give one")
	}
	gopt := svm.GridOptions{Workers: df.workers} // --workers bounds the grid's trainings too
	if *grid {
		if nullC {
			// A label: the C is -c's, exactly (GridOptions.C).
			gopt.Log2C, gopt.C = []float64{math.Log2(params.C)}, []float64{params.C}
		} else if gopt.Log2C, err = parseRange(*log2c); err != nil {
			return usagef("train", "--log2c %v", err)
		}
		if nullG {
			gopt.Log2G, gopt.Gamma = []float64{math.Log2(params.Gamma)}, []float64{params.Gamma}
		} else if gopt.Log2G, err = parseRange(*log2g); err != nil {
			return usagef("train", "--log2g %v", err)
		}
	}
	if *cacheDir != "" && !needsRender(*noRender, feats) {
		return usagef("train", "--cache-dir keeps renderings: it has no use without rendering")
	}
	var prep pipeline.PrepareOptions
	var rend *cachedRenderer
	if needsRender(*noRender, feats) {
		rend, err = newCachedRenderer(ctx, "train", rf, *cacheDir)
		if err != nil {
			return err
		}
		defer rend.close()
		prep.Visual = rend.v
	}
	ex, err := df.load(ctx, prep, *quiet, stderr)
	if err != nil {
		return err
	}
	if len(extraDirs) > 0 {
		edf := df
		if *grid {
			// The grid deals these pages into its folds with the --data
			// pages: both counted before these are prepared.
			edf.folds, edf.foldsFlag, edf.dealt = *folds, fmt.Sprintf("--folds %d", *folds), len(ex)
		}
		edf.dirs, edf.sample, edf.sampleSeed = extraDirs, *extraPages, sf.seed
		extra, err := edf.load(ctx, prep, *quiet, stderr)
		if err != nil {
			return err
		}
		for _, e := range extra {
			e.Weight = *extraWeight
		}
		ex = append(ex, extra...)
	}
	if err := rend.loaded(stderr); err != nil {
		return err
	}
	if bySite {
		warnSites(stderr, "train", ex, nil, false)
	}
	if *grid {
		bar := newProgress(stderr, "grid", "pairs", len(gopt.Log2C)*len(gopt.Log2G), *quiet)
		gopt.Progress = bar.Update
		res, err := train.Grid(ctx, ex, to, train.Folding{K: *folds, Seed: sf.seed, BySite: bySite}, gopt)
		bar.Done()
		if err != nil {
			reportStoppedGrid(stderr, res, to.Params.Kernel == svm.Linear)
			return fmt.Errorf("--grid: %w", err)
		}
		printGridMatrix(stderr, res, to.Params.Kernel == svm.Linear)
		to.Params.C = res.Best.C
		if !(nullG && params.Gamma == 0) {
			// With --log2g null and gamma 0, each of the model's SVMs
			// keeps 1/its own number of features (the other pages' SVM
			// has fewer than the grid's), as train without --grid does.
			to.Params.Gamma = res.Best.Gamma
		}
		if to.Params.Kernel == svm.Linear {
			fmt.Fprintf(stderr, "fiasco train: best C = 2^%.4g = %g (CV accuracy %.2f%%)\n", res.Best.Log2C, res.Best.C, 100*res.Best.Accuracy)
		} else {
			fmt.Fprintf(stderr, "fiasco train: best C = 2^%.4g = %g, gamma = 2^%.4g = %g (CV accuracy %.2f%%)\n",
				res.Best.Log2C, res.Best.C, res.Best.Log2G, res.Best.Gamma, 100*res.Best.Accuracy)
		}
		if edge := gridEdges(res, nullC, nullG || to.Params.Kernel == svm.Linear); edge != "" {
			fmt.Fprintf(stderr, "fiasco train: note: the best %s: a wider grid may find better\n", edge)
		}
	}
	m, err := train.Train(ctx, ex, to)
	if err != nil {
		return err
	}
	m.Info.Data = namedDirs(df.dirs)
	m.Info.Extra, m.Info.Split = namedDirs(extraDirs), df.split
	if len(extraDirs) > 0 {
		m.Info.ExtraPages = *extraPages
	}
	m.Info.Policy = df.policy.String()
	m.Info.Command = "fiasco train " + strings.Join(args, " ")
	if err := writeOutput(*out, m.Write); err != nil {
		return err
	}
	if kw := m.Keywords; kw != nil && len(kw.Clean)+len(kw.Dirty) == 0 && usesKeywords(m) {
		fmt.Fprintln(stderr, "fiasco train: warning: no keywords learned (they come from pages whose text looks English, with blocks both clean and dirty, and none has them): the keyword columns are 0 on every block")
	}
	n := m.English.TotalSV()
	vectors := plural(n, "support vector")
	switch {
	case m.Info.MaxSV > 0 && n < m.Info.MaxSV:
		vectors += fmt.Sprintf(" (fewer than --max-sv %d: not cut)", m.Info.MaxSV)
	case m.Info.MaxSV > 0:
		vectors = fmt.Sprintf("a reduced set of %s (--max-sv %d)", plural(n, "vector"), m.Info.MaxSV)
	}
	if m.Blend > 0 {
		vectors += fmt.Sprintf(", blended with the text model at %g (--blend)", m.Blend)
	}
	if m.Smooth > 0 {
		vectors += fmt.Sprintf(", smoothed at %g (--smooth)", m.Smooth)
	}
	if m.Stack != nil {
		vectors += fmt.Sprintf(", a second stage from %d folds (--stack)", m.Info.Stack)
	}
	if m.Floor {
		vectors += fmt.Sprintf(", the prose floor at %g (--floor)", pipeline.FloorShareOf(m))
	}
	gamma := fmt.Sprintf(", gamma = %g", m.English.Gamma)
	if to.Params.Kernel == svm.Linear {
		gamma = " (linear kernel)"
	}
	fmt.Fprintf(stderr, "fiasco train: %s, %s (%d clean); C = %g%s, %s; wrote %s\n",
		plural(m.Info.Pages, "page"), plural(m.Info.Blocks, "block"), m.Info.Clean, to.Params.C, gamma, vectors, *out)
	return df.done(nil, stderr)
}

// reportStoppedGrid writes the pairs a grid stopped by a signal finished
// (res, partial; nothing where there are none), as fiasco grid prints
// them: no model is written.
func reportStoppedGrid(w io.Writer, res *svm.GridResult, linear bool) {
	if res == nil || len(res.Points) == 0 {
		return
	}
	printGridMatrix(w, res, linear)
	total := len(res.Log2C) * max(len(res.Log2G), 1)
	if linear {
		total = len(res.Log2C) // a linear kernel has no gamma to search
	}
	fmt.Fprintf(w, "fiasco train: --grid stopped with %d of %d pairs finished (above; - where not); no model written\n", len(res.Points), total)
}

// printGridMatrix writes CV accuracy over the grid, gamma down, C across.
func printGridMatrix(w io.Writer, res *svm.GridResult, linear bool) {
	if linear { // one row: a linear kernel has no gamma
		fmt.Fprintf(w, "%8s %9s\n", "log2c", "accuracy")
		for _, p := range res.Points {
			fmt.Fprintf(w, "%8.4g %8.2f%%\n", p.Log2C, 100*p.Accuracy)
		}
		return
	}
	fmt.Fprintf(w, "%10s", "log2g\\log2c")
	for _, c := range res.Log2C {
		fmt.Fprintf(w, " %6.4g", c)
	}
	fmt.Fprintln(w)
	acc := map[[2]float64]float64{}
	for _, p := range res.Points {
		acc[[2]float64{p.Log2C, p.Log2G}] = p.Accuracy
	}
	for _, g := range res.Log2G {
		fmt.Fprintf(w, "%10.4g ", g)
		for _, c := range res.Log2C {
			a, ok := acc[[2]float64{c, g}]
			if !ok || math.IsNaN(a) {
				fmt.Fprintf(w, " %6s", "-")
				continue
			}
			fmt.Fprintf(w, " %6.2f", 100*a)
		}
		fmt.Fprintln(w)
	}
}

// namedDirs returns the data folders as the model records them: as given,
// unless the path does not end in the set's name ("." or ".."), which is
// then made absolute, so that eval names the set whatever its working
// directory (trainedSets).
func namedDirs(dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d
		if b := filepath.Base(filepath.Clean(d)); b == "." || b == ".." {
			if abs, err := filepath.Abs(d); err == nil {
				out[i] = abs
			}
		}
	}
	return out
}

// usesKeywords says whether a classifier of m reads a keyword column.
func usesKeywords(m *classify.Model) bool {
	kw := features.Names(features.Keyword, true)
	return slices.ContainsFunc(m.English.FeatureNames, func(n string) bool { return slices.Contains(kw, n) })
}

// gridEdges says which of the best point's C and gamma lie at an end of
// a searched range of three values or more (the others, fixed, aside);
// "" where neither does.
func gridEdges(res *svm.GridResult, fixedC, fixedG bool) string {
	var edges []string
	for _, d := range []struct {
		name  string
		flag  string
		fixed bool
		v     float64
		r     []float64
	}{{"C", "--log2c", fixedC, res.Best.Log2C, res.Log2C}, {"gamma", "--log2g", fixedG, res.Best.Log2G, res.Log2G}} {
		if d.fixed || len(d.r) < 3 {
			continue
		}
		lo, hi := slices.Min(d.r), slices.Max(d.r)
		if d.v == lo || d.v == hi {
			end := "lower"
			if d.v == hi {
				end = "upper"
			}
			edges = append(edges, fmt.Sprintf("%s, 2^%.4g, is the %s end of %s", d.name, d.v, end, d.flag))
		}
	}
	return strings.Join(edges, ", and ")
}
