package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/warc"
)

// writeOneWARC writes a WARC file of the test article linking a style
// sheet, the style sheet (css, "" for none), a 404 page, and tail (junk
// after the last record, "" for none).
func writeOneWARC(t *testing.T, css, tail string, withPage bool) string {
	t.Helper()
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	page = bytes.Replace(page, []byte("<head>"), []byte(`<head><link rel="stylesheet" href="http://ex.org/site.css">`), 1)
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, false)
	date := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	resp := func(uri, status, ct string, body []byte) {
		block := append([]byte("HTTP/1.1 "+status+"\r\nContent-Type: "+ct+"\r\n\r\n"), body...)
		if _, err := w.WriteRecord(warc.TypeResponse, date, "application/http; msgtype=response",
			warc.Header{{Name: warc.FieldTargetURI, Value: uri}}, block); err != nil {
			t.Fatal(err)
		}
	}
	if withPage {
		resp("http://ex.org/page", "200 OK", "text/html", page)
	}
	if css != "" {
		resp("http://ex.org/site.css", "200 OK", "text/css", []byte(css))
	}
	resp("http://ex.org/gone", "404 Not Found", "text/html", []byte("<p>Not here.</p>"))
	buf.WriteString(tail)
	path := filepath.Join(t.TempDir(), "one.warc")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCleanOneWARCStyleSheets: a WARC file of one page cleaned to standard
// output renders with its records' style sheets, as in a batch: a style
// sheet that leaves the body transparent leaves the rendering blank, so
// the text model decides every block (unseen_blocks) either way.
func TestCleanOneWARCStyleSheets(t *testing.T) {
	needChromium(t)
	path := writeOneWARC(t, "body { opacity: 0 }", "", true)
	code, out, errs := fiasco(t, "clean", "--render", "--format", "json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"unseen_blocks"`) || !strings.Contains(errs, "rendering shows less than") {
		t.Errorf("the style sheet did not apply on standard output:\n%s\nstderr: %s", out, errs)
	}
	jsonl := filepath.Join(t.TempDir(), "out.jsonl")
	if code, _, errs := fiasco(t, "clean", "-q", "--render", "--format", "jsonl", "-o", jsonl, path); code != 0 {
		t.Fatalf("batch: exit %d: %s", code, errs)
	}
	if got, _ := os.ReadFile(jsonl); !bytes.Contains(got, []byte(`"unseen_blocks"`)) {
		t.Errorf("batch output lacks unseen_blocks:\n%s", got)
	}
}

