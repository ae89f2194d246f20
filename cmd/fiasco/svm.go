package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{name: "svm", summary: "LIBSVM-compatible tools: svm train, svm predict, svm scale", run: runSVM})
}

const svmUsage = `Usage:
  fiasco svm train [options] DATA MODEL     (like svm-train)
  fiasco svm predict [-b 0|1] [-threshold T] DATA MODEL OUTPUT   (like svm-predict)
  fiasco svm scale [-l lower] [-u upper] [-s FILE | -r FILE] DATA   (like svm-scale)

DATA files are in LIBSVM's sparse format ("label idx:val ..."). Models are
LIBSVM text models (svm-predict reads them) plus a MODEL.meta.json sidecar.
Run "fiasco svm train -h" etc. for options.
`

func runSVM(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, svmUsage)
		return 2
	}
	switch args[0] {
	case "train":
		return svmTrain(args[1:], stdout, stderr)
	case "predict":
		return svmPredict(args[1:], stdout, stderr)
	case "scale":
		return svmScale(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, svmUsage)
		return 0
	}
	fmt.Fprintf(stderr, "fiasco svm: unknown subcommand %q\n%s", args[0], svmUsage)
	return 2
}

// newFlagSet makes a FlagSet whose usage text goes to stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n\nOptions:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags returns -1 to continue, else an exit code. A lone -h asks
// for help (-h with a value is LIBSVM's shrinking option).
func parseFlags(fs *flag.FlagSet, args []string, nargs int) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fs.Usage()
		return 0
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != nargs {
		fmt.Fprintf(fs.Output(), "%s: want %d arguments, got %d\n", fs.Name(), nargs, fs.NArg())
		fs.Usage()
		return 2
	}
	return -1
}

func readProblem(path string, minFeatures int) (*svm.Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := svm.ReadLIBSVM(bufio.NewReaderSize(f, 1<<20), minFeatures)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func svmTrain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fiasco svm train", "fiasco svm train [options] DATA MODEL\n\nTrains a two-class C-SVC exactly as svm-train does and writes MODEL\n(LIBSVM format) and MODEL"+svm.MetaSuffix+".", stderr)
	sf := addSVMFlags(fs)
	folds := fs.Int("v", 0, "n-fold stratified cross-validation instead of training (n >= 2); folds drawn from -seed")
	quiet := fs.Bool("q", false, "quiet mode")
	if code := parseFlags(fs, args, 2); code >= 0 {
		return code
	}
	p, err := sf.params()
	if err != nil {
		fmt.Fprintln(stderr, "fiasco svm train:", err)
		return 2
	}
	prob, err := readProblem(fs.Arg(0), 0)
	if err != nil {
		fmt.Fprintln(stderr, "fiasco svm train:", err)
		return 1
	}
	ctx := context.Background()
	if *folds != 0 {
		res, err := svm.CrossValidate(ctx, prob, p, *folds, sf.seed)
		if err != nil {
			fmt.Fprintln(stderr, "fiasco svm train:", err)
			return 1
		}
		fmt.Fprintf(stdout, "Cross Validation Accuracy = %g%%\n", 100*res.Accuracy)
		fmt.Fprintf(stdout, "Positive class: precision = %g%%, recall = %g%%, F1 = %g%%\n", 100*res.Precision, 100*res.Recall, 100*res.F1)
		return 0
	}
	m, err := svm.Train(ctx, prob, p)
	if err != nil {
		fmt.Fprintln(stderr, "fiasco svm train:", err)
		return 1
	}
	if !*quiet {
		fmt.Fprintf(stdout, "optimization finished, #iter = %d\n", m.Iter)
		fmt.Fprintf(stdout, "obj = %f, rho = %f\n", m.Obj, m.Rho)
		fmt.Fprintf(stdout, "nSV = %d, nBSV = %d\n", m.TotalSV(), m.NBSV)
		fmt.Fprintf(stdout, "Total nSV = %d\n", m.TotalSV())
	}
	if err := m.Save(fs.Arg(1)); err != nil {
		fmt.Fprintln(stderr, "fiasco svm train:", err)
		return 1
	}
	return 0
}

