package corpus

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fiasco-project/fiasco/export"
)

// Stream formats: one output for all pages.
const (
	JSONL = "jsonl" // one JSON object per input and line
	WET   = "wet"   // WARC conversion records, as Common Crawl's WET files
)

// IsStream reports whether format writes all pages into one output
// (jsonl, wet) rather than one file per page.
func IsStream(format string) bool { return format == JSONL || format == WET }

// OutputOptions say where and how a run writes its outputs.
type OutputOptions struct {
	// Format is jsonl, wet, or an export format (cleaneval, text, html,
	// json), written one file per page into the directory Path.
	Format string
	// Path is the output: a file for jsonl and wet ("" writes to
	// Stdout), a directory for the other formats.
	Path   string
	Stdout io.Writer
	// Errors is the error log's path; "" means the default: errors.jsonl
	// in an output directory, NAME.errors.jsonl beside an output file
	// NAME.jsonl, NAME.wet.errors.jsonl beside NAME.warc.wet.gz, none for
	// standard output.
	Errors string
	// Resume continues an earlier run of the same command: its outputs
	// are kept, cut after their last whole entry, and Output.Resume skips
	// the inputs they record.
	Resume bool
	// Blocks adds the blocks to the jsonl format.
	Blocks bool
	// KeepDirs names per-page files after their path below the directory
	// argument they were found in (Input.Rel) rather than their base name.
	KeepDirs bool
	// Software names the program in a WET file's warcinfo record.
	Software string
	// Settings, if not nil, are kept beside an output file or directory;
	// with Resume, Open refuses to continue an output written with other
	// ones (see Settings).
	Settings Settings
}

// Output is a run's outputs, opened.
type Output struct {
	Sink   Sink
	Errors *ErrorLog // nil: failures go to the sink only
	Resume *Resume   // nil without OutputOptions.Resume
	// Exclude lists the output paths, for Options.Exclude: an output inside
	// an input folder is not read back as input.
	Exclude []string
	// Where names the output for messages.
	Where string

	settingsPath string   // where Open wrote the run's settings ("" for none)
	settings     Settings // what it wrote there
	earlier      []byte   // with Resume, the settings file Open replaced
}

// KeepEarlierSettings puts back the settings file that Open replaced, for
// a resumed run refused once under way (Resume.Err: other inputs than the
// earlier run's), which wrote no page: the earlier run's mark of its end
// stays as it was. Call it before Close, as Finish.
func (o *Output) KeepEarlierSettings() error {
	if o.settingsPath == "" || o.earlier == nil {
		return nil
	}
	if err := writeAtomic(o.settingsPath, filepath.Dir(o.settingsPath), o.earlier); err != nil {
		return fmt.Errorf("%s: %w", o.settingsPath, err)
	}
	return nil
}

// Finish records, in the settings file beside the output, that the run
// read all its inputs (Unfinished is then false): call it before Close,
// while the output is still this run's, once a run that was neither
// interrupted nor stopped by an error has written its last entry.
func (o *Output) Finish() error {
	if o.settingsPath == "" {
		return nil
	}
	if err := writeSettings(o.settingsPath, o.settings.with(finishedKey, "true")); err != nil {
		return fmt.Errorf("%s: %w", o.settingsPath, err)
	}
	return nil
}

// Unfinish takes Finish's mark back (the output failed to close after
// all); an error is not reported: the mark only spares a refusal.
func (o *Output) Unfinish() {
	if o.settingsPath != "" {
		writeSettings(o.settingsPath, o.settings)
	}
}

// Unfinished reports whether the output of format at path was written by
// a run that did not finish (killed, interrupted, stopped by an error:
// it never called Output.Finish), as its settings file says; false where
// there is none, or where a version before these marks wrote it.
func Unfinished(format, path string) bool {
	if path == "" || IsDevice(path) {
		return false
	}
	s, err := readSettings(settingsPath(path, !IsStream(format)))
	if err != nil {
		return false
	}
	_, marked := s[errorLogKey] // written since runs mark their end
	return marked && s[finishedKey] != "true"
}

// finishedKey marks, in an output's settings file, a run that finished
// (Output.Finish). It is not one of the settings a resume must ask for.
const finishedKey = "finished"

