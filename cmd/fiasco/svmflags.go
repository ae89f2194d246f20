package main

import (
	"flag"
	"fmt"

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
	prob      int
	seed      uint64
	threads   int
}

// addSVMFlags registers -s -t -d -g -r -c -w1 -w-1 -e -m -h -b -seed
// -threads on fs with svm-train's defaults.
func addSVMFlags(fs *flag.FlagSet) *svmFlags {
	d := svm.DefaultParams()
	f := &svmFlags{}
	fs.IntVar(&f.svmType, "s", 0, "svm_type: only 0 (C-SVC) is supported")
	fs.IntVar(&f.kernel, "t", int(d.Kernel), "kernel_type: 0 linear u'v, 1 polynomial (gamma*u'v+coef0)^degree, 2 RBF exp(-gamma*|u-v|^2), 3 sigmoid tanh(gamma*u'v+coef0)")
	fs.IntVar(&f.degree, "d", d.Degree, "degree of the polynomial kernel")
	fs.Float64Var(&f.gamma, "g", 0, "gamma of the kernel (0 means 1/num_features)")
	fs.Float64Var(&f.coef0, "r", d.Coef0, "coef0 of the polynomial/sigmoid kernel")
	fs.Float64Var(&f.c, "c", d.C, "cost parameter C of C-SVC")
	fs.Float64Var(&f.w1, "w1", 1, "weight: C of class +1 is w1*C")
	fs.Float64Var(&f.wm1, "w-1", 1, "weight: C of class -1 is w-1*C")
	fs.Float64Var(&f.eps, "e", d.Eps, "tolerance of the termination criterion")
	fs.Float64Var(&f.cacheMB, "m", d.CacheMB, "kernel cache size in MB")
	fs.IntVar(&f.shrinking, "h", 1, "shrinking heuristics: 1 on, 0 off")
	fs.IntVar(&f.prob, "b", 0, "probability estimates (Platt): 1 on, 0 off")
	fs.Uint64Var(&f.seed, "seed", 1, "seed for folds and probability estimates")
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
		return svm.Params{}, fmt.Errorf("-h must be 0 or 1, got %d", f.shrinking)
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
