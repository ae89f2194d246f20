package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/svm"
	"github.com/fiasco-project/fiasco/train"
)

// This file holds eval's honest evaluation: nested cross-validation by
// page (--nested) and leave-one-set-out (--by-set), both choosing their
// setting from a grid by inner cross-validation (train.NestedCV,
// train.LeaveOneSetOut); bootstrap intervals over pages (train.Bootstrap);
// and the render cache (package vcache).

// evalNestedHelp is the part of eval's help about these options.
const evalNestedHelp = `With --nested OUTER,INNER choosing the model is part of what is measured:
the pages are dealt into OUTER folds; for each, the pages of the other
folds are dealt into INNER folds, every setting of the grid (feature set,
C, gamma, threshold, smoothing) is cross-validated on them, and the one with the best
inner word F (micro-averaged, no segment tags) is trained on all of them
and cleans the held-out fold. With --by-set (two or more --data sets)
each data set is held out in turn and cleaned by a model chosen (--inner
folds) and trained on the other sets; the inner folds' seed follows the
held-out set's place among --data (--seed mixed with it), so the same
sets given in another order deal other inner folds and may choose
otherwise. No page is cleaned by a model, or scored for a choice, that
saw it.

Folds are dealt by page. With --folds-by site (also for --cv) whole sites
are dealt, outer and inner: a site's pages are never on both sides of a
fold, so a model is not scored on a template it learned from the site's
other pages. A page's site is the registrable domain of its address
(news.bbc.co.uk and www.bbc.co.uk are bbc.co.uk; blogs on blogspot.com
stay apart), the address being the CleanEval wrapper's id, the gold's URL
line, or its head's canonical link, og:url or base href. Pages with none (most of L3S-GN1's) are sites of their own;
--extra pages are trained on whatever their site, and --by-set holds out
sets, not sites: eval says how many pages each of these concerns.

The grid is --candidate-features NAME=SPEC (repeatable; SPEC as for
--features, empty for the default set), --grid-c, --grid-gamma,
--grid-threshold and --grid-smooth (comma-separated lists). An absent one
is the single value of --features, -c, -g, --threshold or --smooth
(default 0; thresholds and smoothings cut the same decision values, so
they cost no training). Pages are rendered
only when a feature set needs the visual features. --extra DIR adds a data
set to every training set, inner and outer, whose pages are never scored:
it measures whether more data helps. --workers also bounds the trainings
run at once.

Every outer fold's choice and its inner F are printed, then the usual
report over all pages, then word P/R/F and node figures with 95% bootstrap
intervals over pages (--bootstrap resamples, seeded by --seed; also with
--model or --cv when --bootstrap is given), and, when the pages come from
two or more --data sets, word P/R/F with intervals for each set apart.

--cache-dir DIR keeps what rendering measured for each page, keyed by the
marked-up page, the render options and the browser's version, so that a
page renders once across runs; with --cv, --nested or --by-set a run whose
pages are all cached does not start a browser.`

// nestedFlags are eval's options for nested evaluation, bootstrap
// intervals and the render cache.
type nestedFlags struct {
	outer, inner  int // --nested OUTER,INNER; 0: not given
	bySet         bool
	setInner      int // --inner, the inner folds of --by-set
	gridC         []float64
	gridGamma     []float64
	gridThreshold []float64
	gridSmooth    []float64
	candidates    []train.FeatureSet
	extra         []string
	extraPages    int
	extraWeight   float64
	bootstrap     int
	cacheDir      string
	stack         int             // --stack: folds of the second stage (0: none)
	bySite        bool            // --folds-by site
	pages         string          // --pages: per-page figures to this file
	blocks        string          // --blocks: per-block decisions to this file
	given         map[string]bool // the flags on the command line
}

