// Package classify is the classification stage: a [Model] holds the SVMs
// (package svm, with their scaling), the feature names they read, the
// keywords learnt from training data and the decision threshold, and
// turns a page's feature table (package features) into one decision value
// per block. A block is kept when its value is at least the threshold
// ([Keep]).
//
// # Contract
//
// A Model has a classifier for pages whose text looks English and, when
// trained with one, a second on the language-independent features for
// the rest. Models are files in [Format] (gzip-compressed JSON with the
// SVMs in LIBSVM's text format); [Read] and [Load] refuse a file that is
// not one, or that names a feature this build does not know. [Default]
// returns the embedded default models (models/), built by the command in
// the README. Models are made by package train; classify never trains.
//
// # Example
//
// The examples load the embedded default model and read what it holds, and
// turn decision values into kept blocks with [Keep].
package classify
