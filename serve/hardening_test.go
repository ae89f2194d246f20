package serve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// slowRender is a Visualizer whose every render runs out of the
// renderer's own time limit, counting its calls for pages (not the
// health probes a failed render sets off).
type slowRender struct{ calls *atomic.Int32 }

func (s slowRender) Visual(_ context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	if d.Page.Name != "health probe" {
		s.calls.Add(1)
	}
	return nil, fmt.Errorf("render: the page took longer than 2s: %w: %w", render.ErrPageTimeout, context.DeadlineExceeded)
}

// TestRenderTimeoutFallback: a render that runs out of the renderer's time
// limit is not tried again (it would take as long and use up the page's
// limit): render=auto answers at once with the text model, saying why,
// and render=on answers 504. The metrics count the fallback, no retry.
func TestRenderTimeoutFallback(t *testing.T) {
	var calls atomic.Int32
	rc := autoRendered(t, slowRender{&calls})
	srv := start(t, Config{Rendered: rc})
	data := readFile(t, article)
	resp, got := post(t, srv.url+"/clean?format=text", data)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Render") != "off" || !strings.Contains(resp.Header.Get("X-Fiasco-Render-Error"), "took longer") {
		t.Fatalf("render=auto: %d, X-Fiasco-Render %q, X-Fiasco-Render-Error %q: %s", resp.StatusCode,
			resp.Header.Get("X-Fiasco-Render"), resp.Header.Get("X-Fiasco-Render-Error"), trunc(got))
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("render=auto: %d renders, want 1", n)
	}
	if exp := want(t, textCleaner(t), data, export.Text); !bytes.Equal(got, exp) {
		t.Errorf("render=auto after a render out of time differs from the text model's answer")
	}
	resp, got = post(t, srv.url+"/clean?render=on", data)
	errorOf(t, "render=on, out of time", resp, got, 504)
	if n := calls.Load(); n != 2 {
		t.Errorf("render=on: %d renders in all, want 2", n)
	}
	mt := metricsText(t, srv.url)
	if !strings.Contains(mt, "fiasco_render_retries_total 0\n") || !strings.Contains(mt, "fiasco_render_fallbacks_total 1\n") {
		t.Errorf("metrics: want no retry and one fallback:\n%s", mt)
	}
}

