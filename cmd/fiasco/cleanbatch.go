package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
)

// batchRun is the state of a batch: counts, and what stops it.
type batchRun struct {
	ctx    context.Context // the command's: a signal cancels it
	runCtx context.Context // the batch's: also cancelled by a write failure
	cancel context.CancelCauseFunc
	sink   corpus.Sink
	fails  *failureLog
	status *status
	stderr io.Writer
	maxB   int64

	pages, cleaned, failed, interrupted, truncated, unwritten, empty, unseen, floored int
	damaged                                                                           int      // error records of damage in WARC files, not pages (corpus.Damaged)
	args                                                                              []string // the INPUT arguments and -i lists, for messages
	lists                                                                             int      // how many of args, at their end, are lists
	unrendered                                                                        int      // cleaned by the text model: rendering failed
	stopped                                                                           bool     // a page was interrupted: later pages are too
	fatal                                                                             error    // an output could not be written
}

// cleanBatch cleans every input into the outputs the flags name.
func cleanBatch(ctx context.Context, cf *cleanFlags, pos []string, stdout, stderr io.Writer) error {
	cf.inputs = pos // for the settings a resume checks
	earlier := !cf.resume && earlierOutput(cf.format, cf.out)
	// A WET file holds no record of failed inputs, its error log does: a
	// resume that finds no log cannot match the inputs to the output.
	var missingLog string
	if cf.resume && cf.format == corpus.WET {
		if l := corpus.ResumedErrorLog(cf.format, cf.out, cf.errors); l != "" && !corpus.IsDevice(l) {
			if _, err := os.Stat(l); errors.Is(err, os.ErrNotExist) {
				missingLog = l
			}
		}
	}
	_, statErr := os.Stat(cf.out)
	fresh := cf.out != "" && errors.Is(statErr, os.ErrNotExist) // this run makes the output
	// The output is this run's from the start: another run's is refused
	// before Chromium starts. corpus.Open takes the lock over.
	releaseOut, err := corpus.Claim(cf.format, cf.out)
	if err != nil {
		return err
	}
	releaseLog, err := corpus.ClaimErrorLog(cf.format, cf.out, cf.errors) // so is its error log
	if err != nil {
		releaseOut(false)
		return err
	}
	release := func(keep bool) { releaseLog(); releaseOut(keep) }
	// Checked once the output is this run's: a run under way has not
	// finished either, and is named as such by Claim.
	if earlier && !cf.overwrite && corpus.Unfinished(cf.format, cf.out) {
		release(false)
		return fmt.Errorf("%s holds the output of an earlier run that did not finish (killed, interrupted, or stopped by an error): --resume continues it; --overwrite starts afresh, and its pages are lost", cf.out)
	}
	if !cf.resume && !cf.overwrite && corpus.Orphaned(cf.format, cf.out) {
		release(false)
		return fmt.Errorf("%s holds an earlier run's output without the settings file that run wrote beside it (moved without it? mv DIR/* skips hidden files), so that whether it finished cannot be told: move that file with it and give --resume, or give --overwrite to start afresh", cf.out)
	}
	if !cf.overwrite && corpus.Foreign(cf.format, cf.out) {
		release(false)
		return fmt.Errorf("%s exists and is no output of fiasco's (it does not begin as fiasco's %s output does, whatever settings file lies beside it): give --overwrite to replace it, or name another output", cf.out, cf.format)
	}
	if l := corpus.ErrorLogPath(cf.format, cf.out, cf.errors); !cf.overwrite && corpus.ForeignLog(l) {
		release(false)
		return fmt.Errorf("%s, the error log, exists and holds no error records of fiasco's: give --overwrite to replace it, or name another error log (--errors FILE)", l)
	}
	var check func(*pipeline.Cleaner) error
	if cf.resume { // a resume with other settings is refused before Chromium starts too
		check = func(c *pipeline.Cleaner) error {
			err := checkResume(cf, c)
			if err != nil && c.Model.Visual && cf.model.mayFallBack() {
				// The earlier run may have had the text model, its
				// browser failing to start: that one may resume (if the
				// browser starts now, corpus.Open refuses it).
				tm, terr := classify.DefaultFor(cf.model.policy.String(), false)
				if terr != nil {
					return terr
				}
				fc := *c
				fc.Model = tm
				if checkResume(cf, &fc) == nil {
					return nil
				}
			}
			return err
		}
	}
	cleaner, closeFn, err := cf.cleaner(ctx, stderr, check)
	if err != nil {
		release(false)
		return err
	}
	defer closeFn() // also on interruption: closes Chromium, removes its profile
	settings, err := runSettings(cf, cleaner)
	release(err == nil)
	if err != nil {
		return err
	}
	out, err := corpus.Open(corpus.OutputOptions{
		Format: cf.format, Path: cf.out, Stdout: stdout, Errors: cf.errors, Resume: cf.resume,
		Blocks: cf.blocks, KeepDirs: cf.keepDirs, Software: software(), Settings: settings,
	})
	if err != nil {
		if fresh { // what the claim made: a run that fails here leaves no empty output
			corpus.Discard(cf.format, cf.out, cf.errors)
		}
		return err
	}
	if earlier { // a warning, not progress: -q keeps it
		if corpus.IsStream(cf.format) {
			fmt.Fprintf(stderr, "fiasco clean: %s held an earlier run's output: it is overwritten (--resume continues a run instead)\n", cf.out)
		} else {
			fmt.Fprintf(stderr, "fiasco clean: %s held an earlier run's output: the pages its manifest listed are removed, and the manifest starts afresh (--resume continues a run instead)\n", cf.out)
		}
	}

	src := corpus.NewSource(corpus.Options{
		MaxBytes: cf.maxBytes, Exclude: out.Exclude, AnyStatus: cf.anyStatus,
		Resources: cleaner.Model.Visual,
	})
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	st := batchStatus(stdout, stderr, cf.out, cf.quiet)
	b := &batchRun{
		ctx: ctx, runCtx: runCtx, cancel: cancel, sink: out.Sink, status: st, stderr: stderr, maxB: cf.maxBytes,
		fails: newFailureLog(stderr, "fiasco clean", st, out.Errors),
		args:  append(append([]string(nil), pos...), cf.lists...),
		lists: len(cf.lists),
	}
	inputs := out.Resume.Filter(src.Inputs(runCtx, pos, cf.lists), out.Sink.Skip)
	_ = cleaner.Stream(runCtx, inputs, pipeline.BatchOptions{Workers: cf.workers, Ordered: true, Post: out.Sink.Encode}, b.emit)
	st.done()
	stats := src.Stats()
	discarded := fresh && b.found(out) == 0 && stats.Records == 0
	refused := out.Resume.Err() != nil && runCtx.Err() == nil
	// The settings file's marks are written while the output is still
	// this run's (its lock goes with Close): a run that claims it next
	// finds them as they are. Every entry is in the kernel already; Close
	// writes none.
	var markErr error
	marked := false
	switch {
	case refused:
		// Refused before it wrote a page: the earlier run's settings,
		// with its mark of whether it finished, stay.
		markErr = out.KeepEarlierSettings()
	case b.fatal == nil && runCtx.Err() == nil && !discarded:
		// Every input read: a run without --resume may overwrite it.
		markErr, marked = out.Finish(), true
	}
	if err := out.Close(); err != nil && b.fatal == nil {
		b.fatal = err
		if marked {
			out.Unfinish() // best effort: the output failed after all
		}
	}
	if markErr != nil && b.fatal == nil {
		b.fatal = markErr
	}
	// A signal ends the inputs early: what resume then sees of them says
	// nothing of the outputs.
	if err := out.Resume.Err(); refused {
		if markErr != nil {
			return markErr
		}
		if missingLog != "" {
			return fmt.Errorf("%s, the error log of the WET output, was not there when the run began: if the earlier run had failed inputs, this log was their only record (a WET file holds none), and without it the inputs cannot be matched to what that run did (if it was given --errors FILE, give the same --errors; if the log was moved, move it back); if it had none, the inputs differ from its own; --overwrite in place of --resume starts afresh: %w", missingLog, err)
		}
		if cf.format == corpus.WET && cf.errors == "" {
			// A WET file holds no record of failed inputs: its error
			// log does, and a run given --errors kept it elsewhere.
			return fmt.Errorf("%w (a WET output's error log is part of its record of the inputs done: if the earlier run was given --errors, give the same --errors again; a WET file whose name does not say .wet, written before 2026-11-29, has its log as NAME.errors.jsonl: give --errors NAME.errors.jsonl)", err)
		}
		return err
	}
	b.fails.summary()
	if discarded {
		// No input: the run leaves no empty output behind. WARC records
		// without a page are input (a crawl's shard of images only):
		// their run leaves its empty output, as a finished shard. An
		// empty WARC file (an aborted download) has its error record
		// (corpus.ErrNoRecord), so its run is not discarded.
		corpus.Discard(cf.format, cf.out, cf.errors)
		out.Where = "" // none written
	}
	b.summary(out, stats)
	return b.result(out, stats)
}

