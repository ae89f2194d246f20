package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{name: "svm", summary: "LIBSVM-compatible tools: svm train, svm predict, svm scale", run: runSVM})
}

const svmUsage = `Usage:
  fiasco svm train [options] DATA [MODEL]   (like svm-train; MODEL: DATA's name + .model)
  fiasco svm predict [-b 0|1] [-threshold T] DATA MODEL OUTPUT   (like svm-predict)
  fiasco svm scale [-l lower] [-u upper] [-s FILE | -r FILE] DATA   (like svm-scale)

DATA files are in LIBSVM's sparse format ("label idx:val ..."). Models are
LIBSVM text models (svm-predict reads them) plus a MODEL.meta.json sidecar.
The options are LIBSVM's letters, svm-train's -h 0|1 (shrinking) included;
-h without a value, -help and --help print help.
Run "fiasco svm train -h" etc. for options.
`

func runSVM(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, svmUsage)
		return &usageError{cmd: "svm", err: errors.New("no subcommand"), shown: true}
	}
	var run func(context.Context, []string, io.Writer) error
	switch args[0] {
	case "train":
		run = func(ctx context.Context, a []string, out io.Writer) error { return svmTrain(ctx, a, out, stderr) }
	case "predict":
		run = func(ctx context.Context, a []string, out io.Writer) error { return svmPredict(ctx, a, out, stderr) }
	case "scale":
		run = func(ctx context.Context, a []string, out io.Writer) error { return svmScale(ctx, a, out, stderr) }
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, svmUsage)
		return nil
	default:
		return usagef("svm", "unknown subcommand %q (want train, predict or scale)", args[0])
	}
	if err := run(ctx, args[1:], stdout); err != nil {
		var ue *usageError
		if errors.Is(err, flag.ErrHelp) || errors.As(err, &ue) {
			return err
		}
		return &cmdError{cmd: "svm " + args[0], err: err}
	}
	return nil
}

func readProblem(path string, minFeatures int) (*svm.Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if why := notLIBSVM(path, fi.Mode().IsRegular(), br); why != "" {
		return nil, fmt.Errorf("%s: %s, not data in LIBSVM format (fiasco features writes it from pages)", path, why)
	}
	p, err := svm.ReadLIBSVM(br, minFeatures)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// notLIBSVM names what the file at path, read by br, is where its start
// says it is something other than LIBSVM data that a user may give by
// mistake (a model, a compressed file, JSON); "" otherwise. Only a
// regular file is opened again to tell a model (a pipe would lose data).
func notLIBSVM(path string, regular bool, br *bufio.Reader) string {
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		if regular {
			if is, _ := classify.IsModelFile(path); is {
				return "a fiasco model file"
			}
		}
		return "gzip-compressed data (decompress it first)"
	}
	head, _ = br.Peek(512)
	if head = bytes.TrimLeft(head, " \t\r\n"); len(head) > 0 && head[0] == '{' {
		return "JSON (a model's or a range file's sidecar?)"
	}
	return ""
}

// dataErr names the data file an error of the SVM's is about; an
// interruption stays as it is.
func dataErr(path string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

func svmTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("svm train", "usage: fiasco svm train [options] DATA [MODEL]\n\nTrains a two-class C-SVC exactly as svm-train does and writes MODEL\n(LIBSVM format) and MODEL"+svm.MetaSuffix+"; without MODEL, as svm-train,\nDATA's file name with .model added, in the current directory. With -v it\ncross-validates and writes no model. -h 0|1 is svm-train's shrinking\noption; -h alone prints this help.\n\nThree differences from Debian's svm-train (package svm's documentation):\nthat reads -c, -g, -r and -wi in single precision, this in double, so a\nvalue float32 cannot hold (-g 0.1) gives a slightly other rho (-g\n0.10000000149011612 here gives svm-train's model byte for byte, where\nDATA's values have at most 8 significant digits, as svm-scale writes\nthem); -b 1's probability fit (Platt) draws other folds, so probA and\nprobB differ. And a support vector's values are written exactly, where\nsvm-train rounds them to 8 digits (%.8g), so that svm-predict gives this\nmodel's decision values.")
	sf := addSVMFlags(fs.FlagSet, libsvmLetters)
	folds := fs.Int("v", 0, "n-fold stratified cross-validation instead of training (n >= 2); folds drawn from -seed")
	quiet := fs.Bool("q", false, "quiet mode")
	args, weights, err := labelWeights("svm train", args)
	if err != nil {
		return err
	}
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return usagef("svm train", "want DATA and, optionally, MODEL; got %d arguments", len(pos))
	}
	p, err := sf.params()
	if err != nil {
		return &usageError{cmd: "svm train", err: err}
	}
	model := filepath.Base(pos[0]) + ".model"
	if len(pos) == 2 {
		model = pos[1]
	}
	if err := checkNotInput("svm train", "MODEL", model, nil, pos[0]); err != nil {
		return err
	}
	prob, err := readProblem(pos[0], 0)
	if err != nil {
		return err
	}
	applyLabelWeights(&p, weights, prob.Y, func(msg string) { fmt.Fprintln(stderr, msg) })
	if *folds != 0 {
		if n := len(prob.Y); *folds > n && *folds >= 2 {
			// As svm-train: leave-one-out rather than an error.
			fmt.Fprintf(stderr, "fiasco svm train: %s: %d folds for %d rows; using %d folds (leave-one-out cross-validation)\n", pos[0], *folds, n, n)
			*folds = n
		}
		res, err := svm.CrossValidate(ctx, prob, p, *folds, sf.seed)
		if err != nil {
			return dataErr(pos[0], err)
		}
		fmt.Fprintf(stdout, "Cross Validation Accuracy = %g%%\n", 100*res.Accuracy)
		fmt.Fprintf(stdout, "Positive class: precision = %g%%, recall = %g%%, F1 = %g%%\n", 100*res.Precision, 100*res.Recall, 100*res.F1)
		return nil
	}
	m, err := svm.Train(ctx, prob, p)
	if err != nil {
		return dataErr(pos[0], err)
	}
	if !*quiet {
		fmt.Fprintf(stdout, "optimization finished, #iter = %d\n", m.Iter)
		fmt.Fprintf(stdout, "obj = %f, rho = %f\n", m.Obj, m.Rho)
		fmt.Fprintf(stdout, "nSV = %d, nBSV = %d\n", m.TotalSV(), m.NBSV)
		fmt.Fprintf(stdout, "Total nSV = %d\n", m.TotalSV())
	}
	return m.Save(model)
}

func svmPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("svm predict", "usage: fiasco svm predict [options] DATA MODEL OUTPUT\n\nWrites one predicted label per line of DATA to OUTPUT, as svm-predict does.")
	prob := fs.Int("b", 0, "probability estimates: 1 writes \"labels ...\" and per-class probabilities (model must have them)")
	thr := fs.String("threshold", "", "decision threshold: predict the positive class iff decision value > T (default: the model's, 0 for LIBSVM models; not with -b 1, except that a model's own nonzero threshold labels by decision value there too)")
	quiet := fs.Bool("q", false, "quiet mode")
	pos, err := fs.parseN(args, stdout, 3, "DATA MODEL OUTPUT")
	if err != nil {
		return err
	}
	if *thr != "" && *prob == 1 {
		return usagef("svm predict", "-threshold with -b 1: -b 1 labels each row by the more probable class, as svm-predict does, -threshold by the decision value; choose one")
	}
	if err := checkNotInput("svm predict", "OUTPUT", pos[2], nil, pos[0], pos[1]); err != nil {
		return err
	}
	m, err := svm.LoadModel(pos[1])
	if errors.Is(err, svm.ErrStaleMeta) {
		// svm-train wrote the model over one of ours and left our
		// sidecar: the model is svm-train's, read as svm-predict reads it.
		fmt.Fprintf(stderr, "fiasco svm predict: warning: %s%s was written for another model file; ignored (the model is read as svm-predict reads it)\n", pos[1], svm.MetaSuffix)
		m, err = svm.LoadLIBSVMModel(pos[1])
	}
	if err != nil {
		return err
	}
	if *thr != "" {
		t, err := strconv.ParseFloat(*thr, 64)
		if err != nil {
			return usagef("svm predict", "-threshold %s: not a number", *thr)
		}
		m.Threshold = t
	}
	if *prob == 1 && !m.HasProb {
		return errors.New("model does not support probability estimates (train with -b 1)")
	}
	data, err := readProblem(pos[0], m.NumFeatures)
	if err != nil {
		return err
	}
	if note := ownKeywordsNote(pos[0]); note != "" && !*quiet {
		fmt.Fprintf(stderr, "fiasco svm predict: %s (if %s is the training file, predicting it is fine)\n", note, pos[0])
	}
	// The data's sidecar names its columns: they must be the model's
	// (fewer than the model has cannot be, whatever the model knows of
	// its names; more may be columns that were zero in training).
	if sc, _ := readSidecarHead(pos[0]); sc.Features != nil && (m.FeatureNames != nil || len(sc.Features) < m.NumFeatures) {
		if err := m.CheckFeatures(sc.Features); err != nil {
			return fmt.Errorf("%s (columns named in %s.json) does not fit model %s: %w", pos[0], filepath.Base(pos[0]), pos[1], err)
		}
	}
	if m.Scaler == nil && !*quiet {
		// A model trained on scaled rows predicts raw ones wrong,
		// silently. Rows scaled with the training data's ranges (svm
		// scale -r) go a little beyond [-1, 1] where a test value lies
		// beyond the training range; raw ones far beyond.
		// One column beyond is a test value beyond the training range
		// (a page with more symbols than any training page); raw rows
		// have most columns beyond.
		if col, lo, hi, n := beyondCols(data, rawLimit); (n >= rawCols || 2*n > m.NumFeatures) && !unscaledSVs(m) {
			fmt.Fprintf(stderr, "fiasco svm predict: warning: %d columns of %s lie beyond [-%d, %d] (column %d runs from %g to %g), and the model's support vectors lie in [-1, 1]: unscaled rows? scale them as the training rows were (fiasco svm scale -r RANGE)\n", n, pos[0], rawLimit, rawLimit, col+1, lo, hi)
		}
	}
	if data.NumFeatures() > m.NumFeatures {
		if err := m.Widen(data.NumFeatures()); err != nil {
			return err
		}
	}
	out, err := os.Create(pos[2])
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	if *prob == 1 {
		fmt.Fprintf(bw, "labels %g %g\n", m.Labels[0], m.Labels[1])
	}
	dec, err := m.DecisionBatch(data.X, 0)
	if err != nil {
		out.Close()
		return err
	}
	pred := make([]float64, len(dec))
	for i, x := range data.X {
		if *prob == 1 {
			pp, err := m.Probability(x)
			if err != nil {
				out.Close()
				return err
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
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if !*quiet {
		met := svm.NewMetrics(pred, data.Y, m.PositiveLabel())
		fmt.Fprintf(stdout, "Accuracy = %g%% (%d/%d) (classification)\n", 100*met.Accuracy, met.TP+met.TN, met.N)
		fmt.Fprintf(stdout, "Positive class %g: precision = %g%%, recall = %g%%, F1 = %g%%\n", m.PositiveLabel(), 100*met.Precision, 100*met.Recall, 100*met.F1)
	}
	return nil
}

func labelFor(m *svm.Model, dec float64) float64 {
	if dec > m.Threshold {
		return m.PositiveLabel()
	}
	return m.NegativeLabel()
}

func svmScale(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("svm scale", "usage: fiasco svm scale [options] DATA\n\nWrites DATA scaled feature-wise to [lower, upper] to stdout, as svm-scale does\n(range files are svm-scale's format).")
	lower := fs.Float64("l", -1, "x scaling lower limit")
	upper := fs.Float64("u", 1, "x scaling upper limit")
	save := fs.String("s", "", "save scaling parameters to FILE")
	restore := fs.String("r", "", "restore scaling parameters from FILE")
	pos, err := fs.parseN(args, stdout, 1, "DATA")
	if err != nil {
		return err
	}
	if *save != "" && *restore != "" {
		return usagef("svm scale", "cannot use -s and -r together")
	}
	if err := checkNotInput("svm scale", "-s", *save, nil, pos[0]); err != nil {
		return err
	}
	data, err := readProblem(pos[0], 0)
	if err != nil {
		return err
	}
	var sc *svm.Scaler
	if *restore != "" {
		f, err := os.Open(*restore)
		if err != nil {
			return err
		}
		sc, err = svm.ReadRange(f, data.NumFeatures())
		f.Close()
		if err != nil {
			return fmt.Errorf("-r %s: %w", *restore, err)
		}
		// Restoring another file's range is how a test set is scaled.
		if note := ownKeywordsNote(pos[0]); note != "" {
			fmt.Fprintf(stderr, "fiasco svm scale: %s\n", note)
		}
		if sc.NumFeatures() > data.NumFeatures() {
			if data, err = readProblem(pos[0], sc.NumFeatures()); err != nil {
				return err
			}
		}
	} else {
		if sc, err = svm.FitScaler(data.X, *lower, *upper); err != nil {
			return err
		}
	}
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			return err
		}
		if err := sc.WriteRange(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	scaled, err := sc.TransformProblem(data)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	if err := svm.WriteLIBSVM(bw, scaled); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return nil
}

// rawLimit is how far beyond [-1, 1] a value of rows for a model trained
// on scaled ones must lie, in rawCols columns at least (or most of the
// model's columns), for svm predict
// to take them for unscaled. Rows scaled with the training rows' ranges
// (svm scale -r) go beyond where a test value lies beyond the training
// range, in a column or two (fiasco's symbol_share on pages of symbols);
// fiasco's raw features lie beyond in most columns (lengths, counts,
// depths).
const (
	rawLimit = 3
	rawCols  = 3
)

// beyondCols returns how many columns of prob hold a value outside
// [-limit, limit], and the first of them (0-based) with its range.
func beyondCols(prob *svm.Problem, limit float64) (first int, lo, hi float64, n int) {
	first, lo, hi = beyond(prob, limit)
	if first < 0 {
		return first, lo, hi, 0
	}
	cols := map[int]bool{}
	for _, row := range prob.X {
		for j, v := range row {
			if v < -limit || v > limit {
				cols[j] = true
			}
		}
	}
	return first, lo, hi, len(cols)
}

// unscaledSVs reports whether a support vector of m has a value outside
// [-1, 1] (the model was not trained on scaled rows).
func unscaledSVs(m *svm.Model) bool {
	col, _, _ := unscaled(&svm.Problem{X: m.SV})
	return col >= 0
}
