// Package train makes and measures models from gold data; it is not on the
// cleaning path. [LoadData] prepares the pages of gold data sets (package
// pipeline) and labels their blocks by aligning the gold text (package
// gold, under the label mapping of DataOptions.Gold, e.g.
// gold.Corpus.Options()); [Train] fits a [classify.Model]; [CrossValidate],
// [Classify] and [Grid] evaluate by page, with seeded folds ([Folds]);
// [Evaluate] scores the results as the CleanEval scorer does (package
// score) and returns a [Report] with the keep-everything baseline and the
// gold-label oracle on the same pages.
//
// # Honest model selection
//
// [NestedCV] chooses the settings of a model (feature set, C, gamma,
// threshold: a [NestedGrid]) by an inner cross-validation inside every
// fold of an outer one, so that the outer folds report figures on pages
// that neither trained a model nor chose its settings. The criterion is
// word F as the CleanEval scorer counts it without segment tags,
// micro-averaged over the inner held-out pages (every page of the outer
// training set is held out once); each inner model decides its held-out
// pages once and every threshold cuts the same decision values, so
// thresholds cost no training. [LeaveOneSetOut] holds out a whole data set
// (Example.Set) at a time instead. NestedOptions.Extra adds pages to every
// training set without ever testing them: the way to measure whether
// another data set helps on the examples' pages.
//
// [Bootstrap] gives word precision, recall and F (micro, no tags) and node
// accuracy, precision, recall and F of a set of results with 95%
// percentile intervals from resampling pages with replacement;
// [PairedBootstrap] gives the difference of two systems on the same pages
// (the same pages drawn for both in every resample) with its interval and
// the share of resamples in which the difference is at most 0.
// [ScorePages] gives the per-page counts both are built on.
//
// # Contract
//
// Every entry point takes a context first; nothing prints. Training, fold
// assignment, selection and resampling are deterministic: the same data,
// options and seeds give the same models and the same figures, whatever
// the number of workers.
package train
