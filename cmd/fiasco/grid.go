package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fiasco-project/fiasco/baseline"
	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{name: "grid", summary: "grid search of C and gamma by cross-validation (like svm-grid)", run: runGrid})
}

const gridUsage = `fiasco grid [options] DATA

Cross-validates every (C, gamma) pair of the grid on DATA (LIBSVM format)
with stratified, seeded folds, using all cores, and prints the result
table and the best pair (last line "C gamma accuracy%", like svm-grid).
Kernel values are shared across C values and folds of one gamma; each
training is an exact LIBSVM-equivalent run. Writes the table to
DATA.out and a heatmap of CV accuracy to DATA.png unless -out/-png say
otherwise ("null" disables).

With -baselines, the same folds are then also used for the RBF kernel at
the best pair, the linear and polynomial kernels (C = 1, gamma = 1/n,
degree -d), a golearn CART decision tree (entropy, -depth) and a seeded
random forest of -trees golearn CART trees (bootstrap rows, sqrt(n)
random features per tree), and a comparison table of accuracy and the
positive class's precision, recall and F1 is printed.`

func runGrid(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fiasco grid", gridUsage, stderr)
	sf := addSVMFlags(fs)
	log2c := fs.String("log2c", "-5,15,2", "range of log2 C: begin,end,step")
	log2g := fs.String("log2g", "3,-15,-2", "range of log2 gamma: begin,end,step")
	folds := fs.Int("v", 5, "number of cross-validation folds")
	workers := fs.Int("workers", 0, "parallel trainings (0 = all cores)")
	kernelMB := fs.Float64("kernel-mb", 1024, "memory for shared precomputed kernel matrices, MB")
	out := fs.String("out", "", "result table file (default DATA.out, \"null\" for none)")
	pngPath := fs.String("png", "", "heatmap PNG file (default DATA.png, \"null\" for none)")
	baselines := fs.Bool("baselines", false, "also report linear/poly kernels and golearn tree/forest baselines on the same folds")
	trees := fs.Int("trees", 50, "trees in the random-forest baseline")
	depth := fs.Int("depth", 12, "maximum depth of baseline trees")
	quiet := fs.Bool("q", false, "no progress bar")
	if code := parseFlags(fs, args, 1); code >= 0 {
		return code
	}
	base, err := sf.params()
	if err != nil {
		fmt.Fprintln(stderr, "fiasco grid:", err)
		return 2
	}
	lc, err1 := parseRange(*log2c)
	lg, err2 := parseRange(*log2g)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(stderr, "fiasco grid: bad -log2c/-log2g:", err1, err2)
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "fiasco grid:", err)
		return 1
	}
	data := fs.Arg(0)
	prob, err := readProblem(data, 0)
	if err != nil {
		return fail(err)
	}
	foldOf, err := svm.StratifiedFolds(prob.Y, *folds, sf.seed)
	if err != nil {
		return fail(err)
	}
	opt := svm.GridOptions{Log2C: lc, Log2G: lg, FoldOf: foldOf, Workers: *workers, KernelMB: *kernelMB}
	start := time.Now()
	bar := newProgress(stderr, "grid", "pairs", len(lc)*len(lg), *quiet)
	opt.Progress = bar.Update
	ctx := context.Background()
	res, err := svm.GridSearch(ctx, prob, base, opt)
	bar.Done()
	if err != nil {
		return fail(err)
	}
	table := gridTable(res)
	fmt.Fprint(stdout, table)
	fmt.Fprintf(stdout, "best: log2c %g log2g %g  %v  (%d pairs in %v)\n", res.Best.Log2C, res.Best.Log2G, res.Best.Metrics, len(res.Points), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "%g %g %g\n", res.Best.C, res.Best.Gamma, 100*res.Best.Accuracy)
	if p := orDefault(*out, data+".out"); p != "" {
		if err := os.WriteFile(p, []byte(table), 0o644); err != nil {
			return fail(err)
		}
	}
	if p := orDefault(*pngPath, data+".png"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return fail(err)
		}
		if err := svm.WriteHeatmap(f, res); err != nil {
			f.Close()
			return fail(err)
		}
		if err := f.Close(); err != nil {
			return fail(err)
		}
	}
	if *baselines {
		if err := runBaselines(ctx, stdout, prob, base, res.Best, foldOf, *trees, *depth, sf.seed); err != nil {
			return fail(err)
		}
	}
	return 0
}

func orDefault(v, def string) string {
	switch v {
	case "null":
		return ""
	case "":
		return def
	}
	return v
}

func parseRange(s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want begin,end,step", s)
	}
	var v [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q: bad number %q", s, p)
		}
		v[i] = x
	}
	return svm.RangeLog2(v[0], v[1], v[2])
}

// gridTable is svm-grid's .out format plus precision/recall/F1:
// "log2c=.. log2g=.. rate=.." lines.
func gridTable(res *svm.GridResult) string {
	var b strings.Builder
	for _, p := range res.Points {
		fmt.Fprintf(&b, "log2c=%g log2g=%g rate=%.4f precision=%.4f recall=%.4f f1=%.4f\n",
			p.Log2C, p.Log2G, 100*p.Accuracy, p.Precision, p.Recall, p.F1)
	}
	return b.String()
}

func runBaselines(ctx context.Context, w io.Writer, prob *svm.Problem, base svm.Params, best svm.GridPoint, foldOf []int, trees, depth int, seed uint64) error {
	type row struct {
		name string
		m    svm.Metrics
	}
	var rows []row
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
	if err := svmRow(fmt.Sprintf("SVM RBF (C=%g, gamma=%g)", best.C, best.Gamma), svm.RBF, best.C, best.Gamma); err != nil {
		return err
	}
	// linear and polynomial kernels at LIBSVM's defaults (a large C from
	// the RBF grid can make them run for very long)
	if err := svmRow("SVM linear (C=1)", svm.Linear, 1, 0); err != nil {
		return err
	}
	if err := svmRow(fmt.Sprintf("SVM poly deg %d (C=1, gamma=1/n)", base.Degree), svm.Poly, 1, 0); err != nil {
		return err
	}
	for _, c := range []baseline.Classifier{baseline.Tree{MaxDepth: depth}, baseline.Forest{Trees: trees, MaxDepth: depth, Seed: seed}} {
		m, err := baseline.CrossValidate(ctx, prob, foldOf, c)
		if err != nil {
			return err
		}
		rows = append(rows, row{c.Name(), m})
	}
	fmt.Fprintf(w, "\n%-45s %8s %9s %7s %7s\n", "classifier (same folds)", "accuracy", "precision", "recall", "F1")
	for _, r := range rows {
		fmt.Fprintf(w, "%-45s %8.4f %9.4f %7.4f %7.4f\n", r.name, r.m.Accuracy, r.m.Precision, r.m.Recall, r.m.F1)
	}
	return nil
}
