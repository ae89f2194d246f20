package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
)

// dataFlags select gold data sets (train, eval, features).
type dataFlags struct {
	dirs     []string
	limit    int
	split    string
	comments bool
	workers  int
	// keepFailed keeps pages that fail to load, for eval to score as empty.
	keepFailed bool
}

func (d *dataFlags) add(fs *flag.FlagSet) {
	fs.Func("data", "data set directory with html/ and gold/ (repeatable)", func(s string) error {
		d.dirs = append(d.dirs, s)
		return nil
	})
	fs.IntVar(&d.limit, "limit", 0, "use at most this many pages of each data set (0: all)")
	fs.StringVar(&d.split, "split", "", "restrict to a published split (dragnet: training or test)")
	fs.BoolVar(&d.comments, "comments", false, "count user comments as content (Dragnet gold)")
	fs.IntVar(&d.workers, "workers", 0, "pages prepared at once (0: one per CPU)")
}

// load prepares and aligns the pages of the data sets, reporting progress
// and failed pages on stderr.
func (d *dataFlags) load(ctx context.Context, prep pipeline.PrepareOptions, quiet bool, stderr io.Writer) ([]*pipeline.Example, error) {
	if len(d.dirs) == 0 {
		return nil, fmt.Errorf("no data: give --data DIR (e.g. --data ../shared/data/cleaneval-en-dev)")
	}
	bar := newProgress(stderr, "load", "pages", 0, quiet)
	opt := pipeline.DataOptions{Prepare: prep, Workers: d.workers, Limit: d.limit, Split: d.split, KeepFailed: d.keepFailed}
	opt.Gold.Comments = d.comments
	opt.Each = bar.Update
	var failed []string
	opt.OnError = func(page string, err error) { failed = append(failed, firstLine(err.Error())) }
	ex, err := pipeline.LoadData(ctx, d.dirs, opt)
	bar.Done()
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		fmt.Fprintf(stderr, "fiasco: page failed: %s\n", f)
	}
	blocks := 0
	for _, e := range ex {
		if e.Doc != nil {
			blocks += len(e.Doc.Blocks)
		}
	}
	fmt.Fprintf(stderr, "fiasco: %d pages (%d failed), %d blocks from %s\n", len(ex), len(failed), blocks, strings.Join(d.dirs, ", "))
	if len(ex) == 0 {
		return nil, fmt.Errorf("no usable pages")
	}
	return ex, nil
}