// found counts the inputs the run met: pages, damage records, and pages
// an earlier run did (--resume).
func (b *batchRun) found(out *corpus.Output) int {
	return b.pages + b.damaged + out.Resume.Skipped()
}

// checkResume refuses a --resume of cf's output whose earlier run had
// other settings than c would have (corpus.CheckResume).
func checkResume(cf *cleanFlags, c *pipeline.Cleaner) error {
	s, err := runSettings(cf, c)
	if err != nil {
		return err
	}
	return corpus.CheckResume(cf.format, cf.out, s)
}

// runSettings describes what shapes the outputs of a batch beside its
// inputs, for --resume to check (corpus.Settings): the format and its
// options, the limits, and the model that cleans, by its bytes (an
// embedded one, a file, or the text model where Chromium was not found),
// with its threshold and rendering.
func runSettings(cf *cleanFlags, c *pipeline.Cleaner) (corpus.Settings, error) {
	digest, err := c.Model.Digest()
	if err != nil {
		return nil, err
	}
	if cf.resume {
		// An output written before 2026-11-30 names its model by a
		// digest with the model's Info: the same model resumes it.
		if was := corpus.EarlierSettings(cf.format, cf.out)["model"]; was != "" && was != digest[:16] {
			if old, err := c.Model.DigestWithInfo(); err == nil && old[:16] == was {
				digest = old
			}
		}
	}
	th := c.Model.Threshold
	if c.Threshold != nil {
		th = *c.Threshold
	}
	s := corpus.Settings{
		"format":     cf.format,
		"blocks":     strconv.FormatBool(cf.blocks),
		"keep-dirs":  strconv.FormatBool(cf.keepDirs),
		"max-bytes":  strconv.FormatInt(cf.maxBytes, 10),
		"any-status": strconv.FormatBool(cf.anyStatus),
		"model":      digest[:16],
		"policy":     c.Model.Info.Policy,
		"threshold":  strconv.FormatFloat(th, 'g', -1, 64),
		"rescue":     strconv.FormatBool(c.Model.Rescue),
		"render":     strconv.FormatBool(c.Model.Visual),
		"inputs":     corpus.InputsSetting(cf.inputs, cf.lists),
	}
	if c.Model.Blend > 0 { // also in the digest; named so that a resume says what changed
		s["blend"] = strconv.FormatFloat(c.Model.Blend, 'g', -1, 64)
	}
	smooth := c.Model.Smooth // also in the model's digest; named so that a resume says what changed
	if c.Smooth != nil {
		smooth = *c.Smooth // as the page's model will have it (the text model a page falls back on too)
	}
	if smooth > 0 {
		s["smooth"] = strconv.FormatFloat(smooth, 'g', -1, 64)
	}
	if c.Floor != nil { // --floor or --floor=false; the model's own is in its digest
		s["floor"] = strconv.FormatBool(*c.Floor)
	}
	if c.FloorShare != nil { // --floor-share (the text model a page falls back on too); the model's own is in its digest
		s["floor-share"] = strconv.FormatFloat(*c.FloorShare, 'g', -1, 64)
	}
	if c.Model.Visual {
		s["width"] = strconv.Itoa(cf.model.render.width)
		s["scale"] = strconv.FormatFloat(cf.model.render.scale, 'g', -1, 64)
	}
	return s, nil
}