// TestCleanOneWARCErrors: beside the one page of a WARC file, a damaged
// stretch is an error input, not a second page: the page goes to standard
// output, the error to stderr, and the exit status is 1. A WARC file with
// no HTML page says so, with what its records held; cleaned into an
// output (a crawl's shard), it is a run that ends well.
func TestCleanOneWARCErrors(t *testing.T) {
	path := writeOneWARC(t, "", "GARBAGE GARBAGE GARBAGE\r\n", true)
	code, out, errs := fiasco(t, "clean", "--no-render", "--format", "text", path)
	if code != 3 || !strings.Contains(out, "More than forty thousand people") || !strings.Contains(errs, "malformed record header") {
		t.Errorf("page and damage: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	if strings.Contains(errs, "several pages") {
		t.Errorf("the damage counted as a page: %s", errs)
	}
	none := writeOneWARC(t, "p { color: red }", "", false)
	code, out, errs = fiasco(t, "clean", "--no-render", none)
	if code != 1 || out != "" || !strings.Contains(errs, none+": no HTML page found (2 records in 1 file; skipped 1 non-HTML response, 1 response with HTTP status not 2xx)") {
		t.Errorf("no page: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	// Cleaned into an output, the same file is a shard of a crawl that
	// holds no page: the run ends well and leaves its empty output.
	for _, format := range []string{"jsonl", "wet"} {
		o := filepath.Join(t.TempDir(), "shard."+format)
		if format == "wet" {
			o += ".gz"
		}
		code, _, errs = fiasco(t, "clean", "--no-render", "--format", format, "-o", o, none)
		fi, err := os.Stat(o)
		if code != 0 || err != nil || !strings.Contains(errs, "0 pages, 0 cleaned, 0 failed (no HTML page in the WARC files") ||
			format == "jsonl" && fi.Size() != 0 {
			t.Errorf("no page, %s: exit %d, output %v; stderr: %s", format, code, err, errs)
		}
	}
	// An empty WARC file (an aborted download) holds no record: an error
	// record names it, so that it is not lost among the files done.
	empty := filepath.Join(t.TempDir(), "empty.warc.gz")
	os.WriteFile(empty, nil, 0o644)
	wantErr := "warc: " + empty + ": no record in the file (empty: an aborted download?)"
	if code, _, errs := fiasco(t, "clean", "--no-render", empty); code != 1 || !strings.Contains(errs, wantErr) {
		t.Errorf("an empty WARC file alone: exit %d; stderr: %s", code, errs)
	}
	o := filepath.Join(t.TempDir(), "e.jsonl")
	if code, _, errs := fiasco(t, "clean", "--no-render", "--format", "jsonl", "-o", o, empty); code != 3 || !strings.Contains(errs, wantErr) ||
		!strings.Contains(errs, "1 file holding no record (an aborted download?): "+empty) ||
		!strings.Contains(errs, "1 error record for damaged or empty WARC files (not pages)") {
		t.Errorf("an empty WARC file: exit %d; stderr: %s", code, errs)
	}
	if b, err := os.ReadFile(o); err != nil || !strings.Contains(string(b), `"input":"`+empty+`"`) || !strings.Contains(string(b), `"damage":true`) {
		t.Errorf("an empty WARC file: its error record: %q, %v", b, err)
	}
	// Beside a WARC with no page, it has its error record, and the run
	// fails: an aborted download among shards done is not passed over.
	o = filepath.Join(t.TempDir(), "e2.jsonl")
	if code, _, errs := fiasco(t, "clean", "--no-render", "--format", "jsonl", "-o", o, empty, none); code != 3 ||
		!strings.Contains(errs, "1 file holding no record (an aborted download?): "+empty) ||
		!strings.Contains(errs, "1 error record for damaged or empty WARC files (not pages)") {
		t.Errorf("an empty WARC file beside another: exit %d; stderr: %s", code, errs)
	}
	// An output of a run before 2026-12-03, which gave an empty WARC
	// file no record, resumes: the file is passed over amid the inputs
	// done.
	page := writeOneWARC(t, "p { color: red }", "", true)
	old := filepath.Join(t.TempDir(), "old.jsonl")
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", old, page); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	forgetInputs(t, filepath.Join(filepath.Dir(old), ".old.jsonl.settings.json")) // as such a run wrote them
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "--resume", "-o", old, empty, page); code != 0 || !strings.Contains(errs, "1 page done by an earlier run") {
		t.Errorf("an earlier output without the empty file's record, resumed: exit %d; stderr: %s", code, errs)
	}
	// Resumed, the run knows the file done, and fails as the run it ends.
	if code, _, errs := fiasco(t, "clean", "--no-render", "--format", "jsonl", "--resume", "-o", o, empty, none); code != 3 ||
		!strings.Contains(errs, "and its 1 error record for damaged or empty WARC files (not pages)") {
		t.Errorf("an empty WARC file, resumed: exit %d; stderr: %s", code, errs)
	}
}

// TestCleanWARCShortBody: a page whose HTTP body is shorter than its HTTP
// Content-Length (its crawler cut it, or the record's Content-Length is
// short) is cleaned and reported truncated for that cause, in a batch
// whose outputs drop their Result once encoded.
func TestCleanWARCShortBody(t *testing.T) {
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, false)
	block := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(page)+500, page)
	if _, err := w.WriteRecord(warc.TypeResponse, time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC), "application/http; msgtype=response",
		warc.Header{{Name: warc.FieldTargetURI, Value: "http://ex.org/cut"}}, block); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "cut.warc")
	os.WriteFile(in, buf.Bytes(), 0o644)
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", filepath.Join(t.TempDir(), "o.jsonl"), in)
	if code != 0 || !strings.Contains(errs, "cut.warc#0: truncated: its record holds it cut") || !strings.Contains(errs, "1 truncated") {
		t.Errorf("exit %d; stderr:\n%s", code, errs)
	}
}
