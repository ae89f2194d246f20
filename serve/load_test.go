// The service under load: a full queue, timeouts, shutdown with pages in
// flight and slow clients, against a fake renderer held at a gate.

package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
)

// gate holds the pages of a blocking Visualizer.
type gate struct {
	release chan struct{} // closed: the pages go on
	started chan struct{} // a value per page that reached the renderer
}

// blocking is a fake Visualizer: every page waits until its gate opens
// (or its context ends) and is then measured as if nothing had rendered.
// It is generic in what pipeline.Visualizer returns (T, a slice), which
// newBlocking infers from the interface.
type blocking[T ~[]E, E any] struct{ *gate }

func newBlocking[T ~[]E, E any](g *gate, _ interface {
	Visual(context.Context, *pipeline.Doc) (T, error)
}) blocking[T, E] {
	return blocking[T, E]{g}
}

func (b blocking[T, E]) Visual(ctx context.Context, d *pipeline.Doc) (T, error) {
	b.started <- struct{}{}
	select {
	case <-b.release:
		return make(T, len(d.Blocks)), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// blockingCleaner is a "rendered" Cleaner whose renders wait at the gate.
func blockingCleaner(t testing.TB) (*pipeline.Cleaner, *gate) {
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{release: make(chan struct{}), started: make(chan struct{}, 100)}
	c := &pipeline.Cleaner{Model: m}
	c.Prepare.Visual = newBlocking(g, pipeline.Visualizer(nil))
	return c, g
}

func TestQueueFull(t *testing.T) {
	rc, b := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, Workers: 1, Queue: 1})
	page := readFile(t, article)
	// Two renders in: one works (blocked), one waits.
	var wg sync.WaitGroup
	codes := make(chan int, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := post(t, srv.url+"/clean?render=on", page)
			codes <- resp.StatusCode
		}()
	}
	<-b.started
	deadline := time.Now().Add(5 * time.Second)
	for len(srv.admit) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// The third is refused at once, text pages too.
	for _, q := range []string{"render=on", "render=off"} {
		t0 := time.Now()
		resp, body := post(t, srv.url+"/clean?"+q, page)
		errorOf(t, "queue full, "+q, resp, body, 503)
		if ra := resp.Header.Get("Retry-After"); ra == "" {
			t.Errorf("503 without Retry-After")
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("503 took %v", d)
		}
	}
	close(b.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("queued request: %d", c)
		}
	}
	if resp, _ := post(t, srv.url+"/clean?render=off", page); resp.StatusCode != 200 {
		t.Errorf("after the queue emptied: %d", resp.StatusCode)
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, `fiasco_rejected_total{reason="queue_full"} 2`) {
		t.Errorf("rejections not counted")
	}
}

func TestTimeout(t *testing.T) {
	rc, _ := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, Timeout: 300 * time.Millisecond})
	resp, body := post(t, srv.url+"/clean?render=on", readFile(t, article))
	errorOf(t, "slow page", resp, body, 504)
}

// TestTimeoutText: the per-page limit bounds the text model's work too: a
// page that takes longer than it is answered 504, not cleaned late.
func TestTimeoutText(t *testing.T) {
	big := bytes.Repeat([]byte("<div><p>A paragraph of running text, with a <a href=\"/x\">link</a> in it.</p></div>\n"), 40000)
	srv := start(t, Config{Text: textCleaner(t), Timeout: time.Millisecond, MaxBody: 8 << 20})
	resp, body := post(t, srv.url+"/clean?render=off", big)
	errorOf(t, "a big page in a millisecond", resp, body, 504)
}

func TestShutdownFinishesInFlight(t *testing.T) {
	rc, b := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, ShutdownTimeout: 10 * time.Second})
	page := readFile(t, article)
	type result struct {
		code int
		body []byte
	}
	res := make(chan result, 2)
	for i := 0; i < 2; i++ {
		go func() {
			resp, body := post(t, srv.url+"/clean?render=on&format=text", page)
			res <- result{resp.StatusCode, body}
		}()
	}
	<-b.started
	<-b.started
	srv.cancel() // SIGTERM
	// The listener closes at once: new connections are refused.
	deadline := time.Now().Add(2 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(srv.url, "http://"), time.Second)
		if err != nil {
			break
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections 2 s after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	close(b.release) // the pages finish
	for i := 0; i < 2; i++ {
		r := <-res
		if r.code != 200 || len(r.body) == 0 {
			t.Errorf("request in flight during shutdown: %d %q", r.code, r.body)
		}
	}
}

