package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{name: "grid", summary: "grid search of C and gamma by cross-validation (like svm-grid)", run: runGrid})
}

const gridUsage = `usage: fiasco grid [options] DATA

Cross-validates every (C, gamma) pair of the grid on DATA (LIBSVM format)
with stratified, seeded folds, using all cores, and prints the result
table and the best pair (last line "C gamma accuracy%", like svm-grid;
"C accuracy%" and no log2g in the table for a linear kernel, -t 0).
As in svm-grid, -log2c null or -log2g null leaves that one out of the
grid: C is then -c's (default 1), gamma -g's (default 1/features), the
table and the last line leave it out, and no heatmap is drawn.
Kernel values are shared across C values and folds of one gamma; each
training is an exact LIBSVM-equivalent run. Writes the table to
DATA.out and a heatmap of CV accuracy to DATA.png, both named after
DATA's file name and in the current directory as svm-grid's, unless
-out/-png say otherwise ("null" disables). Each is written only over a
file of its kind (a grid table, a PNG picture) or a new or empty one:
another file there (the data, named by mistake) is refused before the
search.

The decision-tree baselines that FIASCO compared against run on the same
folds in a command of their own, fiasco-baselines (kept out of this
binary so that it does not link golearn).

Folds are dealt by row, as svm-train -v deals them; fiasco train --grid
deals them by page, so that a page's blocks, which look alike, are never
on both sides: its accuracy is lower and nearer what unseen pages give.
Both are still optimistic: the keywords and the scaling are learnt once
from all the rows or pages, held-out folds included, and the best of
many pairs is picked on the same folds that score it. fiasco eval --cv
with the chosen C and gamma scores them without the first; fiasco eval
--nested, which chooses inside each fold, without either.

fiasco train scales every column to [-1, 1] by its range in the
training data before it trains: to tune C and gamma for it on a file of
fiasco features, scale the file first (fiasco svm scale -s RANGE DATA >
DATA.scaled) and search the scaled file. grid warns of a file whose
values lie outside [-1, 1]. -c and -g are the grid's to choose: given
with it, they are refused.

Stopped by a signal (Ctrl-C), grid prints the pairs whose folds had all
finished and writes them to the table file, as svm-grid's table keeps
the lines it wrote, and removes an older heatmap; it has no -resume.

SVM options are svm-train's letters, -h 0|1 (shrinking) included; -h
without a value, -help and --help print this help.`

