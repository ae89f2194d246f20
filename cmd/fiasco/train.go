package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{
		name:    "train",
		summary: "train a cleaning model from gold data sets",
		run:     runTrain,
	})
}

func runTrain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: fiasco train --data DIR [--data DIR...] -o MODEL [options]

Trains a cleaning model: every page of the data sets is loaded, precleaned
and cut into blocks, its gold standard is aligned to the blocks to label
them clean or dirty, and an SVM learns from their features. SVM options are
svm-train's (-c, -g, -t, -w1, -w-1, -e, -m, -h); --grid picks C and gamma by
cross-validation over pages first. Pages are rendered in Chromium for the
visual features unless --no-render is given (or --features names none).

Options:`)
		fs.PrintDefaults()
	}
	var df dataFlags
	df.add(fs)
	sf := addSVMFlags(fs)
	out := fs.String("o", "", "output model file (required)")
	noRender := fs.Bool("no-render", false, "do not render pages: train on text and structure features only")
	rf := &renderFlags{}
	rf.add(fs)
	threshold := fs.Float64("threshold", 0, "decision threshold stored in the model (higher = more precision)")
	grid := fs.Bool("grid", false, "choose C and gamma by a grid search first")
	log2c := fs.String("log2c", "-1,9,2", "grid: log2 C begin,end,step")
	log2g := fs.String("log2g", "-9,1,2", "grid: log2 gamma begin,end,step")
	folds := fs.Int("folds", 5, "grid: folds (pages, not blocks, are split)")
	maxBlocks := fs.Int("max-blocks", 0, "train on a seeded sample of at most this many blocks (0: all)")
	featFlag := fs.String("features", "", "features to train on: groups (linguistic, keyword, structural, visual, text, all) and names, comma-separated (default: text, plus visual when rendering)")
	keywords := fs.Int("keywords", 100, "clean and dirty keywords to learn")
	quiet := fs.Bool("q", false, "no progress bars")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	feats, err := featureSet(*featFlag)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco %s: %v\n", fs.Name(), err)
		return 2
	}
	params, err := sf.params()
	if err != nil {
		fmt.Fprintf(stderr, "fiasco train: %v\n", err)
		return 2
	}
	ctx := context.Background()
	var prep pipeline.PrepareOptions
	if needsRender(*noRender, feats) {
		v, stop, err := rf.visualizer(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco train: %v\n", err)
			return 1
		}
		defer stop()
		prep.Visual = v
	}
	ex, err := df.load(ctx, prep, *quiet, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco train: %v\n", err)
		return 1
	}
	to := pipeline.TrainOptions{Params: params, Threshold: *threshold, MaxBlocks: *maxBlocks, Keywords: *keywords, Features: feats, Seed: sf.seed}
	if *grid {
		var gopt svm.GridOptions
		if gopt.Log2C, err = parseRange(*log2c); err == nil {
			gopt.Log2G, err = parseRange(*log2g)
		}
		if err != nil {
			fmt.Fprintf(stderr, "fiasco train: %v\n", err)
			return 2
		}
		bar := newProgress(stderr, "grid", "pairs", len(gopt.Log2C)*len(gopt.Log2G), *quiet)
		gopt.Progress = bar.Update
		res, err := pipeline.Grid(ctx, ex, to, *folds, sf.seed, gopt)
		bar.Done()
		if err != nil {
			fmt.Fprintf(stderr, "fiasco train: grid: %v\n", err)
			return 1
		}
		printGridMatrix(stderr, res)
		to.Params.C, to.Params.Gamma = res.Best.C, res.Best.Gamma
		fmt.Fprintf(stderr, "fiasco train: best C = 2^%g = %g, gamma = 2^%g = %g (CV accuracy %.2f%%)\n",
			res.Best.Log2C, res.Best.C, res.Best.Log2G, res.Best.Gamma, 100*res.Best.Accuracy)
	}
	m, err := pipeline.Train(ctx, ex, to)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco train: %v\n", err)
		return 1
	}
	m.Info.Data = df.dirs
	m.Info.Command = "fiasco train " + strings.Join(args, " ")
	if err := m.Save(*out); err != nil {
		fmt.Fprintf(stderr, "fiasco train: %v\n", err)
		return 1
	}
	nsv := m.English.TotalSV()
	fmt.Fprintf(stderr, "fiasco train: %d pages, %d blocks (%d clean); C = %g, gamma = %g, %d support vectors; wrote %s\n",
		m.Info.Pages, m.Info.Blocks, m.Info.Clean, to.Params.C, m.English.Gamma, nsv, *out)
	return 0
}

// printGridMatrix writes CV accuracy over the grid, gamma down, C across.
func printGridMatrix(w io.Writer, res *svm.GridResult) {
	fmt.Fprintf(w, "%10s", "log2g\\log2c")
	for _, c := range res.Log2C {
		fmt.Fprintf(w, " %6g", c)
	}
	fmt.Fprintln(w)
	acc := map[[2]float64]float64{}
	for _, p := range res.Points {
		acc[[2]float64{p.Log2C, p.Log2G}] = p.Accuracy
	}
	for _, g := range res.Log2G {
		fmt.Fprintf(w, "%10g ", g)
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
