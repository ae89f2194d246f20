package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

func init() {
	register(&command{
		name:    "clean",
		summary: "remove boilerplate from pages (files, directories, WARC archives, lists, or - for stdin)",
		run:     runClean,
	})
}

const cleanHelp = `usage: fiasco clean [options] INPUT...
       fiasco clean [options] -i LIST [INPUT...]

Cleans web pages. Every INPUT is an HTML file (gzip- or zstd-compressed
files are decompressed), a WARC file (WARC 1.0 or 1.1, or the drafts'
0.17 and 0.18, plain, gzip or zstd, named .warc, .warc.gz or .warc.zst or starting with WARC/: every
HTML response record with a 2xx status is a page, as is a resource record
of HTML; other records are skipped and counted; an ARC file is an error), a directory (every non-hidden file below it, symbolic
links followed, but for style sheets, scripts, images, fonts, PDFs, archives, Markdown, CSV,
JSON and JSON Lines, logs, pid files, compiled code and models by their names (corpus.Source; name one as an
INPUT to read it), earlier runs' outputs, directories and JSONL or WET files with their
settings beside them, and named pipes, sockets and devices: counted in the summary, which also
names a folder that held no file to read) or - (standard input). -i LIST adds the paths listed in a
file, one per line, after the INPUT arguments. A path that does not exist is a failed page, not the
end of the run. Every page is read up to --max-bytes; a longer page is cut
there and reported truncated.

Models: under --policy corpus (the default) every page is rendered in
Chromium and cleaned by the model with visual features, which measured
better than the text model under nested cross-validation (README,
Results, and RESULTS.md); where no Chromium is found or it does not start, and with
--no-render, the text-and-structure model cleans without a browser (a
note on stderr says so unless --no-render is given; where --chromium,
--remote, --render or --model asks for a browser, its failure is an
error instead), and a page whose rendering fails is cleaned by the
text model too (named on stderr, counted in the summary, render_error in
json, jsonl and the manifest). Under
--policy article the text model is the default and --render asks for the
rendered one. --model FILE uses that model (rendering if it has visual
features).

Outputs:
  --format cleaneval|text|html|json   one file per page: one page goes to
        standard output unless -o is given; several need -o DIR, and are
        written there under their base names (.txt for cleaneval and text,
        .html, .json; --keep-dirs mirrors the input folders), each through
        a temporary file renamed into place (a file in DIR that the last
        run's manifest does not list is never overwritten: its page fails
        with an error record saying so); DIR/manifest.jsonl maps every
        input to its output or its error.
  --format jsonl   one JSON object per input and line (input: its name,
        FILE#OFFSET for a WARC record; url, warc_record_id,
        warc_date (a WARC record's WARC-Date: when it was fetched), title, author, date, site (when the page gives them: meta tags,
        JSON-LD), lang (a guess from the text's script or function words,
        for 20 languages, "" for others: corpus.Lang), charset,
        truncated, text, render_error (a page the
        text model cleaned because rendering it failed), unseen_blocks
        (blocks below the 60,000 px the renderer captures, or of a page
        that renders all but blank, which the text model decided),
        smoothed_blocks (blocks whose label sequence smoothing changed: see
        --smooth), floored (the prose floor kept the page's prose: see
        --floor), frames (for a page without text, the pages its frames
        or inline frames load); with --blocks the blocks; a failed page has error
        instead, with damage: true where the error is of damage in a
        WARC file, not of a page), in input order, to
        standard output or -o FILE (gzip-compressed when FILE ends in .gz,
        a gzip member per line).
  --format wet     WARC conversion records as in Common Crawl's WET files,
        one gzip member each, to standard output or -o FILE.

A page that fails yields an error record (input, error, and for a WARC
record url, warc_record_id and warc_date), on stderr and in the error log
(DIR/errors.jsonl; NAME.errors.jsonl beside -o NAME.jsonl,
NAME.wet.errors.jsonl beside -o NAME.warc.wet.gz), appended as
it happens; the exit status is then 3 (but 1 for one input cleaned to
standard output in a page format, whose page fails or that holds none;
1 also where the run failed: "fiasco help" lists them all). An error log belongs to one
output: a run writing it locks it, and a second run sharing it (one
--errors for two outputs) is refused; do not give a finished run's log
to another output either, since a fresh run starts its log afresh (and a
WET output's log is its record of the pages done). Nor is a run's default
log taken where it is another output's beside it (-o crawl.jsonl.gz after
-o crawl.jsonl: both crawl.errors.jsonl): give that run --errors. A failure to write any output
stops the run with exit status 1 (but in a directory output a page whose
file cannot take its name, too long or through another page's file,
fails as a page). Progress goes to stderr: a line redrawn
in place on a terminal, else a new line every 10 s (logs).

A run killed at any moment (even by SIGKILL) leaves whole output entries;
running the same command again with --resume keeps them and cleans the
pages that have none. A page that failed counts as done (its error line
in jsonl, its record in wet's error log, its manifest line in a
directory) and is not tried again; the resumed run exits as the whole
run would have (1 if a page failed in either part). A resumed run must
clean as the run it continues did (format and its options, model,
threshold, smoothing, policy, rendering, limits, and the same INPUT
arguments and -i lists, as spelled: kept in a hidden file beside the
output; move the two together), else it stops before touching the output.
Without --errors it continues the error log the earlier run was given.
The same command run again without --resume over the output of a run
that did not finish (killed, interrupted, stopped by an error) and that
holds pages stops too, before touching it: give --resume to continue, or --overwrite to
start afresh and lose its pages. A finished run's output is overwritten,
with a note. An existing file that is no output of fiasco's (a crawl's
WARC file named as the WET output, a page named as the error log) is
refused unless --overwrite is given.

On SIGINT or SIGTERM a batch takes no more pages, stops the pages under
way at their next stage, writes an error record "interrupted" in the
error log for every page under way and one for every input file it had
not yet opened (a folder's files each, a WARC file one record for all its
pages, counted as one page in the summary; the pages of the WARC file it
was reading that it had not reached get none), closes Chromium
and exits 130 (SIGINT) or 143 (SIGTERM). A resumed run cleans all of
them, reading on from the last page done.`

