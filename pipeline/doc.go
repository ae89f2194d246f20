// Package pipeline runs fiasco's stages on web pages: load, preclean, target
// nodes, (optionally) rendering and vision, features, classification,
// pruning and export; and trains and evaluates models from gold data.
//
// # Contract
//
// Every entry point takes a context first. Library code never prints: batch
// functions report each page through a callback, as a [Result] or an error
// naming the page, so a batch never dies on one page and never loses one.
//
// # Tutorial
//
// Clean one page with the embedded default model:
//
//	m, err := pipeline.DefaultModel()
//	if err != nil { ... }
//	c := &pipeline.Cleaner{Model: m}
//	res, err := c.CleanFile(ctx, "page.html")
//	if err != nil { ... }
//	err = export.Write(os.Stdout, export.CleanEval, res.Page, res.Blocks, res.Keep, res.Score)
//
// Train a model from gold data sets:
//
//	set, errs := pipeline.LoadData(ctx, []string{"../shared/data/cleaneval-en-dev"}, pipeline.PrepareOptions{})
//	m, err := pipeline.Train(ctx, set, pipeline.TrainOptions{...})
//
// The stages live in their own packages: pipeline/load (bytes and charsets),
// pipeline/preclean, pipeline/blocks (target nodes), features, render and
// vision (visual features), svm (the classifier), pipeline/gold (gold
// alignment), pipeline/export and pipeline/evaluate (CleanEval scoring).
package pipeline
