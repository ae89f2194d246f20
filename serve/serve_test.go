package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/internal/shared"
	"github.com/fiasco-project/fiasco/pipeline"
)

// running is a Server serving on a loopback port.
type running struct {
	*Server
	url    string
	cancel context.CancelFunc
	done   chan error
	once   sync.Once // stop runs once: in a test, and again at its end
}

// start serves cfg on 127.0.0.1 until the test ends.
func start(t testing.TB, cfg Config) *running {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Server: s, url: "http://" + ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

func (r *running) stop(t testing.TB) {
	r.once.Do(func() { r.stopOnce(t) })
}

func (r *running) stopOnce(t testing.TB) {
	r.cancel()
	select {
	case err, ok := <-r.done:
		if ok && err != nil {
			t.Errorf("Serve: %v", err)
		}
		close(r.done)
	case <-time.After(2 * r.cfg.ShutdownTimeout):
		t.Errorf("Serve did not return within %v of its shutdown", 2*r.cfg.ShutdownTimeout)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var article = filepath.Join("..", "testdata", "article.html")

func post(t testing.TB, url string, body []byte) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/octet-stream", bytes.NewReader(body))
	return readAnswer(t, resp, err)
}

// readAnswer returns a request's answer with its whole body, failing t on an
// error of either.
func readAnswer(t testing.TB, resp *http.Response, err error) (*http.Response, []byte) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// want is what `fiasco clean -` prints for data with the cleaner: the
// page named "-" (standard input), pipeline.Result.Write in format f.
func want(t testing.TB, c *pipeline.Cleaner, data []byte, f export.Format) []byte {
	t.Helper()
	res, err := c.Clean(context.Background(), "-", data)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func textCleaner(t testing.TB) *pipeline.Cleaner {
	c, err := pipeline.New(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFormatsMatchExport(t *testing.T) {
	srv := start(t, Config{})
	c := textCleaner(t)
	data := readFile(t, article)
	for _, f := range []string{"cleaneval", "text", "html", "json", "jsonl", "JSON"} {
		resp, got := post(t, srv.url+"/clean?render=auto&format="+f, data)
		if resp.StatusCode != 200 {
			t.Fatalf("format %s: status %d: %s", f, resp.StatusCode, got)
		}
		ef, err := export.ParseFormat(f)
		if f == "jsonl" {
			ef, err = export.JSON, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		exp := want(t, c, data, ef)
		if f == "jsonl" {
			// The line "fiasco clean --format jsonl -" prints.
			res, err := c.Clean(context.Background(), "-", data)
			if err != nil {
				t.Fatal(err)
			}
			if exp, err = corpus.JSONLine(&pipeline.Outcome{Input: pipeline.Input{Name: "-"}, Result: res}, false); err != nil {
				t.Fatal(err)
			}
			if bytes.Count(got, []byte("\n")) != 1 {
				t.Errorf("jsonl answer is not one line")
			}
		}
		if !bytes.Equal(got, exp) {
			t.Errorf("format %s: answer differs from pipeline.Result.Write:\n got %q\nwant %q", f, trunc(got), trunc(exp))
		}
		if r := resp.Header.Get("X-Fiasco-Render"); r != "off" {
			t.Errorf("format %s: X-Fiasco-Render %q, want off (no browser)", f, r)
		}
		t.Logf("format %s: %s, %d bytes", f, resp.Header.Get("Content-Type"), len(got))
	}
}

func trunc(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}

func TestOptions(t *testing.T) {
	srv := start(t, Config{})
	data := readFile(t, article)
	c := textCleaner(t)

	// threshold: as Cleaner.Threshold (fiasco clean --threshold).
	th := 0.5
	ct := *c
	ct.Threshold = &th
	_, got := post(t, srv.url+"/clean?render=off&format=text&threshold=0.5", data)
	if exp := want(t, &ct, data, export.Text); !bytes.Equal(got, exp) {
		t.Errorf("threshold=0.5 differs from Cleaner.Threshold")
	}
	_, all := post(t, srv.url+"/clean?render=off&format=text&threshold=-100", data)
	if len(all) <= len(got) {
		t.Errorf("threshold=-100 kept %d bytes, threshold=0.5 %d", len(all), len(got))
	}

	// url and name label the page; the url is never fetched.
	_, got = post(t, srv.url+"/clean?format=cleaneval&url=http://example.invalid/a%20b", data)
	if !bytes.HasPrefix(got, []byte("URL: http://example.invalid/a b\n")) {
		t.Errorf("url: answer starts %q", trunc(got))
	}
	_, got = post(t, srv.url+"/clean?format=json&name=page.html", data)
	var jp struct{ Name, URL string }
	if err := json.Unmarshal(got, &jp); err != nil || jp.Name != "page.html" || jp.URL != "" {
		t.Errorf("name: %+v %v", jp, err)
	}
	_, got = post(t, srv.url+"/clean?format=json", data)
	if err := json.Unmarshal(got, &jp); err != nil || jp.Name != "-" {
		t.Errorf("default name %q, want - (as standard input)", jp.Name)
	}
	resp, _ := post(t, srv.url+"/clean?policy=corpus", data)
	if resp.StatusCode != 200 {
		t.Errorf("policy=corpus: %d", resp.StatusCode)
	}
	// policy=article: the embedded article model, as clean --policy article.
	am, err := classify.DefaultFor("article", false)
	if err != nil {
		t.Fatal(err)
	}
	_, got = post(t, srv.url+"/clean?policy=article&format=text", data)
	if exp := want(t, &pipeline.Cleaner{Model: am}, data, export.Text); !bytes.Equal(got, exp) {
		t.Errorf("policy=article: answer %q, want %q", trunc(got), trunc(exp))
	}

	// A charset in Content-Type is the page's HTTP charset.
	latin := []byte("<html><body><p>Caf\xe9 cr\xe8me: a long enough paragraph of text for a block to be kept by the model, with words.</p></body></html>")
	req, _ := http.NewRequest("POST", srv.url+"/clean?format=text&threshold=-100", bytes.NewReader(latin))
	req.Header.Set("Content-Type", "text/html; charset=iso-8859-1")
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r2.Body)
	r2.Body.Close()
	if !strings.Contains(string(b), "Café crème") {
		t.Errorf("charset from Content-Type not used: %q", b)
	}
	// The header is the page's HTTP header, as a batch line's is: read
	// leniently (a doubled ";"), and saying XHTML, whose self-closing
	// <script/> is then no script holding the rest of the page; a type a
	// client sends for any body (curl's form type) counts for its charset
	// only, and the page's name says whether it is XHTML.
	xhtml := []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><script src="a.js"/></head><body><p>A paragraph of an XHTML page with enough words to be kept by the model here.</p></body></html>`)
	for _, c := range []struct {
		query, ct string
		data      []byte
		want      string
	}{
		{"", "text/html;; charset=windows-1251", latin, "Cafй"},
		{"", "application/xhtml+xml", xhtml, "A paragraph of an XHTML page"},
		{"&name=page.xhtml", "application/x-www-form-urlencoded", xhtml, "A paragraph of an XHTML page"},
		{"&name=page.xhtml", "text/plain; charset=utf-8", xhtml, "A paragraph of an XHTML page"},
		{"", "application/x-www-form-urlencoded; charset=windows-1251", latin, "Cafй"},
	} {
		req, _ := http.NewRequest("POST", srv.url+"/clean?format=text&threshold=-100"+c.query, bytes.NewReader(c.data))
		req.Header.Set("Content-Type", c.ct)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if !strings.Contains(string(b), c.want) {
			t.Errorf("Content-Type %q%s: %q, want %q", c.ct, c.query, b, c.want)
		}
	}
	// A batch line's content_type likewise: the same bytes read as
	// windows-1251 when it says so, where the guess reads windows-1252.
	for ct, word := range map[string]string{"": "Café", "text/html; charset=windows-1251": "Cafй"} {
		line, _ := json.Marshal(map[string]string{"data": base64.StdEncoding.EncodeToString(latin), "content_type": ct})
		_, out := postBatch(t, srv.url+"/clean/batch?format=text&threshold=-100", bytes.NewReader(append(line, '\n')))
		if len(out) != 1 || out[0].Output == nil || !strings.Contains(*out[0].Output, word) {
			t.Errorf("batch line with content_type %q: %+v, want %q", ct, out, word)
		}
	}
}

// errorOf checks that an answer is a JSON error with the status.
func errorOf(t *testing.T, what string, resp *http.Response, body []byte, status int) string {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("%s: status %d, want %d (%s)", what, resp.StatusCode, status, body)
		return ""
	}
	var e struct {
		Error  string
		Status int
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" || e.Status != status {
		t.Errorf("%s: not a JSON error: %q", what, body)
	}
	t.Logf("%s: %d %s", what, status, e.Error)
	return e.Error
}

func TestBadRequests(t *testing.T) {
	srv := start(t, Config{MaxBody: 1 << 20})
	page := readFile(t, article)
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 1, 2, 3, 0xff}, 2000)...)
	for _, c := range []struct {
		what, query string
		body        []byte
		status      int
	}{
		{"empty body", "", nil, 400},
		{"blank page", "", []byte(" \n\t "), 400},
		{"binary", "", png, 415},
		{"a fiasco model", "", []byte(`{"format": "fiasco-model/1", "visual": false}`), 415},
		{"a batch", "", []byte("{\"id\":\"a\",\"html\":\"<p>One page.</p>\"}\n{\"id\":\"b\",\"html\":\"<p>Two.</p>\"}\n"), 415},
		{"a URL", "", []byte("https://example.org/news/1.html\n"), 400},
		{"a batch of data lines", "", []byte("{\"data\":\"PHA+T25lIHBhZ2UuPC9wPg==\"}\n"), 415},
		{"unknown format", "?format=pdf", page, 400},
		{"unknown parameter", "?fromat=text", page, 400},
		{"parameter twice", "?format=text&format=json", page, 400},
		{"bad threshold", "?threshold=high", page, 400},
		{"NaN threshold", "?threshold=NaN", page, 400},
		{"threshold with a +", "?threshold=+0.5", page, 400},
		{"threshold with an inner +", "?threshold=1e+3", page, 400},
		{"hexadecimal threshold", "?threshold=0x1p-1", page, 400},
		{"threshold with an underscore", "?threshold=1_0", page, 400},
		{"unknown policy", "?policy=news", page, 400},
		{"unknown render mode", "?render=maybe", page, 400},
		{"render=on without a browser", "?render=on", page, 501},
		{"too large", "", bytes.Repeat([]byte("<p>x</p>"), 1<<18), 413},
	} {
		resp, body := post(t, srv.url+"/clean"+c.query, c.body)
		msg := errorOf(t, c.what, resp, body, c.status)
		if (c.what == "blank page" || c.what == "binary") && strings.HasPrefix(msg, "-") {
			t.Errorf("%s: %q names the page \"-\", the command line's standard input", c.what, msg)
		}
		if strings.HasPrefix(c.what, "threshold with a") && strings.Contains(c.what, "+") && !strings.Contains(msg, "%2B") {
			t.Errorf("%s: %q does not say how to write a +", c.what, msg)
		}
		if strings.HasPrefix(c.what, "a batch") && !strings.Contains(msg, "/clean/batch") || c.what == "a URL" && !strings.Contains(msg, "never fetches") {
			t.Errorf("%s: %q does not say what to do instead", c.what, msg)
		}
		if c.what == "unknown policy" && !(strings.Contains(msg, "corpus") && strings.Contains(msg, "article")) {
			t.Errorf("unknown policy: the message does not list the known ones: %q", msg)
		}
	}

	// Too large without a Content-Length (chunked): cut at MaxBody.
	req, _ := http.NewRequest("POST", srv.url+"/clean", io.MultiReader(bytes.NewReader(page), infinite{}))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	errorOf(t, "too large, chunked", resp, body, 413)

	// Wrong method, unknown path.
	resp, err = http.Get(srv.url + "/clean")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" || !json.Valid(got) || !bytes.Contains(got, []byte("POST")) {
		t.Errorf("GET /clean: %d, Allow %q, %s; want 405, Allow POST and a JSON error", resp.StatusCode, resp.Header.Get("Allow"), got)
	}
	resp, got = post(t, srv.url+"/metrics", nil)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" || !json.Valid(got) {
		t.Errorf("POST /metrics: %d, Allow %q, %s; want 405, Allow GET, HEAD and a JSON error", resp.StatusCode, resp.Header.Get("Allow"), got)
	}
	resp, got = post(t, srv.url+"/nothing", page)
	if resp.StatusCode != 404 || !json.Valid(got) || !bytes.Contains(got, []byte("/clean")) {
		t.Errorf("POST /nothing: %d %s, want 404 and a JSON error naming the paths", resp.StatusCode, got)
	}

	// Still healthy, still cleaning.
	checkHealth(t, srv.url, 200)
	if resp, body := post(t, srv.url+"/clean", page); resp.StatusCode != 200 {
		t.Errorf("after the bad requests: %d %s", resp.StatusCode, body)
	}
	m := metricsText(t, srv.url)
	for _, s := range []string{`fiasco_errors_total{kind="binary",code="415"} 2`, `fiasco_errors_total{kind="too_large",code="413"} 2`, `fiasco_pages_total{render="off",outcome="ok"} 1`} {
		if !strings.Contains(m, s+"\n") {
			t.Errorf("metrics lack %s", s)
		}
	}
}

// infinite is an endless body.
type infinite struct{}

func (infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func checkHealth(t testing.TB, url string, status int) {
	t.Helper()
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status {
		t.Errorf("healthz: %d %s, want %d", resp.StatusCode, b, status)
	}
}

func metricsText(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("metrics Content-Type %q", ct)
	}
	return string(b)
}

func TestMetricsFormat(t *testing.T) {
	srv := start(t, Config{})
	page := readFile(t, article)
	for i := 0; i < 3; i++ {
		post(t, srv.url+"/clean", page)
	}
	m := metricsText(t, srv.url)
	// Every line is a comment or "name{labels} value"; every sample's
	// family has a TYPE; histogram buckets are cumulative.
	types := map[string]string{}
	var lastBucket = map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(m), "\n") {
		if strings.HasPrefix(line, "# TYPE ") {
			f := strings.Fields(line)
			types[f[2]] = f[3]
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		name, rest := line[:i], line[i+1:]
		var v float64
		if _, err := fmt.Sscan(rest, &v); err != nil {
			t.Errorf("bad sample %q", line)
		}
		base, _, _ := strings.Cut(name, "{")
		fam := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, "_bucket"), "_sum"), "_count")
		if types[fam] == "" && types[base] == "" {
			t.Errorf("sample %q has no TYPE", line)
		}
		if strings.HasSuffix(base, "_bucket") {
			key := name[:strings.Index(name, "le=")]
			if v < lastBucket[key] {
				t.Errorf("bucket %s not cumulative", name)
			}
			lastBucket[key] = v
		}
	}
	for _, s := range []string{
		`fiasco_pages_total{render="off",outcome="ok"} 3`,
		`fiasco_stage_seconds_count{stage="load"} 3`,
		`fiasco_stage_seconds_count{stage="classify"} 3`,
		`fiasco_stage_seconds_count{stage="export"} 3`,
		`fiasco_stage_seconds_bucket{stage="features",le="+Inf"} 3`,
		`fiasco_page_seconds_count{render="off"} 3`,
		`fiasco_http_requests_total{route="/clean",code="200"} 3`,
	} {
		if !strings.Contains(m, s+"\n") {
			t.Errorf("metrics lack %s", s)
		}
	}
}

type batchLine struct {
	Line   int
	ID     json.RawMessage
	URL    string
	Name   string
	Status int
	Render string
	Output *string
	Page   json.RawMessage
	Error  string
	// UnseenBlocks: blocks the rendering could not show.
	UnseenBlocks int `json:"unseen_blocks"`
	Note         string
}

func postBatch(t testing.TB, url string, body io.Reader) (*http.Response, []batchLine) {
	t.Helper()
	resp, err := http.Post(url, "application/x-ndjson", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []batchLine
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("answer line %q: %v", sc.Bytes(), err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return resp, out
}

func TestBatch(t *testing.T) {
	srv := start(t, Config{Workers: 2})
	page := readFile(t, article)
	c := textCleaner(t)
	html, _ := json.Marshal(string(page))
	var in bytes.Buffer
	fmt.Fprintf(&in, `{"id": 1, "url": "http://a.invalid/", "html": %s}`+"\n", html)
	fmt.Fprintf(&in, `{"id": "two", "name": "b.html", "data": %q}`+"\n", base64.StdEncoding.EncodeToString(page))
	fmt.Fprintf(&in, "{not json\n")
	fmt.Fprintf(&in, "\n")
	fmt.Fprintf(&in, `{"id": 5, "url": "x"}`+"\n")
	fmt.Fprintf(&in, `{"id": 6, "data": "!!!"}`+"\n")
	fmt.Fprintf(&in, `{"id": 7, "html": ""}`+"\n")
	fmt.Fprintf(&in, `{"id": 8, "data": %q}`, base64.RawURLEncoding.EncodeToString(page)) // no final newline
	resp, out := postBatch(t, srv.url+"/clean/batch?format=text&render=off", &in)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if tr := resp.Trailer.Get("Fiasco-Batch"); tr != "complete" {
		t.Errorf("trailer Fiasco-Batch %q, want complete", tr)
	}
	byLine := map[int]batchLine{}
	for _, l := range out {
		byLine[l.Line] = l
	}
	if len(out) != 7 || len(byLine) != 7 {
		t.Fatalf("%d answers for 7 non-empty lines: %+v", len(out), out)
	}
	exp := string(want(t, c, page, export.Text))
	for _, n := range []int{1, 2, 8} {
		l := byLine[n]
		if l.Status != 200 || l.Output == nil || *l.Output != exp || l.Render != "off" {
			t.Errorf("line %d: %+v", n, l)
		}
	}
	if string(byLine[1].ID) != "1" || byLine[1].URL != "http://a.invalid/" || string(byLine[2].ID) != `"two"` || byLine[2].Name != "b.html" {
		t.Errorf("ids, urls and names not echoed: %+v %+v", byLine[1], byLine[2])
	}
	for _, n := range []int{3, 5, 6, 7} {
		if l := byLine[n]; l.Status != 400 || l.Error == "" {
			t.Errorf("line %d: %+v, want a 400 error", n, l)
		} else {
			t.Logf("line %d: %d %s", n, l.Status, l.Error)
		}
	}

	// json: the page as an object; jsonl: the CLI's JSONL line as an object.
	for _, f := range []string{"json", "jsonl"} {
		in.Reset()
		fmt.Fprintf(&in, `{"html": %s, "name": "p"}`+"\n", html)
		_, out = postBatch(t, srv.url+"/clean/batch?format="+f, &in)
		if len(out) != 1 || out[0].Status != 200 || out[0].Output != nil {
			t.Fatalf("%s: %+v", f, out)
		}
		res, _ := c.Clean(context.Background(), "p", page)
		var buf bytes.Buffer
		if err := res.Write(&buf, export.JSON); err != nil {
			t.Fatal(err)
		}
		if f == "jsonl" {
			buf.Reset()
			line, err := corpus.JSONLine(&pipeline.Outcome{Input: pipeline.Input{Name: "p"}, Result: res}, false)
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(line)
		}
		var compact bytes.Buffer
		json.Compact(&compact, buf.Bytes())
		if !bytes.Equal(out[0].Page, compact.Bytes()) {
			t.Errorf("%s: page %s\nwant %s", f, trunc(out[0].Page), trunc(compact.Bytes()))
		}
	}

	// Batch-level errors.
	resp, _ = post(t, srv.url+"/clean/batch?format=pdf", nil)
	if resp.StatusCode != 400 {
		t.Errorf("batch with unknown format: %d", resp.StatusCode)
	}
	resp, _ = post(t, srv.url+"/clean/batch?url=x", nil)
	if resp.StatusCode != 400 {
		t.Errorf("batch with url: %d", resp.StatusCode)
	}
	// An empty batch is answered by nothing, completely.
	resp, out = postBatch(t, srv.url+"/clean/batch", strings.NewReader(""))
	if resp.StatusCode != 200 || len(out) != 0 || resp.Trailer.Get("Fiasco-Batch") != "complete" {
		t.Errorf("empty batch: %d, %d lines, trailer %q", resp.StatusCode, len(out), resp.Trailer.Get("Fiasco-Batch"))
	}
	checkHealth(t, srv.url, 200)
}

func TestBatchLongLine(t *testing.T) {
	srv := start(t, Config{MaxBody: 1000})
	var in bytes.Buffer
	long := strings.Repeat("<p>word</p>", int(MaxLine(1000))/10) // over the line limit
	fmt.Fprintf(&in, `{"id": "first", "html": "%s"}`+"\n", long)
	fmt.Fprintf(&in, `{"html": "<p>%s</p>"}`+"\n", strings.Repeat("word ", 300))
	fmt.Fprintf(&in, `{"html": "<p>A short page with a sentence of words that reads like text.</p>"}`+"\n")
	fmt.Fprintf(&in, `{"html": "%s", "id": 4}`+"\n", long)
	_, out := postBatch(t, srv.url+"/clean/batch?format=text", &in)
	got := map[int]int{}
	ids := map[int]string{}
	for _, l := range out {
		got[l.Line] = l.Status
		ids[l.Line] = string(l.ID)
	}
	if got[1] != 413 || got[2] != 413 || got[3] != 200 || got[4] != 413 || len(out) != 4 {
		t.Errorf("statuses by line %v, want 1: 413 (line too long), 2: 413 (page too large), 3: 200, 4: 413 (line too long)", got)
	}
	// A line over the limit keeps its id where the id comes first; one
	// after the page cannot be read.
	if ids[1] != `"first"` || ids[4] != "" {
		t.Errorf("ids of the lines too long: %q and %q, want \"first\" and none", ids[1], ids[4])
	}
}

func TestSameAnswersCleanEval(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev/html")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in %s: %v", dir, err)
	}
	srv := start(t, Config{})
	c := textCleaner(t)
	for i, f := range files {
		data := readFile(t, f)
		formats := []export.Format{export.CleanEval}
		if i%5 == 0 {
			formats = append(formats, export.JSON, export.HTML)
		}
		for _, format := range formats {
			resp, got := post(t, srv.url+"/clean?render=off&format="+format.String(), data)
			if resp.StatusCode != 200 {
				t.Errorf("%s: %d %s", f, resp.StatusCode, got)
				continue
			}
			if exp := want(t, c, data, format); !bytes.Equal(got, exp) {
				t.Errorf("%s, %s: answer differs", filepath.Base(f), format)
			}
		}
	}
	t.Logf("%d CleanEval dev pages: byte-identical answers in cleaneval (every fifth also in json and html)", len(files))
}

func TestNew(t *testing.T) {
	m, _ := classify.Default(true)
	if _, err := New(Config{Text: &pipeline.Cleaner{Model: m}}); err == nil {
		t.Error("a visual model as Text was accepted")
	}
	if _, err := New(Config{Rendered: &pipeline.Cleaner{Model: m}}); err == nil {
		t.Error("Rendered without a Visualizer was accepted")
	}
	s, err := New(Config{Queue: -1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if cfg := s.Config(); cfg.Queue != 0 || cap(s.admit) != 3 || cfg.Addr != DefaultAddr || cfg.MaxBody != DefaultMaxBody {
		t.Errorf("defaults: %+v", cfg)
	}
}

// TestRefusedBeforeBody: a request refused before its body is read (a bad
// parameter) is answered and the connection closed, whether the client
// sends the body at once or, told to wait for 100-continue, late: its
// body's bytes are not read as a next request and answered 408 once the
// client goes quiet.
func TestRefusedBeforeBody(t *testing.T) {
	srv := start(t, Config{ReadTimeout: 300 * time.Millisecond})
	body := bytes.Repeat([]byte("<p>late body</p>"), 200)
	for _, expect := range []bool{false, true} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		head := fmt.Sprintf("POST /clean?format=xml HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n", len(body))
		if expect {
			fmt.Fprintf(conn, "%sExpect: 100-continue\r\n\r\n", head)
		} else {
			fmt.Fprintf(conn, "%s\r\n%s", head, body)
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !resp.Close {
			t.Errorf("expect %v: answer %d, close %v; want 400 and the connection closed", expect, resp.StatusCode, resp.Close)
		}
		if expect {
			conn.Write(body)
		}
		time.Sleep(3 * srv.cfg.ReadTimeout) // the client stays, quiet
		if rest, _ := io.ReadAll(br); len(rest) > 0 {
			t.Errorf("expect %v: after the answer the server sent %q", expect, rest)
		}
	}
	if m := metricsText(t, srv.url); strings.Contains(m, `kind="slow_client"`) {
		t.Errorf("a refused request counted as a slow client:\n%s", m)
	}
}

// TestTruncatedHeader: an answer for a page cut at a size limit says so in
// X-Fiasco-Truncated, whatever the format; a whole page's has none.
func TestTruncatedHeader(t *testing.T) {
	c := textCleaner(t)
	c.Prepare.MaxBlocks = 5
	srv := start(t, Config{Text: c})
	page := readFile(t, article)
	resp, body := post(t, srv.url+"/clean?format=text&render=off", page)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Truncated") != "true" {
		t.Errorf("cut page: %d, X-Fiasco-Truncated %q: %s", resp.StatusCode, resp.Header.Get("X-Fiasco-Truncated"), body)
	}
	whole := start(t, Config{Text: textCleaner(t)})
	resp, body = post(t, whole.url+"/clean?format=text&render=off", page)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Truncated") != "" {
		t.Errorf("whole page: %d, X-Fiasco-Truncated %q: %s", resp.StatusCode, resp.Header.Get("X-Fiasco-Truncated"), body)
	}
}

// TestBatchBadLines: a batch line with a field the service does not know
// (a typo, or an option that belongs in the query) or a field of the wrong
// type is refused, as an unknown query parameter is, and every line's
// error names its line.
func TestBatchBadLines(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	in := strings.Join([]string{
		`{"html": "<p>A paragraph of text.</p>", "format": "text"}`,
		`{"html": 42}`,
		`[1, 2]`,
		`{"html": "<p>a</p>"} {"html": "<p>b</p>"}`,
		`{"data": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w=="}`,
	}, "\n") + "\n"
	in += `{"HTML": "<p>A paragraph of text.</p>"}` + "\n" + `{"html": "<p>a</p>", "url": "x", "html": "<p>b</p>"}` + "\n"
	_, lines := postBatch(t, srv.url+"/clean/batch?format=text&render=off", strings.NewReader(in))
	want := []string{`line 1: unknown field "format"`, `line 2: "html" is number, want string`, "line 3: not a JSON object but array", "line 4: more than one JSON value", "line 5: ",
		`line 6: field "HTML": field names are lower case ("html")`, `line 7: field "html" given twice`}
	if len(lines) != len(want) {
		t.Fatalf("%d answer lines, want %d: %+v", len(lines), len(want), lines)
	}
	for _, l := range lines { // in the order they finished
		if l.Line < 1 || l.Line > len(want) || l.Status == 200 || !strings.HasPrefix(l.Error, want[l.Line-1]) {
			t.Errorf("line %d: %d %q", l.Line, l.Status, l.Error)
		}
	}
}

// TestNoTextAndWARC: a page that gives no text says why, in
// X-Fiasco-Note and a batch line's note, as fiasco clean says it on
// stderr, and a page without a text block is not rendered; a WARC file
// is refused (415), whether sent as it is, gzip-compressed, or as a
// batch line's data; rescue takes on and off as floor does.
func TestNoTextAndWARC(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	frames := []byte(`<html><frameset><frame src="nav.html"><frame src="main.html"></frameset></html>`)
	resp, body := post(t, srv.url+"/clean?format=text", frames)
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("X-Fiasco-Note") != "no text found: its text is in the pages its frames load (nav.html, main.html); clean those" || resp.Header.Get("X-Fiasco-Render") != "off" {
		t.Errorf("frames: %d %q, headers %v", resp.StatusCode, body, resp.Header)
	}
	// A frame's address beyond ASCII: %XX in the header, as in a URL.
	resp, _ = post(t, srv.url+"/clean?format=text", []byte(`<html><frameset><frame src="café.html"></frameset></html>`))
	if n := resp.Header.Get("X-Fiasco-Note"); n != "no text found: its text is in the pages its frames load (caf%C3%A9.html); clean those" {
		t.Errorf("a frame named café.html: X-Fiasco-Note %q", n)
	}
	resp, _ = post(t, srv.url+"/clean?format=text&threshold=100", readFile(t, article))
	if n := resp.Header.Get("X-Fiasco-Note"); !strings.HasPrefix(n, "no text kept (") || !strings.HasSuffix(n, "text blocks, every one classed boilerplate)") {
		t.Errorf("nothing kept: X-Fiasco-Note %q", n)
	}
	if resp, _ = post(t, srv.url+"/clean?format=text", readFile(t, article)); resp.Header.Get("X-Fiasco-Note") != "" {
		t.Errorf("a page with text: X-Fiasco-Note %q", resp.Header.Get("X-Fiasco-Note"))
	}
	_, lines := postBatch(t, srv.url+"/clean/batch?format=text", strings.NewReader(`{"html": "<frameset><frame src=a.html></frameset>"}`+"\n"))
	if len(lines) != 1 || lines[0].Note != "no text found: its text is in the pages its frames load (a.html); clean those" {
		t.Errorf("batch: %+v", lines)
	}

	warc := []byte("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nabcd\r\n\r\n")
	for name, data := range map[string][]byte{"plain": warc, "gzip": gzipped(t, warc)} {
		resp, body := post(t, srv.url+"/clean", data)
		if msg := errorOf(t, "a WARC ("+name+")", resp, body, http.StatusUnsupportedMediaType); !strings.Contains(msg, "the body is a WARC file") {
			t.Errorf("a WARC (%s): %q", name, msg)
		}
	}
	html, _ := json.Marshal(string(warc))
	_, lines = postBatch(t, srv.url+"/clean/batch", strings.NewReader(`{"data": "`+base64.StdEncoding.EncodeToString(warc)+`"}`+"\n"+`{"html": `+string(html)+`}`+"\n"))
	if len(lines) != 2 || lines[0].Status != http.StatusUnsupportedMediaType || !strings.Contains(lines[0].Error, "WARC") || lines[1].Status != http.StatusUnsupportedMediaType {
		t.Errorf("a batch line's WARC, as data and as html: %+v", lines)
	}

	on, _ := post(t, srv.url+"/clean?format=text&rescue=on", readFile(t, article))
	for _, v := range []string{"true", "1", "ON"} {
		if resp, _ := post(t, srv.url+"/clean?format=text&rescue="+v, readFile(t, article)); resp.StatusCode != on.StatusCode {
			t.Errorf("rescue=%s: %d, rescue=on %d", v, resp.StatusCode, on.StatusCode)
		}
	}
	if resp, body := post(t, srv.url+"/clean?rescue=maybe", readFile(t, article)); resp.StatusCode != 400 || !strings.Contains(string(body), "unknown rescue mode") {
		t.Errorf("rescue=maybe: %d %s", resp.StatusCode, body)
	}
}