// cleanFlags are the options of fiasco clean.
type cleanFlags struct {
	model     *modelFlags
	format    string
	out       string
	lists     listFlag
	inputs    []string // the INPUT arguments, of a batch
	workers   int
	quiet     bool
	resume    bool
	overwrite bool
	keepDirs  bool
	blocks    bool
	maxBytes  int64
	anyStatus bool
	errors    string
}

// listFlag collects the values of a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func addCleanFlags(fs *flag.FlagSet) *cleanFlags {
	c := &cleanFlags{model: addModelFlags(fs)}
	fs.StringVar(&c.format, "format", "cleaneval", "output format: cleaneval, text, html, json (a file per page: its kept text, every block with its label and decision value, and what the cleaning knows of its decisions: truncated, render_error, unseen_blocks, smoothed_blocks, floored; the blocks' unseen, smoothed, floor, fallback and never_kept), jsonl or wet (one stream)")
	fs.StringVar(&c.out, "o", "", "output: a directory for cleaneval, text, html and json (needed for more than one page; a name ending in .txt, .html, .htm, .json, .jsonl or .gz that is not a directory yet is refused as a file's), a file for jsonl and wet (default: standard output)")
	fs.Var(&c.lists, "i", "a file listing inputs, one path per line, blank lines and lines starting with # skipped, spaces around a path trimmed, a relative path taken from the working directory as the command line's are (not from the list's folder) (- reads the list from standard input); may be repeated; its paths come after the INPUT arguments, in order (a missing list is a usage error, a missing path in it a failed page)")
	fs.IntVar(&c.workers, "workers", 0, "pages cleaned at once (0: one per CPU)")
	fs.BoolVar(&c.quiet, "q", false, "no progress report (errors, a few notes on pages and a batch's summary at the end, a line and one each on WARC files and folders read, are still printed)")
	fs.BoolVar(&c.resume, "resume", false, "continue an earlier run of the same command: keep its outputs and clean only the pages they lack")
	fs.BoolVar(&c.overwrite, "overwrite", false, "start afresh over the output of an earlier run that did not finish (killed, interrupted, stopped by an error), or one without its settings file, or a file (-o of jsonl or wet, --errors) that is no output of fiasco's: a file is overwritten, a directory's files that the earlier run's manifest lists are removed and its manifest starts afresh (files it does not list stay); without it, such an output is refused (--resume continues an unfinished run's instead; a finished run's output is overwritten, with a note)")
	fs.BoolVar(&c.keepDirs, "keep-dirs", false, "mirror the input folders in the output directory (default: base names, -2, -3 on collisions; a byte of a name that is not UTF-8 is written %XX, as the manifest records it)")
	fs.BoolVar(&c.blocks, "blocks", false, "jsonl: add every block with its label, type and decision value (and unseen, smoothed, floor, fallback, never_kept: the text model decided it where the rendering could not show it; sequence smoothing gave it the other label than its own value would; the prose floor kept it; the page would keep nothing and it is its best block, within 1 of the threshold; a rule dropped it whatever its value: box, ad label, stamp, byline or legal)")
	fs.Int64Var(&c.maxBytes, "max-bytes", load.DefaultMaxBytes, "most bytes read of one page; a longer page is cut there and reported truncated")
	fs.BoolVar(&c.anyStatus, "any-status", false, "WARC input: clean responses of any HTTP status (default: 2xx only)")
	fs.StringVar(&c.errors, "errors", "", "error log file (default: errors.jsonl in the output directory, NAME.errors.jsonl beside -o NAME.jsonl, NAME.wet.errors.jsonl beside -o NAME.warc.wet.gz; none for standard output)")
	return c
}