// emit handles one outcome, in input order.
func (b *batchRun) emit(o pipeline.Outcome) {
	b.pages++
	if b.fatal != nil {
		b.unwritten++
		return
	}
	if b.stopped || b.runCtx.Err() != nil && errors.Is(o.Err, context.Canceled) {
		// Not started, or stopped under way: a record, no message. The
		// pages after it are not written either, so that the outputs
		// stay a prefix of the inputs, which --resume continues.
		b.stopped = true
		b.interrupted++
		b.check(b.fails.interrupted(o.Input, interruptedMsg(b.ctx)))
		return
	}
	if _, err := b.sink.Put(o); err != nil {
		var pe *corpus.PageError
		if !errors.As(err, &pe) {
			b.unwritten++
			b.check(err)
			return
		}
		o.Err = pe.Err // a failed page: its manifest line says so
	}
	if corpus.Damaged(o) {
		// Damage in a WARC file: an error record, not a page.
		b.pages--
		b.damaged++
		b.check(b.fails.fail(o.Input, o.Err))
		return
	}
	b.status.add(o.Err != nil)
	if o.Err != nil {
		b.failed++
		b.check(b.fails.fail(o.Input, o.Err))
		return
	}
	b.cleaned++
	if corpus.Empty(o) {
		b.empty++
	}
	if corpus.Truncated(o) {
		b.truncated++
		b.note(b.truncated, fmt.Sprintf("fiasco clean: %s: %s", o.Input.Name, truncatedMsg(corpus.Cut(o), b.maxB)), "truncated")
	}
	if why := corpus.RenderError(o); why != "" {
		b.unrendered++
		b.note(b.unrendered, "fiasco clean: "+renderFailedMsg(why), "cleaned by the text model as rendering failed")
	}
	if n, all := corpus.Unseen(o); n > 0 {
		b.unseen++
		b.note(b.unseen, fmt.Sprintf("fiasco clean: %s: %s", o.Input.Name, unseenMsg(n, all)), "with text blocks the rendering could not show")
	}
	if corpus.Floored(o) {
		b.floored++
		b.note(b.floored, fmt.Sprintf("fiasco clean: %s: %s", o.Input.Name, flooredMsg), "with prose kept by the floor")
	}
}