func addNestedFlags(fs *flagSet) *nestedFlags {
	n := &nestedFlags{}
	fs.Func("nested", "nested cross-validation by page (by site with --folds-by site): `OUTER,INNER` folds (e.g. 10,5); inner folds choose the setting from the grid, outer folds report", func(s string) error {
		o, i, err := parseFoldPair(s)
		n.outer, n.inner = o, i
		return err
	})
	fs.Func("stack", "--cv/--nested/--by-set: every model trained gets a second stage that sees its neighbours' first-stage values, trained on `K`-fold out-of-fold values (0: none; 2 to 20, no more than the pages each training has)", func(s string) error {
		k, err := strconv.Atoi(s)
		if err != nil || k == 1 || k < 0 || k > 20 {
			return fmt.Errorf("want 0 (no second stage) or 2 to 20 folds")
		}
		n.stack = k
		return nil
	})
	fs.Func("folds-by", "--cv/--nested/--by-set: deal the folds by `MODE`: page (the default) or site (the registrable domain of a page's address; a page with none is a site of its own, and --extra pages are trained on whatever their site)", func(s string) error {
		switch s {
		case "page", "site":
			n.bySite = s == "site"
			return nil
		}
		return fmt.Errorf("want page or site")
	})
	fs.BoolVar(&n.bySet, "by-set", false, "leave one data set out: each --data set is cleaned by a model chosen and trained on the others")
	fs.IntVar(&n.setInner, "inner", 5, "--by-set: inner folds that choose the setting")
	fs.Func("grid-c", "--nested/--by-set: `LIST` of C values to choose from, comma-separated (default: -c)", func(s string) error {
		v, err := parseGridList(s, func(x float64) bool { return x > 0 }, "a positive C")
		n.gridC = v
		return err
	})
	fs.Func("grid-gamma", "--nested/--by-set: `LIST` of gamma values to choose from, comma-separated (default: -g; 0 means 1/num_features)", func(s string) error {
		v, err := parseGridList(s, func(x float64) bool { return x >= 0 }, "a gamma of 0 or more")
		n.gridGamma = v
		return err
	})
	fs.Func("grid-threshold", "--nested/--by-set: `LIST` of decision thresholds to choose from, comma-separated (default: --threshold, else 0)", func(s string) error {
		v, err := parseGridList(s, func(float64) bool { return true }, "a threshold")
		n.gridThreshold = v
		return err
	})
	fs.Func("grid-smooth", "--nested/--by-set: `LIST` of sequence-smoothing switch costs to choose from, comma-separated (0 to 4; default: --smooth, else 0)", func(s string) error {
		v, err := parseGridList(s, func(x float64) bool { return classify.CheckSmooth(x) == nil }, fmt.Sprintf("a switch cost from 0 to %d", classify.MaxSmooth))
		n.gridSmooth = v
		return err
	})
	fs.Func("candidate-features", "--nested/--by-set: a feature set to choose from, `NAME=SPEC` with SPEC as for --features (repeatable; default: --features)", func(s string) error {
		fset, err := parseCandidate(s)
		if err != nil {
			return err
		}
		for _, c := range n.candidates {
			if c.Name == fset.Name {
				return fmt.Errorf("feature set name %q given twice", c.Name)
			}
		}
		n.candidates = append(n.candidates, fset)
		return nil
	})
	fs.Func("extra", "--nested/--by-set: data set `DIR` added to every training set, never scored (repeatable)", func(s string) error {
		n.extra = append(n.extra, s)
		return nil
	})
	fs.IntVar(&n.extraPages, "extra-pages", 0, "--extra: train on a seeded random sample of `N` pages of each extra set (the sample follows --seed; with --limit, the sample is of the first pages that --limit leaves; 0: all)")
	fs.Float64Var(&n.extraWeight, "extra-weight", 1, "--extra: weigh each block of an extra set `W` times a block of --data in training (the SVM's C times W)")
	fs.IntVar(&n.bootstrap, "bootstrap", 1000, "resamples of the pages for 95% intervals (0: none); used with --nested and --by-set, with --model or --cv only when given")
	fs.StringVar(&n.cacheDir, "cache-dir", "", "keep rendered pages' measurements in `DIR` so that each page renders once across runs")
	fs.StringVar(&n.pages, "pages", "", pagesHelp)
	fs.StringVar(&n.blocks, "blocks", "", blocksHelp)
	return n
}

