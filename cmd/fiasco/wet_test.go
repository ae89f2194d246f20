package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/warc"
)

// smallCrawl writes a WARC of a few captures of the test pages.
func smallCrawl(t *testing.T, dir string, n int) *testCrawl {
	t.Helper()
	in := filepath.Join(t.TempDir(), "pages")
	writePages(t, in, n)
	var pages [][]byte
	for i := range n {
		p, err := os.ReadFile(filepath.Join(in, "page"+twoDigits(i)+".html"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	return writeCrawl(t, filepath.Join(dir, "crawl.warc.gz"), pages)
}

func twoDigits(i int) string { return string([]byte{byte('0' + i/10), byte('0' + i%10)}) }

// TestWETRoundTrip converts a WARC to WET and reads it back with
// warc.Reader: a warcinfo record, then one conversion record per page with
// the fields WARC 1.1 requires of every record (WARC-Record-ID,
// Content-Length, WARC-Date, WARC-Type) and of a conversion record
// (WARC-Target-URI), the response's ID in WARC-Refers-To, a correct block
// digest and the page's text.
func TestWETRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := smallCrawl(t, dir, 12)
	wet := filepath.Join(dir, "out.warc.wet.gz")
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "wet", "-o", wet, c.path)
	if code != 3 || !strings.Contains(errs, "truncated record") {
		t.Fatalf("exit %d (want 3: the truncated record); stderr:\n%s", code, errs)
	}
	f, err := os.Open(wet)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := warc.NewReader(f, warc.Options{Name: wet})
	var refers []string
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Version != "WARC/1.1" {
			t.Errorf("record %d: version %q", i, rec.Version)
		}
		for _, name := range []string{warc.FieldRecordID, warc.FieldContentLength, warc.FieldDate, warc.FieldType} {
			if rec.Header.Get(name) == "" {
				t.Errorf("record %d (%s) lacks %s", i, rec.Type, name)
			}
		}
		if rec.Date.IsZero() || !strings.HasPrefix(rec.ID, "<urn:uuid:") || !strings.HasSuffix(rec.ID, ">") {
			t.Errorf("record %d: date %v, id %q", i, rec.Date, rec.ID)
		}
		block, err := io.ReadAll(rec.Block())
		if err != nil || warc.BlockDigest(block) != rec.Header.Get(warc.FieldBlockDigest) {
			t.Errorf("record %d: block %v, digest %s", i, err, rec.Header.Get(warc.FieldBlockDigest))
		}
		if i == 0 {
			if rec.Type != warc.TypeWarcinfo || rec.ContentType != "application/warc-fields" || !bytes.Contains(block, []byte("software: fiasco")) {
				t.Errorf("first record: %s %s %q", rec.Type, rec.ContentType, block)
			}
			continue
		}
		if rec.Type != warc.TypeConversion || rec.ContentType != "text/plain" || !strings.HasPrefix(rec.TargetURI, "http://site") {
			t.Errorf("record %d: %s, %s, target %q", i, rec.Type, rec.ContentType, rec.TargetURI)
		}
		if !bytes.Contains(block, []byte("council meeting")) {
			t.Errorf("record %d: text %q", i, block)
		}
		if rec.Date != time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC) {
			t.Errorf("record %d dated %v, not as its response", i, rec.Date)
		}
		refers = append(refers, rec.Header.Get(warc.FieldRefersTo))
	}
	if strings.Join(refers, " ") != strings.Join(c.pages, " ") {
		t.Errorf("WARC-Refers-To:\n%v\nwant the response records\n%v", refers, c.pages)
	}
	recs := readErrRecords(t, filepath.Join(dir, "out.wet.errors.jsonl"))
	if len(recs) != 1 || recs[0].WARCRecordID != c.last {
		t.Errorf("error log %+v, want the truncated record %s", recs, c.last)
	} else if recs[0].URL == "" || !strings.Contains(errs, recs[0].URL) {
		t.Errorf("stderr does not name the failed record's URL %q:\n%s", recs[0].URL, errs)
	}
	// Resumed, nothing is left to do: the output stays as it is.
	before, _ := os.ReadFile(wet)
	code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", "wet", "-o", wet, "--resume", c.path)
	after, _ := os.ReadFile(wet)
	// It exits as the run it finished did: 1, for the truncated record.
	if code != 3 || !bytes.Equal(before, after) || !strings.Contains(errs, "0 pages") || !strings.Contains(errs, "1 of them failed") {
		t.Errorf("resume of a finished run: exit %d, output changed %v; stderr:\n%s", code, !bytes.Equal(before, after), errs)
	}
}

