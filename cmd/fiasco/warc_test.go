package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/internal/shared"
	"github.com/fiasco-project/fiasco/warc"
)

// testCrawl is a WARC file written for a test and what a run should make
// of it.
type testCrawl struct {
	path    string
	records int
	pages   []string  // record IDs of the HTML 2xx responses, in file order
	last    string    // record ID of the truncated last record
	dupURL  string    // a URL captured twice
	gzipped [2]string // record IDs of a page stored plain and gzip-encoded
}

// dataPages returns up to n HTML pages of the shared data sets (in a fixed
// order), skipping the test when there are none.
func dataPages(t *testing.T, n int) [][]byte {
	t.Helper()
	root := shared.Path(t, "")
	var files []string
	for _, set := range []string{"cleaneval-en-dev", "cleanportaleval", "krdwrd-canola", "l3s-gn1", "dragnet"} {
		m, _ := filepath.Glob(filepath.Join(root, set, "html", "*.htm*"))
		sort.Strings(m)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skipf("no HTML pages in %s", root)
	}
	var pages [][]byte
	for i := 0; len(pages) < n && i < len(files); i++ {
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, data)
	}
	for i := 0; len(pages) < n; i++ {
		pages = append(pages, pages[i]) // fewer files than wanted: again
	}
	return pages
}

