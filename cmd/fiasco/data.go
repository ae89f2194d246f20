package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/train"
)

// limitHelp is the one meaning of --limit, in every command that reads
// data sets (train, eval, features, oracle): train.DataOptions.Limit.
const limitHelp = "use the first N pages of each data set, in order of page ID (0: all)"

// dataFlags select gold data sets (train, eval, features, oracle).
type dataFlags struct {
	cmd      string // the command, for messages
	dirs     []string
	limit    int
	split    string
	comments bool
	workers  int
	// keepFailed keeps pages that fail to load, for eval to score as empty.
	keepFailed bool
}

func (d *dataFlags) add(fs *flagSet) {
	d.cmd = fs.cmd
	fs.Func("data", "data set directory with html/ and gold/ (repeatable)", func(s string) error {
		d.dirs = append(d.dirs, s)
		return nil
	})
	fs.IntVar(&d.limit, "limit", 0, limitHelp)
	fs.StringVar(&d.split, "split", "", "restrict to a published split (dragnet: training or test)")
	fs.BoolVar(&d.comments, "comments", false, "count user comments as content (Dragnet gold)")
	fs.IntVar(&d.workers, "workers", 0, "pages prepared at once (0: one per CPU)")
}

// check reports a missing --data as a usage error.
func (d *dataFlags) check() error {
	if len(d.dirs) == 0 {
		return usagef(d.cmd, "no data: give --data DIR (e.g. --data ../shared/data/cleaneval-en-dev)")
	}
	if d.limit < 0 {
		return usagef(d.cmd, "--limit %d: want 0 (all) or more", d.limit)
	}
	return nil
}

// options returns the train.DataOptions the flags select.
func (d *dataFlags) options(prep pipeline.PrepareOptions) train.DataOptions {
	opt := train.DataOptions{Prepare: prep, Workers: d.workers, Limit: d.limit, Split: d.split, KeepFailed: d.keepFailed}
	opt.Gold.Comments = d.comments
	return opt
}

// pageFailed is the message for a page that could not be used.
func pageFailed(page string, err error) string {
	msg := firstLine(err.Error())
	if !strings.Contains(msg, page) {
		msg = page + ": " + msg
	}
	return msg
}

// load prepares and aligns the pages of the data sets, reporting progress
// and failed pages on stderr.
func (d *dataFlags) load(ctx context.Context, prep pipeline.PrepareOptions, quiet bool, stderr io.Writer) ([]*train.Example, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	bar := newProgress(stderr, "load", "pages", 0, quiet)
	opt := d.options(prep)
	opt.Each = bar.Update
	var failed []string
	opt.OnError = func(page string, err error) { failed = append(failed, pageFailed(page, err)) }
	ex, err := train.LoadData(ctx, d.dirs, opt)
	bar.Done()
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		fmt.Fprintf(stderr, "fiasco %s: page failed: %s\n", d.cmd, f)
	}
	blocks := 0
	for _, e := range ex {
		if e.Doc != nil {
			blocks += len(e.Doc.Blocks)
		}
	}
	fmt.Fprintf(stderr, "fiasco %s: %d pages (%d failed), %d blocks from %s\n", d.cmd, len(ex), len(failed), blocks, strings.Join(d.dirs, ", "))
	if len(ex) == 0 {
		return nil, errors.New("no usable pages")
	}
	return ex, nil
}

// noArgs rejects positional arguments, for commands that take none.
func noArgs(fs *flagSet, pos []string) error {
	if len(pos) > 0 {
		return usagef(fs.cmd, "unexpected argument %q (options start with -)", pos[0])
	}
	return nil
}
