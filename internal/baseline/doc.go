// Package baseline runs the decision-tree baselines FIASCO compared its
// SVM with, on exactly the same cross-validation folds as the SVM.
//
// Contract: the trees are golearn's CART classifier
// (trees.NewDecisionTreeClassifier, entropy criterion, numeric splits);
// the random forest bags such trees, each on a bootstrap sample and a
// random feature subset, like golearn's ensemble.RandomForest, but drawn
// from a seeded generator, so that results are reproducible (golearn's
// own RandomForest and its fold splitting use the global math/rand).
// golearn is never given the whole data set to split: each fold's
// training rows are handed over explicitly, and the metrics are computed
// with svm.NewMetrics on the out-of-fold predictions. golearn stays out
// of package svm and off the cleaning path.
//
// Example:
//
//	folds, _ := svm.StratifiedFolds(prob.Y, 5, 1)
//	dt, err := baseline.CrossValidate(ctx, prob, folds, baseline.Tree{MaxDepth: 12})
//	rf, err := baseline.CrossValidate(ctx, prob, folds, baseline.Forest{Trees: 50, MaxDepth: 12, Seed: 1})
package baseline