// validate checks the flag values: a bad value is an error naming the flag,
// never silently replaced.
func (c *cleanFlags) validate() error {
	bad := func(format string, args ...any) error { return usagef("clean", format, args...) }
	stream := corpus.IsStream(c.format)
	if !stream {
		if _, err := export.ParseFormat(c.format); err != nil {
			return bad("--format %s: want cleaneval, text, html, json, jsonl or wet", c.format)
		}
	}
	if c.out == "-" {
		// As an input, - is the standard input; as the output, the
		// standard output (not a file named -).
		if !stream {
			return bad("-o -: --format %s writes a directory with a file per page; without -o one page is cleaned to the standard output", c.format)
		}
		if c.resume {
			return bad("--resume needs -o FILE: the standard output cannot be read back")
		}
		c.out = ""
	}
	switch {
	case c.workers < 0:
		return bad("--workers %d: want 0 (one per CPU) or more", c.workers)
	case c.maxBytes <= 0:
		return bad("--max-bytes %d: want a positive number of bytes", c.maxBytes)
	case c.blocks && c.format != corpus.JSONL:
		return bad("--blocks needs --format jsonl")
	case c.keepDirs && (stream || c.out == ""):
		return bad("--keep-dirs needs a directory output: -o DIR with --format cleaneval, text, html or json")
	case c.resume && c.out == "":
		return bad("--resume needs -o: the standard output cannot be read back")
	case c.resume && c.overwrite:
		return bad("--resume and --overwrite: --resume continues the earlier run's output, --overwrite starts afresh over it; give one")
	case c.errors != "" && !stream && c.out == "":
		return bad("--errors needs -o: without it one page is cleaned to standard output, its error on stderr; several pages need -o DIR")
	case c.missingList() != "":
		return bad("-i %s", c.missingList())
	case !stream && looksLikeFile(c.out) && otherStream(c.out, ".jsonl", ".gz"):
		return bad("-o %s names a stream's file: give --format jsonl (or wet); --format %s writes a directory with a file per page", c.out, c.format)
	case c.format == corpus.JSONL && otherStream(c.out, ".wet", ".wet.gz", ".warc", ".warc.gz"):
		return bad("-o %s names a WARC or WET file: give --format wet, or a name for JSON Lines (.jsonl, .jsonl.gz)", c.out)
	case c.format == corpus.WET && otherStream(c.out, ".jsonl", ".jsonl.gz", ".json", ".json.gz"):
		return bad("-o %s names a JSON file: give --format jsonl, or a name for WET (e.g. .warc.wet.gz)", c.out)
	case c.format == corpus.WET && otherStream(c.out, ".txt", ".html", ".htm"):
		return bad("-o %s names a text file: a WET file is gzip data, a member per record (name it e.g. crawl.warc.wet.gz)", c.out)
	case c.format == corpus.WET && c.out != "" && !strings.HasSuffix(strings.ToLower(c.out), ".gz") && !corpus.IsDevice(c.out) &&
		!strings.HasPrefix(c.out, "/dev/") && !(c.resume && isRegular(c.out)) && corpus.CheckOutputPath(c.format, c.out) == nil:
		// (A WET file an earlier version wrote under such a name
		// resumes under it; a directory is refused as one, below.)
		return bad("-o %s: a WET file is gzip data, a member per record: give a name ending .gz (e.g. %s.warc.wet.gz)", c.out, strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(c.out, ".wet"), ".warc"), "."))
	case stream && otherStream(c.out, ".zst", ".bz2", ".xz", ".zip"):
		return bad("-o %s names a compression fiasco does not write: JSON Lines under a name ending .gz are written gzip-compressed, under any other uncompressed; WET is always gzip", c.out)
	case !stream && c.out != "" && corpus.IsDevice(c.out):
		return bad("-o %s is a device; the %s format writes one file per page into a directory (to see one page's text, leave -o out)", c.out, c.format)
	case !stream && c.out != "" && isRegular(c.out):
		return bad("-o %s is a file; the %s format writes one file per page into a directory (for one page in a file, redirect the standard output)", c.out, c.format)
	case !stream && looksLikeFile(c.out):
		return bad("-o %s: with --format %s, -o is a directory that gets a file per page; for one page in a file, redirect the standard output (fiasco clean PAGE > %s), or create the directory first", c.out, c.format, c.out)
	}
	return validateModelFlags("clean", c.model)
}

