package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/fiasco-project/fiasco/pipeline/blocks"
)

// Cleaner classifies the blocks of pages with a model.
type Cleaner struct {
	Model *Model
	// Prepare configures loading and, through Prepare.Visual, rendering.
	// A model trained with visual features needs a Visualizer.
	Prepare PrepareOptions
	// Threshold, when not nil, replaces the model's decision threshold:
	// a block is kept when its decision value is at least the threshold.
	// Higher values trade recall for precision.
	Threshold *float64
}

// Result is a cleaned page.
type Result struct {
	*Doc
	Keep  []bool    // per block: classified clean
	Score []float64 // per block: the SVM decision value (>= threshold: clean)
	Model *Model    // the model that classified the page
}

// Clean runs one page through every stage. name is used in errors.
func (c *Cleaner) Clean(ctx context.Context, name string, data []byte) (*Result, error) {
	if c.Model == nil {
		return nil, errors.New("pipeline: Cleaner has no model")
	}
	opt := c.Prepare
	if !c.Model.Visual {
		opt.Visual = nil
	} else if opt.Visual == nil {
		return nil, errors.New("pipeline: the model uses visual features but no renderer was given (use a model without them, such as DefaultModel(false))")
	}
	d, err := Prepare(ctx, name, data, opt)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	score, err := c.Model.Decide(d)
	if err != nil {
		return nil, err
	}
	th := c.Model.Threshold
	if c.Threshold != nil {
		th = *c.Threshold
	}
	d.Timings.Classify = time.Since(t0)
	return &Result{Doc: d, Keep: keepAt(score, th), Score: score, Model: c.Model}, nil
}

// Kept returns the blocks classified clean.
func (r *Result) Kept() []*blocks.Block {
	var out []*blocks.Block
	for i, b := range r.Blocks {
		if r.Keep[i] {
			out = append(out, b)
		}
	}
	return out
}
