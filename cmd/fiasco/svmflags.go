package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fiasco-project/fiasco/svm"
)

// svmFlags holds LIBSVM's training options (svm-train's letters) so that
// every command that trains an SVM accepts the same ones.
type svmFlags struct {
	svmType   int
	kernel    int
	degree    int
	gamma     float64
	coef0     float64
	c         float64
	w1, wm1   float64
	eps       float64
	cacheMB   float64
	shrinking int
	shrinkOpt string // how the shrinking option is spelled: -h or --shrinking
	prob      int
	seed      uint64
	threads   int
	maxSV     int // fiasco train and eval: train.TrainOptions.MaxSV (addMaxSV)
}

// addMaxSV registers --max-sv, the reduced set of fiasco train and eval
// (prefix starts its help: the modes that read it; note ends it).
func (f *svmFlags) addMaxSV(fs *flag.FlagSet, prefix, note string) {
	fs.IntVar(&f.maxSV, "max-sv", 0, prefix+maxSVHelp+note+" (0: keep all support vectors)")
}

const maxSVHelp = "cut each SVM with more support vectors than `N` to a reduced set of N vectors (the support vectors nearest to k-means centres, coefficients refitted by least squares to the full SVM's decision values on up to 5,000 training blocks): a block's decision costs in proportion to them; RBF kernel only"

// reportMaxSV writes the line of eval's report that says --max-sv cut
// the folds' models (nothing without it).
func (f *svmFlags) reportMaxSV(w io.Writer) {
	if f.maxSV > 0 {
		fmt.Fprintf(w, "reduced sets: each fold's SVMs with more than %d support vectors cut to that many vectors (--max-sv)\n", f.maxSV)
	}
}

// checkMaxSV reports a --max-sv that cannot apply.
func (f *svmFlags) checkMaxSV(cmd string) error {
	switch {
	case f.maxSV < 0:
		return usagef(cmd, "--max-sv %d: want 0 (all support vectors) or more", f.maxSV)
	case f.maxSV > 0 && svm.KernelType(f.kernel) != svm.RBF:
		return usagef(cmd, "--max-sv cuts RBF models: not with -t %d", f.kernel)
	}
	return nil
}

// Spellings of LIBSVM's shrinking option (svm-train -h).
const (
	// libsvmLetters: the commands that mirror LIBSVM's tools (fiasco svm
	// train, fiasco grid) keep svm-train's -h 0|1; there a -h without a
	// value still asks for help.
	libsvmLetters = true
	// fiascoNames: every other command spells it --shrinking, since -h is
	// help there.
	fiascoNames = false
)

// shrinkingHelp is the note in the help of the commands that spell LIBSVM's
// -h as --shrinking.
const shrinkingHelp = "SVM options are svm-train's letters, except its -h (shrinking), which is\n--shrinking 0|1 here: -h asks for help."