// note prints line, a note on the n-th page of a kind, for the first
// maxRepeats pages of the kind, then once that later ones are not named.
func (b *batchRun) note(n int, line, kind string) {
	switch {
	case n <= maxRepeats:
		b.status.message(line)
	case n == maxRepeats+1:
		b.status.message(fmt.Sprintf("fiasco clean: more pages %s are not named here: the summary counts them, and each one's record says so", kind))
	}
}

// check stops the batch when an output could not be written.
func (b *batchRun) check(err error) {
	if err != nil && b.fatal == nil {
		b.fatal = err
		b.cancel(err)
	}
}

// summary reports the counts on stderr.
func (b *batchRun) summary(out *corpus.Output, stats corpus.Stats) {
	msg := fmt.Sprintf("fiasco clean: %s, %d cleaned, %d failed", plural(b.pages, "page"), b.cleaned, b.failed)
	if b.found(out) == 0 && stats.Records > 0 {
		msg += " (no HTML page in the WARC files: the WARC line below says what their records held)"
	}
	if b.interrupted > 0 {
		msg += fmt.Sprintf(", %d interrupted", b.interrupted)
	}
	if b.unwritten > 0 {
		msg += fmt.Sprintf(", %d not written", b.unwritten)
	}
	if b.truncated > 0 {
		msg += fmt.Sprintf(", %d truncated (cut at --max-bytes %d, %d tags or %d text blocks, or cut short before they reached fiasco: by the crawler, a download or a compressed file that ends early)", b.truncated, b.maxB, load.DefaultMaxTags, pipeline.DefaultMaxBlocks)
	}
	if b.unrendered > 0 {
		msg += fmt.Sprintf(", %d cleaned by the text model (rendering failed)", b.unrendered)
	}
	if b.unseen > 0 {
		msg += fmt.Sprintf(", %d with text blocks the rendering could not show (decided by the text model)", b.unseen)
	}
	if b.floored > 0 {
		msg += fmt.Sprintf(", %d with prose kept by the floor", b.floored)
	}
	if b.empty > 0 {
		msg += fmt.Sprintf(", %d with no text kept", b.empty)
	}
	if b.damaged > 0 {
		msg += fmt.Sprintf("; %s for damaged or empty WARC files (not pages)", plural(b.damaged, "error record"))
	}
	if out.Where == "" {
		msg += "; no output written (no input)"
	} else {
		msg += "; output in " + out.Where
	}
	if out.Errors != nil && out.Errors.Len() > 0 {
		msg += ", errors in " + out.Errors.Path()
	}
	fmt.Fprintln(b.stderr, msg)
	if n := out.Resume.Skipped(); n > 0 {
		d := out.Errors.EarlierDamage()
		line := fmt.Sprintf("fiasco clean: --resume: %s done by an earlier run, skipped", plural(n-d, "page"))
		if f := out.Errors.Earlier() - d; f > 0 {
			line += fmt.Sprintf("; %d of them failed (in %s)", f, out.Errors.Path())
		}
		if d > 0 {
			line += fmt.Sprintf("; and its %s for damaged or empty WARC files (not pages)", plural(d, "error record"))
		}
		fmt.Fprintln(b.stderr, line)
	}
	if line := warcSummary(stats); line != "" {
		fmt.Fprintln(b.stderr, "fiasco clean: WARC: "+line)
	}
	folders := walkSummary(stats)
	if len(stats.EmptyDirs) > 0 { // beside what the walks skipped, on the same line
		folders = strings.TrimPrefix(folders+"; "+emptyDirsPart(stats.EmptyDirs), "; ")
	}
	if folders != "" {
		fmt.Fprintln(b.stderr, "fiasco clean: folders: "+folders)
	}
	if n := len(stats.Repeated); n > 0 {
		names := stats.Repeated[:min(n, 3)]
		more := ""
		if n > 3 {
			more = ", ..."
		}
		fmt.Fprintf(b.stderr, "fiasco clean: inputs: skipped %s read already in this run by another path or a folder (%s%s)\n", plural(n, "file"), strings.Join(names, ", "), more)
	}
}