// missingList returns what is wrong with the first -i list that cannot be
// read as a file ("" where each can, or is "-"): the run would otherwise
// record it as a failed page in its output, and a corrected list would not
// resume it.
func (c *cleanFlags) missingList() string {
	for _, l := range c.lists {
		if l == "-" {
			continue
		}
		fi, err := os.Stat(l)
		switch {
		case err != nil:
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fmt.Sprintf("%s: %v", l, err)
		case fi.IsDir():
			return l + ": a directory, not a list of inputs (give a directory as an INPUT)"
		}
	}
	return ""
}

// isRegular reports whether path is an existing regular file.
func isRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// otherStream reports whether path ends with one of exts (any case): an
// output named for another stream format.
func otherStream(path string, exts ...string) bool {
	p := strings.ToLower(path)
	for _, e := range exts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// looksLikeFile says whether path, an -o of a per-page format, names a
// file rather than a directory: it does not exist (or is not a directory)
// and ends in an extension the per-page formats write (.txt, .html, .htm,
// .json) or a stream's (.jsonl, .gz). An existing directory of any name
// is taken.
func looksLikeFile(path string) bool {
	if path == "" {
		return false
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return false
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".txt", ".html", ".htm", ".json", ".jsonl", ".gz":
		return true
	}
	return false
}

func runClean(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("clean", cleanHelp)
	cf := addCleanFlags(fs.FlagSet)
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := renderUnused(fs, cf.model.noRender, stderr); err != nil {
		return err
	}
	if err := cf.validate(); err != nil {
		return err
	}
	if len(pos) == 0 && len(cf.lists) == 0 {
		return usagef("clean", "no input: give HTML or WARC files, directories, -i LIST or - (standard input)")
	}
	if n := countStdin(pos) + countStdin(cf.lists); n > 1 {
		return usagef("clean", "standard input (-) is named %d times, as an input or a list (-i -): it can be read once", n)
	}
	if cf.resume && cf.errors == "" {
		// The earlier run's --errors, which its settings file names: a
		// resumed run continues it rather than start the default log.
		switch log, found := corpus.EarlierErrorLog(cf.format, cf.out); {
		case found:
			cf.errors = log
			fmt.Fprintf(stderr, "fiasco clean: --resume continues the error log the earlier run wrote, %s (its --errors)\n", log)
		case log != "":
			fmt.Fprintf(stderr, "fiasco clean: note: the earlier run wrote its error log to %s, which is not there (moved without the output?): give --errors with where it is now\n", log)
		}
	}
	if err := inputIsOutput(cf, pos); err != nil {
		return err
	}
	if err := corpus.CheckOutputPath(cf.format, cf.out); err != nil {
		return &usageError{cmd: "clean", err: err}
	}
	if err := corpus.CheckErrorLog(cf.format, cf.out, cf.errors); err != nil {
		return &usageError{cmd: "clean", err: err}
	}
	if cf.format == corpus.WET && cf.out == "" && isTerminal(stdout) {
		return usagef("clean", "--format wet writes gzip data: give -o FILE (e.g. -o crawl.warc.wet.gz) or redirect the standard output, not to a terminal")
	}
	if corpus.IsStream(cf.format) || cf.out != "" {
		return cleanBatch(ctx, cf, pos, stdout, stderr)
	}
	return cleanOne(ctx, cf, pos, stdout, stderr)
}

// inputIsOutput refuses a run whose output or error log is one of its
// inputs (an INPUT argument or an -i list), or holds one (an output
// directory): opening the outputs would overwrite the input before it is
// read. An input directory that holds an output is fine: its walk skips
// the run's outputs.
func inputIsOutput(cf *cleanFlags, pos []string) error {
	outs := corpus.OutputPaths(cf.format, cf.out, cf.errors)
	if len(outs) == 0 {
		return nil
	}
	ins := append(append([]string(nil), pos...), cf.lists...)
	for _, l := range cf.lists {
		listed, err := listedNear(l, outs)
		if err != nil {
			return usagef("clean", "-i %s: %v", l, err)
		}
		ins = append(ins, listed...)
	}
	for _, in := range ins {
		var ifi os.FileInfo
		var err error
		stdin := in == "-"
		if stdin {
			// Standard input redirected from a file (< crawl.warc.gz)
			// is that file: it must not be an output either.
			if ifi, err = os.Stdin.Stat(); err != nil || !ifi.Mode().IsRegular() {
				continue
			}
			in = "standard input (-)" // a name for messages; only SameFile applies to it
		} else if ifi, err = os.Stat(in); err != nil {
			continue // a missing input is its own error
		}
		for _, o := range outs {
			ofi, err := os.Stat(o)
			if err != nil {
				continue // not there yet: no input
			}
			what := "the output (-o)"
			if o != cf.out {
				what = "the error log"
				if cf.errors != "" {
					what += " (--errors)"
				}
			}
			switch {
			case os.SameFile(ifi, ofi) && ifi.IsDir():
				return usagef("clean", "%s is an input directory and %s of this run: the outputs would be written among the pages; name another output directory", in, what)
			case os.SameFile(ifi, ofi):
				return usagef("clean", "%s is an input and %s of this run: it would be overwritten before it is read; name another output", in, what)
			case !stdin && ofi.IsDir() && !ifi.IsDir() && within(in, o):
				return usagef("clean", "%s is an input inside the output directory %s: the run's outputs could overwrite it; name another output directory", in, o)
			}
		}
	}
	return nil
}

// listedNear returns the paths the list file l names (not "-") that may
// be one of outs or lie inside one: those with an output's base name, or
// below an output directory as written. A list of millions of paths is
// read once more, and only these are looked up.
func listedNear(l string, outs []string) ([]string, error) {
	if l == "-" {
		return nil, nil
	}
	if fi, err := os.Stat(l); err == nil && !fi.Mode().IsRegular() {
		// A pipe's list (-i <(find ...), a named pipe) can be read
		// once: the run reads it, and this check is left out.
		return nil, nil
	}
	f, err := os.Open(l)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bases := map[string]bool{}
	var dirs []string // the output directories, absolute
	for _, o := range outs {
		bases[filepath.Base(o)] = true
		if fi, err := os.Stat(o); err == nil && fi.IsDir() {
			if a, err := filepath.Abs(o); err == nil {
				dirs = append(dirs, a+string(filepath.Separator))
			}
		}
	}
	var near []string
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadString('\n') // as corpus reads it
		if p := strings.TrimSpace(line); p != "" && !strings.HasPrefix(p, "#") {
			if bases[filepath.Base(p)] {
				near = append(near, p)
			} else if len(dirs) > 0 {
				a, _ := filepath.Abs(p)
				for _, d := range dirs {
					if strings.HasPrefix(a, d) {
						near = append(near, p)
						break
					}
				}
			}
		}
		if err == io.EOF {
			return near, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// within reports whether path lies below dir (both as given, made
// absolute and with symbolic links resolved where they exist).
func within(path, dir string) bool {
	abs := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	rel, err := filepath.Rel(abs(dir), abs(path))
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// countStdin counts the standard input ("-") among names.
func countStdin(names []string) int {
	n := 0
	for _, s := range names {
		if s == "-" {
			n++
		}
	}
	return n
}

// cleanOne cleans the one page that the inputs stand for to stdout. Inputs
// that are errors (a damaged stretch of a WARC file, say) beside it do not
// count as pages: they are reported on stderr after the page, and the
// command fails.
func cleanOne(ctx context.Context, cf *cleanFlags, pos []string, stdout, stderr io.Writer) error {
	f, _ := export.ParseFormat(cf.format)
	// A WARC file's page renders with the style sheets and images of its
	// records, as in a batch (cleanBatch: Resources).
	src := corpus.NewSource(corpus.Options{MaxBytes: cf.maxBytes, AnyStatus: cf.anyStatus, Resources: cf.model.mayRender()})
	in, failed, err := onePage(ctx, src, pos, cf.lists)
	if err != nil {
		return err
	}
	if dirs := src.Stats().EmptyDirs; len(dirs) > 0 { // a mistyped or unmounted folder beside the page
		fmt.Fprintln(stderr, "fiasco clean: folders: "+emptyDirsPart(dirs))
	}
	if in == nil { // errors only, in order: the last is the command's
		last := len(failed) - 1
		reportInputs(stderr, failed[:last])
		return failed[last].Err
	}
	cleaner, closeFn, err := cf.cleaner(ctx, stderr, nil)
	if err != nil {
		return err
	}
	defer closeFn() // also on interruption: closes Chromium, removes its profile
	res, err := cleaner.CleanInput(ctx, *in)
	if err != nil {
		return err
	}
	if err := res.Write(stdout, f); err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if res.Page.Truncated {
		fmt.Fprintf(stderr, "fiasco clean: %s: %s\n", in.Name, truncatedMsg(res.Page.Cut, cf.maxBytes))
	}
	if note := res.NoTextNote(); note != "" {
		fmt.Fprintf(stderr, "fiasco clean: %s: %s\n", in.Name, note)
	}
	if res.RenderErr != nil {
		fmt.Fprintf(stderr, "fiasco clean: %s\n", renderFailedMsg(res.RenderErr.Error()))
	}
	if n, all := res.Unseen(); n > 0 {
		fmt.Fprintf(stderr, "fiasco clean: %s: %s\n", in.Name, unseenMsg(n, all))
	}
	if res.Floored() {
		fmt.Fprintf(stderr, "fiasco clean: %s: %s\n", in.Name, flooredMsg)
	}
	if len(failed) > 0 {
		reportInputs(stderr, failed)
		return &failedError{n: len(failed), what: "inputs"}
	}
	return nil
}

// reportInputs says on stderr why each of the error inputs failed.
func reportInputs(stderr io.Writer, failed []pipeline.Input) {
	for _, e := range failed {
		fmt.Fprintf(stderr, "fiasco clean: %v\n", e.Err)
	}
}

// onePage reads the inputs until a second page shows: the one page, or
// nil where there are only error inputs (failed, in order, then holds at
// least one). No input at all, or two pages, is an error.
func onePage(ctx context.Context, src *corpus.Source, pos, lists []string) (page *pipeline.Input, failed []pipeline.Input, err error) {
	for in := range src.Inputs(ctx, pos, lists) {
		if in.Err != nil {
			failed = append(failed, in)
			continue
		}
		if page != nil {
			return nil, nil, usagef("clean", "several pages need an output directory: add -o DIR (or --format jsonl for one stream on standard output)")
		}
		page = &in
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if page == nil && len(failed) == 0 {
		if line := warcSummary(src.Stats()); line != "" {
			return nil, nil, fmt.Errorf("%s: no HTML page found (%s)", strings.Join(append(append([]string(nil), pos...), lists...), ", "), line)
		}
		if line := walkSummary(src.Stats()); line != "" {
			return nil, nil, fmt.Errorf("%s: no page found (%s)", strings.Join(append(append([]string(nil), pos...), lists...), ", "), line)
		}
		if args := append(append([]string(nil), pos...), lists...); len(args) > 0 {
			return nil, nil, fmt.Errorf("no input files found in %s (%s)", strings.Join(args, ", "), skippedHint(args, len(lists)))
		}
		return nil, nil, errors.New("no input files found")
	}
	return page, failed, nil
}

// flooredMsg says that the prose floor kept a page's prose.
const flooredMsg = "the model all but emptied the page of its prose (kept less than its floor share, --floor-share); the prose floor kept all of it (--floor=false: without)"

// unseenMsg says that the text model decided n of a page's blocks
// because the rendering could not show them (pipeline.Result.Unseen).
func unseenMsg(n int, all bool) string {
	if all {
		return fmt.Sprintf("the rendering shows less than %.0f%% of the page's text (is it hidden until a script reveals it?); the text model decided all %s",
			100*pipeline.MinVisibleShare, plural(n, "text block"))
	}
	return fmt.Sprintf("%s below the first %s px of the page, the part the renderer captures; the text model decided them",
		plural(n, "text block"), thousands(render.DefaultMaxHeight))
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// renderFailedMsg says that a page was cleaned by the text model because
// rendering it failed (why: the render error, which names the page).
func renderFailedMsg(why string) string {
	return why + "; cleaned by the text model instead"
}

// cleaner is the Cleaner the flags select, reading at most --max-bytes of
// a page and falling back on the text model where rendering is the
// default; a note on stderr says when it took the text model for want of
// a browser. closeFn stops the browser.
//
// check, if not nil, sees the Cleaner before the browser starts: an error
// from it stops the run without one. (Where the browser then fails to start
// and the text model takes over, the Cleaner it returns differs.)
func (cf *cleanFlags) cleaner(ctx context.Context, stderr io.Writer, check func(*pipeline.Cleaner) error) (c *pipeline.Cleaner, closeFn func(), err error) {
	if c, err = cf.model.prepared(); err != nil {
		return nil, nil, err
	}
	if check != nil {
		if err := check(c); err != nil {
			return nil, nil, err
		}
	}
	if closeFn, err = cf.model.start(ctx, c); err != nil {
		return nil, nil, err
	}
	if n := cf.model.note("clean"); n != "" {
		fmt.Fprintln(stderr, n)
	}
	c.Prepare.Load.MaxBytes = cf.maxBytes
	c.TextFallback = cf.model.textFallback(c.Model)
	return c, closeFn, nil
}

// truncatedMsg says that a page was cut, and where (cut: load.Page.Cut).
func truncatedMsg(cut string, maxBytes int64) string {
	why := fmt.Sprintf("the page is longer than --max-bytes (%d bytes) or has more than %d tags or %d text blocks, or its crawler cut it", maxBytes, load.DefaultMaxTags, pipeline.DefaultMaxBlocks)
	switch cut {
	case load.CutBytes:
		why = fmt.Sprintf("the page is longer than --max-bytes (%d bytes)", maxBytes)
	case load.CutTags:
		why = fmt.Sprintf("the page has more than %d tags", load.DefaultMaxTags)
	case load.CutBlocks:
		why = fmt.Sprintf("the page has more than %d text blocks", pipeline.DefaultMaxBlocks)
	case load.CutSource:
		why = "its record holds it cut (WARC-Truncated, or an HTTP body shorter than its HTTP length: its crawler cut it, or the record's Content-Length is too short)"
	case load.CutFile:
		why = "the compressed file ends before its data does (a download or copy cut short)"
	}
	return "truncated: " + why + "; the output holds what came before the cut"
}

// interruptedMsg is the error record of a page that an interruption kept
// from being cleaned.
func interruptedMsg(ctx context.Context) string {
	if se := interrupted(ctx); se != nil {
		return "interrupted by " + signalName(se.sig) + " before the page was cleaned"
	}
	return "interrupted before the page was cleaned"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