// TestDirResumeAndMirror: --keep-dirs mirrors the input folders, the
// manifest maps every input (a missing one too) to its output or error,
// and a run resumed after losing the end of its manifest (a kill) ends
// with the outputs of an uninterrupted run.
func TestDirResumeAndMirror(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	articleDir(t, dir, "in/a.html", "in/sub/a.html", "in/sub/deeper/b.html")
	os.WriteFile("in/sub/empty.html", nil, 0o644)
	os.MkdirAll("in/crawls", 0o755)
	c := smallCrawl(t, filepath.Join(dir, "in", "crawls"), 3)
	args := []string{"clean", "--no-render", "-q", "--keep-dirs", "--format", "text", "-o", "out", "in", "missing.html"}
	code, _, errs := fiasco(t, args...)
	if code != 3 || !strings.Contains(errs, "missing.html: no such file or directory") {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	want := treeOf(t, "out")
	var lines []corpus.ManifestLine
	m, _ := os.ReadFile("out/manifest.jsonl")
	for _, l := range strings.SplitAfter(string(m), "\n") {
		var ml corpus.ManifestLine
		if l != "" && json.Unmarshal([]byte(l), &ml) == nil {
			lines = append(lines, ml)
		}
	}
	var outs []string
	for _, l := range lines {
		outs = append(outs, l.Output)
	}
	wantOuts := "a.txt crawls/crawl/000001.txt crawls/crawl/000002.txt crawls/crawl/000003.txt  sub/a.txt sub/deeper/b.txt  "
	if strings.Join(outs, " ") != wantOuts || lines[len(lines)-1].Error == "" || lines[4].WARCRecordID != c.last {
		t.Errorf("manifest outputs %q, want %q:\n%s", strings.Join(outs, " "), wantOuts, m)
	}
	// A run killed after 3 pages: its manifest ends inside the 4th line,
	// whose page's file it wrote (a file no manifest lists, which the
	// resumed run replaces); the error log (written after the manifest)
	// holds no record yet, and no later page's file was written.
	cut := bytes.Index(m, []byte("crawls/crawl/000003.txt")) + 5
	os.WriteFile("out/manifest.jsonl", m[:cut], 0o644)
	os.Remove("out/errors.jsonl")
	for _, l := range lines[4:] {
		if l.Output != "" {
			os.Remove(filepath.Join("out", l.Output))
		}
	}
	code, _, errs = fiasco(t, append(args, "--resume")...)
	if code != 3 || !strings.Contains(errs, "3 pages done by an earlier run") {
		t.Errorf("resumed: exit %d; stderr:\n%s", code, errs)
	}
	if got := treeOf(t, "out"); got != want {
		t.Errorf("resumed output differs:\n%s\nwant\n%s", got, want)
	}
	// Resumed again, the failed pages count as done (their manifest lines
	// record their errors): nothing is cleaned and nothing changes, and
	// the exit status is the finished run's.
	code, _, errs = fiasco(t, append(args, "--resume")...)
	if code != 3 || !strings.Contains(errs, "0 pages") || !strings.Contains(errs, "9 pages done by an earlier run, skipped; 3 of them failed") {
		t.Errorf("resumed a finished run: exit %d; stderr:\n%s", code, errs)
	}
	if got := treeOf(t, "out"); got != want {
		t.Errorf("output after resuming a finished run differs:\n%s\nwant\n%s", got, want)
	}
}

// TestJSONLBlocksAndStaleErrors: --blocks adds every block with its
// label, type and decision value; an error log of an earlier run does not
// outlive a run without errors.
func TestJSONLBlocksAndStaleErrors(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "--blocks", articlePath)
	var l corpus.Line
	if err := json.Unmarshal([]byte(out), &l); code != 0 || err != nil || len(l.Blocks) < 5 {
		t.Fatalf("exit %d (%v); stderr %s; line %.300s", code, err, errs, out)
	}
	minClean, maxDirty := 1e9, -1e9
	for _, b := range l.Blocks {
		if !strings.Contains("phl", b.Type) || b.Text == "" {
			t.Errorf("block %+v", b)
		}
		if b.Label == "clean" {
			minClean = min(minClean, b.Value)
		} else {
			maxDirty = max(maxDirty, b.Value)
		}
	}
	if minClean == 1e9 || maxDirty == -1e9 || minClean < maxDirty {
		t.Errorf("labels do not follow the decision values: clean from %v, dirty up to %v", minClean, maxDirty)
	}
	in := filepath.Join(dir, "in")
	articleDir(t, dir, "in/a.html")
	os.WriteFile(filepath.Join(in, "empty.html"), nil, 0o644)
	o := filepath.Join(dir, "out")
	if code, _, _ := fiasco(t, "clean", "--no-render", "-q", "-o", o, in); code != 3 {
		t.Fatalf("exit %d with an empty page", code)
	}
	os.Remove(filepath.Join(in, "empty.html"))
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", o, in); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(o, "errors.jsonl")); err == nil {
		t.Error("the error log of the earlier run is still there")
	}
}

