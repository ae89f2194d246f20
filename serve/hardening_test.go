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
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// slowRender is a Visualizer whose every render runs out of the
// renderer's own time limit, counting its calls.
type slowRender struct{ calls *atomic.Int32 }

func (s slowRender) Visual(context.Context, *pipeline.Doc) ([]vision.Features, error) {
	s.calls.Add(1)
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
