package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{
		name:    "features",
		summary: "write the labelled feature vectors of gold data in LIBSVM format",
		run:     runFeatures,
	})
}

// featureSidecar describes the rows of a features file.
type featureSidecar struct {
	Features []string           `json:"features"`
	Keywords *features.Keywords `json:"keywords"`
	Rows     []featureRow       `json:"rows"`
}

type featureRow struct {
	Set   string  `json:"set"`
	Page  string  `json:"page"`
	Block int     `json:"block"`
	Share float64 `json:"gold_share"`
}

func runFeatures(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("features", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: fiasco features --data DIR [--data DIR...] -o BLOCKS.libsvm

Writes one line per text block of the gold data in LIBSVM's data format
(label +1 clean, -1 dirty; features unscaled, indices from 1 in the order of
the sidecar BLOCKS.libsvm.json, which also names the page and block of every
row and holds the keywords learned from the data). fiasco grid, svm-scale,
svm-train and svm-grid read the file as it is.

Options:`)
		fs.PrintDefaults()
	}
	var df dataFlags
	df.add(fs)
	out := fs.String("o", "", "output file (required)")
	visual := fs.Bool("visual", false, "render pages and include the visual features")
	rf := &renderFlags{}
	rf.add(fs)
	keywords := fs.Int("keywords", 100, "clean and dirty keywords to learn")
	quiet := fs.Bool("q", false, "no progress bar")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	var prep pipeline.PrepareOptions
	if *visual {
		v, stop, err := rf.visualizer(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco features: %v\n", err)
			return 1
		}
		defer stop()
		prep.Visual = v
	}
	ex, err := df.load(ctx, prep, *quiet, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco features: %v\n", err)
		return 1
	}
	groups := features.Linguistic | features.Keyword | features.Structural
	if *visual {
		groups |= features.Visual
	}
	names := features.Names(groups, true)
	prob, side, err := featureRows(ex, names, *keywords)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco features: %v\n", err)
		return 1
	}
	if err := writeOutput(*out, func(w io.Writer) error { return svm.WriteLIBSVM(w, prob) }); err != nil {
		fmt.Fprintf(stderr, "fiasco features: %v\n", err)
		return 1
	}
	js, err := json.MarshalIndent(side, "", " ")
	if err == nil {
		err = os.WriteFile(*out+".json", append(js, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fiasco features: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "fiasco features: %d rows x %d features in %s (sidecar %s)\n",
		prob.Len(), len(names), *out, filepath.Base(*out)+".json")
	return 0
}

func featureRows(ex []*pipeline.Example, names []string, k int) (*svm.Problem, *featureSidecar, error) {
	kw, err := pipeline.LearnKeywords(ex, k)
	if err != nil {
		return nil, nil, err
	}
	cols, err := features.Select(names)
	if err != nil {
		return nil, nil, err
	}
	prob := &svm.Problem{FeatureNames: names}
	side := &featureSidecar{Features: names, Keywords: kw}
	for _, e := range ex {
		prob.X = append(prob.X, features.Project(e.Doc.Table.Rows(kw), cols)...)
		prob.Y = append(prob.Y, e.Labels()...)
		for i := range e.Doc.Blocks {
			side.Rows = append(side.Rows, featureRow{Set: e.Set, Page: e.ID, Block: i, Share: e.Share[i]})
		}
	}
	return prob, side, nil
}