// CheckOutputPath refuses an output path (-o) that does not suit format:
// a directory (an existing one, or a path ending in a slash) for a format
// that writes one file (IsStream), an existing file for one that writes a
// file per page. Open checks it too; a command line checks it first to
// call it a usage error before anything starts. An empty path (the
// standard output) passes.
func CheckOutputPath(format, path string) error {
	if path == "" {
		return nil
	}
	if IsStream(format) {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() || namesDir(path) {
			return fmt.Errorf("-o %s names a directory; the %s format writes one file (e.g. -o crawl.%s)", path, format, streamExt(format))
		}
		return nil
	}
	if isFile(path) {
		return fmt.Errorf("-o %s is a file; the %s format writes one file per page into a directory", path, format)
	}
	return nil
}

// CheckErrorLog refuses an error log (OutputOptions.Errors) that would
// overwrite the run's own output: the output file itself or its settings
// file, or, for a per-page format, a file in the output directory other
// than the directory's own error log (ErrorsName), where the pages, the
// manifest and the settings are written. Open checks it too.
func CheckErrorLog(format, path, errors string) error {
	if errors == "" || path == "" || IsDevice(errors) || IsDevice(path) {
		return nil
	}
	e, o := resolved(errors), resolved(path)
	switch {
	case e == o:
		return fmt.Errorf("--errors %s is the output (-o) too: the error records and the pages would overwrite each other; name another file", errors)
	case IsStream(format) && e == resolved(settingsPath(path, false)):
		return fmt.Errorf("--errors %s is the settings file of the output %s; name another file", errors, path)
	case !IsStream(format) && inDir(e, o) && e != resolved(filepath.Join(path, ErrorsName)):
		return fmt.Errorf("--errors %s lies in the output directory %s, where the run writes its pages, %s and its settings: leave --errors out (the log is then %s) or name a file outside it", errors, path, ManifestName, filepath.Join(path, ErrorsName))
	}
	return nil
}