// TestUploadsRefused: a form upload (multipart) is refused with advice,
// on /clean and /clean/batch; a batch body that cannot be JSON Lines (a
// compressed body, a page) is refused as a whole rather than answered line
// by line with errors; a byte order mark before the first line is fine.
func TestUploadsRefused(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	page := readFile(t, article)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "article.html")
	fw.Write(page)
	mw.Close()
	for _, path := range []string{"/clean?render=off", "/clean/batch?render=off"} {
		resp, err := http.Post(srv.url+path, mw.FormDataContentType(), bytes.NewReader(form.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if msg := errorOf(t, "multipart to "+path, resp, body.Bytes(), 415); !strings.Contains(msg, "--data-binary") {
			t.Errorf("multipart to %s: %q gives no advice", path, msg)
		}
	}
	line, _ := json.Marshal(map[string]string{"html": string(page), "url": "http://ex.org/"})
	// A batch line posted to /clean: refused with where to send it, not
	// cleaned as a page of JSON. A form's type is what curl --data-binary
	// sends: the page is cleaned.
	for _, c := range []struct {
		ctype, advice string
		body          []byte
	}{
		{"application/json", "/clean/batch", line},
		{"application/x-ndjson", "/clean/batch", line},
	} {
		resp, err := http.Post(srv.url+"/clean?render=off", c.ctype, bytes.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if msg := errorOf(t, c.ctype+" to /clean", resp, body.Bytes(), 415); !strings.Contains(msg, c.advice) {
			t.Errorf("%s to /clean: %q does not say %s", c.ctype, msg, c.advice)
		}
	}
	if resp, err := http.Post(srv.url+"/clean?render=off", "application/x-www-form-urlencoded", bytes.NewReader(page)); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != 200 {
		t.Errorf("a page sent as curl --data-binary sends it (a form's type): %d, want 200", resp.StatusCode)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(append(line, '\n'))
	zw.Close()
	for _, c := range []struct {
		name   string
		body   []byte
		status int
	}{
		{"gzip without Content-Encoding", gz.Bytes(), 415},
		{"a page", page, 400},
	} {
		resp, got := post(t, srv.url+"/clean/batch?render=off", c.body)
		errorOf(t, "batch of "+c.name, resp, got, c.status)
	}
	resp, lines := postBatch(t, srv.url+"/clean/batch?render=off&format=text", bytes.NewReader(append([]byte("\xef\xbb\xbf \n"), append(line, '\n')...)))
	if resp.StatusCode != 200 || len(lines) != 1 || lines[0].Status != 200 {
		t.Errorf("batch after a byte order mark: %d, %+v", resp.StatusCode, lines)
	}
}

// TestBatchStreamed: a batch whose body is streamed (no Content-Length)
// gets its answer's headers before it sends a byte, so a client that waits
// for them before it writes its lines is not kept waiting; its lines are
// answered one by one.
func TestBatchStreamed(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), ReadTimeout: 30 * time.Second})
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", srv.url+"/clean/batch?render=off&format=text", pr)
	t0 := time.Now()
	resp, err := http.DefaultClient.Do(req) // returns with the headers
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// Waiting for the body, the server would answer after ReadTimeout.
	if d := time.Since(t0); resp.StatusCode != 200 || d > 15*time.Second {
		t.Fatalf("headers of a streamed batch: %d after %v", resp.StatusCode, d)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for i := range 2 {
		line, _ := json.Marshal(map[string]any{"id": i, "html": "<p>A paragraph of running text, long enough to be kept as the clean text of the page.</p>"})
		if i == 0 {
			pw.Write([]byte("\xef\xbb\xbf")) // a byte order mark: the first line is read all the same
		}
		pw.Write(append(line, '\n'))
		if !sc.Scan() {
			t.Fatalf("no answer to line %d: %v", i+1, sc.Err())
		}
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Status != 200 || string(l.ID) != fmt.Sprint(i) {
			t.Errorf("answer to line %d: %s (%v)", i+1, sc.Bytes(), err)
		}
	}
	pw.Close()
	for sc.Scan() {
		t.Errorf("answer after the last line: %s", sc.Bytes())
	}
	if got := resp.Trailer.Get("Fiasco-Batch"); got != "complete" {
		t.Errorf("trailer %q, want complete", got)
	}
}

// TestBatchErrorKeepsID: a batch line refused for a field the service does
// not know, or of the wrong type, is answered with its id all the same.
func TestBatchErrorKeepsID(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	in := `{"id": "keep-me", "htm": "<p>A page.</p>"}` + "\n" + `{"id": 7, "url": 5, "html": "<p>A page.</p>"}` + "\n" +
		`{"id": "two", "html": "<p>a</p>"} {"html": "<p>b</p>"}` + "\n"
	_, lines := postBatch(t, srv.url+"/clean/batch?render=off", strings.NewReader(in))
	ids := map[int]string{}
	for _, l := range lines {
		ids[l.Line] = string(l.ID)
		if l.Status != 400 {
			t.Errorf("line %d: status %d, want 400", l.Line, l.Status)
		}
	}
	if ids[1] != `"keep-me"` || ids[2] != "7" || ids[3] != `"two"` {
		t.Errorf("ids of the refused lines: %v", ids)
	}
}

// TestHTMLAnswerSandboxed: an html answer, which keeps the page's event
// attributes, is sandboxed (Content-Security-Policy), and no answer is
// sniffed as another type.
func TestHTMLAnswerSandboxed(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	page := []byte(`<html><body><p onclick="alert(1)">A paragraph of running text that is long enough to be kept by the model, with a handler on it.</p></body></html>`)
	resp, got := post(t, srv.url+"/clean?render=off&format=html", page)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != "sandbox" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("html: %d, CSP %q, nosniff %q: %s", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Content-Type-Options"), trunc(got))
	}
	resp, _ = post(t, srv.url+"/clean?render=off&format=text", page)
	if resp.Header.Get("Content-Security-Policy") != "" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("text: CSP %q, nosniff %q", resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Content-Type-Options"))
	}
}

// TestCancelledLogged: a request its client gave up on is logged and
// counted as 499, not as the 200 it never got.
func TestCancelledLogged(t *testing.T) {
	rc, b := blockingCleaner(t)
	var buf lockedBuffer
	srv := start(t, Config{Rendered: rc, Log: slog.New(slog.NewTextHandler(&buf, nil)), AccessLog: true})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.url+"/clean?render=on", bytes.NewReader(readFile(t, article)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-b.started
	cancel()
	<-done
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), "status=499") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	close(b.release) // the render ended with its request's context; the gate only for tidiness
	if !strings.Contains(buf.String(), "status=499") || strings.Contains(buf.String(), "status=200") {
		t.Errorf("access log of a cancelled request:\n%s", buf.String())
	}
	if mt := metricsText(t, srv.url); !strings.Contains(mt, `route="/clean",code="499"`) {
		t.Errorf("metrics do not count the 499:\n%s", mt)
	}
}

