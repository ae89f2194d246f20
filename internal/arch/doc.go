// Package arch holds no code: its test keeps the import rule of
// ARCHITECTURE.md. Every package of the module has a place in [Layers];
// a package may import only packages of earlier layers, so that imports
// point one way, down the pipeline, and no stage imports the orchestrating
// package (pipeline) or anything built on it.
package arch

// Layers lists the module's packages (paths relative to the module root)
// from the bottom up. A package may import the packages of earlier layers
// only; packages within one layer do not import each other. A new package
// must be placed here (and in ARCHITECTURE.md) before its test passes.
var Layers = [][]string{
	// Shared helpers, below every stage.
	{"internal/dom", "internal/difflib", "internal/lang", "internal/mojibake", "internal/shared"},
	// Formats and engines that know nothing of fiasco's pipeline.
	{"svm", "warc", "render"},
	// The cleaning stages, in the order data flows through them.
	{"load"},
	// Page metadata, read from the loaded page before preclean drops its
	// scripts and meta elements.
	{"meta"},
	{"preclean"},
	{"blocks"},
	{"vision"},
	{"features"},
	{"classify"},
	{"export"},
	// The orchestrator: the Cleaner, batching.
	{"pipeline"},
	// The render cache, a Visualizer around pipeline's.
	{"vcache"},
	// Training and evaluation, apart from the cleaning path.
	{"score"},
	{"gold"},
	{"train"},
	// Services and commands on top.
	{"corpus"},
	{"internal/baseline", "serve"},
	{"cmd/fiasco", "cmd/fiasco-baselines"},
}