// resolved returns p absolute, with the symbolic links of the longest
// part of it that exists resolved: two names of one file, existing or
// to be made, resolve alike.
func resolved(p string) string {
	p = absPath(p)
	rest := ""
	for dir := p; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// inDir reports whether the resolved path p lies below the resolved
// directory dir.
func inDir(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Foreign reports whether path, the output file of a stream format, is an
// existing file that holds something and is not a fiasco output: it does
// not begin as fiasco's output of format does (a JSON Lines record, or a
// WET file's warcinfo that names fiasco, even with no record after it).
// A settings file beside it does not make it fiasco's: a crawl's WARC
// file copied over an earlier WET output keeps that output's settings
// file. Only a first entry cut short (a machine that went down during
// the run's first write) is taken as fiasco's where the settings file is
// there. Overwriting it may destroy a user's data: a command refuses it
// unless told to overwrite. A per-page format's directory keeps files it
// did not write, so Foreign is false for it.
func Foreign(format, path string) bool {
	if !IsStream(format) || path == "" || IsDevice(path) {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return false
	}
	own, partial := startsAsOwn(format, path)
	return !own && !(partial && HasSettings(format, path))
}

// ForeignLog reports whether the error log path exists and holds
// something other than JSON Lines records, as fiasco writes them: a file
// that is no error log of an earlier run.
func ForeignLog(path string) bool {
	if path == "" || IsDevice(path) {
		return false
	}
	f := openFilled(path)
	if f == nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(recordStart))
	n, _ := io.ReadFull(f, head)
	return string(head[:n]) != recordStart
}

// Open opens the outputs of a run (creating an output directory) and,
// with opt.Resume, prepares to skip what an earlier run finished.
func Open(opt OutputOptions) (out *Output, err error) {
	out = &Output{}
	var logs []*doneLog
	if err := CheckOutputPath(opt.Format, opt.Path); err != nil {
		return nil, err
	}
	if err := CheckErrorLog(opt.Format, opt.Path, opt.Errors); err != nil {
		return nil, err
	}
	var pageFormat export.Format // of the per-page formats, parsed before the log is locked
	if !IsStream(opt.Format) {
		if pageFormat, err = export.ParseFormat(opt.Format); err != nil {
			return nil, err
		}
	}
	errPath := errorLogPath(opt)
	if opt.Resume {
		errPath = ResumedErrorLog(opt.Format, opt.Path, opt.Errors)
	}
	if err := sharedLog(opt, errPath); err != nil {
		return nil, err
	}
	// The error log is this run's before anything is touched (lockLog).
	// Until openErrorLog takes the lock over, a failure gives it up here,
	// and removes the log's directory where lockLog made it (if empty).
	var lock *os.File
	if errPath != "" && !IsDevice(errPath) {
		if fi, err := os.Stat(errPath); err == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory, not an error log", errPath)
		}
		made := ""
		if _, err := os.Stat(filepath.Dir(errPath)); errors.Is(err, os.ErrNotExist) {
			made = filepath.Dir(errPath)
		}
		if lock, err = lockLog(errPath); err != nil {
			return nil, fmt.Errorf("%s: %w", errPath, err)
		}
		defer func() {
			if err != nil && lock != nil {
				os.Remove(lock.Name())
				lock.Close()
			}
			if err != nil && made != "" {
				os.Remove(made) // only if empty
			}
		}()
		if !opt.Resume {
			if err = probeErrorLog(errPath); err != nil {
				return nil, fmt.Errorf("%s: %w", errPath, err)
			}
		}
	}
	// The settings are checked before any output is touched.
	sp := ""
	if opt.Settings != nil && opt.Path != "" && !IsDevice(opt.Path) {
		sp = settingsPath(opt.Path, !IsStream(opt.Format))
		if opt.Resume {
			if err := checkSettings(opt.Path, !IsStream(opt.Format), opt.Settings); err != nil {
				return nil, err
			}
		}
	}
	// They are written once the output is this run's (locked) and before
	// it holds anything (a WET file's warcinfo record), so that no output
	// holds pages without them: a resumed run refuses such an output.
	writeSp := func() error {
		if sp == "" {
			return nil
		}
		written := withErrorLog(opt.Settings, errPath, filepath.Dir(sp))
		if err := writeSettings(sp, written); err != nil {
			return fmt.Errorf("%s: %w", sp, err)
		}
		out.settingsPath, out.settings = sp, written
		return nil
	}
	if sp != "" && opt.Resume {
		if b, rerr := os.ReadFile(sp); rerr == nil {
			out.earlier = b
			// A resume that fails to open (its error log unreadable,
			// say) leaves the earlier run's settings as they were.
			defer func() {
				if err != nil {
					writeAtomic(sp, filepath.Dir(sp), b)
				}
			}()
		}
	}
	switch {
	case IsStream(opt.Format) && opt.Path == "":
		if opt.Resume {
			return nil, fmt.Errorf("--resume needs an output file: the standard output cannot be read back")
		}
		if opt.Stdout == nil {
			return nil, errors.New("corpus: OutputOptions has neither a Path nor a Stdout to write to")
		}
		w := streamWriter{opt.Stdout}
		if opt.Format == JSONL {
			out.Sink = &jsonlSink{out: w, blocks: opt.Blocks}
		} else {
			s := newWETSink(w)
			if err := s.warcinfo("", opt.Software); err != nil {
				return nil, err
			}
			out.Sink = s
		}
		out.Where = "standard output"
	case IsStream(opt.Format): // not a directory: checked above
		if err := os.MkdirAll(filepath.Dir(opt.Path), 0o755); err != nil {
			return nil, err
		}
		var log *doneLog
		if opt.Format == JSONL {
			out.Sink, log, err = openJSONL(opt.Path, opt.Resume, opt.Blocks)
			if err == nil {
				if err = writeSp(); err != nil {
					out.Sink.Close()
				}
			}
		} else {
			out.Sink, log, err = openWET(opt.Path, opt.Resume, opt.Software, writeSp)
		}
		if err != nil {
			return nil, err
		}
		if log != nil {
			logs = append(logs, log)
		}
		out.Where = opt.Path
		out.Exclude = append(out.Exclude, opt.Path)
	default: // a format and a path checked above
		var log *doneLog
		out.Sink, log, err = openDir(opt.Path, pageFormat, opt.KeepDirs, opt.Resume)
		if err == nil {
			if err = writeSp(); err != nil {
				out.Sink.Close()
			}
		}
		if err != nil {
			return nil, err
		}
		if log != nil {
			logs = append(logs, log)
		}
		out.Where = opt.Path
		out.Exclude = append(out.Exclude, opt.Path)
	}
	if errPath != "" {
		var log *doneLog
		keep := -1 // a WET file holds no record of failures: the log is the record
		var failed []ErrorRecord
		if opt.Format != WET && len(logs) == 1 { // the output's own log: jsonl, manifest
			failed = logs[0].failures
			keep = len(failed)
		}
		out.Errors, log, err = openErrorLog(errPath, opt.Resume, keep, failed, lock)
		lock = nil // the log's now, also where openErrorLog failed
		if err != nil {
			out.Sink.Close()
			return nil, fmt.Errorf("%s: %w", errPath, err)
		}
		// Only a WET file holds no record of failed pages: there the
		// error log tells which inputs are done too.
		if log != nil && opt.Format == WET {
			logs = append(logs, log)
		}
		out.Exclude = append(out.Exclude, errPath)
	}
	if opt.Resume {
		out.Resume = &Resume{logs: logs}
	}
	return out, nil
}

