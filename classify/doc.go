// Package classify is the classification stage: a [Model] holds the SVMs
// (package svm, with their scaling), the feature names they read, the
// keywords learnt from training data and the decision threshold, and
// turns a page's feature table (package features) into one decision value
// per block. A block is kept when its value is at least the threshold
// ([Keep]), or, with [Model.Smooth], when the best labelling of the page's
// blocks in document order keeps it, each switch between kept and dropped
// costing the smoothing ([KeepSmooth]).
//
// # Contract
//
// A Model has a classifier for pages whose text looks English and, when
// trained with one, a second on the language-independent features for
// the rest. A model may have a second stage ([Model.Stack]) that
// re-decides every block from the first stage's values of the block and
// its neighbours ([StackRows]). Models are files in [Format], or
// [FormatStacked] with a second stage (gzip-compressed JSON with the
// SVMs in LIBSVM's text format); [Read] and [Load] refuse a file that is
// not one, or that names a feature this build does not know. [Default]
// and [DefaultFor] return the embedded models (models/), built by the
// commands in the README; [RendersByDefault] says, per policy, whether
// the rendered one is the default. Models are made by package train;
// classify never trains.
//
// # Example
//
// The examples load the embedded default model and read what it holds, and
// turn decision values into kept blocks with [Keep].
package classify