// parseFoldPair parses --nested's OUTER,INNER.
func parseFoldPair(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf("want OUTER,INNER fold counts, e.g. 10,5")
	}
	o, err1 := strconv.Atoi(strings.TrimSpace(a))
	i, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("want OUTER,INNER fold counts, e.g. 10,5")
	}
	if o < 2 || i < 2 {
		return 0, 0, fmt.Errorf("want 2 or more outer and inner folds")
	}
	return o, i, nil
}

// parseGridList parses a comma-separated list of distinct finite numbers
// that ok accepts (want says what it accepts).
func parseGridList(s string, ok func(float64) bool, want string) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		x, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("bad number %q (want a comma-separated list)", p)
		}
		if !ok(x) {
			return nil, fmt.Errorf("%g: want %s", x, want)
		}
		for _, y := range out {
			if y == x {
				return nil, fmt.Errorf("%g given twice", x)
			}
		}
		out = append(out, x)
	}
	return out, nil
}

// parseCandidate parses NAME=SPEC; SPEC alone is named by itself.
func parseCandidate(s string) (train.FeatureSet, error) {
	name, spec, found := strings.Cut(s, "=")
	if !found {
		spec = s
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t") {
		return train.FeatureSet{}, fmt.Errorf("want NAME=SPEC, NAME without spaces (e.g. text=text or vis=text,visual)")
	}
	feats, err := featureSet(strings.TrimSpace(spec))
	if err != nil {
		return train.FeatureSet{}, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "--features: "))
	}
	return train.FeatureSet{Name: name, Features: feats}, nil
}

// dealt names what folds are dealt by: "pages" or "sites".
func (n *nestedFlags) dealt() string {
	if n.bySite {
		return "sites"
	}
	return "pages"
}

// active reports whether --nested or --by-set was given.
func (n *nestedFlags) active() bool { return n.outer > 0 || n.bySet }

// trainingFlags are eval's options that only a training reads (--cv,
// --nested, --by-set): the SVM's and the features'.
var trainingFlags = []string{"s", "t", "d", "g", "r", "c", "w1", "w-1", "e", "m", "b", "shrinking", "threads", "features", "keywords", "max-blocks", "max-sv"}