// TestHalfClosedClient: a client that sends its request and then closes
// its side of the connection (nc -N, shutdown(SHUT_WR)) looks gone to
// the server, which cancels the request; what it reads then is the 499
// the access log and the metrics give, never an empty 200. A body cut
// short before the half-close is answered 499 too, and so is a health
// probe the client half-closed on.
func TestHalfClosedClient(t *testing.T) {
	rc, b := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, Text: textCleaner(t)})
	addr := strings.TrimPrefix(srv.url, "http://")
	page := string(readFile(t, article))
	ask := func(req string) string { return exchange(t, addr, req, true) }
	// The render would wait at the gate for ever: the answer comes of
	// the cancellation alone.
	answer := ask(fmt.Sprintf("POST /clean?render=on HTTP/1.1\r\nHost: fiasco\r\nContent-Length: %d\r\n\r\n%s", len(page), page))
	if !strings.HasPrefix(answer, "HTTP/1.1 499") || !strings.Contains(answer, `"status":499`) || !strings.Contains(answer, "the page was not cleaned") {
		t.Errorf("a request whose client half-closed: got\n%s", answer)
	}
	answer = ask("POST /clean?render=off HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 1000\r\n\r\n<html><body>")
	if !strings.HasPrefix(answer, "HTTP/1.1 499") || !strings.Contains(answer, "inside the body") {
		t.Errorf("a body cut short, then a half-close: got\n%s", answer)
	}
	// A health probe that the client half-closed on says nothing of
	// Chromium: 499, not 503 unhealthy (the probe waits at the gate).
	answer = ask("GET /healthz HTTP/1.1\r\nHost: fiasco\r\n\r\n")
	if !strings.HasPrefix(answer, "HTTP/1.1 499") || strings.Contains(answer, "unhealthy") {
		t.Errorf("/healthz, then a half-close: got\n%s", answer)
	}
	close(b.release)
}

// TestPriorKnowledgeHTTP2: HTTP/2's preface sent without TLS (curl
// --http2-prior-knowledge) is refused 505 in JSON, and logged at INFO,
// not answered 400 with no body by ServeMux; another request for "*" is
// refused 400 in JSON.
func TestPriorKnowledgeHTTP2(t *testing.T) {
	var log lockedBuffer
	srv := start(t, Config{Text: textCleaner(t), Log: slog.New(slog.NewTextHandler(&log, nil)), AccessLog: true})
	addr := strings.TrimPrefix(srv.url, "http://")
	answer := exchange(t, addr, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", false)
	if !strings.HasPrefix(answer, "HTTP/1.1 505 ") || !strings.Contains(answer, `"status":505`) || !strings.Contains(answer, "send HTTP/1.1") {
		t.Errorf("PRI *: got\n%s", answer)
	}
	if !strings.Contains(log.String(), "level=INFO msg=request method=PRI") || !strings.Contains(log.String(), "status=505") {
		t.Errorf("PRI * not logged at INFO (a client's protocol, no failure of the service's):\n%s", log.String())
	}
	// Another request for "*": 400 in JSON.
	answer = exchange(t, addr, "GET * HTTP/1.1\r\nHost: fiasco\r\n\r\n", false)
	if !strings.HasPrefix(answer, "HTTP/1.1 400 ") || !strings.Contains(answer, "names no resource") {
		t.Errorf("GET *: got\n%s", answer)
	}
}

// exchange sends req, as written, on a connection of its own to addr
// (with halfClose, then closes its side, as nc -N does) and returns all
// the server wrote until it closed, within 20 s.
func exchange(t *testing.T, addr, req string, halfClose bool) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	io.WriteString(conn, req)
	if halfClose {
		conn.(*net.TCPConn).CloseWrite()
	}
	answer, _ := io.ReadAll(conn)
	return string(answer)
}

