package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBatchLineCutByTimeout: a batch line cut by the read time-out is
// answered once, 408 (not also 400 for the half line), the trailer says
// where the batch stopped, and the connection closes after the answer:
// the rest of the body, sent late, is not read as a next request.
func TestBatchLineCutByTimeout(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), ReadTimeout: 400 * time.Millisecond})
	conn := sendCutBatch(t, srv.url, "render=off&format=text", true)
	resp, lines, br := readBatch(t, conn)
	var statuses []string
	for _, bl := range lines {
		statuses = append(statuses, fmt.Sprint(bl.Status))
	}
	if got := strings.Join(statuses, " "); got != "200 408" {
		t.Errorf("answers %q, want 200 then 408 once: %+v", got, lines)
	}
	if tr := resp.Trailer.Get("Fiasco-Batch"); !strings.HasPrefix(tr, "interrupted after line 1") {
		t.Errorf("trailer %q", tr)
	}
	// The client sends the rest of its body, then another request.
	fmt.Fprintf(conn, "%x\r\n%s\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", len(`o"}`+"\n"), `o"}`+"\n")
	rest, _ := io.ReadAll(br)
	if len(rest) > 0 {
		t.Errorf("after the interrupted batch the server answered %q; want the connection closed", rest)
	}
}

// sendCutBatch opens a connection to the service at url and sends a
// batch (query: its parameters) whose first line is whole and whose
// second stops in the middle, chunked or with a Content-Length that
// promises more; the connection closes with the test.
func sendCutBatch(t *testing.T, url, query string, chunked bool) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	first := `{"id":1,"html":"<p>A paragraph of running text, long enough to be kept as the clean text.</p>"}` + "\n"
	part := `{"id":2,"html":"<p>tw`
	head := "POST /clean/batch?" + query + " HTTP/1.1\r\nHost: x\r\n"
	if chunked {
		fmt.Fprintf(conn, "%sTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n", head, len(first), first, len(part), part)
	} else {
		fmt.Fprintf(conn, "%sContent-Length: %d\r\n\r\n%s%s", head, len(first)+len(part)+100, first, part)
	}
	return conn
}

// readBatch reads a batch's answer from conn (within 10 s): the response,
// its lines, and the reader, for what follows on the connection.
func readBatch(t *testing.T, conn net.Conn) (*http.Response, []batchLine, *bufio.Reader) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	req, _ := http.NewRequest("POST", "/clean/batch", nil)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var lines []batchLine
	for _, l := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		var bl batchLine
		if err := json.Unmarshal([]byte(l), &bl); err != nil {
			t.Fatalf("answer line %q: %v", l, err)
		}
		lines = append(lines, bl)
	}
	return resp, lines, br
}

// TestQueryMalformed: a query that does not parse (a ';' separator, a bad
// %-escape) or an option given empty is refused, as an unknown parameter
// is; an empty url or name is none.
func TestQueryMalformed(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	page := readFile(t, article)
	for _, c := range []struct {
		query string
		code  int
		msg   string
	}{
		{"format=json;render=off", 400, "does not parse"},
		{"render=off&%zz=1", 400, "does not parse"},
		{"render=off&name=%zz", 400, "does not parse"},
		{"render=off&threshold=", 400, `threshold\" is empty`},
		{"format=&render=off", 400, `format\" is empty`},
		{"render=off&url=&name=", 200, ""},
	} {
		resp, body := post(t, srv.url+"/clean?"+c.query, page)
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.msg) {
			t.Errorf("?%s: %d %s; want %d and %q", c.query, resp.StatusCode, body, c.code, c.msg)
		}
	}
}

// TestQueryFaultsNamedInOrder: a query with several faults is refused
// naming the same one every time: the first parameter in sorted order.
func TestQueryFaultsNamedInOrder(t *testing.T) {
	for range 20 {
		r := httptest.NewRequest("POST", "/clean?zeta=1&format=text&mode=2&beta=3&format=json&alpha=4", nil)
		_, e := parseOptions(r)
		if e == nil || !strings.Contains(e.Msg, `unknown parameter "alpha"`) {
			t.Fatalf("refusal %v, want one naming alpha, the first in sorted order", e)
		}
	}
}

// TestBatchClientGone: a batch whose client stops taking its answers is
// counted as 499, as a /clean whose client went away, not as 200.
func TestBatchClientGone(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), WriteTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.url+"/clean/batch?render=off&format=text", pr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]any{"html": "<p>A paragraph of running text, long enough to be kept as the clean text of the page.</p>"})
	pw.Write(append(line, '\n'))
	if b := make([]byte, 1); resp.Body != nil {
		resp.Body.Read(b) // the first answer is under way
	}
	cancel() // the client goes: its connection closes
	go func() {
		for range 50 { // lines keep coming from a writer that does not know
			if _, err := pw.Write(append(line, '\n')); err != nil {
				return
			}
		}
	}()
	mt := metricsWhen(t, srv.url, func(mt string) bool {
		return metricValue(mt, `fiasco_http_requests_total{route="/clean/batch",code="499"}`) == 1
	})
	if v := metricValue(mt, `fiasco_http_requests_total{route="/clean/batch",code="200"}`); v > 0 {
		t.Errorf("the batch counted as 200 too (%v):\n%s", v, mt)
	}
}

// TestBatchTimeoutKeepsReadPages: the pages a batch read before its read
// time-out are still cleaned and answered (net/http cancels the request's
// context on the time-out; the batch's pages do not go with it), and a
// batch sent with a Content-Length that stops short is closed after its
// answer too.
func TestBatchTimeoutKeepsReadPages(t *testing.T) {
	rc, g := blockingCleaner(t)
	srv := start(t, Config{Rendered: rc, ReadTimeout: 300 * time.Millisecond})
	for _, chunked := range []bool{true, false} {
		conn := sendCutBatch(t, srv.url, "render=on&format=text", chunked)
		select {
		case <-g.started: // line 1 is being cleaned, held at the gate
		case <-time.After(10 * time.Second):
			t.Fatal("line 1 never reached the renderer")
		}
		time.Sleep(3 * srv.cfg.ReadTimeout) // the time-out comes while it waits
		go func() { g.release <- struct{}{} }()
		_, lines, br := readBatch(t, conn)
		got := map[string]int{}
		for _, bl := range lines {
			got[string(bl.ID)+"/"+fmt.Sprint(bl.Line)] = bl.Status
		}
		if got["1/1"] != 200 || got["/2"] != 408 || len(got) != 2 {
			t.Errorf("chunked %v: answers %v, want line 1 cleaned (200) and line 2 408", chunked, got)
		}
		t0 := time.Now()
		if rest, _ := io.ReadAll(br); len(rest) > 0 || time.Since(t0) > 5*time.Second {
			t.Errorf("chunked %v: after the answer %q, closed after %v; want closed", chunked, rest, time.Since(t0))
		}
	}
}