// check validates the flags together, after parsing: combinations that
// make no sense are usage errors.
func (n *nestedFlags) check(fs *flagSet, df *dataFlags, mf *modelFlags, cv int) error {
	n.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { n.given[f.Name] = true })
	mode := "--nested"
	if n.bySet {
		mode = "--by-set"
	}
	switch {
	case n.outer > 0 && n.bySet:
		return usagef("eval", "--nested and --by-set: choose one (--by-set's inner folds are --inner)")
	case n.active() && cv > 0:
		return usagef("eval", "--cv and %s: choose one (%s cross-validates by itself)", mode, mode)
	case n.active() && n.given["model"]:
		return usagef("eval", "--model and %s: %s trains its own models, drop --model", mode, mode)
	case n.bySet && len(df.dirs) < 2:
		return usagef("eval", "--by-set needs two or more --data sets, got %d", len(df.dirs))
	case n.given["inner"] && !n.bySet:
		return usagef("eval", "--inner is for --by-set (with --nested give OUTER,INNER)")
	case n.setInner < 2:
		return usagef("eval", "--inner %d: want 2 or more folds", n.setInner)
	case n.bootstrap < 0 || n.bootstrap > 0 && n.bootstrap < minResamples:
		return usagef("eval", "--bootstrap %d: want 0 (no intervals) or %d resamples or more (fewer give no 95%% interval worth the name)", n.bootstrap, minResamples)
	case n.cacheDir != "" && mf.noRender:
		return usagef("eval", "--cache-dir keeps renderings: it has no use with --no-render")
	case mf.doRender && (n.active() || cv > 0):
		return usagef("eval", "--render picks the embedded rendered model; with --cv, --nested or --by-set the features decide (--features, --candidate-features)")
	case n.given["folds-by"] && !n.active() && cv <= 0:
		return usagef("eval", "--folds-by is for --cv, --nested and --by-set (they deal pages into folds)")
	case n.stack > 0 && !n.active() && cv <= 0:
		return usagef("eval", "--stack is for --cv, --nested and --by-set (they train models)")
	}
	if n.active() || cv > 0 {
		if err := mf.checkFoldFloorShare(); err != nil {
			return err
		}
	}
	if n.extraPages < 0 {
		return usagef("eval", "--extra-pages %d: want 0 (all) or more", n.extraPages)
	}
	if !(n.extraWeight > 0) || math.IsInf(n.extraWeight, 0) {
		return usagef("eval", "--extra-weight %v: want a positive number", n.extraWeight)
	}
	if n.extraWeight != 1 && len(n.extra) == 0 {
		return usagef("eval", "--extra-weight weighs the pages of --extra sets: give --extra DIR")
	}
	for _, f := range []struct{ flag, path string }{{"pages", n.pages}, {"blocks", n.blocks}} {
		if err := checkOutputPath(f.flag, f.path); err != nil {
			return err
		}
	}
	if n.pages != "" && n.blocks != "" && samePath(n.pages, n.blocks) {
		return usagef("eval", "--pages and --blocks both name %s: give each its own file", n.pages)
	}
	if n.given["extra-pages"] && len(n.extra) == 0 {
		return usagef("eval", "--extra-pages samples the --extra sets: give --extra DIR")
	}
	for _, f := range []string{"grid-c", "grid-gamma", "grid-threshold", "grid-smooth", "candidate-features", "extra"} {
		if n.given[f] && !n.active() {
			return usagef("eval", "--%s needs --nested or --by-set", f)
		}
	}
	if !n.active() && cv <= 0 {
		for _, f := range trainingFlags {
			if n.given[f] {
				return usagef("eval", "%s is for training: scoring a model (--model, or the embedded one) trains none; give --cv, --nested or --by-set", flagName(f))
			}
		}
	}
	for _, p := range [][2]string{{"c", "grid-c"}, {"g", "grid-gamma"}, {"threshold", "grid-threshold"}, {"smooth", "grid-smooth"}, {"features", "candidate-features"}} {
		if n.given[p[0]] && n.given[p[1]] {
			one := flagName(p[0])
			return usagef("eval", "%s and --%s: give one (an absent --%s is the single value of %s)", one, p[1], p[1], one)
		}
	}
	sets := map[string]bool{}
	for _, d := range df.dirs {
		sets[gold.SetName(d)] = true
	}
	for _, d := range n.extra {
		if sets[gold.SetName(d)] || sameDirAs(d, df.dirs) {
			return usagef("eval", "--extra %s is also a --data set: extra pages are trained on, never scored", d)
		}
	}
	if err := checkDistinct("eval", "--extra", n.extra); err != nil {
		return err
	}
	if mf.noRender {
		for _, c := range n.candidates {
			for _, f := range c.Features {
				if strings.HasPrefix(f, "vis_") {
					return usagef("eval", "--candidate-features %s needs rendered pages (%s): drop --no-render", c.Name, f)
				}
			}
		}
	}
	return nil
}

// intervals reports whether to print bootstrap intervals: by default with
// --nested and --by-set, otherwise when --bootstrap is given.
func (n *nestedFlags) intervals() bool {
	return n.bootstrap > 0 && (n.active() || n.given["bootstrap"])
}

