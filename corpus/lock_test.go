//go:build unix && !solaris && !aix

package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
)

// TestOutputLocked: while a run has its outputs open, a second run on the
// same file or directory is refused before it truncates or writes
// anything, with or without --resume; once the first closes, the second
// may open them.
func TestOutputLocked(t *testing.T) {
	dir := t.TempDir()
	for _, opt := range []OutputOptions{
		{Format: JSONL, Path: filepath.Join(dir, "crawl.jsonl")},
		{Format: WET, Path: filepath.Join(dir, "crawl.warc.wet.gz"), Software: "fiasco-test"},
		{Format: "text", Path: filepath.Join(dir, "pages")},
	} {
		first, err := Open(opt)
		if err != nil {
			t.Fatalf("%s: %v", opt.Path, err)
		}
		lockedPath := opt.Path
		if opt.Format == "text" {
			lockedPath = filepath.Join(opt.Path, ManifestName)
		}
		put(t, first.Sink, outcomes(t, 3, first.Sink))
		before, err := os.ReadFile(lockedPath)
		if err != nil {
			t.Fatal(err)
		}
		var inFlight string // a page file the first run is writing
		if opt.Format == "text" {
			inFlight = filepath.Join(opt.Path, tempPrefix+"page")
			if err := os.WriteFile(inFlight, []byte("half a page"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Claim(opt.Format, opt.Path); !errors.Is(err, ErrLocked) {
			t.Errorf("Claim(%s) while a run writes it: %v, want ErrLocked", opt.Path, err)
		}
		for _, resume := range []bool{false, true} {
			o := opt
			o.Resume = resume
			second, err := Open(o)
			if err == nil {
				second.Close()
				t.Fatalf("%s (resume %v): opened while another run writes it", opt.Path, resume)
			}
			if !errors.Is(err, ErrLocked) {
				t.Errorf("%s (resume %v): %v, want ErrLocked", opt.Path, resume, err)
			}
		}
		after, err := os.ReadFile(lockedPath)
		if err != nil {
			t.Fatal(err)
		}
		if len(before) == 0 || string(after) != string(before) {
			t.Errorf("%s: the refused run changed the output: %q, was %q", lockedPath, after, before)
		}
		if inFlight != "" {
			if _, err := os.Stat(inFlight); err != nil {
				t.Errorf("the refused run removed the first run's file in flight: %v", err)
			}
		}
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}
		// Claimed after the run closed, and given up without writing: the
		// output stays as it was.
		release, err := Claim(opt.Format, opt.Path)
		if err != nil {
			t.Fatalf("Claim(%s) after the run closed: %v", opt.Path, err)
		}
		if _, err := Claim(opt.Format, opt.Path); !errors.Is(err, ErrLocked) {
			t.Errorf("Claim(%s) while claimed: %v, want ErrLocked", opt.Path, err)
		}
		release(false)
		if now, err := os.ReadFile(lockedPath); err != nil || string(now) != string(before) {
			t.Errorf("%s after a claim given up: %q (%v), was %q", lockedPath, now, err, before)
		}
		again, err := Open(opt)
		if err != nil {
			t.Fatalf("%s after the first run closed: %v", opt.Path, err)
		}
		again.Close()
	}
}

// TestClaimNew: a claim on an output not made yet makes it (refusing a
// second claim), and given up without writing removes what it made; kept,
// Open takes it over.
func TestClaimNew(t *testing.T) {
	for _, c := range []struct {
		format, name string
	}{{JSONL, "new.jsonl"}, {"text", "newdir"}} {
		path := filepath.Join(t.TempDir(), "sub", c.name)
		release, err := Claim(c.format, path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, err := Claim(c.format, path); !errors.Is(err, ErrLocked) {
			t.Errorf("%s: a second claim: %v, want ErrLocked", path, err)
		}
		release(false)
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: left behind by a claim given up (%v)", path, err)
		}
		release, err = Claim(c.format, path)
		if err != nil {
			t.Fatal(err)
		}
		release(true)
		out, err := Open(OutputOptions{Format: c.format, Path: path, Software: "fiasco-test"})
		if err != nil {
			t.Fatalf("%s: Open after a claim kept: %v", path, err)
		}
		put(t, out.Sink, outcomes(t, 2, out.Sink))
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestErrorLogLocked: two runs writing different outputs with one error
// log (one --errors, or NAME.jsonl and NAME.jsonl.gz side by side) are not
// let mix their records: the second is refused, its output untouched,
// the first's records kept; once the first ends, its lock file is gone
// and the log may be opened again.
func TestErrorLogLocked(t *testing.T) {
	dir := t.TempDir()
	first, err := Open(OutputOptions{Format: JSONL, Path: filepath.Join(dir, "q.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "q.errors.jsonl")
	if first.Errors.Path() != log {
		t.Fatalf("error log %s, want %s", first.Errors.Path(), log)
	}
	if err := first.Errors.Add(ErrorRecord{Input: "a.html", Error: "bad"}); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []OutputOptions{
		{Format: JSONL, Path: filepath.Join(dir, "q.jsonl.gz")},
		{Format: WET, Path: filepath.Join(dir, "w.warc.wet.gz"), Errors: log, Software: "fiasco-test"},
	} {
		for _, resume := range []bool{false, true} {
			opt.Resume = resume
			second, err := Open(opt)
			if err == nil {
				second.Close()
				t.Fatalf("%s (resume %v): opened with the error log of a run under way", opt.Path, resume)
			}
			if !errors.Is(err, ErrLocked) {
				t.Errorf("%s (resume %v): %v, want ErrLocked", opt.Path, resume, err)
			}
		}
	}
	if _, err := ClaimErrorLog(JSONL, filepath.Join(dir, "q.jsonl.gz"), ""); !errors.Is(err, ErrLocked) {
		t.Errorf("ClaimErrorLog of a log a run writes: %v, want ErrLocked", err)
	}
	if b, err := os.ReadFile(log); err != nil || len(b) == 0 {
		t.Errorf("the first run's error log: %q, %v; want its record kept", b, err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".q.errors.jsonl.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left after the run: %v", err)
	}
	release, err := ClaimErrorLog(JSONL, filepath.Join(dir, "q.jsonl.gz"), "")
	if err != nil {
		t.Fatalf("ClaimErrorLog after the first run: %v", err)
	}
	release()
	again, err := Open(OutputOptions{Format: JSONL, Path: filepath.Join(dir, "q.jsonl.gz")})
	if err != nil {
		t.Fatalf("after the first run: %v", err)
	}
	again.Close()
}

// TestErrorLogLockReleased: an Open that fails after the error log was
// locked (here the settings cannot be written) gives the lock up and
// leaves no lock file, and the next Open takes it.
func TestErrorLogLockReleased(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "q.jsonl")
	if err := os.Mkdir(settingsPath(out, false), 0o755); err != nil {
		t.Fatal(err)
	}
	opt := OutputOptions{Format: JSONL, Path: out, Settings: Settings{"model": "m"}}
	if o, err := Open(opt); err == nil {
		o.Close()
		t.Fatal("opened with a directory for its settings file")
	}
	if _, err := os.Stat(filepath.Join(dir, ".q.errors.jsonl.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left by a failed Open: %v", err)
	}
	os.Remove(settingsPath(out, false))
	o, err := Open(opt)
	if err != nil {
		t.Fatalf("after a failed Open: %v", err)
	}
	o.Close()
}

// TestResumeWithoutSettings: an output that holds pages but lost the
// settings its run wrote beside it (moved without the hidden file) is not
// resumed, for a file and a directory; an empty or new one is. The
// settings are written before the output, so a run killed at any moment
// leaves none without them.
func TestResumeWithoutSettings(t *testing.T) {
	for _, format := range []string{JSONL, WET, "cleaneval"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			if IsStream(format) {
				path += ".x"
			}
			opt := OutputOptions{Format: format, Path: path, Settings: Settings{"model": "m"}}
			out, err := Open(opt)
			if err != nil {
				t.Fatal(err)
			}
			put(t, out.Sink, outcomes(t, 2, out.Sink))
			out.Close()
			sp := settingsPath(path, !IsStream(format))
			if _, err := os.Stat(sp); err != nil {
				t.Fatalf("no settings written: %v", err)
			}
			if err := os.Remove(sp); err != nil {
				t.Fatal(err)
			}
			opt.Resume = true
			if o, err := Open(opt); err == nil || !strings.Contains(err.Error(), "settings its run wrote beside it") {
				if o != nil {
					o.Close()
				}
				t.Fatalf("resumed an output without its settings: %v", err)
			}
			if err := CheckResume(format, path, opt.Settings); err == nil {
				t.Error("CheckResume passes an output without its settings")
			}
			if IsStream(format) {
				// A directory named as the file: Open names that mistake.
				if err := CheckResume(format, dir, opt.Settings); err != nil {
					t.Errorf("CheckResume of a directory: %v", err)
				}
			}
			opt.Path = filepath.Join(dir, "new")
			if IsStream(format) {
				opt.Path += ".x"
			}
			o, err := Open(opt)
			if err != nil {
				t.Fatalf("resume of a new output: %v", err)
			}
			o.Close()
		})
	}
}

// TestResumeKeepsLogMode: resuming rewrites the error log (its
// interrupted records go) with the mode it had, not a temporary file's.
func TestResumeKeepsLogMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.jsonl")
	opt := OutputOptions{Format: JSONL, Path: path}
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	all := outcomes(t, 4, out.Sink) // p2 fails
	put(t, out.Sink, all[:3])
	logFailure(t, out, all[2])
	out.Close()
	logPath := filepath.Join(dir, "m.errors.jsonl")
	if err := os.Chmod(logPath, 0o640); err != nil {
		t.Fatal(err)
	}
	out, _ = resumed(t, opt, all)
	out.Close()
	if fi, err := os.Stat(logPath); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("error log after resume: %v, %v; want mode 0640", fi.Mode(), err)
	}
}

// TestResumeLogLag: a run killed between writing a failure to a JSONL
// output and to its error log leaves the log one record short; resuming
// writes the record it lacks, so the log ends as an uninterrupted run's.
// A log that held only interrupted inputs goes when the resumed run has
// no failure, as a run without errors leaves none.
func TestResumeLogLag(t *testing.T) {
	dir := t.TempDir()
	logRec := func(out *Output, o pipeline.Outcome) {
		t.Helper()
		if o.Err != nil {
			if err := out.Errors.Add(ErrorRecord{Input: o.Input.Name, URL: o.Input.URL, WARCRecordID: o.Input.RecordID, Error: o.Err.Error()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	full := OutputOptions{Format: JSONL, Path: filepath.Join(dir, "full.jsonl")}
	out, err := Open(full)
	if err != nil {
		t.Fatal(err)
	}
	all := outcomes(t, 6, out.Sink) // p2 and p5 fail
	for _, o := range all {
		put(t, out.Sink, []pipeline.Outcome{o})
		logRec(out, o)
	}
	out.Close()
	want, err := os.ReadFile(filepath.Join(dir, "full.errors.jsonl"))
	if err != nil {
		t.Fatal(err)
	}

	part := OutputOptions{Format: JSONL, Path: filepath.Join(dir, "part.jsonl")}
	out, _ = Open(part)
	put(t, out.Sink, all[:3]) // killed before p2's log record
	out.Close()
	out, todo := resumed(t, part, all)
	if fmt.Sprint(todo) != "[p3.html p4.html p5.html]" {
		t.Fatalf("resume cleans %v", todo)
	}
	for _, o := range all[3:] {
		put(t, out.Sink, []pipeline.Outcome{o})
		logRec(out, o)
	}
	out.Close()
	if got, err := os.ReadFile(filepath.Join(dir, "part.errors.jsonl")); err != nil || string(got) != string(want) {
		t.Errorf("resumed error log (%v):\n%s\nwant\n%s", err, got, want)
	}

	quiet := OutputOptions{Format: JSONL, Path: filepath.Join(dir, "quiet.jsonl")}
	out, _ = Open(quiet)
	put(t, out.Sink, all[:1])
	if err := out.Errors.Add(ErrorRecord{Input: "p1.html", Error: "interrupted", Interrupted: true}); err != nil {
		t.Fatal(err)
	}
	out.Close()
	out, _ = resumed(t, quiet, all[:2])
	put(t, out.Sink, all[1:2])
	out.Close()
	if _, err := os.Stat(filepath.Join(dir, "quiet.errors.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an error log of interrupted inputs only, after a resumed run without errors: %v; want none", err)
	}
}

// TestOpenNoWriter: a stream format with neither a Path nor a Stdout is
// an error at Open, not a nil writer at the first Put.
func TestOpenNoWriter(t *testing.T) {
	if out, err := Open(OutputOptions{Format: JSONL}); err == nil {
		out.Close()
		t.Error("Open without Path or Stdout: no error")
	}
}

// TestSharedDefaultLog: the default error log of q.jsonl.gz is that of
// q.jsonl beside it; once a run wrote q.jsonl (with its settings), a run
// of q.jsonl.gz that would take the log is refused before it touches it,
// naming q.jsonl, unless it is given a log of its own. A settings file
// written before it named its log counts as naming the default one; one
// naming another log leaves the default free. q.jsonl's own resume opens.
func TestSharedDefaultLog(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	first, err := Open(OutputOptions{Format: JSONL, Path: path("q.jsonl"), Settings: Settings{"format": JSONL}})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Errors.Add(ErrorRecord{Input: "a.html", Error: "bad"}); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(path("q.errors.jsonl"))
	for _, resume := range []bool{false, true} {
		out, err := Open(OutputOptions{Format: JSONL, Path: path("q.jsonl.gz"), Resume: resume, Settings: Settings{"format": JSONL}})
		if err == nil {
			out.Close()
			t.Fatalf("resume %v: q.jsonl.gz opened with q.jsonl's error log", resume)
		}
		if !strings.Contains(err.Error(), "error log of "+path("q.jsonl")) {
			t.Errorf("resume %v: %v, want q.jsonl named", resume, err)
		}
	}
	if _, err := ClaimErrorLog(JSONL, path("q.jsonl.gz"), ""); err == nil {
		t.Errorf("ClaimErrorLog of q.jsonl's log for q.jsonl.gz: no error")
	}
	if now, _ := os.ReadFile(path("q.errors.jsonl")); len(log) == 0 || !bytes.Equal(now, log) {
		t.Errorf("q.jsonl's log changed: %q, was %q", now, log)
	}
	open := func(opt OutputOptions) error {
		out, err := Open(opt)
		if err == nil {
			err = out.Close()
		}
		return err
	}
	if err := open(OutputOptions{Format: JSONL, Path: path("q.jsonl.gz"), Errors: path("gz.errors.jsonl"), Settings: Settings{"format": JSONL}}); err != nil {
		t.Errorf("q.jsonl.gz with a log of its own: %v", err)
	}
	if err := open(OutputOptions{Format: JSONL, Path: path("q.jsonl"), Resume: true, Settings: Settings{"format": JSONL}}); err != nil {
		t.Errorf("q.jsonl resumed: %v", err)
	}
	for name, settings := range map[string]string{
		"old.jsonl":   `{"format": "jsonl"}`,
		"other.jsonl": `{"format": "jsonl", "error-log": "/elsewhere/log.jsonl"}`,
	} {
		os.WriteFile(path(name), []byte("{}\n"), 0o644)
		os.WriteFile(settingsPath(path(name), false), []byte(settings), 0o644)
		err := open(OutputOptions{Format: JSONL, Path: path(name + ".gz")})
		if refused := err != nil && strings.Contains(err.Error(), "error log of "+path(name)); refused != (name == "old.jsonl") {
			t.Errorf("%s.gz beside %s with settings %s: %v", name, name, settings, err)
		}
	}
}

// TestUnfinished: an output whose run did not call Finish (killed,
// interrupted) is Unfinished; Finish marks it done, and a resume's
// settings check ignores the mark; settings written before the marks
// (without the error log's key) are not taken for an unfinished run.
func TestUnfinished(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "u.jsonl")
	out, err := Open(OutputOptions{Format: JSONL, Path: path, Settings: Settings{"format": JSONL}})
	if err != nil {
		t.Fatal(err)
	}
	if !Unfinished(JSONL, path) {
		t.Errorf("a run under way: not Unfinished")
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if !Unfinished(JSONL, path) {
		t.Errorf("closed without Finish: not Unfinished")
	}
	if err := out.Finish(); err != nil {
		t.Fatal(err)
	}
	if Unfinished(JSONL, path) {
		t.Errorf("finished: Unfinished")
	}
	if err := CheckResume(JSONL, path, Settings{"format": JSONL}); err != nil {
		t.Errorf("resume of a finished run with its settings: %v", err)
	}
	// A resume that fails to open (its error log is no log) leaves the
	// finished run's mark.
	os.WriteFile(filepath.Join(dir, "u.errors.jsonl"), []byte("not json\n"), 0o644)
	if again, err := Open(OutputOptions{Format: JSONL, Path: path, Resume: true, Settings: Settings{"format": JSONL}}); err == nil {
		again.Close()
		t.Errorf("resume over a log that is no log: opened")
	}
	if Unfinished(JSONL, path) {
		t.Errorf("a resume that failed to open took the finished mark away")
	}
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte("{}\n"), 0o644)
	os.WriteFile(settingsPath(old, false), []byte(`{"format": "jsonl"}`), 0o644)
	if Unfinished(JSONL, old) || Unfinished(JSONL, filepath.Join(dir, "none.jsonl")) {
		t.Errorf("an older version's output, or none: Unfinished")
	}
}

// wetOutputs returns a WET output as fiasco writes it killed before its
// first page (its warcinfo record alone), and one with a page.
func wetOutputs(t *testing.T) (infoOnly, full string) {
	t.Helper()
	var b bytes.Buffer
	s := newWETSink(streamWriter{&b})
	if err := s.warcinfo("x.warc.wet.gz", "fiasco test"); err != nil {
		t.Fatal(err)
	}
	infoOnly = b.String()
	for _, o := range outcomes(t, 1, s) {
		if _, err := s.Put(o); err != nil {
			t.Fatal(err)
		}
	}
	return infoOnly, b.String()
}

// TestHoldsPages: an output holds pages when a page's record is in it;
// a WET file with its warcinfo alone, an empty JSON Lines file (plain or
// gzip) and a directory without a manifest line hold none.
func TestHoldsPages(t *testing.T) {
	dir := t.TempDir()
	infoOnly, full := wetOutputs(t)
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", ManifestName), []byte(`{"input":"a.html","output":"a.txt"}`+"\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "e"), 0o755)
	os.WriteFile(filepath.Join(dir, "e", ManifestName), nil, 0o644)
	for _, c := range []struct {
		format, name, data string
		want               bool
	}{
		{WET, "info.warc.wet.gz", infoOnly, false},
		{WET, "full.warc.wet.gz", full, true},
		{JSONL, "empty.jsonl", "", false},
		{JSONL, "empty.jsonl.gz", gzipped(""), false},
		{JSONL, "one.jsonl", `{"input":"a.html"}` + "\n", true},
		{JSONL, "one.jsonl.gz", gzipped(`{"input":"a.html"}` + "\n"), true},
		{"text", "d", "", true},
		{"text", "e", "", false},
		{"text", "none", "", false},
	} {
		p := filepath.Join(dir, c.name)
		if c.format != "text" {
			os.WriteFile(p, []byte(c.data), 0o644)
		}
		if got := HoldsPages(c.format, p); got != c.want {
			t.Errorf("%s: HoldsPages %v, want %v", c.name, got, c.want)
		}
	}
}

// TestOrphaned: an output of fiasco's without its settings file is told
// by its content: a JSON Lines file whose first line (of any length,
// plain or gzip) starts {"input":, a WET file whose warcinfo names fiasco,
// a directory with a manifest; a user's JSON Lines, or one with its
// settings, is not.
func TestOrphaned(t *testing.T) {
	dir := t.TempDir()
	long := `{"input":"a.html","text":"` + strings.Repeat("word ", 40000) + "\"}\n"
	infoOnly, full := wetOutputs(t)
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", ManifestName), []byte(`{"input":"a.html","output":"a.txt"}`+"\n"), 0o644)
	for _, c := range []struct {
		format, name, data string
		want               bool
	}{
		{JSONL, "long.jsonl", long, true},
		{JSONL, "long.jsonl.gz", gzipped(long), true},
		{JSONL, "user.jsonl", `{"id": 1}` + "\n", false},
		{JSONL, "empty.jsonl", "", false},
		{WET, "x.warc.wet.gz", full, true},
		{WET, "info.warc.wet.gz", infoOnly, false}, // killed before its first page: nothing to lose
		{WET, "other.warc.gz", gzipped("WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\nsoftware: wget\r\n"), false},
		{"text", "d", "", true},
	} {
		p := filepath.Join(dir, c.name)
		if c.format != "text" {
			os.WriteFile(p, []byte(c.data), 0o644)
		}
		if got := Orphaned(c.format, p); got != c.want {
			t.Errorf("%s: Orphaned %v, want %v", c.name, got, c.want)
		}
		writeSettings(settingsPath(p, c.format == "text"), Settings{"format": c.format})
		if Orphaned(c.format, p) {
			t.Errorf("%s with its settings: Orphaned", c.name)
		}
	}
}