func svmPredict(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fiasco svm predict", "fiasco svm predict [options] DATA MODEL OUTPUT\n\nWrites one predicted label per line of DATA to OUTPUT, as svm-predict does.", stderr)
	prob := fs.Int("b", 0, "probability estimates: 1 writes \"labels ...\" and per-class probabilities (model must have them)")
	thr := fs.String("threshold", "", "decision threshold: predict the positive class iff decision value > T (default: the model's, 0 for LIBSVM models)")
	quiet := fs.Bool("q", false, "quiet mode")
	if code := parseFlags(fs, args, 3); code >= 0 {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "fiasco svm predict:", err)
		return 1
	}
	m, err := svm.LoadModel(fs.Arg(1))
	if err != nil {
		return fail(err)
	}
	if *thr != "" {
		t, err := strconv.ParseFloat(*thr, 64)
		if err != nil {
			fmt.Fprintln(stderr, "fiasco svm predict: bad -threshold:", err)
			return 2
		}
		m.Threshold = t
	}
	if *prob == 1 && !m.HasProb {
		return fail(errors.New("model does not support probability estimates (train with -b 1)"))
	}
	data, err := readProblem(fs.Arg(0), m.NumFeatures)
	if err != nil {
		return fail(err)
	}
	if data.NumFeatures() > m.NumFeatures {
		if err := m.Widen(data.NumFeatures()); err != nil {
			return fail(err)
		}
	}
	out, err := os.Create(fs.Arg(2))
	if err != nil {
		return fail(err)
	}
	bw := bufio.NewWriter(out)
	if *prob == 1 {
		fmt.Fprintf(bw, "labels %g %g\n", m.Labels[0], m.Labels[1])
	}
	dec, err := m.DecisionBatch(data.X, 0)
	if err != nil {
		out.Close()
		return fail(err)
	}
	pred := make([]float64, len(dec))
	for i, x := range data.X {
		if *prob == 1 {
			pp, err := m.Probability(x)
			if err != nil {
				out.Close()
				return fail(err)
			}
			p0 := pp // probability of Labels[0]
			if m.Labels[0] != m.PositiveLabel() {
				p0 = 1 - pp
			}
			// svm-predict -b 1 picks the more probable label
			pred[i] = m.Labels[1]
			if p0 >= 0.5 && m.Threshold == 0 {
				pred[i] = m.Labels[0]
			} else if m.Threshold != 0 {
				pred[i], _ = m.Predict(x)
			}
			fmt.Fprintf(bw, "%g %g %g\n", pred[i], p0, 1-p0)
			continue
		}
		pred[i] = labelFor(m, dec[i])
		fmt.Fprintf(bw, "%g\n", pred[i])
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return fail(err)
	}
	if err := out.Close(); err != nil {
		return fail(err)
	}
	if !*quiet {
		met := svm.NewMetrics(pred, data.Y, m.PositiveLabel())
		fmt.Fprintf(stdout, "Accuracy = %g%% (%d/%d) (classification)\n", 100*met.Accuracy, met.TP+met.TN, met.N)
		fmt.Fprintf(stdout, "Positive class %g: precision = %g%%, recall = %g%%, F1 = %g%%\n", m.PositiveLabel(), 100*met.Precision, 100*met.Recall, 100*met.F1)
	}
	return 0
}

func labelFor(m *svm.Model, dec float64) float64 {
	if dec > m.Threshold {
		return m.PositiveLabel()
	}
	return m.NegativeLabel()
}

func svmScale(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fiasco svm scale", "fiasco svm scale [options] DATA\n\nWrites DATA scaled feature-wise to [lower, upper] to stdout, as svm-scale does\n(range files are svm-scale's format).", stderr)
	lower := fs.Float64("l", -1, "x scaling lower limit")
	upper := fs.Float64("u", 1, "x scaling upper limit")
	save := fs.String("s", "", "save scaling parameters to FILE")
	restore := fs.String("r", "", "restore scaling parameters from FILE")
	if code := parseFlags(fs, args, 1); code >= 0 {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "fiasco svm scale:", err)
		return 1
	}
	if *save != "" && *restore != "" {
		fmt.Fprintln(stderr, "fiasco svm scale: cannot use -s and -r together")
		return 2
	}
	data, err := readProblem(fs.Arg(0), 0)
	if err != nil {
		return fail(err)
	}
	var sc *svm.Scaler
	if *restore != "" {
		f, err := os.Open(*restore)
		if err != nil {
			return fail(err)
		}
		sc, err = svm.ReadRange(f, data.NumFeatures())
		f.Close()
		if err != nil {
			return fail(err)
		}
		if sc.NumFeatures() > data.NumFeatures() {
			if data, err = readProblem(fs.Arg(0), sc.NumFeatures()); err != nil {
				return fail(err)
			}
		}
	} else {
		if sc, err = svm.FitScaler(data.X, *lower, *upper); err != nil {
			return fail(err)
		}
	}
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			return fail(err)
		}
		if err := sc.WriteRange(f); err != nil {
			f.Close()
			return fail(err)
		}
		if err := f.Close(); err != nil {
			return fail(err)
		}
	}
	scaled, err := sc.TransformProblem(data)
	if err != nil {
		return fail(err)
	}
	bw := bufio.NewWriter(stdout)
	if err := svm.WriteLIBSVM(bw, scaled); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	return 0
}