// OutputPaths names what a run with these options writes: the output
// file or directory (path; none for standard output) and its error log
// (errors, or the default one), for a check against the inputs before
// anything is opened (Open truncates what it does not resume).
func OutputPaths(format, path, errors string) []string {
	var out []string
	if path != "" && !IsDevice(path) {
		out = append(out, path)
	}
	if errors := errorLogPath(OutputOptions{Format: format, Path: path, Errors: errors}); errors != "" && !IsDevice(errors) {
		out = append(out, errors)
	}
	return out
}

// ErrorLogPath is the error log of a run of format into path given
// errors (OutputOptions.Errors): errors, or the default one ("" for
// none: the errors go to the standard error).
func ErrorLogPath(format, path, errors string) string {
	return errorLogPath(OutputOptions{Format: format, Path: path, Errors: errors})
}

// ResumedErrorLog returns the error log that a resumed run of format at
// path given --errors errors reads (Open): ErrorLogPath, or, for a WET
// output given no --errors, the log of a version before 2026-11-29 where
// only that one is there.
func ResumedErrorLog(format, path, errors string) string {
	p := ErrorLogPath(format, path, errors)
	if format == WET && errors == "" {
		p = legacyWETLog(path, p)
	}
	return p
}

// errorLogPath is the error log of opt: OutputOptions.Errors, or the
// default one ("" for none).
func errorLogPath(opt OutputOptions) string {
	if opt.Errors != "" {
		return opt.Errors
	}
	return defaultErrorLog(opt)
}

// defaultErrorLog is the error log of opt without OutputOptions.Errors:
// none for standard output or a device or a pipe, errorsBeside for a
// stream's file, errors.jsonl in an output directory.
func defaultErrorLog(opt OutputOptions) string {
	switch {
	case IsStream(opt.Format) && (opt.Path == "" || IsDevice(opt.Path)):
		return "" // errors on stderr, as for standard output
	case IsStream(opt.Format):
		return errorsBeside(opt.Path, opt.Format == WET)
	case opt.Path == "":
		return ""
	}
	return filepath.Join(opt.Path, ErrorsName)
}

// streamSuffixes are the endings errorsBeside takes off an output
// file's name, longest first where one ends another.
var streamSuffixes = []string{".warc.wet.gz", ".wet.gz", ".wet", ".warc.gz", ".jsonl.gz", ".gz", ".jsonl", ".json", ".warc"}

// errorsBeside names the default error log of an output file: NAME.errors.jsonl
// beside NAME.jsonl, NAME.wet.errors.jsonl beside a WET file (wet):
// NAME.warc.wet.gz, NAME.wet.gz, NAME.warc.gz, NAME.gz, so that the JSONL
// and the WET run of one crawl, side by side, keep a log each. (Until
// 2026-11-29 a WET file whose name did not say .wet had NAME.errors.jsonl,
// which a JSONL run's NAME.jsonl took over.)
func errorsBeside(p string, wet bool) string {
	dir, base := filepath.Split(p)
	for _, ext := range streamSuffixes {
		if t, ok := strings.CutSuffix(base, ext); ok && t != "" {
			base = t
			if strings.Contains(ext, ".wet") {
				base += ".wet"
			}
			break
		}
	}
	if wet && !strings.HasSuffix(base, ".wet") {
		base += ".wet"
	}
	return filepath.Join(dir, base+".errors.jsonl")
}

// legacyWETLog is the error log a resumed WET run at path reads: errPath,
// or, where that does not exist, the log an earlier version gave a WET
// file whose name does not say .wet (NAME.errors.jsonl, until
// 2026-11-29), when it exists and no JSONL output beside it (with its
// settings) may own it instead.
func legacyWETLog(path, errPath string) string {
	if _, err := os.Stat(errPath); err == nil || path == "" || IsDevice(path) {
		return errPath
	}
	old := errorsBeside(path, false)
	if old == errPath {
		return errPath
	}
	if _, err := os.Stat(old); err != nil {
		return errPath
	}
	base := strings.TrimSuffix(old, ".errors.jsonl")
	for _, ext := range append(streamSuffixes, "") {
		if p := base + ext; p != path && !strings.Contains(ext, ".wet") && HasSettings(JSONL, p) {
			return errPath // the log, maybe, of a JSONL run that errorsBeside names so
		}
	}
	return old
}

// Close closes the outputs.
func (o *Output) Close() error {
	err := o.Sink.Close()
	if cerr := o.Errors.Close(); err == nil {
		err = cerr
	}
	return err
}