// evalNested runs --nested or --by-set and prints the choices, the report
// and the bootstrap intervals.
func evalNested(ctx context.Context, df *dataFlags, mf *modelFlags, sf *svmFlags, nf *nestedFlags, maxBlocks int, featFlag string, keywords int, quiet bool, stdout, stderr io.Writer) error {
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
	grid := train.NestedGrid{Features: nf.candidates, C: nf.gridC, Gamma: nf.gridGamma, Thresholds: nf.gridThreshold, Smooth: nf.gridSmooth}
	if grid.Features == nil {
		name := strings.ReplaceAll(featFlag, " ", "")
		if name == "" {
			name = "default"
		}
		grid.Features = []train.FeatureSet{{Name: name, Features: feats}}
	}
	th := 0.0
	if mf.thSet {
		th = mf.threshold
	}
	var prep pipeline.PrepareOptions
	var rend *cachedRenderer
	for _, c := range grid.Features {
		if needsRender(mf.noRender, c.Features) {
			rend, err = newCachedRenderer(ctx, "eval", &mf.render, nf.cacheDir)
			if err != nil {
				return err
			}
			defer rend.close()
			prep.Visual = rend.v
			break
		}
	}
	if nf.cacheDir != "" && rend == nil {
		return usagef("eval", "--cache-dir keeps renderings: no candidate feature set is visual, so nothing renders")
	}
	if err := mf.visualOnly(rend != nil, "no candidate feature set is visual"); err != nil {
		return err
	}
	ex, err := df.load(ctx, prep, quiet, stderr)
	if err != nil {
		return err
	}
	var extra []*train.Example
	if len(nf.extra) > 0 {
		edf := *df
		edf.dirs, edf.keepFailed, edf.folds, edf.inner = nf.extra, false, 0, 0 // never dealt into folds
		edf.sample, edf.sampleSeed = nf.extraPages, sf.seed
		if extra, err = edf.load(ctx, prep, quiet, stderr); err != nil {
			return err
		}
		for _, e := range extra {
			e.Weight = nf.extraWeight
		}
	}
	if err := rend.loaded(stderr); err != nil {
		return err
	}
	if nf.bySite {
		warnSites(stderr, "eval", ex, extra, nf.bySet)
	}
	to, err := foldOptions(df, mf, train.TrainOptions{Params: params, MaxBlocks: maxBlocks, Keywords: keywords, Features: feats, Threshold: th, Seed: sf.seed, Stack: nf.stack, MaxSV: sf.maxSV})
	if err != nil {
		return err
	}
	opt := train.NestedOptions{OuterFolds: nf.outer, InnerFolds: nf.inner, Seed: sf.seed, Grid: grid,
		Train:   to,
		Extra:   extra,
		BySite:  nf.bySite,
		Workers: df.workers}
	run, label := train.NestedCV, "nested"
	if nf.bySet {
		run, label, opt.InnerFolds = train.LeaveOneSetOut, "by-set", nf.setInner
	}
	bar := newProgress(stderr, label, "trainings", 0, quiet)
	opt.Progress = bar.Update
	start := time.Now()
	res, err := run(ctx, ex, opt)
	bar.Done()
	if err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(stderr, "fiasco eval: %s evaluation took %v\n", label, time.Since(start).Round(time.Second))
	}
	ps, err := train.ScorePages(res.Results)
	if err != nil {
		return err
	}
	if nf.bySet {
		fmt.Fprintf(stdout, "leave-one-set-out over %d data sets, %d inner folds by %s, seed %d\n", len(res.Folds), opt.InnerFolds, strings.TrimSuffix(nf.dealt(), "s"), sf.seed)
	} else {
		fmt.Fprintf(stdout, "nested cross-validation over %s: %d outer folds, %d inner folds, seed %d\n", nf.dealt(), nf.outer, nf.inner, sf.seed)
	}
	printGrid(stdout, grid, params.C, params.Gamma, th, mf.smooth, params.Kernel == svm.Linear)
	if len(extra) > 0 {
		sampled := ""
		if nf.extraPages > 0 {
			sampled = fmt.Sprintf(" (a sample of at most %d pages of each, seed %d)", nf.extraPages, sf.seed)
		}
		fmt.Fprintf(stdout, "extra training pages, never scored: %d from %s%s\n", len(extra), strings.Join(nf.extra, ", "), sampled)
	}
	sf.reportMaxSV(stdout)
	nf.reportStack(stdout)
	fmt.Fprintln(stdout)
	printChoices(stdout, res, ps, nf.bySet, params.Kernel == svm.Linear)
	fmt.Fprintln(stdout)
	if err := report(res.Results, stdout); err != nil {
		return err
	}
	if nf.intervals() {
		sum, err := train.BootstrapScores(ps, nf.bootstrap, sf.seed)
		if err != nil {
			return err
		}
		printIntervals(stdout, sum, sf.seed)
		if err := printSetIntervals(stdout, ps, nf.bootstrap, sf.seed); err != nil {
			return err
		}
	}
	return savePages(nf, res.Results, ps, nil, stderr)
}

