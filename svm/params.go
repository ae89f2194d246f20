package svm

import (
	"fmt"
	"math"
)

// Params are the training parameters, named after svm-train's options.
// Start from DefaultParams: the zero value is not valid (C and Eps must
// be positive).
type Params struct {
	Kernel KernelType // -t (default RBF)
	Degree int        // -d, poly only (default 3)
	Gamma  float64    // -g; 0 means 1/NumFeatures (default 0)
	Coef0  float64    // -r (default 0)
	C      float64    // -c (default 1)
	// WeightPos and WeightNeg multiply C for the positive and negative
	// class (-w1 and -w-1 for -1/+1 data). 0 is read as 1.
	WeightPos, WeightNeg float64
	Eps                  float64 // -e stopping tolerance (default 0.001)
	CacheMB              float64 // -m kernel cache size in MB (default 100)
	Shrinking            bool    // -h (default true)
	// Probability fits Platt's sigmoid on decision values by an internal
	// 5-fold cross-validation (-b 1), seeded by Seed.
	Probability bool
	Seed        uint64
	// Threads > 1 computes long kernel columns on that many goroutines.
	Threads int
}

// DefaultParams returns svm-train's defaults: C-SVC, RBF, C = 1,
// gamma = 1/num_features, eps = 0.001, 100 MB cache, shrinking on.
func DefaultParams() Params {
	return Params{Kernel: RBF, Degree: 3, C: 1, Eps: 0.001, CacheMB: 100, Shrinking: true, WeightPos: 1, WeightNeg: 1}
}

// Validate reports invalid parameter values.
func (p Params) Validate() error {
	bad := func(name string, v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	switch {
	case p.Kernel < Linear || p.Kernel > Sigmoid:
		return fmt.Errorf("svm: unknown kernel type %d", p.Kernel)
	case !(p.C > 0) || math.IsInf(p.C, 0):
		return fmt.Errorf("svm: C must be positive, got %g", p.C)
	case !(p.Eps > 0) || math.IsInf(p.Eps, 0):
		return fmt.Errorf("svm: eps must be positive, got %g", p.Eps)
	case bad("gamma", p.Gamma):
		return fmt.Errorf("svm: gamma must be >= 0, got %g", p.Gamma)
	case p.Kernel == Poly && p.Degree < 0:
		return fmt.Errorf("svm: degree must be >= 0, got %d", p.Degree)
	case bad("cache", p.CacheMB):
		return fmt.Errorf("svm: cache size must be >= 0, got %g", p.CacheMB)
	case bad("w", p.WeightPos) || bad("w", p.WeightNeg):
		return fmt.Errorf("svm: class weights must be >= 0, got %g and %g", p.WeightPos, p.WeightNeg)
	case math.IsNaN(p.Coef0) || math.IsInf(p.Coef0, 0):
		return fmt.Errorf("svm: bad coef0 %g", p.Coef0)
	}
	return nil
}

func (p Params) kparams(numFeatures int) kparams {
	g := p.Gamma
	if g == 0 && numFeatures > 0 {
		g = 1 / float64(numFeatures)
	}
	return kparams{typ: p.Kernel, gamma: g, coef0: p.Coef0, degree: p.Degree}
}

func weightOr1(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

func (p Params) cacheBytes() int64 {
	mb := p.CacheMB
	if mb <= 0 {
		mb = 100
	}
	return int64(mb * (1 << 20))
}