// TestJSONLGzip: -o NAME.jsonl.gz writes the lines -o NAME.jsonl does,
// gzip-compressed, a member per line; beside NAME.jsonl it is refused the
// default error log, NAME.errors.jsonl, which is NAME.jsonl's, and takes
// one given by --errors; a run killed inside a member resumes to the same
// file as an uninterrupted run.
func TestJSONLGzip(t *testing.T) {
	dir := t.TempDir()
	c := smallCrawl(t, dir, 12)
	plain, gz := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "out.jsonl.gz")
	fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", plain, c.path)
	// out.jsonl.gz's default log is out.jsonl's: a run that would remove
	// it is refused, and the other output's log left as it was.
	log, _ := os.ReadFile(filepath.Join(dir, "out.errors.jsonl"))
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", gz, c.path)
	if now, _ := os.ReadFile(filepath.Join(dir, "out.errors.jsonl")); code != 1 || !strings.Contains(errs, "it is the error log of "+plain) || len(log) == 0 || !bytes.Equal(now, log) {
		t.Errorf("the default log of another output: exit %d; stderr:\n%s", code, errs)
	}
	gzLog := []string{"--errors", filepath.Join(dir, "gz.errors.jsonl")}
	code, _, errs = fiasco(t, append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", gz, c.path}, gzLog...)...)
	if code != 3 || !strings.Contains(errs, "gz.errors.jsonl") {
		t.Errorf("exit %d; stderr:\n%s", code, errs)
	}
	want, _ := os.ReadFile(plain)
	whole, _ := os.ReadFile(gz)
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := gunzip(whole); !bytes.Equal(got, want) || len(want) == 0 {
		t.Fatalf("gunzipped output differs from the plain one (%d and %d bytes)", len(got), len(want))
	}
	// Killed in the middle of the output: the partial member is cut and the
	// rest cleaned again.
	os.WriteFile(gz, whole[:len(whole)*3/5], 0o644)
	code, _, errs = fiasco(t, append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", gz, "--resume", c.path}, gzLog...)...)
	if !strings.Contains(errs, "done by an earlier run") {
		t.Errorf("resumed: exit %d; stderr:\n%s", code, errs)
	}
	resumed, _ := os.ReadFile(gz)
	if !bytes.Equal(gunzip(resumed), want) {
		t.Errorf("resumed output differs from an uninterrupted run's")
	}
	// A plain file under a .gz name is not cut to nothing on --resume.
	os.WriteFile(gz, want, 0o644)
	code, _, errs = fiasco(t, append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", gz, "--resume", c.path}, gzLog...)...)
	if now, _ := os.ReadFile(gz); code == 0 || !strings.Contains(errs, "not gzip-compressed") || !bytes.Equal(now, want) {
		t.Errorf("plain lines under a .gz name, resumed: exit %d; stderr:\n%s", code, errs)
	}
}

// TestResumeSettings: --resume refuses to continue an output written with
// other settings (here the threshold, the policy, --blocks), naming them,
// and leaves it as it was; with the same options it goes on.
func TestResumeSettings(t *testing.T) {
	dir := t.TempDir()
	c := smallCrawl(t, dir, 6)
	out := filepath.Join(dir, "out.jsonl")
	fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, c.path)
	before, _ := os.ReadFile(out)
	os.WriteFile(out, before[:len(before)/2], 0o644) // killed half-way
	half, _ := os.ReadFile(out)
	for _, c2 := range []struct{ flags, want string }{
		{"--threshold 1.5", "threshold -0.25, now 1.5"},
		{"--policy article", "policy corpus, now article"},
		{"--blocks", "blocks false, now true"},
	} {
		args := append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume"}, strings.Fields(c2.flags)...)
		code, _, errs := fiasco(t, append(args, c.path)...)
		if code == 0 || !strings.Contains(errs, "--resume: the output was written with other settings") || !strings.Contains(errs, c2.want) {
			t.Errorf("%s: exit %d; stderr:\n%s", c2.flags, code, errs)
		}
		if now, _ := os.ReadFile(out); !bytes.Equal(now, half) {
			t.Errorf("%s: the output changed", c2.flags)
		}
	}
	fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", c.path)
	if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
		t.Errorf("resumed with the same options: the output differs from the whole run's")
	}
}

