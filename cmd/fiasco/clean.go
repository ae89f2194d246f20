package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/pipeline/export"
)

func init() {
	register(&command{
		name:    "clean",
		summary: "remove boilerplate from pages (files, directories or - for stdin)",
		run:     runClean,
	})
}

func runClean(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("clean", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: fiasco clean [options] INPUT...

Cleans web pages: every INPUT is an HTML file, a directory (all files below
it) or - (standard input). One page goes to standard output unless -o is
given; several pages need -o DIR and are written there under their base
names (.txt for cleaneval and text, .html, .json), with a progress bar on
stderr. A page that fails yields an error record (on stderr and in
DIR/errors.jsonl) and the exit status is 1.

Options:`)
		fs.PrintDefaults()
	}
	mf := addModelFlags(fs)
	format := fs.String("format", "cleaneval", "output format: cleaneval, text, html or json")
	outDir := fs.String("o", "", "output directory (needed for more than one page)")
	workers := fs.Int("workers", 0, "pages cleaned at once (0: one per CPU)")
	quiet := fs.Bool("q", false, "no progress bar")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	f, err := export.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
		return 2
	}
	if len(pos) == 0 {
		fs.Usage()
		return 2
	}
	inputs, err := pipeline.Inputs(pos, os.Stdin)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
		return 1
	}
	if len(inputs) == 0 {
		fmt.Fprintln(stderr, "fiasco clean: no input files found")
		return 1
	}
	if len(inputs) > 1 && *outDir == "" {
		fmt.Fprintf(stderr, "fiasco clean: %d pages need an output directory: add -o DIR\n", len(inputs))
		return 2
	}
	ctx := context.Background()
	cleaner, closeFn, err := mf.cleaner(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
		return 1
	}
	defer closeFn()

	if *outDir == "" {
		data, err := inputs[0].Read()
		if err != nil {
			fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
			return 1
		}
		res, err := cleaner.Clean(ctx, inputs[0].Name, data)
		if err != nil {
			fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
			return 1
		}
		if err := export.Write(stdout, f, res.Page, res.Blocks, res.Keep, res.Score); err != nil {
			fmt.Fprintf(stderr, "fiasco clean: %s: %v\n", inputs[0].Name, err)
			return 1
		}
		return 0
	}

	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintf(stderr, "fiasco clean: %v\n", err)
		return 1
	}
	names := outputNames(inputs, f.Ext())
	bar := newProgress(stderr, "clean", "pages", len(inputs), *quiet)
	var errRecs []errRecord
	failed := 0
	_ = cleaner.Batch(ctx, inputs, *workers, func(o pipeline.Outcome) {
		defer bar.Add()
		err := o.Err
		if err == nil {
			err = writeOutput(filepath.Join(*outDir, names[o.Index]), func(w io.Writer) error {
				return export.Write(w, f, o.Result.Page, o.Result.Blocks, o.Result.Keep, o.Result.Score)
			})
		}
		if err != nil {
			failed++
			errRecs = append(errRecs, errRecord{Input: o.Input.Name, Error: err.Error()})
			bar.mu.Lock()
			fmt.Fprintf(stderr, "\rfiasco clean: %v\n", firstLine(err.Error()))
			bar.mu.Unlock()
		}
	})
	bar.Done()
	if len(errRecs) > 0 {
		_ = writeOutput(filepath.Join(*outDir, "errors.jsonl"), func(w io.Writer) error {
			enc := json.NewEncoder(w)
			for _, r := range errRecs {
				if err := enc.Encode(r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	fmt.Fprintf(stderr, "fiasco clean: %d pages, %d cleaned, %d failed; output in %s\n",
		len(inputs), len(inputs)-failed, failed, *outDir)
	if failed > 0 {
		return 1
	}
	return 0
}

type errRecord struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

// outputNames gives every input a distinct output file name: its base name
// with the extension replaced by ext, and -2, -3, ... added on collisions.
func outputNames(inputs []pipeline.Input, ext string) []string {
	used := map[string]bool{"errors.jsonl": true}
	out := make([]string, len(inputs))
	for i, in := range inputs {
		base := filepath.Base(in.Name)
		if in.Name == "-" {
			base = "stdin"
		}
		base = strings.TrimSuffix(base, filepath.Ext(base))
		name := base + ext
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d%s", base, k, ext)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

func writeOutput(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
