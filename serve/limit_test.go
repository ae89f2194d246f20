package serve

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// closingClient opens a connection per request and closes it after.
var closingClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// healthzOn asks /healthz on the kept-alive connection c (the i-th) and
// reads the answer 200 whole: the service has taken c, and c is idle
// after it.
func healthzOn(t *testing.T, c net.Conn, i int) {
	t.Helper()
	io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: fiasco\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("connection %d: %v %v", i, resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// metricValue returns the value of the series named exactly name (with
// its labels) in a metrics text, or -1.
func metricValue(mt, name string) float64 {
	for _, line := range strings.Split(mt, "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

// metricsWhen polls /metrics on fresh connections until ok accepts it,
// for at most 10 s.
func metricsWhen(t *testing.T, url string, ok func(mt string) bool) string {
	t.Helper()
	var mt string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := closingClient.Get(url + "/metrics")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			if mt = string(b); ok(mt) {
				return mt
			}
		}
	}
	t.Fatalf("metrics not as expected within 10 s; last:\n%s", mt)
	return ""
}

// TestMaxConns: with MaxConns connections open and none idle (each in the
// middle of its request's body), one more is answered 503 with
// Retry-After once its headers are read (before its body: a 4 MB upload
// too), and one that sends nothing is closed without an answer; closing
// one gives its place back.
func TestMaxConns(t *testing.T) {
	var logs lockedBuffer
	srv := start(t, Config{Text: textCleaner(t), MaxConns: 3, Log: slog.New(slog.NewTextHandler(&logs, nil)), AccessLog: true})
	addr := strings.TrimPrefix(srv.url, "http://")
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// The service asks for the body once it reads it: the connection
		// is busy from then on.
		io.WriteString(c, "POST /clean HTTP/1.1\r\nHost: fiasco\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.Contains(line, "100 Continue") {
			t.Fatalf("held connection: %q, %v; want 100 Continue", line, err)
		}
		held = append(held, c)
	}
	// Accepted in turn: this one is refused before the two below (and
	// lingers as one of the three refusals that may).
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	refused := func(what string, resp *http.Response, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(body), "too many connections") {
			t.Errorf("%s: %d, Retry-After %q: %s; want 503, 1, too many connections", what, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	resp, err := closingClient.Get(srv.url + "/healthz")
	refused("a fourth connection", resp, err)
	big := bytes.Repeat([]byte("<p>a page of many paragraphs</p>\n"), 4<<20/34)
	resp, err = closingClient.Post(srv.url+"/clean", "text/html", bytes.NewReader(big))
	refused("a fourth connection sending 4 MB", resp, err)

	silent.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := silent.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("a connection that sends nothing: read %d bytes, %v; want it closed without an answer", n, err)
	}
	held[0].Close()
	mt := metricsWhen(t, srv.url, func(mt string) bool {
		return metricValue(mt, `fiasco_connections_closed_total{reason="dropped"}`) >= 1
	})
	if n := metricValue(mt, `fiasco_rejected_total{reason="connections"}`); n < 2 {
		t.Errorf("refusals counted: %v, want 2 or more", n)
	}
	// A refusal is the service failing a client: logged at WARN, as
	// every other 5xx of its own.
	refusals := 0
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "error_kind=connections") {
			refusals++
			if !strings.Contains(l, "level=WARN") || !strings.Contains(l, "status=503") {
				t.Errorf("refusal logged as %q, want level=WARN and status=503", l)
			}
		}
	}
	if refusals < 2 {
		t.Errorf("%d refusals logged, want 2 or more:\n%s", refusals, logs.String())
	}
	if n := metricValue(mt, `fiasco_http_requests_total{route="other",code="503"}`); n < 2 {
		t.Errorf("503 requests counted: %v, want 2 or more", n)
	}
	if metricValue(mt, "fiasco_connections_max") != 3 || metricValue(mt, "fiasco_connections") != 3 {
		t.Errorf("fiasco_connections_max %v, fiasco_connections %v; want 3, 3 (the two held and this one)",
			metricValue(mt, "fiasco_connections_max"), metricValue(mt, "fiasco_connections"))
	}
}

// TestMaxConnsIdle: a new connection closes the one idle longest between
// two keep-alive requests, rather than being refused.
func TestMaxConnsIdle(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), MaxConns: 2})
	addr := strings.TrimPrefix(srv.url, "http://")
	var idle []net.Conn
	for i := range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		healthzOn(t, c, i)
		idle = append(idle, c)
		time.Sleep(200 * time.Millisecond) // the first idle longer
	}
	// The server marks a connection idle just after its answer: a 503
	// before that is possible, not after.
	mt := metricsWhen(t, srv.url, func(mt string) bool { return true })
	if n := metricValue(mt, `fiasco_connections_closed_total{reason="evicted"}`); n != 1 {
		t.Errorf("connections evicted: %v, want 1", n)
	}
	idle[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := idle[0].Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("the connection idle longest: read %d bytes, %v; want it closed (EOF)", n, err)
	}
}

// TestMaxConnsBareConnect: a connection accepted that has sent nothing is
// idle: a new one closes it.
func TestMaxConnsBareConnect(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), MaxConns: 1})
	bare, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	mt := metricsWhen(t, srv.url, func(string) bool { return true })
	if n := metricValue(mt, `fiasco_connections_closed_total{reason="evicted"}`); n != 1 {
		t.Errorf("connections evicted: %v, want 1", n)
	}
	bare.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := bare.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("the bare connection: read %d bytes, %v; want it closed (EOF)", n, err)
	}
}

// TestNoMaxConns: MaxConns -1 sets no limit.
func TestNoMaxConns(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), MaxConns: -1})
	addr := strings.TrimPrefix(srv.url, "http://")
	for i := range DefaultMaxConns + 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i >= DefaultMaxConns {
			healthzOn(t, c, i)
		}
	}
	if mt := metricsText(t, srv.url); strings.Contains(mt, "fiasco_connections") {
		t.Errorf("metrics of a service without a connection limit name one")
	}
}
