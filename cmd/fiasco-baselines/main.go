// Command fiasco-baselines compares fiasco's RBF SVM with the classifiers
// FIASCO compared it against, on the same cross-validation folds of a
// LIBSVM data file (as written by "fiasco features"): the linear and
// polynomial SVM kernels, golearn's CART decision tree and a seeded random
// forest of such trees.
//
// Usage:
//
//	fiasco-baselines [-c C] [-g gamma] [-v folds] [-trees N] [-depth N] [-seed N] DATA
//
// It is a command of its own so that the fiasco binary does not link
// golearn and its dependencies. Choose C and gamma with "fiasco grid".
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/fiasco-project/fiasco/internal/baseline"
	"github.com/fiasco-project/fiasco/svm"
)

const usage = `fiasco-baselines [options] DATA

Cross-validates, on the same stratified seeded folds of DATA (LIBSVM
format), the RBF SVM at -c/-g, the linear and polynomial SVM kernels
(C = 1, gamma = 1/n, degree 3), a golearn CART decision tree (entropy,
-depth) and a seeded random forest of -trees CART trees (bootstrap rows,
sqrt(n) random features per tree), and prints accuracy and the positive
class's precision, recall and F1 for each.

Options:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "fiasco-baselines:", err)
		if ctx.Err() != nil {
			os.Exit(130)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fiasco-baselines", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	c := fs.Float64("c", 1, "C of the RBF SVM")
	g := fs.Float64("g", 0, "gamma of the RBF SVM (0 = 1/number of features)")
	folds := fs.Int("v", 5, "number of cross-validation folds (>= 2)")
	trees := fs.Int("trees", 50, "trees in the random forest (>= 1)")
	depth := fs.Int("depth", 12, "maximum depth of the trees (>= 1)")
	seed := fs.Uint64("seed", 1, "seed of the folds and the forest")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	if *c <= 0 || *g < 0 || *folds < 2 || *trees < 1 || *depth < 1 {
		fmt.Fprintln(stderr, "fiasco-baselines: -c must be > 0, -g >= 0, -v >= 2, -trees and -depth >= 1")
		return errUsage
	}
	prob, err := readProblem(fs.Arg(0))
	if err != nil {
		return err
	}
	foldOf, err := svm.StratifiedFolds(prob.Y, *folds, *seed)
	if err != nil {
		return err
	}
	rows, err := compare(ctx, prob, foldOf, *c, *g, *trees, *depth, *seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-45s %8s %9s %7s %7s\n", fmt.Sprintf("classifier (%d folds)", *folds), "accuracy", "precision", "recall", "F1")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-45s %8.4f %9.4f %7.4f %7.4f\n", r.name, r.m.Accuracy, r.m.Precision, r.m.Recall, r.m.F1)
	}
	return nil
}

func readProblem(path string) (*svm.Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := svm.ReadLIBSVM(bufio.NewReaderSize(f, 1<<20), 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

type row struct {
	name string
	m    svm.Metrics
}

// compare cross-validates every classifier on the folds foldOf.
func compare(ctx context.Context, prob *svm.Problem, foldOf []int, c, gamma float64, trees, depth int, seed uint64) ([]row, error) {
	var rows []row
	base := svm.DefaultParams()
	base.Seed = seed
	svmRow := func(name string, k svm.KernelType, c, gamma float64) error {
		p := base
		p.Kernel, p.C, p.Gamma = k, c, gamma
		r, err := svm.CrossValidateFolds(ctx, prob, p, foldOf)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, row{name, r.Metrics})
		return nil
	}
	if err := svmRow(fmt.Sprintf("SVM RBF (C=%g, gamma=%g)", c, gamma), svm.RBF, c, gamma); err != nil {
		return nil, err
	}
	// The linear and polynomial kernels at LIBSVM's defaults (a large C
	// from the RBF grid can make them run for very long).
	if err := svmRow("SVM linear (C=1)", svm.Linear, 1, 0); err != nil {
		return nil, err
	}
	if err := svmRow(fmt.Sprintf("SVM poly deg %d (C=1, gamma=1/n)", base.Degree), svm.Poly, 1, 0); err != nil {
		return nil, err
	}
	for _, cl := range []baseline.Classifier{baseline.Tree{MaxDepth: depth}, baseline.Forest{Trees: trees, MaxDepth: depth, Seed: seed}} {
		m, err := baseline.CrossValidate(ctx, prob, foldOf, cl)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{cl.Name(), m})
	}
	return rows, nil
}
