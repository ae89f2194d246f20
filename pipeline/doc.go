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
// Clean one page with the embedded default text model:
//
//	m, err := pipeline.DefaultModel(false)
//	if err != nil { ... }
//	c := &pipeline.Cleaner{Model: m}
//	data, err := os.ReadFile("page.html")
//	if err != nil { ... }
//	res, err := c.Clean(ctx, "page.html", data)
//	if err != nil { ... }
//	err = export.Write(os.Stdout, export.CleanEval, res.Page, res.Blocks, res.Keep, res.Score)
//
// With the visual model (DefaultModel(true)), give the Cleaner a renderer:
//
//	v, err := pipeline.NewVisualizer(ctx, render.Options{})
//	if err != nil { ... }
//	defer v.Close()
//	c.Prepare.Visual = v
//
// Many pages, on every CPU, each yielding a result or an error:
//
//	inputs, err := pipeline.Inputs([]string{"pages/"}, os.Stdin)
//	err = c.Batch(ctx, inputs, 0, func(o pipeline.Outcome) { ... })
//
// Train a model from gold data sets and cross-validate by page:
//
//	ex, err := pipeline.LoadData(ctx, []string{"../shared/data/cleaneval-en-dev"}, pipeline.DataOptions{})
//	m, err := pipeline.Train(ctx, ex, pipeline.TrainOptions{Params: svm.DefaultParams()})
//	res, err := pipeline.CrossValidate(ctx, ex, pipeline.CVOptions{Folds: 10, Seed: 1})
//	rep, err := pipeline.Evaluate(res)
//	rep.Print(os.Stderr)
//
// The stages live in their own packages: pipeline/load (bytes and charsets),
// pipeline/preclean, pipeline/blocks (target nodes), features, render and
// vision (visual features), svm (the classifier), pipeline/gold (gold
// alignment), pipeline/export and pipeline/evaluate (CleanEval scoring).
package pipeline