// addSVMFlags registers -s -t -d -g -r -c -w1 -w-1 -e -m -b -seed -threads
// and the shrinking option (see libsvmLetters) on fs with svm-train's
// defaults.
func addSVMFlags(fs *flag.FlagSet, letters bool) *svmFlags {
	d := svm.DefaultParams()
	f := &svmFlags{shrinking: 1}
	fs.IntVar(&f.svmType, "s", 0, "svm_type: only 0 (C-SVC) is supported")
	fs.IntVar(&f.kernel, "t", int(d.Kernel), "kernel_type: 0 linear u'v, 1 polynomial (gamma*u'v+coef0)^degree, 2 RBF exp(-gamma*|u-v|^2), 3 sigmoid tanh(gamma*u'v+coef0)")
	fs.IntVar(&f.degree, "d", d.Degree, "degree of the polynomial kernel")
	fs.Float64Var(&f.gamma, "g", 0, "gamma of the kernel (0 means 1/num_features)")
	fs.Float64Var(&f.coef0, "r", d.Coef0, "coef0 of the polynomial/sigmoid kernel")
	fs.Float64Var(&f.c, "c", d.C, "cost parameter C of C-SVC")
	if letters {
		// svm-train's -wi for any label i (labelWeights takes them out
		// of the arguments before the flag set sees them); listed here
		// for the help.
		fs.Float64Var(&f.w1, "w1", 1, "weight: C of the class labelled 1 is w1*C; -wi for label i (-w-1, -w2, ...), as svm-train")
		fs.Float64Var(&f.wm1, "w-1", 1, "weight: C of the class labelled -1 is w-1*C")
	} else {
		fs.Float64Var(&f.w1, "w1", 1, "weight: C of class +1 (clean) is w1*C")
		fs.Float64Var(&f.wm1, "w-1", 1, "weight: C of class -1 (dirty) is w-1*C")
	}
	fs.Float64Var(&f.eps, "e", d.Eps, "tolerance of the termination criterion")
	fs.Float64Var(&f.cacheMB, "m", d.CacheMB, "kernel cache size in MB")
	if letters {
		f.shrinkOpt = "-h"
		fs.IntVar(&f.shrinking, "h", 1, "shrinking heuristics: 1 on, 0 off (-h alone: help)")
	} else {
		f.shrinkOpt = "--shrinking"
		fs.Func("shrinking", "shrinking heuristics: `0|1`, 1 on (default), 0 off (svm-train's -h)", func(s string) error {
			switch strings.ToLower(s) {
			case "1", "true", "on":
				f.shrinking = 1
			case "0", "false", "off":
				f.shrinking = 0
			default:
				return fmt.Errorf("want 0 or 1")
			}
			return nil
		})
	}
	if letters {
		fs.IntVar(&f.prob, "b", 0, "probability estimates (Platt): 1 on, 0 off")
	} else {
		// A cleaning model decides by decision values against its
		// threshold: probabilities would be trained (at twice the
		// time) and never read.
		fs.Func("b", "probability estimates: only 0 (off); they are for fiasco svm train and predict", func(s string) error {
			if strings.TrimSpace(s) == "0" {
				return nil
			}
			return fmt.Errorf("probability estimates are for fiasco svm train and predict: a cleaning model keeps blocks by their decision values against its threshold (--threshold), and would never read them")
		})
	}
	if letters {
		fs.Uint64Var(&f.seed, "seed", 1, "seed for folds and probability estimates")
	} else {
		// fiasco train and eval: every random draw of theirs.
		fs.Uint64Var(&f.seed, "seed", 1, "seed of every random draw: folds, --extra-pages and --max-blocks samples, the --max-sv reduced sets' k-means (and eval's bootstrap resamples)")
	}
	fs.IntVar(&f.threads, "threads", 1, "goroutines per kernel column for long columns (one training)")
	return f
}

// params converts the flags into svm.Params, rejecting values LIBSVM
// rejects.
func (f *svmFlags) params() (svm.Params, error) {
	if f.svmType != 0 {
		return svm.Params{}, fmt.Errorf("-s %d: only C-SVC (-s 0) is supported", f.svmType)
	}
	if f.shrinking != 0 && f.shrinking != 1 {
		return svm.Params{}, fmt.Errorf("%s must be 0 or 1, got %d", f.shrinkOpt, f.shrinking)
	}
	if f.prob != 0 && f.prob != 1 {
		return svm.Params{}, fmt.Errorf("-b must be 0 or 1, got %d", f.prob)
	}
	if f.w1 <= 0 || f.wm1 <= 0 {
		return svm.Params{}, fmt.Errorf("class weights must be positive, got -w1 %g -w-1 %g", f.w1, f.wm1)
	}
	p := svm.DefaultParams()
	p.Kernel = svm.KernelType(f.kernel)
	p.Degree = f.degree
	p.Gamma = f.gamma
	p.Coef0 = f.coef0
	p.C = f.c
	p.WeightPos, p.WeightNeg = f.w1, f.wm1
	p.Eps = f.eps
	p.CacheMB = f.cacheMB
	p.Shrinking = f.shrinking == 1
	p.Probability = f.prob == 1
	p.Seed = f.seed
	p.Threads = f.threads
	if err := p.Validate(); err != nil {
		return svm.Params{}, err
	}
	return p, nil
}