// earlierOutput reports whether the output at path holds an earlier
// run's pages: a stream file that is not empty, or a directory whose
// manifest is not, with the settings file a run writes beside them.
func earlierOutput(format, path string) bool {
	return path != "" && corpus.HasSettings(format, path) && corpus.HoldsPages(format, path)
}

// walkSummary says which files the directory walks skipped; "" where
// none.
func walkSummary(stats corpus.Stats) string {
	var parts []string
	if len(stats.NotPages) > 0 {
		exts := make([]string, 0, len(stats.NotPages))
		n := 0
		for e, k := range stats.NotPages {
			exts = append(exts, e)
			n += k
		}
		sort.Strings(exts)
		for i, e := range exts {
			exts[i] = fmt.Sprintf("%d %s", stats.NotPages[e], e)
		}
		what := fmt.Sprintf("%d files whose names say they are", n)
		if n == 1 {
			what = "1 file whose name says it is"
		}
		parts = append(parts, fmt.Sprintf("skipped %s no page (%s; name one as an INPUT to clean it)", what, strings.Join(exts, ", ")))
	}
	if n := stats.OutputDirs; n > 0 {
		dirs := "1 output directory"
		if n > 1 {
			dirs = fmt.Sprintf("%d output directories", n)
		}
		parts = append(parts, "skipped "+dirs+" of earlier runs")
	}
	if len(stats.OwnOutputs) > 0 {
		parts = append(parts, "skipped this run's output inside an input folder ("+strings.Join(stats.OwnOutputs, ", ")+"): what it holds is not read")
	}
	if n := stats.OutputFiles; n > 0 {
		parts = append(parts, "skipped "+plural(n, "output file")+" of earlier runs (JSONL or WET)")
	}
	if n := stats.Special; n > 0 {
		parts = append(parts, "skipped "+plural(n, "special file")+" (named pipes, sockets, devices)")
	}
	return strings.Join(parts, "; ")
}

// emptyDirsPart names the folders given as inputs that held no file to
// read (corpus.Stats.EmptyDirs, not empty).
func emptyDirsPart(dirs []string) string {
	n := len(dirs)
	more := ""
	if n > maxEmptyNamed {
		more = fmt.Sprintf(" and %d more", n-maxEmptyNamed)
	}
	return fmt.Sprintf("found no file to read in %s%s (hidden files and folders are skipped)", strings.Join(dirs[:min(n, maxEmptyNamed)], ", "), more)
}