func TestShutdownDeadline(t *testing.T) {
	rc, b := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, ShutdownTimeout: 300 * time.Millisecond})
	res := make(chan int, 1)
	go func() {
		resp, body := post(t, srv.url+"/clean?render=on", readFile(t, article))
		t.Logf("after the deadline: %d %s", resp.StatusCode, body)
		res <- resp.StatusCode
	}()
	<-b.started
	t0 := time.Now()
	srv.cancel()
	select {
	case code := <-res:
		if code != 503 {
			t.Errorf("request cancelled at the shutdown deadline: %d, want 503", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("request hangs after the shutdown deadline")
	}
	t.Logf("answered %v after shutdown began", time.Since(t0).Round(time.Millisecond))
}

func TestBatchDuringShutdown(t *testing.T) {
	// A batch under way when shutdown begins is finished: every line read
	// is answered, and lines still coming are read.
	srv := start(t, Config{Workers: 2, ShutdownTimeout: 20 * time.Second})
	page := readFile(t, article)
	html, _ := json.Marshal(string(page))
	pr, pw := io.Pipe()
	resps := make(chan *http.Response, 1)
	go func() {
		resp, err := http.Post(srv.url+"/clean/batch?format=text", "application/x-ndjson", pr)
		if err != nil {
			t.Error(err)
			pr.CloseWithError(err)
			close(resps)
			return
		}
		resps <- resp
	}()
	const n = 20
	line := func(i int) { fmt.Fprintf(pw, `{"id": %d, "html": %s}`+"\n", i, html) }
	line(1)
	resp := <-resps // the batch is under way: its answer has begun
	if resp == nil {
		return
	}
	defer resp.Body.Close()
	srv.cancel() // SIGTERM
	time.Sleep(50 * time.Millisecond)
	for i := 2; i <= n; i++ {
		line(i)
	}
	pw.Close()
	ok := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var l batchLine
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Status == 200 {
			ok++
		}
	}
	if ok != n || resp.Trailer.Get("Fiasco-Batch") != "complete" {
		t.Errorf("%d of %d lines answered 200; trailer %q", ok, n, resp.Trailer.Get("Fiasco-Batch"))
	}
	// New connections are refused meanwhile.
	if _, err := http.Get(srv.url + "/healthz"); err == nil {
		t.Errorf("a new connection was accepted during shutdown")
	}
}

func TestBatchShutdownDeadline(t *testing.T) {
	// A batch still running at the shutdown deadline: the pages under way
	// and every line still coming are answered 503, none is lost.
	rc, g := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, Workers: 2, ShutdownTimeout: 2 * time.Second})
	html, _ := json.Marshal(string(readFile(t, article)))
	pr, pw := io.Pipe()
	resps := make(chan *http.Response, 1)
	go func() {
		resp, err := http.Post(srv.url+"/clean/batch?format=text&render=on", "application/x-ndjson", pr)
		if err != nil {
			t.Error(err)
			close(resps)
			return
		}
		resps <- resp
	}()
	const n = 10
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(pw, `{"id": %d, "html": %s}`+"\n", i, html)
	}
	resp := <-resps
	if resp == nil {
		return
	}
	defer resp.Body.Close()
	<-g.started
	<-g.started
	srv.cancel()
	time.Sleep(1300 * time.Millisecond) // past the requests' deadline (1 s), within the shutdown (2 s)
	for i := 4; i <= n; i++ {
		fmt.Fprintf(pw, `{"id": %d, "html": %s}`+"\n", i, html)
	}
	pw.Close()
	codes := map[int]int{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var l batchLine
		json.Unmarshal(sc.Bytes(), &l)
		codes[l.Line] = l.Status
	}
	if len(codes) != n {
		t.Errorf("%d of %d lines answered: %v", len(codes), n, codes)
	}
	for line, c := range codes {
		if c != 503 {
			t.Errorf("line %d: %d, want 503", line, c)
		}
	}
	if tr := resp.Trailer.Get("Fiasco-Batch"); !strings.HasPrefix(tr, "complete, cut short by the shutdown") {
		t.Errorf("trailer %q", tr)
	}
}

func TestSlowClients(t *testing.T) {
	var log lockedBuffer
	srv := start(t, Config{ReadTimeout: 500 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&log, nil)), AccessLog: true})
	addr := strings.TrimPrefix(srv.url, "http://")

	// Slowloris: headers that never end. The server answers 408 and
	// hangs up.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t0 := time.Now()
	fmt.Fprintf(conn, "POST /clean HTTP/1.1\r\nHost: x\r\n")
	closed := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(conn)
		closed <- b
	}()
	for i := 0; i < 40; i++ {
		if _, err := fmt.Fprintf(conn, "X-Slow-%d: y\r\n", i); err != nil {
			break
		}
		select {
		case b := <-closed:
			t.Logf("slow headers: after %v: %q", time.Since(t0).Round(time.Millisecond), b)
			if !bytes.HasPrefix(b, []byte("HTTP/1.1 408 ")) {
				t.Errorf("slow headers: answer %q, want 408", b)
			}
			goto body
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("slow headers: connection still open after %v", time.Since(t0))

body:
	// A body that trickles: 408, and the connection closes.
	conn2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	fmt.Fprintf(conn2, "POST /clean HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<html>")
	conn2.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn2), nil)
	if err != nil {
		t.Fatalf("slow body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 {
		t.Errorf("slow body: %d %s, want 408", resp.StatusCode, b)
	}
	// A request line cut short: one answer, the 408, not also net/http's
	// plain-text 400 for the half line after it.
	conn3, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn3.Close()
	io.WriteString(conn3, "POST /clean?form")
	conn3.SetReadDeadline(time.Now().Add(5 * time.Second))
	all, _ := io.ReadAll(conn3)
	if n := bytes.Count(all, []byte("HTTP/1.1 ")); n != 1 || !bytes.HasPrefix(all, []byte("HTTP/1.1 408 ")) {
		t.Errorf("a request line cut short: %d answers: %q, want the 408 alone", n, all)
	}
	checkHealth(t, srv.url, 200)

	if m := metricsText(t, srv.url); !strings.Contains(m, `fiasco_errors_total{kind="slow_client",code="408"} 3`) {
		t.Errorf("slow clients not counted")
	}
	// Each has its access log line, as every request does: the two
	// whose headers came too slowly too.
	if n := strings.Count(log.String(), "status=408"); n != 3 || strings.Count(log.String(), "headers did not arrive in time") != 2 {
		t.Errorf("%d access log lines of a 408, want 3 (2 of slow headers):\n%s", n, log.String())
	}
}