// labelWeights takes svm-train's class weight options out of args: -wi
// weight (or -wi=weight, with one dash or two) sets the C of the class
// labelled i to weight*C, whatever the labels are (-w1 and -w-1 for ±1
// data, -w2 for label 2). The other arguments are returned in order.
func labelWeights(cmd string, args []string) (rest []string, w map[float64]float64, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), w, nil
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if name == a || !strings.HasPrefix(name, "w") || len(name) == 1 {
			rest = append(rest, a)
			continue
		}
		label, val, hasVal := strings.Cut(name[1:], "=")
		l, perr := strconv.ParseFloat(label, 64)
		if perr != nil {
			rest = append(rest, a) // not a weight: the flag set reports it
			continue
		}
		if !hasVal {
			if i+1 == len(args) {
				return nil, nil, usagef(cmd, "%s needs a weight", a)
			}
			i++
			val = args[i]
		}
		v, perr := strconv.ParseFloat(val, 64)
		if perr != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, nil, usagef(cmd, "%s %s: want a positive weight", a, val)
		}
		if w == nil {
			w = map[float64]float64{}
		}
		w[l] = v
	}
	return rest, w, nil
}

// applyLabelWeights sets p's class weights from the weights by label of
// labelWeights, for data labelled y, and warns, as svm-train does, of a
// label given a weight that no row has.
func applyLabelWeights(p *svm.Params, w map[float64]float64, y []float64, warn func(string)) {
	if len(w) == 0 {
		return
	}
	present := map[float64]bool{}
	for _, v := range y {
		present[v] = true
	}
	labels := make([]float64, 0, len(w))
	for l := range w {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for _, l := range labels {
		if !present[l] {
			warn(fmt.Sprintf("WARNING: class label %g specified in weight is not found", l))
		}
	}
	pos := slices.Max(slices.Collect(maps.Keys(present))) // svm.PositiveLabel: the larger
	p.WeightPos, p.WeightNeg = 1, 1
	for l, v := range w {
		switch {
		case !present[l]:
		case l == pos:
			p.WeightPos = v
		default:
			p.WeightNeg = v
		}
	}
}

// unusedKernelParam refuses -d or -r where the kernel has no use for it
// and the value is not svm-train's default (-d 3, -r 0: harmless copies
// of those): the degree is the polynomial kernel's (-t 1), coef0 the
// polynomial's and the sigmoid's (-t 1, 3). svm train and grid take them
// as svm-train does, in silence.
func unusedKernelParam(cmd string, f *svmFlags, fs *flagSet) error {
	d := svm.DefaultParams()
	if fs.given("d") != "" && f.kernel != 1 && f.degree != d.Degree {
		return usagef(cmd, "-d %d: only the polynomial kernel (-t 1) has a degree; drop it", f.degree)
	}
	if fs.given("r") != "" && f.kernel != 1 && f.kernel != 3 && f.coef0 != d.Coef0 {
		return usagef(cmd, "-r %g: only the polynomial and sigmoid kernels (-t 1, -t 3) have coef0; drop it", f.coef0)
	}
	return nil
}

// linearGamma refuses a gamma flag (given: the first one set, "" for
// none) with a linear kernel, which has no gamma: the figures would name
// a setting that trained nothing different.
func linearGamma(cmd string, kernel int, given string) error {
	if kernel == 0 && given != "" {
		return usagef(cmd, "%s: a linear kernel (-t 0) has no gamma; drop it", flagName(given))
	}
	return nil
}