// writeCrawl writes a gzip-per-record WARC of n captures of the pages:
// for each a request and a response record, requisites (a style sheet and
// an image), and now and then a metadata record, a revisit record and a
// second capture of the same URL; one page gzip-encoded, one a 404 page;
// the last record cut in its body.
func writeCrawl(t *testing.T, path string, pages [][]byte) *testCrawl {
	t.Helper()
	// Each record is written plain, then compressed as a gzip member of
	// its own, stored without compression: fast also under -race.
	var buf, plain bytes.Buffer
	w := warc.NewWriter(&plain, false)
	w.Rand = rand.NewChaCha8([32]byte{10})
	zw, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
	member := func() {
		zw.Reset(&buf)
		zw.Write(plain.Bytes())
		zw.Close()
		plain.Reset()
	}
	c := &testCrawl{path: path}
	date := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	rec := func(typ, uri, ct string, block []byte, extra ...warc.Field) string {
		f := warc.Header{{Name: warc.FieldTargetURI, Value: uri}}
		id, err := w.WriteRecord(typ, date, ct, append(f, extra...), block)
		if err != nil {
			t.Fatal(err)
		}
		member()
		c.records++
		return id
	}
	resp := func(uri, status, header string, body []byte) string {
		return rec(warc.TypeResponse, uri, "application/http; msgtype=response",
			append([]byte(fmt.Sprintf("HTTP/1.1 %s\r\n%sContent-Length: %d\r\n\r\n", status, header, len(body))), body...))
	}
	if _, err := w.WriteWarcinfo(date, filepath.Base(path), warc.Header{{Name: "software", Value: "fiasco test"}}); err != nil {
		t.Fatal(err)
	}
	member()
	c.records++
	for i, p := range pages {
		uri := fmt.Sprintf("http://site%d.example/articles/%d.html", i%40, i)
		rec(warc.TypeRequest, uri, "application/http; msgtype=request", []byte("GET /articles/"+fmt.Sprint(i)+".html HTTP/1.1\r\nHost: example\r\n\r\n"))
		switch {
		case i == 7:
			resp(uri, "404 Not Found", "Content-Type: text/html\r\n", p)
		case i == 8:
			c.pages = append(c.pages, resp(uri, "200 OK", "Content-Type: text/html\r\n", pages[3]))
			c.gzipped[0] = c.pages[len(c.pages)-1]
			var z bytes.Buffer
			pz := gzip.NewWriter(&z)
			pz.Write(pages[3])
			pz.Close()
			c.pages = append(c.pages, resp(uri+"?gz", "200 OK", "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", z.Bytes()))
			c.gzipped[1] = c.pages[len(c.pages)-1]
		default:
			c.pages = append(c.pages, resp(uri, "200 OK", "Content-Type: text/html\r\n", p))
		}
		resp(uri+".css", "200 OK", "Content-Type: text/css\r\n", []byte("body { margin: 0 }\np { color: #333 }\n"))
		resp(uri+".png", "200 OK", "Content-Type: image/png\r\n", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
		if i%2 == 0 {
			rec(warc.TypeMetadata, uri, "application/warc-fields", []byte("fetchTimeMs: 120\r\n"))
		}
		if i%5 == 0 {
			rec(warc.TypeRevisit, uri, "application/http; msgtype=response", []byte("HTTP/1.1 200 OK\r\n\r\n"),
				warc.Field{Name: warc.FieldProfile, Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"})
		}
		if i%20 == 10 {
			c.dupURL = uri
			c.pages = append(c.pages, resp(uri, "200 OK", "Content-Type: text/html\r\n", p))
		}
	}
	whole := buf.Len()
	c.last = resp("http://last.example/", "200 OK", "Content-Type: text/html\r\n", pages[0])
	data := buf.Bytes()
	if err := os.WriteFile(path, data[:whole+(len(data)-whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// binRun is one run of the fiasco binary.
type binRun struct {
	code   int
	killed bool
	rssMB  float64 // ru_maxrss (see runBinary)
	hwmMB  float64 // the peak of the child's own memory, VmHWM
	wall   time.Duration
	cpu    time.Duration // user and system
	stderr string
}

// runBinary runs fiasco with args; when killAt is set, it kills the
// process with SIGKILL once killAt reports true (polled every 2 ms).
//
// Peak memory: Linux starts a child's ru_maxrss at its parent's peak RSS
// when the child was cloned sharing the parent's memory, as os/exec does
// (the kernel records the old address space's high-water mark at exec),
// so a child of a test process that peaked at 400 MB reports at least
// 400 MB. runBinary therefore resets the test process's high-water mark
// to its current RSS first (/proc/self/clear_refs), which makes Maxrss an
// upper bound of the child's own peak, but under -race the test process
// alone takes some 300 MB; so runBinary also samples the child's own
// VmHWM (a high-water mark: only a peak in its last 2 ms could be missed)
// from /proc every 2 ms, and the memory checks use that.
func runBinary(t *testing.T, killAt func() bool, args ...string) binRun {
	t.Helper()
	cmd := exec.Command(fiascoBinary(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runtime.GC()
	debug.FreeOSMemory()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killed := false
	hwm := 0.0
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
poll:
	for {
		select {
		case <-done:
			if killAt != nil {
				t.Fatalf("fiasco %s ended before the kill point; stderr:\n%s", strings.Join(args, " "), stderr.String())
			}
			break poll
		case <-time.After(2 * time.Millisecond):
			hwm = max(hwm, vmHWM(status))
			if killAt != nil && killAt() {
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
				<-done
				break poll
			}
		}
	}
	r := binRun{code: cmd.ProcessState.ExitCode(), killed: killed, hwmMB: hwm, wall: time.Since(start), stderr: stderr.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rssMB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return r
}

// vmHWM reads the peak resident set size, in MB, from a /proc status
// file (0 once the process is gone).
func vmHWM(status string) float64 {
	data, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			return kb / 1024
		}
	}
	return 0
}

func appendTo(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestWARCKillResume cleans a WARC of more than 5,000 records written from
// the data sets into JSONL: every HTML response record yields exactly one
// line (the truncated last record an error line), other records are
// skipped and counted. Then the same run is killed with SIGKILL at five
// seeded points and resumed each time: the final output is byte for byte
// that of the uninterrupted run. Peak memory stays under 300 MB (the
// child's own peak, VmHWM; see runBinary for why not ru_maxrss alone).
func TestWARCKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("long: cleans a crawl seven times")
	}
	dir := t.TempDir()
	t0 := time.Now()
	crawl := writeCrawl(t, filepath.Join(dir, "crawl.warc.gz"), dataPages(t, 1100))
	t.Logf("crawl written in %v", time.Since(t0))
	if crawl.records < 5000 {
		t.Fatalf("only %d records", crawl.records)
	}
	args := func(out string, extra ...string) []string {
		return append([]string{"clean", "--no-render", "-q", "--format", "jsonl", "-o", out, crawl.path}, extra...)
	}
	const maxRSS = 300

	ref := filepath.Join(dir, "ref.jsonl")
	r := runBinary(t, nil, args(ref)...)
	if r.code != 3 || !strings.Contains(r.stderr, "truncated record") {
		t.Fatalf("reference run: exit %d, want 3 (the truncated record); stderr:\n%s", r.code, r.stderr)
	}
	t.Logf("%d records, %d pages in %.1f s (%.1f s of CPU): %.0f records/s, %.1f pages/s (%.0f records, %.1f pages per CPU second); peak RSS %.0f MB (ru_maxrss), %.0f MB (VmHWM)",
		crawl.records, len(crawl.pages)+1, r.wall.Seconds(), r.cpu.Seconds(), float64(crawl.records)/r.wall.Seconds(), float64(len(crawl.pages)+1)/r.wall.Seconds(),
		float64(crawl.records)/r.cpu.Seconds(), float64(len(crawl.pages)+1)/r.cpu.Seconds(), r.rssMB, r.hwmMB)
	if r.hwmMB > maxRSS {
		t.Errorf("reference run peaked at %.0f MB RSS, want under %d", r.hwmMB, maxRSS)
	}
	for _, want := range []string{"skipped", "1 response with HTTP status not 2xx", "1 warcinfo record\n", "request records", "revisit records", "metadata records", "non-HTML responses"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stderr)
		}
	}
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	t0 = time.Now()
	checkCrawlLines(t, crawl, want)
	t.Logf("lines checked in %v", time.Since(t0))

	out := filepath.Join(dir, "out.jsonl")
	rng := rand.New(rand.NewPCG(2026, 10))
	var targets []int64
	for range 5 {
		targets = append(targets, int64(float64(len(want))*(0.05+0.9*rng.Float64())))
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i] < targets[j] })
	partial := 0
	peak, peakHWM := r.rssMB, r.hwmMB
	for i, target := range targets {
		extra := []string{"--resume"}
		if i == 0 {
			extra = nil
		}
		k := runBinary(t, func() bool { return fileSize(out) >= target }, args(out, extra...)...)
		if !k.killed || k.code != -1 {
			t.Fatalf("run %d: exit %d, not killed", i, k.code)
		}
		peak, peakHWM = max(peak, k.rssMB), max(peakHWM, k.hwmMB)
		got, _ := os.ReadFile(out)
		if len(got) > 0 && got[len(got)-1] != '\n' {
			partial++
		}
		n := bytes.LastIndexByte(got, '\n') + 1
		if !bytes.Equal(got[:n], want[:n]) {
			t.Fatalf("killed run %d: the output's whole lines are not a prefix of the uninterrupted run's", i)
		}
		if i == 2 && n == len(got) {
			// A kill inside a write is rare here (a line is one write):
			// leave half of the next line, as such a kill would.
			next := bytes.IndexByte(want[n:], '\n')
			appendTo(t, out, want[n:n+next/2])
			partial++
		}
	}
	r = runBinary(t, nil, args(out, "--resume")...)
	peak, peakHWM = max(peak, r.rssMB), max(peakHWM, r.hwmMB)
	if r.code != 3 || !strings.Contains(r.stderr, "pages done by an earlier run, skipped") {
		t.Errorf("final resumed run: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want) {
		t.Errorf("after 5 kills and resumes the output (%d bytes, %d lines) differs from the uninterrupted run's (%d bytes, %d lines)",
			len(got), bytes.Count(got, []byte("\n")), len(want), bytes.Count(want, []byte("\n")))
	}
	t.Logf("killed at %v bytes of %d (%d times inside a line, one of them made); peak RSS of all runs %.0f MB (ru_maxrss), %.0f MB (VmHWM)", targets, len(want), partial, peak, peakHWM)
	if peakHWM > maxRSS {
		t.Errorf("a run peaked at %.0f MB RSS, want under %d", peakHWM, maxRSS)
	}
}

// checkCrawlLines checks the JSONL of a crawl: one line per HTML 2xx
// response, in file order, and one error line for the truncated record.
func checkCrawlLines(t *testing.T, c *testCrawl, data []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	wantIDs := append(append([]string{}, c.pages...), c.last)
	if len(lines) != len(wantIDs) {
		t.Fatalf("%d lines for %d HTML response records", len(lines), len(wantIDs))
	}
	texts := map[string]string{}
	urls := map[string]int{}
	for i, l := range lines {
		var v struct {
			URL, Error, Text string
			ID               string `json:"warc_record_id"`
			Truncated        *bool
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if v.ID != wantIDs[i] {
			t.Fatalf("line %d is for record %s, want %s", i+1, v.ID, wantIDs[i])
		}
		if v.Error == "" && (v.Truncated == nil || v.URL == "") {
			t.Errorf("line %d lacks truncated or url: %.200s", i+1, l)
		}
		texts[v.ID] = v.Text
		urls[v.URL]++
	}
	if !strings.Contains(lines[len(lines)-1], `"error":`) {
		t.Errorf("the truncated last record has no error line: %.200s", lines[len(lines)-1])
	}
	if urls[c.dupURL] != 2 {
		t.Errorf("URL %s captured twice has %d lines", c.dupURL, urls[c.dupURL])
	}
	if a, b := texts[c.gzipped[0]], texts[c.gzipped[1]]; a == "" || a != b {
		t.Errorf("a gzip-encoded page gives other text than its plain copy:\n%.200q\n%.200q", a, b)
	}
}

// TestWARCDamage: damage within a WARC (here the checksums of two gzip
// members: a page's response and the request before another page) costs
// the damaged records only: every other page is cleaned, the damaged page
// has its error line, the damage its error record saying where reading
// went on, and the summary counts the stretches read past.
func TestWARCDamage(t *testing.T) {
	dir := t.TempDir()
	c := smallCrawl(t, dir, 12)
	data, err := os.ReadFile(c.path)
	if err != nil {
		t.Fatal(err)
	}
	// The members' offsets, and which record each holds.
	var offs []int64
	var ids []string
	r := warc.NewReader(bytes.NewReader(data), warc.Options{})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		offs, ids = append(offs, rec.Offset), append(ids, rec.ID)
	}
	offs = append(offs, int64(len(data)))
	damage := func(i int) {
		mid := (offs[i] + offs[i+1]) / 2
		data[mid] ^= 0xff // stored deflate blocks: only the checksum notices
	}
	page, before := -1, -1
	for i, id := range ids {
		switch id {
		case c.pages[2]:
			page = i
			damage(i)
		case c.pages[5]:
			before = i - 1
			damage(i - 1)
		}
	}
	if page < 0 || before < 0 {
		t.Fatal("records not found")
	}
	os.WriteFile(c.path, data, 0o644)
	out := filepath.Join(dir, "out.jsonl")
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, c.path)
	if code != 3 || !strings.Contains(errs, "read past 2 damaged stretches") {
		t.Errorf("exit %d; stderr:\n%s", code, errs)
	}

	lines, _ := os.ReadFile(out)
	text, failed := map[string]bool{}, map[string]string{}
	var damageMsg string
	seen := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		var jl struct {
			corpus.Line
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &jl); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if seen[jl.Input]++; seen[jl.Input] > 1 {
			t.Errorf("two lines for %s", jl.Input)
		}
		switch {
		case jl.Error == "":
			text[jl.WARCRecordID] = true
		case strings.HasSuffix(jl.Input, fmt.Sprintf("#%d", offs[before])):
			damageMsg = jl.Error
		default:
			failed[jl.WARCRecordID] = jl.Error
		}
	}
	for i, id := range c.pages {
		if i != 2 && !text[id] {
			t.Errorf("page %d (%s) has no text line", i, id)
		}
	}
	if !strings.Contains(failed[c.pages[2]], "corrupt gzip data") {
		t.Errorf("the damaged page's error: %q", failed[c.pages[2]])
	}
	if !strings.Contains(damageMsg, "corrupt gzip data") || !strings.Contains(damageMsg, "reading went on at the next record found, at offset") {
		t.Errorf("the damage's error record: %q", damageMsg)
	}
	// The request's damage is no page: the summary counts its error
	// record apart from the pages, which are the other lines.
	if want := fmt.Sprintf("%d pages, %d cleaned, %d failed; 1 error record for damaged or empty WARC files", len(text)+len(failed), len(text), len(failed)); !strings.Contains(errs, want) {
		t.Errorf("the summary does not say %q:\n%s", want, errs)
	}
	if !strings.Contains(string(lines), `"damage":true`) || strings.Count(string(lines), `"damage":true`) != 1 {
		t.Errorf("want one line marked damage:\n%s", lines)
	}
	// A resumed run counts the earlier run's damage record apart as well,
	// in its summary and exit status: the output (a JSONL file, a
	// directory's manifest) and the error log (WET's record of failures)
	// mark it.
	for _, format := range []string{"jsonl", "wet", "text"} {
		out := outputIn(dir, "resumed", format) // for text, a directory and its manifest
		fiasco(t, "clean", "--no-render", "-q", "--format", format, "-o", out, c.path)
		code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--resume", "--format", format, "-o", out, c.path)
		want := fmt.Sprintf("--resume: %d pages done by an earlier run, skipped; %d of them failed (in ", len(text)+len(failed), len(failed))
		if code != 3 || !strings.Contains(errs, want) || !strings.Contains(errs, "errors.jsonl); and its 1 error record for damaged or empty WARC files (not pages)") ||
			!strings.Contains(errs, "0 pages, 0 cleaned, 0 failed") {
			t.Errorf("%s resumed: exit %d, stderr does not say %q:\n%s", format, code, want, errs)
		}
	}
}

// TestSingularReason: each reason for skipping WARC records, said of
// one record, names one record.
func TestSingularReason(t *testing.T) {
	for r, want := range map[string]string{
		corpus.SkipNotHTML:   "non-HTML response",
		corpus.SkipStatus:    "response with HTTP status not 2xx",
		corpus.SkipNotHTTP:   "response not HTTP",
		corpus.SkipOtherType: "record of another type",
		corpus.SkipEmpty:     "HTML response with an empty body",
		"warcinfo records":   "warcinfo record",
	} {
		if got := singularReason(r); got != want {
			t.Errorf("singularReason(%q) = %q, want %q", r, got, want)
		}
	}
}
