package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/warc"
)

// outcomes cleans n pages (every third one failing) and returns their
// outcomes in input order, encoded by sink.
func outcomes(t *testing.T, n int, sink Sink) []pipeline.Outcome {
	t.Helper()
	var ins []pipeline.Input
	for i := range n {
		in := pipeline.Input{Name: fmt.Sprintf("p%d.html", i), RecordID: fmt.Sprintf("<urn:uuid:%d>", i), URL: fmt.Sprintf("http://ex.org/%d", i),
			Data: fmt.Appendf(nil, "<html><head><title>Page %d</title></head><body><p>The text of page %d, a sentence that is long enough to be kept by the model as the clean text of the page.</p></body></html>", i, i)}
		if i%3 == 2 {
			in.Data = []byte{}
		}
		ins = append(ins, in)
	}
	return clean(t, ins, sink)
}

// clean cleans ins with the embedded text model and returns their
// outcomes in input order, encoded by sink.
func clean(t *testing.T, ins []pipeline.Input, sink Sink) []pipeline.Outcome {
	t.Helper()
	c, err := pipeline.New(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	var out []pipeline.Outcome
	err = c.Stream(context.Background(), slices.Values(ins), pipeline.BatchOptions{Ordered: true, Post: sink.Encode}, func(o pipeline.Outcome) {
		out = append(out, o)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// logFailure adds a failed outcome's record to out's error log, as
// fiasco clean does.
func logFailure(t *testing.T, out *Output, o pipeline.Outcome) {
	t.Helper()
	if o.Err != nil {
		if err := out.Errors.Add(ErrorRecord{Input: o.Input.Name, WARCRecordID: o.Input.RecordID, Error: o.Err.Error()}); err != nil {
			t.Fatal(err)
		}
	}
}

// eachRecord calls fn for every record of the WARC data r holds, in
// order (a record's block is read within fn).
func eachRecord(t *testing.T, r io.Reader, fn func(*warc.Record)) {
	t.Helper()
	wr := warc.NewReader(r, warc.Options{})
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(rec)
	}
}

func put(t *testing.T, s Sink, os []pipeline.Outcome) {
	t.Helper()
	for _, o := range os {
		if _, err := s.Put(o); err != nil {
			t.Fatal(err)
		}
	}
}

func appendBytes(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	f.Close()
}

// resumed opens the output again with Resume and returns what the
// resumed run would clean of all.
func resumed(t *testing.T, opt OutputOptions, all []pipeline.Outcome) (*Output, []string) {
	t.Helper()
	opt.Resume = true
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	var ins []pipeline.Input
	for _, o := range all {
		ins = append(ins, o.Input)
	}
	var todo []string
	for in := range out.Resume.Filter(slices.Values(ins), out.Sink.Skip) {
		todo = append(todo, in.Name)
	}
	return out, todo
}

// TestResumeJSONL: a JSONL file cut inside a line (a killed run) is cut
// back to its whole lines on resume; the inputs it holds are skipped, and
// the run ends with exactly the lines of an uninterrupted one.
func TestResumeJSONL(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	opt := OutputOptions{Format: JSONL, Path: full}
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	all := outcomes(t, 9, out.Sink)
	put(t, out.Sink, all)
	out.Close()
	want, _ := os.ReadFile(full)

	part := filepath.Join(dir, "part.jsonl")
	opt.Path = part
	out, _ = Open(opt)
	put(t, out.Sink, all[:5])
	out.Close()
	appendBytes(t, part, []byte(`{"input":"p5.html","url":"ht`))
	out, todo := resumed(t, opt, all)
	if fmt.Sprint(todo) != "[p5.html p6.html p7.html p8.html]" || out.Resume.Skipped() != 5 || out.Resume.Err() != nil {
		t.Fatalf("resume cleans %v (skipped %d, %v)", todo, out.Resume.Skipped(), out.Resume.Err())
	}
	put(t, out.Sink, all[5:])
	out.Close()
	if got, _ := os.ReadFile(part); string(got) != string(want) {
		t.Errorf("resumed output differs from an uninterrupted run:\n%s\nwant\n%s", got, want)
	}
	var l Line
	json.Unmarshal([]byte(strings.Split(string(want), "\n")[0]), &l)
	if l.Title == nil || *l.Title != "Page 0" || *l.Lang != "en" || *l.Charset != "utf-8" || *l.Truncated || !strings.Contains(*l.Text, "page 0") || l.WARCRecordID != "<urn:uuid:0>" {
		t.Errorf("first line: %+v", l)
	}
	// Other inputs than the output was written from: an error, nothing cleaned.
	out, todo = resumed(t, opt, append(all[:2:2], all[3:]...))
	if out.Resume.Err() == nil || len(todo) != 0 {
		t.Errorf("resume over other inputs cleans %v, error %v", todo, out.Resume.Err())
	}
	out.Close()
}

// TestResumeWET: a WET file cut inside a gzip member is cut back to its
// whole records; its records and the error log's records say which pages
// are done; the records carry the fields WARC 1.1 requires.
func TestResumeWET(t *testing.T) {
	dir := t.TempDir()
	opt := OutputOptions{Format: WET, Path: filepath.Join(dir, "out.warc.wet.gz"), Software: "fiasco-test"}
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	if out.Errors.Path() != filepath.Join(dir, "out.wet.errors.jsonl") {
		t.Errorf("error log %s", out.Errors.Path())
	}
	all := outcomes(t, 7, out.Sink)
	for _, o := range all[:5] {
		if _, err := out.Sink.Put(o); err != nil {
			t.Fatal(err)
		}
		logFailure(t, out, o)
	}
	out.Errors.Add(ErrorRecord{Input: "p5.html", WARCRecordID: "<urn:uuid:5>", Error: "interrupted", Interrupted: true})
	out.Close()
	enc := all[5].Value.(*Encoded).Data
	appendBytes(t, opt.Path, enc[:len(enc)/2])

	out, todo := resumed(t, opt, all)
	if fmt.Sprint(todo) != "[p5.html p6.html]" || out.Resume.Err() != nil {
		t.Fatalf("resume cleans %v (%v)", todo, out.Resume.Err())
	}
	put(t, out.Sink, all[5:])
	out.Close()

	f, _ := os.Open(opt.Path)
	defer f.Close()
	var got []string
	eachRecord(t, f, func(rec *warc.Record) {
		for _, name := range []string{warc.FieldRecordID, warc.FieldContentLength, warc.FieldDate, warc.FieldType, warc.FieldBlockDigest} {
			if rec.Header.Get(name) == "" {
				t.Errorf("%s record without %s", rec.Type, name)
			}
		}
		block, _ := io.ReadAll(rec.Block())
		if rec.Header.Get(warc.FieldBlockDigest) != warc.BlockDigest(block) {
			t.Errorf("%s record: wrong block digest", rec.Type)
		}
		if rec.Type == warc.TypeConversion {
			if rec.TargetURI == "" || rec.ContentType != "text/plain" {
				t.Errorf("conversion record: target %q, type %q", rec.TargetURI, rec.ContentType)
			}
			got = append(got, rec.Header.Get(warc.FieldRefersTo))
		} else {
			got = append(got, rec.Type)
		}
	})
	want := "[warcinfo <urn:uuid:0> <urn:uuid:1> <urn:uuid:3> <urn:uuid:4> <urn:uuid:6>]"
	if fmt.Sprint(got) != want {
		t.Errorf("records %v, want %s", got, want)
	}
	data, _ := os.ReadFile(out.Errors.Path())
	if n := strings.Count(string(data), "\n"); n != 1 || strings.Contains(string(data), "interrupted") {
		t.Errorf("error log after resume:\n%s", data)
	}
}

// TestResumeWETLogAhead: a WET file's error log that holds a failure past
// the output's last page (the WET file lost its last record in a crash of
// the machine) is refused on resume, with how to cut it back, and left as
// it is; cut back by hand, the resumed run cleans the inputs from there on
// and every input ends with one record, in the output or the log. Inputs
// that end before the log's entry, or do not match the WET file, get the
// plain refusal.
func TestResumeWETLogAhead(t *testing.T) {
	dir := t.TempDir()
	opt := OutputOptions{Format: WET, Path: filepath.Join(dir, "out.warc.wet.gz"), Software: "fiasco-test"}
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	all := outcomes(t, 9, out.Sink) // p2, p5, p8 fail
	for _, o := range all[:4] {     // p0-p3 whole; p4's record lost, p5's failure logged
		put(t, out.Sink, []pipeline.Outcome{o})
		logFailure(t, out, o)
	}
	logFailure(t, out, all[5])
	out.Close()
	logPath := out.Errors.Path()
	before, _ := os.ReadFile(logPath)

	for _, c := range []struct {
		name  string
		ins   []pipeline.Outcome
		guide bool // the refusal says how to cut the log
	}{
		{"the same inputs", all, true},
		{"inputs that end before the log's entry", all[:4], false},
		{"inputs that do not match the WET file", all[1:], false},
	} {
		out, todo := resumed(t, opt, c.ins)
		err := out.Resume.Err()
		out.Close()
		if err == nil || len(todo) != 0 {
			t.Errorf("%s: resume cleans %v, error %v; want a refusal", c.name, todo, err)
			continue
		}
		if guide := strings.Contains(err.Error(), "keep the log's first line (head -n 1)"); guide != c.guide {
			t.Errorf("%s: refusal %q: says how to cut the log %v, want %v", c.name, err, guide, c.guide)
		}
		if after, _ := os.ReadFile(logPath); string(after) != string(before) {
			t.Errorf("%s: the refused resume changed the error log", c.name)
		}
	}

	// Cut back as the refusal says: the resume cleans p4 on.
	first, _, _ := strings.Cut(string(before), "\n")
	os.WriteFile(logPath, []byte(first+"\n"), 0o644)
	out, todo := resumed(t, opt, all)
	if fmt.Sprint(todo) != "[p4.html p5.html p6.html p7.html p8.html]" || out.Resume.Err() != nil || out.Errors.Earlier() != 1 {
		t.Fatalf("resume after the cut cleans %v (%v; earlier failures %d)", todo, out.Resume.Err(), out.Errors.Earlier())
	}
	for _, o := range all[4:] {
		put(t, out.Sink, []pipeline.Outcome{o})
		logFailure(t, out, o)
	}
	out.Close()
	data, _ := os.ReadFile(logPath)
	var failed []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r ErrorRecord
		json.Unmarshal([]byte(line), &r)
		failed = append(failed, r.Input)
	}
	if fmt.Sprint(failed) != "[p2.html p5.html p8.html]" {
		t.Errorf("error log after resume: %v, want each failure once", failed)
	}
	out, todo = resumed(t, opt, all)
	if len(todo) != 0 || out.Resume.Skipped() != 9 || out.Resume.Err() != nil {
		t.Errorf("second resume cleans %v (skipped %d, %v)", todo, out.Resume.Skipped(), out.Resume.Err())
	}
	out.Close()
}

// TestResumeWETNoErrors: a WET run without a failure leaves no error log,
// and resuming it skips every page; the JSONL and the WET run of one
// crawl keep error logs of their own.
func TestResumeWETNoErrors(t *testing.T) {
	dir := t.TempDir()
	opt := OutputOptions{Format: WET, Path: filepath.Join(dir, "crawl.warc.wet.gz"), Software: "fiasco-test"}
	out, err := Open(opt)
	if err != nil {
		t.Fatal(err)
	}
	all := outcomes(t, 2, out.Sink) // p0, p1: neither fails
	put(t, out.Sink, all)
	out.Close()
	if _, err := os.Stat(out.Errors.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error log of a run without failures: %v", err)
	}
	out, todo := resumed(t, opt, all)
	if len(todo) != 0 || out.Resume.Skipped() != 2 || out.Resume.Err() != nil {
		t.Errorf("resume cleans %v (skipped %d, %v)", todo, out.Resume.Skipped(), out.Resume.Err())
	}
	out.Close()
	jl, err := Open(OutputOptions{Format: JSONL, Path: filepath.Join(dir, "crawl.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	defer jl.Close()
	if jl.Errors.Path() == out.Errors.Path() {
		t.Errorf("the JSONL and the WET run share the error log %s", jl.Errors.Path())
	}
}

// TestDirOutput: one file per page under its base name (or its path with
// KeepDirs), a manifest line per input, no temporary file left; resuming
// keeps the names.
func TestDirOutput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, tempPrefix+"stale"), []byte("x"), 0o644)
	for _, keep := range []bool{false, true} {
		out, err := Open(OutputOptions{Format: "text", Path: dir, KeepDirs: keep})
		if err != nil {
			t.Fatal(err)
		}
		all := outcomes(t, 5, out.Sink)
		rels := []string{"a/x.html", "b/x.html", "c.warc.gz#000001", "d/c.warc.gz#000002", "x.htm"}
		var got []string
		for i := range all {
			all[i].Input.Rel = rels[i]
			where, err := out.Sink.Put(all[i])
			if err != nil {
				t.Fatal(err)
			}
			if where == "" {
				got = append(got, "-")
				continue
			}
			rel, _ := filepath.Rel(dir, where)
			got = append(got, filepath.ToSlash(rel))
			if fi, err := os.Stat(where); err != nil {
				t.Error(err)
			} else if fi.Mode().Perm() != 0o644 {
				t.Errorf("%s: mode %v, want -rw-r--r-- like every output", rel, fi.Mode())
			}
		}
		out.Close()
		want := "[x.txt x-2.txt - c-000002.txt x-3.txt]"
		if keep {
			want = "[a/x.txt b/x.txt - d/c/000002.txt x.txt]"
		}
		if fmt.Sprint(got) != want {
			t.Errorf("KeepDirs %v: outputs %v, want %s", keep, got, want)
		}
		m, _ := os.ReadFile(filepath.Join(dir, ManifestName))
		if n := strings.Count(string(m), "\n"); n != 5 || !strings.Contains(string(m), `"error":"p2.html: empty page"`) {
			t.Errorf("manifest:\n%s", m)
		}
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*")); len(temps) > 0 {
		t.Errorf("temporary files left: %v", temps)
	}
}

// TestDirOutputForeignFiles: a file in the output directory that the
// manifest did not list when the run began is never overwritten: its page
// fails with a *PageError, recorded in the manifest, and the run goes on.
// An earlier run's own outputs are written again, and a resumed run's
// first page replaces the file its run wrote before it was killed.
func TestDirOutputForeignFiles(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "y.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(resume bool, skip int, rels ...string) []string {
		t.Helper()
		out, err := Open(OutputOptions{Format: "text", Path: dir, Resume: resume})
		if err != nil {
			t.Fatal(err)
		}
		all := outcomes(t, len(rels), out.Sink)
		var got []string
		for i, rel := range rels {
			all[i].Input.Rel = rel
			if i < skip {
				out.Sink.Skip(all[i].Input)
				continue
			}
			where, err := out.Sink.Put(all[i])
			var pe *PageError
			switch {
			case errors.As(err, &pe):
				got = append(got, "failed")
			case err != nil:
				t.Fatal(err)
			case where == "":
				got = append(got, "-") // every third of outcomes' pages fails: empty
			default:
				r, _ := filepath.Rel(dir, where)
				got = append(got, filepath.ToSlash(r))
			}
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for n := 1; n <= 2; n++ {
		if got, want := fmt.Sprint(run(false, 0, "x.html", "y.html", "e.html", "z.html")), "[failed failed - z.txt]"; got != want {
			t.Errorf("run %d: %s, want %s (x.txt and y.txt are not fiasco's)", n, got, want)
		}
		if b, err := os.ReadFile(mine); err != nil || string(b) != "my notes\n" {
			t.Errorf("run %d: x.txt now holds %q (%v)", n, b, err)
		}
	}
	if m, _ := os.ReadFile(filepath.Join(dir, ManifestName)); !strings.Contains(string(m), "x.txt is in") {
		t.Errorf("manifest does not record the failed page:\n%s", m)
	}
	// Killed after writing a.txt and before listing it; b.txt is the
	// user's. Resumed after z.html, the run writes a.txt again, but not
	// b.txt. (outcomes' pages are the same again: every third fails.)
	for _, f := range []string{"a.txt", "b.txt"} {
		os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
	}
	if got, want := fmt.Sprint(run(true, 4, "x.html", "y.html", "e.html", "z.html", "a.html", "f.html", "b.html")), "[a.txt - failed]"; got != want {
		t.Errorf("resumed: %s, want %s", got, want)
	}
}

// TestPutEncodeFails: a page that Put has to encode itself (Encode was
// not called first) and cannot fails with a *PageError, recorded as each
// format records a failed page: a manifest line with the error and no
// file, a JSONL error line, no WET record.
func TestPutEncodeFails(t *testing.T) {
	dir := t.TempDir()
	check := func(format string, err error) {
		t.Helper()
		var pe *PageError
		if !errors.As(err, &pe) {
			t.Errorf("%s: Put returned %v, want a *PageError", format, err)
		}
	}

	// Keep of another length than the blocks: the HTML export fails.
	out, err := Open(OutputOptions{Format: "html", Path: filepath.Join(dir, "pages")})
	if err != nil {
		t.Fatal(err)
	}
	bad := pipeline.Outcome{Input: pipeline.Input{Name: "p.html"}, Result: &pipeline.Result{Doc: &pipeline.Doc{Page: &load.Page{}}, Keep: []bool{true}}}
	where, err := out.Sink.Put(bad)
	check("html", err)
	out.Close()
	if _, serr := os.Stat(filepath.Join(dir, "pages", "p.html")); where != "" || !errors.Is(serr, fs.ErrNotExist) {
		t.Errorf("html: a page that failed to encode was written to %q (%v)", where, serr)
	}
	var l ManifestLine
	m, _ := os.ReadFile(filepath.Join(dir, "pages", ManifestName))
	if json.Unmarshal(m, &l) != nil || l.Error == "" || l.Output != "" {
		t.Errorf("html: manifest %q, want the page's error and no output", m)
	}

	// Neither a result nor an error: JSONLine fails.
	jpath := filepath.Join(dir, "out.jsonl")
	if out, err = Open(OutputOptions{Format: JSONL, Path: jpath}); err != nil {
		t.Fatal(err)
	}
	_, err = out.Sink.Put(pipeline.Outcome{Input: pipeline.Input{Name: "p.html"}})
	check("jsonl", err)
	out.Close()
	var jl Line
	data, _ := os.ReadFile(jpath)
	if json.Unmarshal(data, &jl) != nil || jl.Error == "" || jl.Input != "p.html" {
		t.Errorf("jsonl: %q, want the page's error line", data)
	}

	// A date no WARC-Date can hold: the conversion record fails.
	wpath := filepath.Join(dir, "out.warc.wet.gz")
	if out, err = Open(OutputOptions{Format: WET, Path: wpath, Software: "fiasco-test"}); err != nil {
		t.Fatal(err)
	}
	in := pipeline.Input{Name: "p.html", Date: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, err = out.Sink.Put(pipeline.Outcome{Input: in, Result: &pipeline.Result{Doc: &pipeline.Doc{Page: &load.Page{}}}})
	check("wet", err)
	out.Close()
	f, err := os.Open(wpath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eachRecord(t, f, func(rec *warc.Record) {
		if rec.Type != warc.TypeWarcinfo {
			t.Errorf("wet: a %s record for a page that failed to encode", rec.Type)
		}
	})
}

// TestEncodeEmptyOutcome: an outcome with neither a result nor an error
// (a caller's mistake) is encoded as a failed page by every sink, not a
// panic, and put as one.
func TestEncodeEmptyOutcome(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ format, path string }{
		{"text", filepath.Join(dir, "pages")},
		{WET, filepath.Join(dir, "out.warc.wet.gz")},
		{JSONL, filepath.Join(dir, "out.jsonl")},
	} {
		out, err := Open(OutputOptions{Format: c.format, Path: c.path, Software: "fiasco-test"})
		if err != nil {
			t.Fatal(err)
		}
		o := pipeline.Outcome{Input: pipeline.Input{Name: "p.html"}}
		out.Sink.Encode(&o)
		if o.Err == nil || !strings.Contains(o.Err.Error(), "neither a result nor an error") {
			t.Errorf("%s: Encode left the error %v", c.format, o.Err)
		}
		if where, err := out.Sink.Put(o); where != "" || err != nil {
			t.Errorf("%s: Put of the failed page: %q, %v; want it recorded as failed", c.format, where, err)
		}
		out.Close()
	}
}

// TestResumeClosesLogs: a resume that stops at an error (inputs other
// than the output was written from) leaves none of the logs it read open:
// a JSONL file, a WET file and its error log.
func TestResumeClosesLogs(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count open files by")
	}
	dir := t.TempDir()
	// open lists the files under dir this process has open.
	open := func() []string {
		fds, _ := os.ReadDir("/proc/self/fd")
		var out []string
		for _, fd := range fds {
			if p, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(p, dir+string(filepath.Separator)) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, opt := range []OutputOptions{
		{Format: JSONL, Path: filepath.Join(dir, "out.jsonl")},
		{Format: WET, Path: filepath.Join(dir, "out.warc.wet.gz"), Software: "fiasco-test"},
	} {
		out, err := Open(opt)
		if err != nil {
			t.Fatal(err)
		}
		all := outcomes(t, 6, out.Sink)
		for _, o := range all {
			if _, err := out.Sink.Put(o); err != nil {
				t.Fatal(err)
			}
			logFailure(t, out, o)
		}
		out.Close()
		out, todo := resumed(t, opt, append(all[:1:1], all[3:]...))
		if out.Resume.Err() == nil || len(todo) != 0 {
			t.Errorf("%s: resume over other inputs cleans %v, error %v", opt.Format, todo, out.Resume.Err())
		}
		out.Close()
		if fds := open(); len(fds) > 0 {
			t.Errorf("%s: files left open after the resume stopped: %v", opt.Format, fds)
		}
	}
}

// TestAppendFailure: a write that fails is undone and fails every later
// write.
func TestAppendFailure(t *testing.T) {
	a, err := openAppend(filepath.Join(t.TempDir(), "x"), false, true, goodLines)
	if err != nil {
		t.Fatal(err)
	}
	a.write([]byte("one\n"))
	a.f.Close() // every write fails now
	if err := a.write([]byte("two\n")); err == nil || !errors.Is(a.write([]byte("three\n")), os.ErrClosed) {
		t.Errorf("writes after failure: %v", err)
	}
}

// TestTargetURI: a conversion record's WARC-Target-URI is the page's URL;
// for a WARC record without one, its record ID, not a path of this
// machine; for a file, a file: URL.
func TestTargetURI(t *testing.T) {
	abs, _ := filepath.Abs("p.html")
	for _, c := range []struct {
		in      pipeline.Input
		pageURL string
		want    string
	}{
		{pipeline.Input{Name: "a.warc.gz#10", URL: "http://ex.org/a", RecordID: "<urn:uuid:1>"}, "", "http://ex.org/a"},
		{pipeline.Input{Name: "a.warc.gz#10", RecordID: "<urn:uuid:1>"}, "", "urn:uuid:1"},
		{pipeline.Input{Name: "p.html"}, "http://ex.org/wrapped", "http://ex.org/wrapped"},
		{pipeline.Input{Name: "p.html"}, "", "file://" + filepath.ToSlash(abs)},
		{pipeline.Input{Name: "-"}, "", "file:///dev/stdin"},
	} {
		if got := targetURI(c.in, c.pageURL); got != c.want {
			t.Errorf("targetURI(%+v, %q) = %q, want %q", c.in, c.pageURL, got, c.want)
		}
	}
}

// TestJSONLineEmptyOutcome: an outcome with neither a result nor an error
// is an error, not a panic.
func TestJSONLineEmptyOutcome(t *testing.T) {
	if _, err := JSONLine(&pipeline.Outcome{}, false); err == nil {
		t.Error("no error")
	}
}

// TestErrorsBeside: a stream's default error log is named after it, and a
// WET file's always says .wet, so that the JSONL and the WET output of one
// crawl side by side (c.jsonl and c.warc.gz) keep a log each.
func TestErrorsBeside(t *testing.T) {
	for _, c := range []struct {
		path string
		wet  bool
		want string
	}{
		{"d/c.jsonl", false, "d/c.errors.jsonl"},
		{"d/c.jsonl.gz", false, "d/c.errors.jsonl"},
		{"d/c.warc.wet.gz", true, "d/c.wet.errors.jsonl"},
		{"d/c.wet.gz", true, "d/c.wet.errors.jsonl"},
		{"d/c.warc.gz", true, "d/c.wet.errors.jsonl"},
		{"d/c.gz", true, "d/c.wet.errors.jsonl"},
		{"d/c", true, "d/c.wet.errors.jsonl"},
		{"d/c", false, "d/c.errors.jsonl"},
	} {
		if got := errorsBeside(filepath.FromSlash(c.path), c.wet); got != filepath.FromSlash(c.want) {
			t.Errorf("%s (wet %v): %s, want %s", c.path, c.wet, got, c.want)
		}
	}
}

// TestErrorLogFirst: an error log that cannot be made stops Open before
// it makes the output, and the error names the log, not an earlier run.
func TestErrorLogFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{JSONL, WET, "text"} {
		path := filepath.Join(dir, "out-"+format)
		_, err := Open(OutputOptions{Format: format, Path: path, Errors: filepath.Join(file, "e.jsonl"), Software: "fiasco-test"})
		if err == nil || !strings.Contains(err.Error(), "e.jsonl") || strings.Contains(err.Error(), "earlier run") {
			t.Errorf("%s: error %v, want one naming e.jsonl and no earlier run", format, err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the output exists after Open failed (%v)", format, err)
		}
	}
	// An output that cannot be opened leaves an earlier run's log as it
	// was; a log that is a link to nothing is replaced.
	earlier := filepath.Join(dir, "earlier.jsonl")
	os.WriteFile(earlier, []byte("{}\n"), 0o644)
	if _, err := Open(OutputOptions{Format: JSONL, Path: filepath.Join(file, "o.jsonl"), Errors: earlier}); err == nil {
		t.Error("an output below a file opened")
	}
	if b, err := os.ReadFile(earlier); err != nil || string(b) != "{}\n" {
		t.Errorf("the earlier run's log after a failed Open: %q, %v", b, err)
	}
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(filepath.Join(dir, "nowhere", "e.jsonl"), link)
	out, err := Open(OutputOptions{Format: JSONL, Path: filepath.Join(dir, "o.jsonl"), Errors: link})
	if err != nil {
		t.Fatalf("a log that links to nothing: %v", err)
	}
	out.Close()
}

// TestDirFreshRemovesListed: a run that starts afresh over a directory
// removes the pages its earlier run's manifest listed (and the folders
// --keep-dirs made for them, where left empty), so that none is left
// behind unlisted; files the manifest does not list stay, and a resumed
// run removes nothing.
func TestDirFreshRemovesListed(t *testing.T) {
	dir := t.TempDir()
	run := func(resume bool, rels ...string) {
		t.Helper()
		out, err := Open(OutputOptions{Format: "text", Path: dir, Resume: resume, KeepDirs: true})
		if err != nil {
			t.Fatal(err)
		}
		all := outcomes(t, len(rels), out.Sink)
		for i, rel := range rels {
			all[i].Input.Rel = rel
			if _, err := out.Sink.Put(all[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	files := func() []string {
		var got []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if rel, _ := filepath.Rel(dir, p); rel != "." && !strings.HasPrefix(d.Name(), ".") {
				got = append(got, filepath.ToSlash(rel))
			}
			return nil
		})
		return got
	}
	run(false, "a/one.html", "b/c/two.html")
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b", "mine.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(true, "a/one.html", "b/c/two.html", "x/empty.html", "d/three.html") // outcomes fails every third page
	if got, want := fmt.Sprint(files()), "[a a/one.txt b b/c b/c/two.txt b/mine.txt d d/three.txt manifest.jsonl notes.txt]"; got != want {
		t.Errorf("after a resumed run: %s, want %s", got, want)
	}
	run(false, "e/four.html")
	if got, want := fmt.Sprint(files()), "[b b/mine.txt e e/four.txt manifest.jsonl notes.txt]"; got != want {
		t.Errorf("after a fresh run: %s, want %s", got, want)
	}
	// A manifest that names files outside the directory (through a
	// symbolic link, or with ..), or the manifest itself: none of them
	// is removed.
	outside := t.TempDir()
	keep := filepath.Join(outside, "keep.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, ManifestName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, keep)
	for _, o := range []string{"link/keep.txt", filepath.ToSlash(rel), "x/../" + ManifestName, "./" + ManifestName} {
		fmt.Fprintf(f, "{\"input\":\"x\",\"output\":%q}\n", o)
	}
	f.Close()
	run(false, "f/five.html")
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file outside the output directory: %v", err)
	}
	if got, want := fmt.Sprint(files()), "[b b/mine.txt f f/five.txt link manifest.jsonl notes.txt]"; got != want {
		t.Errorf("after a fresh run over a manifest naming files outside: %s, want %s", got, want)
	}
	if m, _ := os.ReadFile(filepath.Join(dir, ManifestName)); strings.Count(string(m), "\n") != 1 {
		t.Errorf("manifest after the run:\n%s", m)
	}
}

// TestDeviceNameAppends: an output named as a device (/dev/fd/N, as
// /dev/stdout) that leads to a file the shell opened to append (>>) is
// appended to, not truncated, and gets no settings file beside it.
func TestDeviceNameAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dev := fmt.Sprintf("/dev/fd/%d", f.Fd())
	if _, err := os.Stat(dev); err != nil {
		t.Skipf("no %s: %v", dev, err)
	}
	if !IsDevice(dev) || Foreign(JSONL, dev) {
		t.Fatalf("%s: IsDevice %v, Foreign %v", dev, IsDevice(dev), Foreign(JSONL, dev))
	}
	out, err := Open(OutputOptions{Format: JSONL, Path: dev, Settings: map[string]string{"format": JSONL}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Sink.Put(pipeline.Outcome{Input: pipeline.Input{Name: "p.html"}, Err: errors.New("p.html: empty page")}); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "precious\n{\"input\":\"p.html\"") {
		t.Errorf("the file holds %q; want its line, then the record", data)
	}
	if m, _ := filepath.Glob("/dev/fd/.*settings*"); len(m) > 0 {
		t.Errorf("settings files in /dev/fd: %v", m)
	}
}

// TestErrorRecordsAgree: a failed WARC record's error log line, JSON line
// and manifest line carry the same warc_date, and a message naming a tag
// reads as written (not \u003ctext\u003e) in all three.
func TestErrorRecordsAgree(t *testing.T) {
	dir := t.TempDir()
	in := pipeline.Input{Name: "crawl.warc.gz#3", URL: "http://example.org/a?b=1&c=2", RecordID: "<urn:uuid:1>",
		Date: time.Date(2026, 11, 30, 10, 4, 5, 123456000, time.UTC), HTTPStatus: 404}
	failed := pipeline.Outcome{Input: in, Err: errors.New("crawl.warc.gz#3: no <html> or <text> element")}
	const date, msg = `"warc_date":"2026-11-30T10:04:05.123456Z"`, `no <html> or <text> element`
	check := func(what string, data []byte) {
		t.Helper()
		s := string(data)
		if !strings.Contains(s, date) || !strings.Contains(s, msg) || !strings.Contains(s, `"<urn:uuid:1>"`) || !strings.Contains(s, "&c=2") || !strings.Contains(s, `"http_status":404`) {
			t.Errorf("%s: %s, want %s, %q, the record ID, the URL as written and the HTTP status", what, s, date, msg)
		}
	}
	line, err := JSONLine(&failed, false)
	if err != nil {
		t.Fatal(err)
	}
	check("jsonl", line)

	out, err := Open(OutputOptions{Format: "text", Path: filepath.Join(dir, "pages")})
	if err != nil {
		t.Fatal(err)
	}
	put(t, out.Sink, []pipeline.Outcome{failed})
	if err := out.Errors.Add(ErrorRecord{Input: in.Name, URL: in.URL, WARCRecordID: in.RecordID, WARCDate: WARCDate(in), HTTPStatus: in.HTTPStatus, Error: failed.Err.Error()}); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manifest.jsonl", "errors.jsonl"} {
		data, err := os.ReadFile(filepath.Join(dir, "pages", name))
		if err != nil {
			t.Fatal(err)
		}
		check(name, data)
	}
	if WARCDate(pipeline.Input{Name: "a.html", Date: in.Date}) != "" {
		t.Error("a file's modification time given as warc_date")
	}
}

// TestDirOutputNamesNotUTF8: a page whose file name is not UTF-8 (a
// Latin-1 site's mirror) gets an output named with %XX for those bytes,
// the name the manifest records, so that the next run replaces it
// rather than failing on a file its manifest does not list.
func TestDirOutputNamesNotUTF8(t *testing.T) {
	dir := t.TempDir()
	for run := range 2 {
		out, err := Open(OutputOptions{Format: "text", Path: dir})
		if err != nil {
			t.Fatal(err)
		}
		all := outcomes(t, 2, out.Sink)
		all[0].Input.Rel, all[1].Input.Rel = "caf\xe9.html", "caf%E9.html"
		for _, o := range all {
			if _, err := out.Sink.Put(o); err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		m, _ := os.ReadFile(filepath.Join(dir, ManifestName))
		_, err1 := os.Stat(filepath.Join(dir, "caf%E9.txt"))
		_, err2 := os.Stat(filepath.Join(dir, "caf%E9-2.txt"))
		if err1 != nil || err2 != nil || !strings.Contains(string(m), `"output":"caf%E9.txt"`) || !strings.Contains(string(m), `"output":"caf%E9-2.txt"`) || strings.Contains(string(m), `"error"`) {
			t.Errorf("run %d: %v, %v; manifest:\n%s", run, err1, err2, m)
		}
	}
}

// TestForeignFirstEntryCut: a stream output is fiasco's by how it begins,
// not by the settings file beside it; only a file that holds the start of
// a first entry cut short (the machine went down during the run's first
// write) is taken as fiasco's, and only where the settings file is there.
func TestForeignFirstEntryCut(t *testing.T) {
	for _, c := range []struct {
		format, name, data string
		settings, foreign  bool
	}{
		{JSONL, "a.jsonl", `{"input":"p.html","text":"x"}` + "\n", false, false},
		{JSONL, "b.jsonl", "precious\n", false, true},
		{JSONL, "c.jsonl", "precious\n", true, true},
		{JSONL, "d.jsonl", `{"in`, true, false},
		{JSONL, "e.jsonl", `{"in`, false, true},
		{WET, "f.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\nsoftware: fiasco\r\n", false, false},
		{WET, "g.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\nsoftware: Heritrix\r\n", true, true},
		{WET, "h.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Da", true, false},
		{WET, "i.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Da", false, true},
		{WET, "j.wet", "WAR", true, false},
		{WET, "k.wet", "<html>", true, true},
		// A whole small crawl record, not a warcinfo: another tool's.
		{WET, "l.wet", "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nabcd\r\n\r\n", true, true},
		// fiasco's warcinfo cut within its block, and another tool's.
		{WET, "m.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 300\r\n\r\nsoftware: fia", true, false},
		{WET, "n.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 300\r\n\r\nsoftware: Heritrix", true, true},
		{WET, "o.wet", "WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 13\r\n\r\nsoftware: fia\r\n\r\n", true, true},
		// A gzip header cut short (every WET output is gzip).
		{WET, "p.wet.gz", "\x1f\x8b\x08\x00", true, false},
		{WET, "q.wet.gz", "\x1f\x8b\x08\x00", false, true},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.settings {
			if err := os.WriteFile(settingsPath(p, false), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := Foreign(c.format, p); got != c.foreign {
			t.Errorf("%s %q (settings file: %v): Foreign %v, want %v", c.format, c.data, c.settings, got, c.foreign)
		}
	}
}

// TestDirOutputNamesThatCannotBe: a name too long for the file system
// once its extension changes is cut to fit (one that fits is not); a
// page named as a folder that another's name lies in takes a -k; a page
// whose name runs through another page's file (--keep-dirs: an input
// "foo" and a folder "foo.txt") fails with an error record, and the
// pages after it are written.
func TestDirOutputNamesThatCannotBe(t *testing.T) {
	dir := t.TempDir()
	out, err := Open(OutputOptions{Format: "text", Path: dir, KeepDirs: true})
	if err != nil {
		t.Fatal(err)
	}
	fits := strings.Repeat("x", 251) + ".htm" // 255 bytes as .txt too
	long := strings.Repeat("x", 254) + ".h"   // 258 as .txt
	rels := []string{fits, long, "e.html", "bar.txt/x.html", "bar", "e2.html", "foo", "foo.txt/x.html", "e3.html", "z.html"}
	all := outcomes(t, len(rels), out.Sink)
	var got []string
	for i, o := range all {
		o.Input.Rel = rels[i]
		where, err := out.Sink.Put(o)
		var pe *PageError
		switch {
		case errors.As(err, &pe):
			got = append(got, "failed")
			if !strings.Contains(pe.Error(), "p7.html: not written") {
				t.Errorf("page error %q", pe.Error())
			}
		case err != nil:
			t.Fatalf("%s: the run stopped: %v", rels[i], err)
		case where == "":
			got = append(got, "-") // outcomes' third page fails: empty
		default:
			r, _ := filepath.Rel(dir, where)
			if len(r) > maxNameBytes || i == 0 && len(r) != maxNameBytes {
				t.Errorf("%.20s: name of %d bytes", rels[i], len(r))
			}
			got = append(got, strings.TrimLeft(filepath.ToSlash(r), "x"))
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(got), "[.txt -2.txt - bar.txt/x.txt bar-2.txt - foo.txt failed - z.txt]"; got != want { // the long name, cut, is the first's and takes a -2
		t.Errorf("outputs %s, want %s", got, want)
	}
	m, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if n := strings.Count(string(m), "\n"); n != len(rels) || strings.Count(string(m), `"error"`) != 4 {
		t.Errorf("manifest of %d lines, want %d, four with an error:\n%s", n, len(rels), m)
	}
}

// TestInputsDiff: a resume's inputs must be the earlier run's, as they
// were spelled; an output whose settings name none (written before they
// did) resumes whatever the inputs.
func TestInputsDiff(t *testing.T) {
	dir := t.TempDir()
	chdir(t, dir)
	writeFiles(t, dir, map[string]string{"w/a.html": page, "w/b.html": page, "list.txt": "w/a.html\n"})
	had := InputsSetting([]string{"w/a.html", "w/b.html"}, []string{"list.txt"})
	for _, c := range []struct {
		args, lists []string
		want        string // "" for no error
	}{
		{[]string{"w/a.html", "w/b.html"}, []string{"list.txt"}, ""},
		{[]string{"./w/a.html", "w/b.html"}, []string{"list.txt"}, "input 1 is w/a.html in the earlier run and ./w/a.html now, the same file spelled another way"},
		{[]string{"w/a.html", "w/b.html"}, nil, "it lacks -i list.txt"},
		{[]string{"w/a.html", "w/b.html"}, []string{"list.txt", "more.txt"}, "inputs the earlier run was not (-i more.txt)"},
		{[]string{"w/b.html", "w/a.html"}, []string{"list.txt"}, "input 1 is w/a.html in the earlier run and w/b.html now: these are not its inputs"},
		{[]string{"w/a.html", "w/b.html"}, []string{"./list.txt"}, ""}, // a list's name names no page
	} {
		err := inputsDiff(had, InputsSetting(c.args, c.lists))
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%v %v: %v, want %q", c.args, c.lists, err, c.want)
		}
	}
	if err := inputsDiff("", InputsSetting([]string{"x.html"}, nil)); err != nil {
		t.Errorf("an earlier run that recorded no inputs: %v", err)
	}
	// A folder's pages are named alike however it is spelled, so long as
	// it cleans to the same path.
	for _, w := range []string{"w/", "./w", "w/."} {
		if err := inputsDiff(InputsSetting([]string{"w"}, nil), InputsSetting([]string{w}, nil)); err != nil {
			t.Errorf("the folder w spelled %s: %v", w, err)
		}
	}
	if err := inputsDiff(InputsSetting([]string{"w"}, nil), InputsSetting([]string{filepath.Join(dir, "w")}, nil)); err == nil || !strings.Contains(err.Error(), "the same file spelled another way") {
		t.Errorf("the folder w spelled as an absolute path: %v", err)
	}
	if err := inputsDiff(`["a"]`, `[ "a" ]`); err != nil { // written otherwise, the same list
		t.Errorf("the same list: %v", err)
	}
}