// reportStack names the second stage the folds' models have (--stack).
func (n *nestedFlags) reportStack(w io.Writer) {
	if n.stack > 0 {
		fmt.Fprintf(w, "second stage: each fold's model re-decides every block from its neighbours' first-stage values, learned in %d folds (--stack)\n", n.stack)
	}
}

// printGrid writes the candidates inner cross-validation chose from.
func printGrid(w io.Writer, g train.NestedGrid, c, gamma, th, smoothing float64, linear bool) {
	or := func(v []float64, def float64) []float64 {
		if v == nil {
			return []float64{def}
		}
		return v
	}
	list := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		return strings.Join(s, ", ")
	}
	names := make([]string, len(g.Features))
	for i, f := range g.Features {
		names[i] = f.Name
	}
	cs, gs, ts := or(g.C, c), or(g.Gamma, gamma), or(g.Thresholds, th)
	smooth, n := "", len(names)*len(cs)*len(gs)*len(ts)
	if g.Smooth != nil || smoothing != 0 { // shown where there is any
		ss := or(g.Smooth, smoothing)
		smooth, n = "; smoothing "+list(ss), n*len(ss)
	}
	gl := make([]string, len(gs))
	for i, x := range gs {
		gl[i] = gammaString(x, linear)
	}
	fmt.Fprintf(w, "grid: features %s; C %s; gamma %s; threshold %s%s (%s)\n",
		strings.Join(names, ", "), list(cs), strings.Join(gl, ", "), list(ts), smooth, plural(n, "setting"))
}

// gammaString shows a gamma; 0 is svm-train's default, one over the
// number of features.
func gammaString(g float64, linear bool) string {
	if linear {
		return "none (linear kernel)"
	}
	if g == 0 {
		return "1/features"
	}
	return strconv.FormatFloat(g, 'g', -1, 64)
}

// printChoices writes a row per outer fold (what it chose, its inner F and
// the F of the pages it tested) and how often each setting was chosen.
func printChoices(w io.Writer, res *train.NestedResult, ps []train.PageScore, bySet, linear bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	first := "fold"
	if bySet {
		first = "held out"
	}
	smoothed := false // show the smoothing where any fold chose one
	for _, f := range res.Folds {
		smoothed = smoothed || f.Chosen.Smooth != 0
	}
	// sm is the smoothing cell after label (the header's without a value).
	sm := func(label string, s *train.Setting) string {
		switch {
		case !smoothed:
			return ""
		case s == nil:
			return "\t" + label
		}
		return fmt.Sprintf("\t%s%g", label, s.Smooth)
	}
	fmt.Fprintf(tw, "%s\ttest\ttrain\tfeatures\tC\tgamma\tthreshold\tinner F\touter F%s\n", first, sm("smoothing", nil))
	var order []train.Setting
	count := map[train.Setting]int{}
	for _, f := range res.Folds {
		var words score.Counts
		for _, i := range f.Test {
			words.Matched += ps[i].Words.Matched
			words.Out += ps[i].Words.Out
			words.Gold += ps[i].Words.Gold
		}
		s := f.Chosen.Setting
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%g\t%s\t%g\t%.2f\t%.2f%s\n",
			f.Name, len(f.Test), f.TrainPages, s.Features, s.C, gammaString(s.Gamma, linear), s.Threshold, 100*f.Chosen.Inner.F(), 100*words.F(), sm("", &s))
		if count[s] == 0 {
			order = append(order, s)
		}
		count[s]++
	}
	tw.Flush()
	fmt.Fprintln(w, "\nsettings chosen:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range order {
		fmt.Fprintf(tw, "  %d of %d folds\tfeatures %s\tC %g\tgamma %s\tthreshold %g%s\n", count[s], len(res.Folds), s.Features, s.C, gammaString(s.Gamma, linear), s.Threshold, sm("smoothing ", &s))
	}
	tw.Flush()
}