// TestResumeInputs: --resume refuses inputs other than the earlier run's,
// as they were spelled: the same file spelled another way (the output
// would name its pages two ways), an input left out (the output would be
// marked finished without it), or one added; and leaves the output as it
// was. With the same inputs it goes on.
func TestResumeInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	articleDir(t, in, "a.html", "b.html", "c.html")
	a, b, c := filepath.Join(in, "a.html"), filepath.Join(in, "b.html"), filepath.Join(in, "c.html")
	out := filepath.Join(dir, "out.jsonl")
	fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, a, b)
	before, _ := os.ReadFile(out)
	os.WriteFile(out, before[:bytes.IndexByte(before, '\n')+1], 0o644) // killed after a
	half, _ := os.ReadFile(out)
	for _, c2 := range []struct {
		inputs []string
		want   string
	}{
		{[]string{in + string(filepath.Separator) + "." + string(filepath.Separator) + "a.html", b}, "the same file spelled another way"},
		{[]string{a}, "the earlier run was given 2 inputs, this one 1: it lacks " + b},
		{[]string{a, b, c}, "this run is given inputs the earlier run was not (" + c + ")"},
		{[]string{a, c}, "input 2 is " + b + " in the earlier run and " + c + " now"},
	} {
		args := append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume"}, c2.inputs...)
		code, _, errs := fiasco(t, args...)
		if code == 0 || !strings.Contains(errs, c2.want) {
			t.Errorf("%v: exit %d; stderr:\n%s", c2.inputs, code, errs)
		}
		if now, _ := os.ReadFile(out); !bytes.Equal(now, half) {
			t.Errorf("%v: the output changed", c2.inputs)
		}
	}
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", a, b); code != 0 {
		t.Errorf("resumed with the same inputs: exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
		t.Errorf("resumed with the same inputs: the output differs from the whole run's")
	}
	// An output of a run before 2026-12-03 names no inputs: its resume
	// is checked page by page only, as then.
	os.WriteFile(out, half, 0o644)
	forgetInputs(t, filepath.Join(dir, ".out.jsonl.settings.json"))
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", a, b, c); code != 0 || !strings.Contains(errs, "1 page done by an earlier run") {
		t.Errorf("an output that names no inputs, resumed with one more: exit %d: %s", code, errs)
	}
}

