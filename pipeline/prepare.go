package pipeline

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline/blocks"
	"github.com/fiasco-project/fiasco/pipeline/load"
	"github.com/fiasco-project/fiasco/pipeline/preclean"
	"github.com/fiasco-project/fiasco/render"
)

// Doc is one page carried through the stages up to the features.
type Doc struct {
	Page    *load.Page
	Blocks  []*blocks.Block
	Table   *features.Table
	Visual  []features.VisualInput // nil when the page was not rendered
	English bool                   // the page's text looks English
	Timings Timings
}

// Timings is the time a page spent in each stage.
type Timings struct {
	Load, Preclean, Blocks, Render, Vision, Features, Classify time.Duration
	// RenderSplit divides Render into Chromium's and our own work.
	RenderSplit render.Timings
}

// Add adds u's durations to t's (to total a batch).
func (t *Timings) Add(u Timings) {
	t.Load += u.Load
	t.Preclean += u.Preclean
	t.Blocks += u.Blocks
	t.Render += u.Render
	t.Vision += u.Vision
	t.Features += u.Features
	t.Classify += u.Classify
	t.RenderSplit.Load += u.RenderSplit.Load
	t.RenderSplit.Highlight += u.RenderSplit.Highlight
	t.RenderSplit.Measure += u.RenderSplit.Measure
	t.RenderSplit.Screenshot += u.RenderSplit.Screenshot
	t.RenderSplit.Decode += u.RenderSplit.Decode
}

// Visualizer measures the visual features of a page's blocks. The
// implementation in this package drives Chromium (see NewVisualizer).
type Visualizer interface {
	Visual(ctx context.Context, d *Doc) ([]features.VisualInput, error)
}

// DefaultMaxBlocks is the most text blocks a page may have when
// PrepareOptions.MaxBlocks is 0 (CleanEval pages have a few hundred).
const DefaultMaxBlocks = 20000

// PrepareOptions configure the stages before classification.
type PrepareOptions struct {
	Load load.Options
	// MaxBlocks bounds the text blocks of a page (classifying costs time
	// per block); a page with more is an error. 0 means DefaultMaxBlocks.
	MaxBlocks int
	// Preclean configures the preclean stage. With a Visualizer the page's
	// style sheets are always kept, so that it renders with its own layout.
	Preclean preclean.Options
	// Visual, when set, renders the page and measures visual features.
	Visual Visualizer
}

// PrepareFile reads the page at path and runs it through Prepare.
func PrepareFile(ctx context.Context, path string, opt PrepareOptions) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Prepare(ctx, path, data, opt)
}

// Prepare loads, precleans and segments a page and computes its features.
// name is used in errors.
func Prepare(ctx context.Context, name string, data []byte, opt PrepareOptions) (*Doc, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &Doc{}
	t0 := time.Now()
	p, err := load.Bytes(name, data, opt.Load)
	if err != nil {
		return nil, err
	}
	d.Page = p
	t1 := time.Now()
	pc := opt.Preclean
	if opt.Visual != nil {
		pc.KeepStyles = true
	}
	if _, err := preclean.CleanWith(p.Doc, pc); err != nil {
		return nil, fmt.Errorf("%s: preclean: %w", name, err)
	}
	t2 := time.Now()
	d.Blocks = blocks.Find(p.Doc)
	t3 := time.Now()
	maxBlocks := opt.MaxBlocks
	if maxBlocks <= 0 {
		maxBlocks = DefaultMaxBlocks
	}
	if len(d.Blocks) > maxBlocks {
		return nil, fmt.Errorf("%s: %d text blocks, more than the limit of %d", name, len(d.Blocks), maxBlocks)
	}
	d.Timings.Load, d.Timings.Preclean, d.Timings.Blocks = t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
	if opt.Visual != nil && len(d.Blocks) > 0 {
		vis, err := opt.Visual.Visual(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("%s: render: %w", name, err)
		}
		d.Visual = vis
	}
	t4 := time.Now()
	d.Table = features.Extract(d.Blocks, d.Visual)
	var all []string
	for _, toks := range d.Table.Tokens {
		all = append(all, toks...)
	}
	d.English, _ = features.Lang(all)
	d.Timings.Features = time.Since(t4)
	return d, nil
}