// streamExt is the usual file extension of a stream format.
func streamExt(format string) string {
	if format == WET {
		return "warc.wet.gz"
	}
	return format
}

// namesDir reports a path that can only name a directory: one that ends in
// a separator, "." or "..".
func namesDir(path string) bool {
	b := filepath.Base(path)
	return strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) || b == "." || b == ".."
}

// IsDevice reports a path that exists as neither a regular file nor a
// directory: a device (-o /dev/stdout) or a pipe, written as it is, with
// nothing beside it. A name of a standard stream or an open file
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is one whatever it leads to:
// the standard output redirected to a file gets no settings file in
// /dev, nor is that file taken for an earlier run's output.
func IsDevice(path string) bool {
	switch c := filepath.Clean(path); {
	case c == "/dev/stdout" || c == "/dev/stderr" || c == "/dev/stdin",
		strings.HasPrefix(c, "/dev/fd/"), strings.HasPrefix(c, "/proc/self/fd/"):
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// Discard removes what Open made for a run that cleaned no page (it found
// no input): the output file with its settings file, or the output
// directory's manifest and settings file and the directory itself, and
// the error log, each only where it holds no record. Call it after
// Output.Close, for outputs that did not exist before the run.
func Discard(format, path, errors string) {
	if path == "" || IsDevice(path) {
		return
	}
	if errors := errorLogPath(OutputOptions{Format: format, Path: path, Errors: errors}); errors != "" && !IsDevice(errors) {
		removeEmpty(errors)
	}
	if IsStream(format) {
		// A WET file starts with its warcinfo record: no page all the same.
		os.Remove(path)
		os.Remove(settingsPath(path, false))
		return
	}
	removeEmpty(filepath.Join(path, ManifestName))
	os.Remove(settingsPath(path, true))
	os.Remove(path) // only if empty now
}

// removeEmpty removes the file at path if it is empty.
func removeEmpty(path string) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		os.Remove(path)
	}
}

// sharedLog returns an error where the default error log of an output
// file (errorsBeside) is also that of another output beside it which an
// earlier run wrote (it has its settings file): crawl.jsonl and
// crawl.jsonl.gz, or x.warc.wet.gz and x.wet.gz, have one default log,
// and a run that started afresh would remove the other's, which that
// output's resume reads. The outputs looked at are those whose default
// log it may be (the log's name with each of streamSuffixes, or none); a
// log given by --errors is the user's to share.
func sharedLog(opt OutputOptions, errPath string) error {
	if opt.Errors != "" || errPath == "" || !IsStream(opt.Format) || opt.Path == "" || IsDevice(opt.Path) {
		return nil
	}
	own := absPath(opt.Path)
	bases := []string{strings.TrimSuffix(errPath, ".errors.jsonl")}
	if b, ok := strings.CutSuffix(bases[0], ".wet"); ok {
		bases = append(bases, b)
	}
	for _, base := range bases {
		for _, ext := range append([]string{""}, streamSuffixes...) {
			other := base + ext
			if absPath(other) == own {
				continue
			}
			if fi, err := os.Stat(other); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			s, err := readSettings(settingsPath(other, false))
			if err != nil || !IsStream(s["format"]) {
				continue
			}
			log, ok := s[errorLogKey]
			if ok && log != "" && !filepath.IsAbs(log) {
				log = absPath(filepath.Join(filepath.Dir(other), log))
			}
			if !ok { // written before the key: the default log
				log = errorsBeside(other, s["format"] == WET)
				if s["format"] == WET {
					log = legacyWETLog(other, log)
				}
				log = absPath(log)
			}
			if log == absPath(errPath) {
				return fmt.Errorf("%s would be the error log of %s, and it is the error log of %s, an earlier run's output beside it: give this run --errors FILE, or another output name", errPath, opt.Path, other)
			}
		}
	}
	return nil
}

// errorLogKey names, in an output's settings file, the run's error log
// ("" for none), relative to the settings file's directory where it can
// be (so that an output moved with its log and settings still names
// it), which sharedLog reads. It is not one of the settings a resumed
// run must ask for again.
const errorLogKey = "error-log"

// withErrorLog is s with the error log errPath under errorLogKey,
// relative to dir where it can be.
func withErrorLog(s Settings, errPath, dir string) Settings {
	log := absPath(errPath)
	if log != "" {
		if rel, err := filepath.Rel(absPath(dir), log); err == nil {
			log = filepath.ToSlash(rel)
		}
	}
	return s.with(errorLogKey, log)
}

// absPath is p made absolute where it can be ("" stays "").
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