// warcSummary says how many WARC records of how many files were read and
// why those that are not pages were skipped; "" where no WARC file was.
func warcSummary(stats corpus.Stats) string {
	if stats.Archives == 0 {
		return ""
	}
	line := fmt.Sprintf("%s in %s", plural(stats.Records, "record"), plural(stats.Archives, "file"))
	if len(stats.Skipped) > 0 {
		reasons := make([]string, 0, len(stats.Skipped))
		for r := range stats.Skipped {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for i, r := range reasons {
			if n := stats.Skipped[r]; n == 1 {
				reasons[i] = "1 " + singularReason(r)
			} else {
				reasons[i] = fmt.Sprintf("%d %s", n, r)
			}
		}
		line += "; skipped " + strings.Join(reasons, ", ")
	}
	if n := len(stats.Empty); n > 0 {
		names := make([]string, 0, min(n, maxEmptyNamed))
		for _, name := range stats.Empty[:min(n, maxEmptyNamed)] {
			names = append(names, shownName(name))
		}
		if n > maxEmptyNamed {
			names = append(names, fmt.Sprintf("and %d more", n-maxEmptyNamed))
		}
		line += fmt.Sprintf("; %s holding no record (an aborted download?): %s", plural(n, "file"), strings.Join(names, ", "))
	}
	if stats.Resyncs > 0 {
		stretches := "1 damaged stretch"
		if stats.Resyncs > 1 {
			stretches = fmt.Sprintf("%d damaged stretches", stats.Resyncs)
		}
		line += "; read past " + stretches + " to the next record (see the error records)"
	}
	if n := stats.Unindexed; n > 0 {
		its := "its"
		if n > 1 {
			its = "their"
		}
		line += fmt.Sprintf("; %s whose records cannot be looked up again (standard input, compressed as a whole, or a damaged start): %s pages rendered without the style sheets and images of %s records", plural(n, "file"), its, its)
	}
	return line
}

// maxEmptyNamed bounds the empty WARC files the summary names.
const maxEmptyNamed = 5

// singularReason is a reason for skipping records (corpus.Skip*, "TYPE
// records"), said of one record.
func singularReason(r string) string {
	switch {
	case r == corpus.SkipOtherType:
		return "record of another type"
	case strings.Contains(r, "responses"):
		return strings.Replace(r, "responses", "response", 1)
	case strings.HasSuffix(r, " records"):
		return strings.TrimSuffix(r, "s")
	}
	return r
}

// result is the batch's outcome as the command's error.
func (b *batchRun) result(out *corpus.Output, stats corpus.Stats) error {
	if b.fatal != nil {
		again := "run the same command with --resume to continue"
		switch {
		case out.Where == "standard output":
			again = "rerun it: standard output cannot be resumed; with -o FILE a run can"
		case corpus.IsDevice(out.Where):
			again = "rerun it: a device or pipe cannot be resumed; with -o FILE a run can"
		}
		return fmt.Errorf("%w; the run stopped: %s not written (fix the cause and %s)", b.fatal, plural(b.unwritten+b.interrupted, "page"), again)
	}
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if b.found(out) == 0 {
		if stats.Records > 0 {
			// Read through, holding no page: a finished run (the
			// summary's WARC line says what the records held).
			return nil
		}
		if stats.Archives > 0 {
			return errors.New("no WARC record found (empty WARC files: the WARC summary above)")
		}
		if walkSummary(stats) != "" {
			return errors.New("no page found in the folders (the line above says what they held)")
		}
		if len(b.args) > 0 {
			return fmt.Errorf("no input files found in %s (%s)", strings.Join(b.args, ", "), skippedHint(b.args, b.lists))
		}
		return errors.New("no input files found")
	}
	// A resumed run ends as the run it finishes would have: failures of
	// the earlier run count.
	damaged := out.Errors.EarlierDamage()
	if n := b.failed + out.Errors.Earlier() - damaged; n > 0 {
		return &failedError{n: n, what: "pages"}
	}
	if n := b.damaged + damaged; n > 0 {
		return &failedError{n: n, what: "damaged stretches or empty WARC files"}
	}
	return nil
}

// software names this program in WET files.
func software() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return "fiasco/" + bi.Main.Version
	}
	return "fiasco"
}

// plural returns "1 page", "2 pages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// skippedHint says what a run that found no input skipped: hidden files
// and folders in folders, blank lines and comments in lists (the last n
// of args are lists).
func skippedHint(args []string, lists int) string {
	switch {
	case lists == 0:
		return "hidden files and folders are skipped"
	case lists == len(args):
		return "a list's blank lines and lines starting with # are skipped"
	}
	return "hidden files and folders are skipped, as are a list's blank lines and lines starting with #"
}