// printIntervals writes the bootstrap summary, one figure a line.
func printIntervals(w io.Writer, s *train.Summary, seed uint64) {
	fmt.Fprintf(w, "\n95%% bootstrap intervals over %d pages (%d resamples, seed %d)\n", s.Pages, s.Resamples, seed)
	for _, f := range []struct {
		name string
		e    train.Estimate
	}{
		{"word P (micro)", s.WordP}, {"word R (micro)", s.WordR}, {"word F (micro)", s.WordF},
		{"node accuracy", s.NodeAccuracy}, {"node P", s.NodeP}, {"node R", s.NodeR}, {"node F", s.NodeF},
	} {
		fmt.Fprintf(w, "  %-16s %6.2f  [%.2f, %.2f]\n", f.name, 100*f.e.Value, 100*f.e.Lo, 100*f.e.Hi)
	}
}

// reportIntervals prints the report and, when asked, the bootstrap
// intervals (--model and --cv).
func reportIntervals(results []train.PageResult, nf *nestedFlags, seed uint64, stdout io.Writer) error {
	if err := report(results, stdout); err != nil {
		return err
	}
	if !nf.intervals() {
		return nil
	}
	ps, err := train.ScorePages(results)
	if err != nil {
		return err
	}
	sum, err := train.BootstrapScores(ps, nf.bootstrap, seed)
	if err != nil {
		return err
	}
	printIntervals(stdout, sum, seed)
	return printSetIntervals(stdout, ps, nf.bootstrap, seed)
}

// printSetIntervals writes word P, R and F with intervals for each data
// set apart, when the pages come from more than one.
func printSetIntervals(w io.Writer, ps []train.PageScore, b int, seed uint64) error {
	sets, err := train.BootstrapBySet(ps, b, seed)
	if err != nil || len(sets) < 2 {
		return err
	}
	fmt.Fprintf(w, "\nby data set (each its own %d resamples, seed %d)\n", sets[0].Resamples, seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  set\tpages\tword P\tword R\tword F [95%]")
	for _, s := range sets {
		fmt.Fprintf(tw, "  %s\t%d\t%.2f\t%.2f\t%.2f [%.2f, %.2f]\n", s.Set, s.Pages,
			100*s.WordP.Value, 100*s.WordR.Value, 100*s.WordF.Value, 100*s.WordF.Lo, 100*s.WordF.Hi)
	}
	return tw.Flush()
}

// foldOptions completes the training options of eval's folds: every
// visual model a fold trains gets a text model trained on the same pages
// as the embedded text model of the policy was (train.TextOptions), to
// decide what the rendering could not show (and, with --rescue, to
// rescue prose; with --blend, to take its share of every value); the embedded text model, trained on these pages, must
// not score them.
func foldOptions(df *dataFlags, mf *modelFlags, to train.TrainOptions) (train.TrainOptions, error) {
	to.Rescue, to.Floor, to.Blend, to.Smooth = mf.rescue, mf.floor.v, mf.blend, mf.smooth
	if err := mf.checkFoldFloorShare(); err != nil {
		return to, err
	}
	to.FloorShare, to.Policy = mf.floorShare, df.policy.String()
	text, err := train.TextOptions(df.policy.String(), to)
	if err != nil {
		return to, err
	}
	to.Text = text
	return to, nil
}
