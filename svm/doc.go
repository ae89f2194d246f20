// Package svm is a two-class C-support-vector machine that reproduces
// LIBSVM (svm-train, svm-predict, svm-scale, svm-grid) in pure Go.
//
// # Contract
//
// Training (Train) is a port of LIBSVM 3.x's C-SVC: SMO with second-order
// working-set selection (WSS2, Fan, Chen and Lin 2005), shrinking with one
// unshrinking pass, rho from the free variables, an LRU kernel cache of
// CacheMB megabytes holding float32 values (LIBSVM's Qfloat), and the
// same class ordering as svm_group_classes (labels by first appearance,
// except that -1/+1 data always puts +1 first). Arithmetic is done in the
// same order, so for the same data and parameters the objective, rho,
// support vectors and even the iteration count agree with svm-train
// (tests check this against /usr/bin/svm-train; note that Debian's
// svm-train parses -c, -g, -r and -wi in single precision).
// Kernels: linear, polynomial, RBF, sigmoid (LIBSVM's -t 0..3). Rows are
// dense float64; per-class weights multiply C, and so do per-row
// weights (Problem.W, as in LIBSVM's instance-weight variant: a row of
// weight k trains as k copies of it would; TestRowWeights checks that).
//
// Decision values are oriented so that Decision(x) > 0 means the
// positive class, which is the larger of the two labels (+1 for -1/+1
// data; in the cleaner +1 = content), whatever LIBSVM's internal label
// order. Predict compares Decision with Model.Threshold (default 0,
// LIBSVM's rule); raise it to favour precision. Probability gives Platt's
// estimate when trained with Params.Probability (the internal 5-fold
// split is seeded, not C's rand(), so probA/probB differ slightly from
// svm-train -b 1).
//
// RBF decision values (Decision, DecisionBatch, Predict, Probability and
// the out-of-fold values of cross-validation) are not computed one
// support vector at a time as svm-predict does. On first use a model
// caches its support vectors translated by each feature's most common
// value, which makes most of their entries zero, and stored sparsely;
// |x - sv|^2 is expanded as |x'|^2 + |sv'|^2 - 2 x'.sv' and evaluated for
// blocks of rows, and the exponential is a table-driven one within 1 ulp.
// The terms are summed in svm-predict's order, so decision values differ
// from the direct form only by the rounding of the kernel values (tests
// bound the difference by 1e-12 of the sum of the terms' magnitudes and
// 1e-9 relative); rows too large for the expansion, and models with more
// than 256 features, use the direct form. A row's value does not depend
// on the batch: DecisionBatch returns exactly what Decision returns.
// On amd64 CPUs with AVX2 and FMA an assembly kernel (rbfavx_amd64.s)
// takes the place of the sparse blocks: the same expansion and
// exponential, four support vectors and eight rows at a time with fused
// multiply-adds and the terms summed in four lanes, within the same
// bounds of the direct form (on the 2,339 pages of ../shared/data it
// changes no decision value in its sixth decimal). Build with -tags noasm
// to use the portable kernels everywhere.
//
// The solver's kernel columns on amd64 CPUs with AVX2 take their dot
// products from another assembly kernel (dotsavx_amd64.s), over a copy of
// the training rows kept in the solver's order (as LIBSVM swaps its row
// pointers) and stored in blocks of four rows, one row per lane, feature
// by feature. Each lane sums left to right and rounds every product
// before adding it, as svm-train does, so the kernel values, and the
// models, are the same bit for bit as the portable loop's
// (TestSolverRowsDots, TestTrainSolverRows). The copy costs as much
// memory again as the rows, outside CacheMB. On the machine of the
// README (2 cores, one training beside another run), training the
// rendered model's candidate on 72,193 rows of 60 features took 92 s of
// CPU instead of 138 s: the columns are bound by memory there, and about
// twice as fast where the rows fit the CPU's caches
// (BenchmarkKernelColumn measures both in one run). The agreement with
// svm-train assumes Go's default GOAMD64 (v1); from v3 on, Go fuses
// multiply-adds in the solver's own arithmetic (the kernel's dot
// products are written so that it cannot).
//
// Reduced sets: Reduce cuts an RBF model to fewer vectors (Burges'
// reduced-set method in its least-squares form): the support vectors
// nearest to seeded k-means centres of the support vectors (Medoids; or
// the centres themselves), with coefficients refitted by least squares to
// the full model's decision values on rows the caller gives. The result
// is an ordinary Model (LIBSVM's file format holds it) whose decision
// costs in proportion to its vectors; its values approximate the full
// model's, so rows near the threshold may change side (tests bound the
// difference on held-out rows and check it against dropping vectors at
// random).
//
// Scaling: FitScaler learns per-feature [min, max] on training data and
// maps to [lower, upper] exactly like svm-scale; ReadRange/WriteRange use
// svm-scale's range-file format. A Scaler attached to a Model is applied
// by Decision/Predict/Probability, so models take raw features.
//
// Files: Model.Save writes LIBSVM's text model (svm-predict reads it and
// gives our predictions) and a JSON sidecar path+MetaSuffix with the
// feature count and names, threshold, scaler and a SHA-256 of the model
// file. LoadModel reads both (a plain svm-train model loads too);
// Model.CheckFeatures reports a count or name mismatch as ErrDimensions.
// ReadLIBSVM/WriteLIBSVM handle LIBSVM's sparse data files.
//
// Evaluation: StratifiedFolds gives seeded, reproducible stratified
// folds; CrossValidate and CrossValidateFolds (caller-given folds, e.g.
// one fold per web page) report accuracy and the positive class's
// precision, recall and F1, plus out-of-fold decision values.
// GridSearch cross-validates a grid of (log2 C, log2 gamma) (svm-grid's
// default 110 pairs unless given) on parallel workers; for each gamma the
// full kernel matrix is computed once and shared by all C values and
// folds when it fits in GridOptions.KernelMB (kernel values do not depend
// on C or the fold). Each training still starts from alpha = 0 and runs
// the exact solver: warm starts across C would change the results.
// WriteHeatmap draws the CV accuracy as a PNG.
//
// Errors: bad input (empty data, one class, more than two classes, NaN
// or Inf, mismatched dimensions) returns errors wrapping ErrEmpty,
// ErrOneClass, ErrManyClass, ErrNonFinite or ErrDimensions. The package
// never panics on data and never prints; training and grid search take a
// context and stop when it is cancelled. Randomness is always seeded.
//
// # Tutorial
//
// The package example goes the whole way: [FitScaler] and
// [Scaler.TransformProblem] (svm-scale), [GridSearch] for C and gamma
// (svm-grid), [Train] (svm-train), attaching the Scaler so that the model
// takes raw rows, [Model.Save] and [LoadModel], and [Model.Decision]
// (svm-predict); a Decision above Model.Threshold means the positive class.
//
// The fiasco CLI wraps this as "fiasco svm train|predict|scale" and
// "fiasco grid" with svm-train's option letters.
package svm