// forgetInputs removes "inputs" from the settings file p, as runs before
// 2026-12-03 wrote it.
func forgetInputs(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]string
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if _, ok := s["inputs"]; !ok {
		t.Fatalf("%s names no inputs", p)
	}
	delete(s, "inputs")
	if data, err = json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeErrorLog: the error log follows the output it belongs to: a
// run killed after its error log got ahead of its jsonl (the output's
// entry is written first, but a resumed run cuts a partial line and may
// cut more) does not log a failure twice when the resumed run meets the
// page again, and a resumed run counts the failures the output kept.
func TestResumeErrorLog(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	articleDir(t, in, "a.html", "c.html", "e.html")
	os.WriteFile(filepath.Join(in, "b.html"), nil, 0o644)
	os.WriteFile(filepath.Join(in, "d.html"), nil, 0o644)
	out := filepath.Join(dir, "out.jsonl")
	errs := filepath.Join(dir, "out.errors.jsonl")
	code, _, _ := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, in)
	refOut, _ := os.ReadFile(out)
	refErrs, _ := os.ReadFile(errs)
	if code != 3 || bytes.Count(refErrs, []byte("\n")) != 2 {
		t.Fatalf("exit %d; error log:\n%s", code, refErrs)
	}
	// The output cut after its first line; the error log holds both
	// failures, the first of which the output lost.
	os.WriteFile(out, refOut[:bytes.IndexByte(refOut, '\n')+1], 0o644)
	code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", in)
	gotOut, _ := os.ReadFile(out)
	gotErrs, _ := os.ReadFile(errs)
	if code != 3 || !bytes.Equal(gotOut, refOut) || !bytes.Equal(gotErrs, refErrs) {
		t.Errorf("resumed: exit %d; output equal %v; error log:\n%s\nwant:\n%s\nstderr:\n%s", code, bytes.Equal(gotOut, refOut), gotErrs, refErrs, stderr)
	}
	// Cut after the third line (b's error line kept): resumed, the run
	// counts b's failure as the earlier run's.
	lines := bytes.SplitAfter(refOut, []byte("\n"))
	os.WriteFile(out, bytes.Join(lines[:3], nil), 0o644)
	code, _, stderr = fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", in)
	gotErrs, _ = os.ReadFile(errs)
	if code != 3 || !strings.Contains(stderr, "3 pages done by an earlier run, skipped; 1 of them failed") || !bytes.Equal(gotErrs, refErrs) {
		t.Errorf("resumed after b: exit %d; error log:\n%s\nstderr:\n%s", code, gotErrs, stderr)
	}
}

// TestWETLegacyErrorLog: a WET output whose name does not say .wet, which
// an earlier version gave the error log NAME.errors.jsonl (now
// NAME.wet.errors.jsonl), resumes with that log: its failures count as
// done and failed, not as inputs the output lacks.
func TestWETLegacyErrorLog(t *testing.T) {
	dir := t.TempDir()
	in := failingWARC(t, dir)
	out := filepath.Join(dir, "c.warc.gz")
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "wet", "-o", out, in); code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// As the earlier version named it.
	if err := os.Rename(filepath.Join(dir, "c.wet.errors.jsonl"), filepath.Join(dir, "c.errors.jsonl")); err != nil {
		t.Fatal(err)
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "wet", "-o", out, "--resume", in)
	if code != 3 || !strings.Contains(errs, "--resume: 6 pages done by an earlier run, skipped; 1 of them failed (in "+filepath.Join(dir, "c.errors.jsonl")+")") {
		t.Errorf("resumed with the earlier log's name: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.wet.errors.jsonl")); err == nil {
		t.Error("a second error log was made beside the earlier one")
	}
}