func runGrid(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grid", gridUsage)
	sf := addSVMFlags(fs.FlagSet, libsvmLetters)
	fs.Lookup("c").Usage = "C, only with -log2c null (grid chooses C from -log2c)"
	fs.Lookup("g").Usage = "gamma, only with -log2g null (grid chooses gamma from -log2g)"
	log2c := fs.String("log2c", "-5,15,2", "range of log2 C: begin,end,step (null: not searched, -c's C)")
	log2g := fs.String("log2g", "3,-15,-2", "range of log2 gamma: begin,end,step (null: not searched, -g's gamma)")
	folds := fs.Int("v", 5, "number of cross-validation folds")
	workers := fs.Int("workers", 0, "parallel trainings (0 = all cores)")
	kernelMB := fs.Float64("kernel-mb", 1024, "memory for shared precomputed kernel matrices, MB")
	out := fs.String("out", "", "result table file (default DATA.out in the current directory, \"null\" for none)")
	pngPath := fs.String("png", "", "heatmap PNG file (default DATA.png in the current directory, \"null\" for none)")
	quiet := fs.Bool("q", false, "no progress bar")
	args, weights, err := labelWeights("grid", args)
	if err != nil {
		return err
	}
	pos, err := fs.parseN(args, stdout, 1, "DATA")
	if err != nil {
		return err
	}
	nullC, nullG := isNull(*log2c), isNull(*log2g)
	switch {
	case sf.kernel == 0 && fs.given("g") != "":
		return usagef("grid", "-g: a linear kernel (-t 0) has no gamma; drop it")
	case sf.kernel == 0 && fs.given("log2g") != "" && !nullG:
		return usagef("grid", "-log2g: a linear kernel (-t 0) has no gamma; drop it (or give -log2g null, as svm-grid takes)")
	}
	switch {
	case nullC && nullG:
		return usagef("grid", "-log2c null and -log2g null: nothing to search")
	case fs.given("c") != "" && !nullC:
		return usagef("grid", "-c: the grid chooses C (-log2c; -log2c null keeps -c's)")
	case fs.given("g") != "" && !nullG:
		return usagef("grid", "-g: the grid chooses gamma (-log2g; -log2g null keeps -g's)")
	case (nullC || nullG) && *pngPath != "" && !isNull(*pngPath):
		return usagef("grid", "-png %s: a heatmap needs both C and gamma searched", *pngPath)
	}
	if nullC || nullG {
		*pngPath = "null"
	}
	if *folds < 2 {
		return usagef("grid", "-v %d: want 2 or more folds", *folds)
	}
	if *workers < 0 {
		return usagef("grid", "-workers %d: want 0 (all cores) or more", *workers)
	}
	if sf.kernel == 0 && nullC {
		return usagef("grid", "-log2c null with a linear kernel (-t 0): nothing to search")
	}
	base, err := sf.params()
	if err != nil {
		return &usageError{cmd: "grid", err: err}
	}
	var lc, lg []float64
	if !nullC {
		if lc, err = parseRange(*log2c); err != nil {
			return usagef("grid", "-log2c %v", err)
		}
	} else {
		lc = []float64{math.Log2(base.C)} // a label: the C is base.C, exactly (opt.C)
	}
	if !nullG {
		if lg, err = parseRange(*log2g); err != nil {
			return usagef("grid", "-log2g %v", err)
		}
	}
	data := pos[0]
	// As svm-grid: named after DATA's file, in the current directory.
	outPath, heatmap := orDefault(*out, filepath.Base(data)+".out"), orDefault(*pngPath, filepath.Base(data)+".png")
	for _, o := range []struct{ flag, path string }{{"out", outPath}, {"png", heatmap}} {
		if o.path == "" {
			continue
		}
		if err := checkNotInput("grid", "-"+o.flag, o.path, nil, data); err != nil {
			return err
		}
		if err := checkWritable(o.path); err != nil {
			return fmt.Errorf("-%s %s: %w", o.flag, o.path, err)
		}
		if err := checkOutKind("grid", "-"+o.flag, o.path, false); err != nil {
			return err
		}
	}
	// What a grid writes (and where it ends early, removes) is written
	// over only a grid's own: not a features file named by mistake.
	if outPath != "" {
		if err := checkOverOwn("grid", "-out", outPath, "grid table", "a table", isGridTable); err != nil {
			return err
		}
	}
	if heatmap != "" {
		if err := checkOverOwn("grid", "-png", heatmap, "PNG picture", "a picture", isPNG); err != nil {
			return err
		}
	}
	prob, err := readProblem(data, 0)
	if err != nil {
		return err
	}
	if nullG && base.Kernel != svm.Linear {
		// -log2g null: -g's gamma, exactly (opt.Gamma), labelled by its
		// log2; svm.GridSearch makes a gamma of 0 (svm-train's default)
		// 1/num_features, its label too.
		lg = []float64{math.Log2(base.Gamma)}
	}
	applyLabelWeights(&base, weights, prob.Y, func(msg string) { fmt.Fprintln(stderr, msg) })
	if col, lo, hi := unscaled(prob); col >= 0 {
		fmt.Fprintf(stderr, "fiasco grid: warning: %s is not scaled to [-1, 1] (feature %d spans %g to %g); fiasco train scales every column first, so C and gamma found here do not carry over to it: scale the file (fiasco svm scale) and search that\n", data, col+1, lo, hi)
	}
	if n := len(prob.Y); *folds > n {
		// A flag the data cannot meet: a usage error, as train --grid's
		// --folds and eval --cv's are.
		return usagef("grid", "-v %d: %s holds %d rows, fewer than the folds", *folds, data, n)
	}
	foldOf, err := svm.StratifiedFolds(prob.Y, *folds, sf.seed)
	if err != nil {
		return dataErr(data, err)
	}
	opt := svm.GridOptions{Log2C: lc, Log2G: lg, FoldOf: foldOf, Workers: *workers, KernelMB: *kernelMB}
	if nullC {
		opt.C = []float64{base.C}
	}
	if nullG && base.Kernel != svm.Linear {
		opt.Gamma = []float64{base.Gamma}
	}
	start := time.Now()
	bar := newProgress(stderr, "grid", "pairs", len(lc)*len(lg), *quiet)
	opt.Progress = bar.Update
	res, err := svm.GridSearch(ctx, prob, base, opt)
	bar.Done()
	if err != nil && (res == nil || ctx.Err() == nil) {
		return dataErr(data, err)
	}
	showG := base.Kernel != svm.Linear && !nullG
	table := gridTable(res, !nullC, showG)
	fmt.Fprint(stdout, table)
	if outPath != "" {
		if err := writeFile(outPath, []byte(table)); err != nil {
			return err
		}
	}
	if total := len(res.Log2C) * len(res.Log2G); err != nil && len(res.Points) < total {
		// Stopped (a signal): the pairs finished so far, as svm-grid's
		// table keeps its lines; no best pair, and no heatmap (an older
		// one would not match the table: removed).
		where := "printed above"
		if outPath != "" {
			where = "their table is in " + outPath
		}
		if heatmap != "" {
			if fi, serr := os.Stat(heatmap); serr == nil && fi.Mode().IsRegular() && os.Remove(heatmap) == nil {
				where += "; the older heatmap " + heatmap + " is removed"
			}
		}
		fmt.Fprintf(stderr, "fiasco grid: stopped with %d of %d pairs finished (%s)\n", len(res.Points), total, where)
		return err
	}
	var best, last []string // svm-grid's last line: the searched values, then the accuracy
	if !nullC {
		best = append(best, fmt.Sprintf("log2c %g", res.Best.Log2C))
		last = append(last, fmt.Sprint(res.Best.C))
	} else {
		best = append(best, fmt.Sprintf("C %g (-log2c null)", res.Best.C))
	}
	switch {
	case base.Kernel == svm.Linear:
		best = append(best, "(no gamma: linear kernel)")
	case nullG:
		best = append(best, fmt.Sprintf("gamma %g (-log2g null)", res.Best.Gamma))
	default:
		best = append(best, fmt.Sprintf("log2g %g", res.Best.Log2G))
		last = append(last, fmt.Sprint(res.Best.Gamma))
	}
	last = append(last, fmt.Sprint(100*res.Best.Accuracy))
	fmt.Fprintf(stdout, "best: %s  %v  (%d pairs in %v)\n", strings.Join(best, " "), res.Best.Metrics, len(res.Points), time.Since(start).Round(time.Millisecond))
	fmt.Fprintln(stdout, strings.Join(last, " "))
	if heatmap != "" {
		if err := writeOutput(heatmap, func(w io.Writer) error { return svm.WriteHeatmap(w, res) }); err != nil {
			return err
		}
	}
	return nil
}