// TestHealthRecycle: a browser that hangs (every probe runs out of time)
// is ended after HealthRecycleAfter failed probes in a row, through
// Config.Recycle, and counted.
func TestHealthRecycle(t *testing.T) {
	saved := healthProbeTimeout
	healthProbeTimeout = 200 * time.Millisecond
	defer func() { healthProbeTimeout = saved }()
	rc, _ := blockingCleaner(t) // renders wait for a gate that never opens
	var recycled atomic.Int32
	srv := start(t, Config{Rendered: rc, Recycle: func() bool { recycled.Add(1); return true }})
	for i := 1; i <= HealthRecycleAfter; i++ {
		if got := recycled.Load(); got != 0 {
			t.Fatalf("recycled after %d failed probes, want after %d", i-1, HealthRecycleAfter)
		}
		checkHealth(t, srv.url, 503)
	}
	if got := recycled.Load(); got != 1 {
		t.Errorf("%d recycles after %d failed probes, want 1", got, HealthRecycleAfter)
	}
	if mt := metricsText(t, srv.url); !strings.Contains(mt, "fiasco_browser_recycles_total 1\n") {
		t.Errorf("metrics do not count the recycle:\n%s", mt)
	}
}

// TestRetryAfterBatch: when batches hold every place, Retry-After says
// when the first is expected to end (twice its time so far, before any
// batch ended; then the batches' mean time), not a page's time.
func TestRetryAfterBatch(t *testing.T) {
	srv := start(t, Config{Workers: 1, Queue: -1})
	data := readFile(t, article)
	line, _ := json.Marshal(map[string]string{"id": "a", "html": string(data)})
	// startBatch sends one line of a batch and reads its answer: the
	// batch holds the one place until stop.
	startBatch := func() (stop func()) {
		pr, pw := io.Pipe()
		done := make(chan *http.Response, 1)
		go func() {
			resp, err := http.Post(srv.url+"/clean/batch?format=text", "application/x-ndjson", pr)
			if err != nil {
				t.Error(err)
			}
			done <- resp
		}()
		pw.Write(append(line, '\n'))
		resp := <-done
		if resp == nil {
			t.FailNow()
		}
		if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
			t.Fatalf("the batch's first answer line: %v", err)
		}
		return func() {
			pw.Close()
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	retryAfter := func(what string) int {
		t.Helper()
		resp, body := post(t, srv.url+"/clean?format=text", data)
		if resp.StatusCode != 503 {
			t.Fatalf("%s: %d %s, want 503", what, resp.StatusCode, body)
		}
		n, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if err != nil {
			t.Fatalf("%s: Retry-After %q", what, resp.Header.Get("Retry-After"))
		}
		return n
	}
	stop := startBatch()
	time.Sleep(3 * time.Second)
	if n := retryAfter("a batch running 3 s"); n < 3 {
		t.Errorf("a batch running 3 s holds the place: Retry-After %d, want 3 or more", n)
	}
	stop()
	stop = startBatch()
	if n := retryAfter("a batch just started, the one before ran 3 s"); n < 2 {
		t.Errorf("the batch before took 3 s: Retry-After %d, want 2 or more", n)
	}
	stop()
	if resp, body := post(t, srv.url+"/clean?format=text", data); resp.StatusCode != 200 {
		t.Errorf("after the batches: %d %s", resp.StatusCode, body)
	}
}

// TestUncleanPaths: a path with doubled or trailing slashes or dot
// segments is served as its clean form, not redirected.
func TestUncleanPaths(t *testing.T) {
	srv := start(t, Config{})
	data := readFile(t, article)
	_, want := post(t, srv.url+"/clean?format=text", data)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"//clean", "/clean/", "/x/../clean", "/./clean"} {
		resp, err := noRedirect.Post(srv.url+p+"?format=text", "text/html", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(got, want) {
			t.Errorf("POST %s: %d %s", p, resp.StatusCode, trunc(got))
		}
	}
	checkHealth(t, srv.url+"/", 200) // GET //healthz
	resp, body := post(t, srv.url+"//nope", data)
	errorOf(t, "POST //nope", resp, body, 404)
}

// TestServerRefusalsJSON: the requests Go's server refuses before any
// handler (headers too large, malformed, an unsupported Transfer-Encoding
// or HTTP version) are answered as every other refusal, a JSON object,
// and counted.
func TestServerRefusalsJSON(t *testing.T) {
	srv := start(t, Config{})
	addr := strings.TrimPrefix(srv.url, "http://")
	for _, c := range []struct {
		name, req string
		status    int
	}{
		{"headers too large", "GET /healthz HTTP/1.1\r\nHost: fiasco\r\nX-Big: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", 431},
		{"malformed request line", "HELLO\r\n\r\n", 400},
		{"malformed Host", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n", 400},
		{"unsupported Transfer-Encoding", "POST /clean HTTP/1.1\r\nHost: fiasco\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"unsupported HTTP version", "GET /healthz HTTP/2.0\r\nHost: fiasco\r\n\r\n", 505},
		{"unsupported Expect", "POST /clean HTTP/1.1\r\nHost: fiasco\r\nExpect: a-miracle\r\nContent-Length: 5\r\n\r\n", 417},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(conn, c.req)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			conn.Close()
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		var e struct {
			Error  string `json:"error"`
			Status int    `json:"status"`
		}
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal(body, &e) != nil || e.Status != c.status || e.Error == "" {
			t.Errorf("%s: %d %q %q; want %d and a JSON error", c.name, resp.StatusCode, resp.Header.Get("Content-Type"), body, c.status)
		}
	}
	mt := metricsText(t, srv.url)
	for code, n := range map[string]string{"431": "1", "400": "2", "501": "1", "505": "1", "417": "1"} {
		if want := `fiasco_http_requests_total{route="other",code="` + code + `"} ` + n + "\n"; !strings.Contains(mt, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestBodyNeverSent: a request answered without its body being read (a
// refusal, a health check that came with a Content-Length) gets its
// answer at once and its connection closed, when the client sends the
// headers of a body but not the body: net/http would otherwise wait for
// the body, with no time limit, holding the connection (and its place of
// MaxConns) or, for a GET, the answer itself.
func TestBodyNeverSent(t *testing.T) {
	srv := start(t, Config{})
	addr := strings.TrimPrefix(srv.url, "http://")
	for _, c := range []struct {
		name, req string
		status    int
	}{
		{"a bad option", "POST /clean?format=bad HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 12\r\n\r\n", 400},
		{"no such path", "POST /nope HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 12\r\n\r\n", 404},
		{"a wrong method", "PUT /clean HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 12\r\n\r\n", 405},
		{"a batch's bad option", "POST /clean/batch?format=bad HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 12\r\n\r\n", 400},
		{"a health check with a body", "GET /healthz HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 10\r\n\r\n", 200},
		{"metrics with a body", "GET /metrics HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 10\r\n\r\n", 200},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		t0 := time.Now()
		io.WriteString(conn, c.req)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			conn.Close()
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		io.ReadAll(resp.Body)
		// The connection ends: a read gets EOF, not the deadline.
		_, err = br.ReadByte()
		conn.Close()
		if resp.StatusCode != c.status || err != io.EOF || time.Since(t0) > 5*time.Second {
			t.Errorf("%s: %d, then %v after %v; want %d and the connection closed at once", c.name, resp.StatusCode, err, time.Since(t0), c.status)
		}
	}
	// A client that sends some of the body after the refusal: the bytes
	// read to no purpose are no request, and get no second answer (a 408
	// for headers that did not arrive).
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, "POST /clean?format=bad HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 12\r\n\r\n")
	time.Sleep(300 * time.Millisecond)
	io.WriteString(conn, "<html")
	all, _ := io.ReadAll(conn)
	if n := bytes.Count(all, []byte("HTTP/1.1 ")); n != 1 || !bytes.HasPrefix(all, []byte("HTTP/1.1 400 ")) {
		t.Errorf("a body sent after the refusal: %d answers: %q, want the 400 alone", n, all)
	}
	if m := metricsText(t, srv.url); strings.Contains(m, `kind="slow_client"`) {
		t.Errorf("a slow client counted:\n%s", m)
	}
}

// TestSlowReaderHoldsNoPlace: a /clean whose client does not read its
// answer gives up its place once the page is cleaned, so that the
// service's other requests are not refused while the answer waits; and a
// client that goes away inside its body is counted 499, as a batch's.
func TestSlowReaderHoldsNoPlace(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), Workers: 1, Queue: -1, WriteTimeout: 20 * time.Second})
	addr := strings.TrimPrefix(srv.url, "http://")
	page := "<html><body><pre>" + strings.Repeat("A line of text in a preformatted block.\n", 100000) + "</pre></body></html>"
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "POST /clean?render=off&format=html HTTP/1.1\r\nHost: fiasco\r\nContent-Length: %d\r\n\r\n%s", len(page), page)
	// Once the slow reader's page is cleaned, its answer of 4 MB waits on
	// it, and another request gets the service's one place.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(metricsText(t, srv.url), `fiasco_pages_total{render="off",outcome="ok"} 1`) {
		if time.Now().After(deadline) {
			t.Fatalf("the slow reader's page is not cleaned:\n%s", metricsText(t, srv.url))
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, body := post(t, srv.url+"/clean?render=off&format=text", []byte("<p>A paragraph of running text, long enough to be kept as the clean text of the page.</p>"))
	if resp.StatusCode != 200 {
		t.Fatalf("beside a client that does not read its answer: %d %s", resp.StatusCode, body)
	}
	// Gone inside the body: 499.
	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c2, "POST /clean?render=off HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 1000\r\n\r\n<html><body>")
	c2.Close()
	for !strings.Contains(metricsText(t, srv.url), `fiasco_http_requests_total{route="/clean",code="499"} 1`) {
		if time.Now().After(deadline) {
			t.Fatalf("a client gone inside its body is not counted 499:\n%s", metricsText(t, srv.url))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// deaf is a Visualizer that waits at its gate whatever its context says,
// as a browser stopped hard (SIGSTOP) holds a render past its time limit.
// It counts its calls.
type deaf[T ~[]E, E any] struct {
	release chan struct{}
	calls   *atomic.Int32
}

func newDeaf[T ~[]E, E any](release chan struct{}, calls *atomic.Int32, _ interface {
	Visual(context.Context, *pipeline.Doc) (T, error)
}) deaf[T, E] {
	return deaf[T, E]{release, calls}
}

func (d deaf[T, E]) Visual(_ context.Context, doc *pipeline.Doc) (T, error) {
	d.calls.Add(1)
	<-d.release
	return make(T, len(doc.Blocks)), nil
}

// TestHealthProbeDeafBrowser: /healthz answers 503 soon after the probe's
// time limit even when the render does not end with its context, so that
// a client's own limit reads the service's answer, not a time-out; such
// a probe counts as failed, so HealthRecycleAfter of them end the
// browser, which lets the render go.
func TestHealthProbeDeafBrowser(t *testing.T) {
	saved := healthProbeTimeout
	healthProbeTimeout = 200 * time.Millisecond
	defer func() { healthProbeTimeout = saved }()
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	c := &pipeline.Cleaner{Model: m}
	var renders atomic.Int32
	c.Prepare.Visual = newDeaf(release, &renders, pipeline.Visualizer(nil))
	var recycled atomic.Int32
	srv := start(t, Config{Rendered: c, Recycle: func() bool { recycled.Add(1); let(); return true }})
	defer let()                                      // before the server stops: the probe is let go
	client := &http.Client{Timeout: 5 * time.Second} // 25 times the limit: no answer at all is what fails
	for i := 1; i <= HealthRecycleAfter; i++ {
		if got := recycled.Load(); got != 0 {
			t.Fatalf("recycled after %d deaf probes, want after %d", i-1, HealthRecycleAfter)
		}
		resp, err := client.Get(srv.url + "/healthz")
		if err != nil {
			t.Fatalf("/healthz with a deaf browser: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || !strings.Contains(string(body), "no answer from Chromium to a probe") {
			t.Errorf("/healthz with a deaf browser: %d %s, want 503 and the reason", resp.StatusCode, body)
		}
	}
	if got := recycled.Load(); got != 1 {
		t.Errorf("%d recycles after %d deaf probes, want 1", got, HealthRecycleAfter)
	}
	if got := renders.Load(); got != 1 {
		t.Errorf("%d probe renders in a browser holding the first, want 1", got)
	}
}

// TestHealthProbeHeld: without a way to end the browser (no
// Config.Recycle), probes of a deaf browser keep failing, and while it
// holds one probe's render no other is started: renders do not pile up.
func TestHealthProbeHeld(t *testing.T) {
	saved := healthProbeTimeout
	healthProbeTimeout = 200 * time.Millisecond
	defer func() { healthProbeTimeout = saved }()
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	c := &pipeline.Cleaner{Model: m}
	var renders atomic.Int32
	c.Prepare.Visual = newDeaf(release, &renders, pipeline.Visualizer(nil))
	srv := start(t, Config{Rendered: c})
	defer close(release)
	for i := 0; i < 4; i++ {
		checkHealth(t, srv.url, 503)
	}
	if got := renders.Load(); got != 1 {
		t.Errorf("%d probe renders after 4 probes of a deaf browser, want 1", got)
	}
}