// failingWARC writes dir/in.warc, six HTML responses of which the third
// fails (a binary body), and returns its path.
func failingWARC(t *testing.T, dir string) string {
	t.Helper()
	page := "<html><body><p>Hello world, this is a page with a sentence of running text in it.</p></body></html>"
	var warcData strings.Builder
	for i := 1; i <= 6; i++ {
		body := page
		if i == 3 {
			body = strings.Repeat("\x00\x01", 100) // a binary body: fails
		}
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
		fmt.Fprintf(&warcData, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n"+
			"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: <http://x.example/%d>\r\nContent-Type: application/http; msgtype=response\r\n"+
			"Content-Length: %d\r\n\r\n%s\r\n\r\n", i, i, len(http), http)
	}
	in := filepath.Join(dir, "in.warc")
	if err := os.WriteFile(in, []byte(warcData.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestResumeGivenErrorLog: a run given --errors and resumed without it
// continues the log its settings file names, with a note, rather than
// start the default log beside the output (for WET, whose log is its
// record of the pages done, that would lose the failures).
func TestResumeGivenErrorLog(t *testing.T) {
	for format, name := range map[string]string{"wet": "c.warc.wet.gz", "jsonl": "c.jsonl"} {
		dir := t.TempDir()
		in := failingWARC(t, dir)
		out := filepath.Join(dir, name)
		log := filepath.Join(dir, "my.err")
		if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", format, "-o", out, "--errors", log, in); code != 3 {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", format, "-o", out, "--resume", in)
		if code != 3 || !strings.Contains(errs, "--resume continues the error log the earlier run wrote, "+log) ||
			!strings.Contains(errs, "6 pages done by an earlier run, skipped; 1 of them failed (in "+log+")") {
			t.Errorf("%s: resumed without --errors: exit %d: %s", format, code, errs)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "c.*errors.jsonl"))
		if len(matches) > 0 {
			t.Errorf("%s: a default error log was made beside the output: %v", format, matches)
		}
	}
}

// TestResumeGivenErrorLogGone: a resumed run does not take up an earlier
// --errors that is a device (a shell's >(...) cannot be opened again),
// and says so where the earlier log is no longer where it was.
func TestResumeGivenErrorLogGone(t *testing.T) {
	dir := t.TempDir()
	in := failingWARC(t, dir)
	out := filepath.Join(dir, "c.jsonl")
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--errors", "/dev/null", in); code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", in)
	if code != 3 || strings.Contains(errs, "continues the error log") || strings.Contains(errs, "/dev/null") {
		t.Errorf("resumed after --errors /dev/null: exit %d: %s", code, errs)
	}

	dir = t.TempDir()
	in = failingWARC(t, dir)
	out = filepath.Join(dir, "c.jsonl")
	log := filepath.Join(dir, "my.err")
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--errors", log, in); code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	_, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", in)
	if !strings.Contains(errs, "the earlier run wrote its error log to "+log+", which is not there") {
		t.Errorf("resumed with the earlier log gone: %s", errs)
	}
}

// TestResumeWETLogMissing: a WET output resumed without the error log
// that holds its failed inputs is refused with the log named as the
// cause, not the inputs.
func TestResumeWETLogMissing(t *testing.T) {
	dir := t.TempDir()
	in := failingWARC(t, dir)
	out := filepath.Join(dir, "c.wet.gz")
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "wet", "-o", out, in); code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	log := filepath.Join(dir, "c.wet.errors.jsonl")
	for _, args := range [][]string{{}, {"--errors", filepath.Join(dir, "other.jsonl")}} {
		if err := os.Remove(log); err != nil && len(args) == 0 {
			t.Fatal(err)
		}
		missing := log
		if len(args) > 0 {
			missing = args[1]
		}
		code, _, errs := fiasco(t, append([]string{"clean", "--no-render", "-q", "--format", "wet", "-o", out, "--resume", in}, args...)...)
		if code != 1 || !strings.Contains(errs, missing+", the error log of the WET output, was not there when the run began") {
			t.Errorf("resumed %v without the log: exit %d: %s", args, code, errs)
		}
	}
}