// unscaled returns the first column (0-based) of prob with a value
// outside [-1, 1] and that column's range, or -1.
func unscaled(prob *svm.Problem) (int, float64, float64) {
	const slack = 1e-6 // svm-scale's output is printed rounded
	return beyond(prob, 1+slack)
}

// beyond returns the first column (0-based) of prob with a value outside
// [-limit, limit] and that column's range, or -1.
func beyond(prob *svm.Problem, limit float64) (int, float64, float64) {
	for _, row := range prob.X {
		for j, v := range row {
			if v < -limit || v > limit {
				lo, hi := v, v
				for _, r := range prob.X {
					if j < len(r) {
						lo, hi = math.Min(lo, r[j]), math.Max(hi, r[j])
					}
				}
				return j, lo, hi
			}
		}
	}
	return -1, 0, 0
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
	r, err := svm.RangeLog2(v[0], v[1], v[2])
	if err != nil {
		return nil, fmt.Errorf("%q: %s", s, strings.TrimPrefix(err.Error(), "svm: "))
	}
	for _, e := range r {
		// Refused here, before any page is loaded or rendered, as the
		// grid search would refuse it after.
		if v := math.Exp2(e); v == 0 || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q: 2^%g is no usable value (log2 values run from -1074 to 1023)", s, e)
		}
	}
	return r, nil
}

// isNull reports svm-grid's "null": a range not searched, or no file.
func isNull(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "null") }

// gridTable is svm-grid's .out format plus precision/recall/F1:
// "log2c=.. log2g=.. rate=.." lines, without what was not searched
// (-log2c null, -log2g null, or gamma for a linear kernel), as svm-grid
// writes them.
func gridTable(res *svm.GridResult, showC, showG bool) string {
	var b strings.Builder
	for _, p := range res.Points {
		if showC {
			fmt.Fprintf(&b, "log2c=%g ", p.Log2C)
		}
		if showG {
			fmt.Fprintf(&b, "log2g=%g ", p.Log2G)
		}
		fmt.Fprintf(&b, "rate=%.4f precision=%.4f recall=%.4f f1=%.4f\n", 100*p.Accuracy, p.Precision, p.Recall, p.F1)
	}
	return b.String()
}

// isGridTable tells whether head, a file's first bytes, opens a table
// that grid writes ("log2c=... log2g=... rate=..."; "log2g=" first
// where C is not searched).
func isGridTable(head []byte) bool {
	return bytes.HasPrefix(head, []byte("log2c=")) || bytes.HasPrefix(head, []byte("log2g="))
}
