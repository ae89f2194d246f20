package serve

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAccessLog: with Config.AccessLog, every answered request has a log
// line with its status and the X-Fiasco headers of a cleaned page, but
// for /healthz and /metrics answered 200; without it, none has.
func TestAccessLog(t *testing.T) {
	for _, on := range []bool{true, false} {
		var buf lockedBuffer
		srv := start(t, Config{Log: slog.New(slog.NewTextHandler(&buf, nil)), AccessLog: on})
		if resp, got := post(t, srv.url+"/clean?format=text&render=off&name=a.html", readFile(t, article)); resp.StatusCode != 200 {
			t.Fatalf("%d %s", resp.StatusCode, got)
		}
		checkHealth(t, srv.url, 200)
		metricsText(t, srv.url)
		if resp, err := http.Get(srv.url + "/nothing"); err != nil {
			t.Fatal(err)
		} else {
			resp.Body.Close()
		}
		if resp, _ := post(t, srv.url+"/clean?render=on", readFile(t, article)); resp.StatusCode != 501 {
			t.Fatalf("render=on without a browser: %d, want 501", resp.StatusCode)
		}
		srv.stop(t)
		var requests []string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, `msg=request`) {
				requests = append(requests, l)
			}
		}
		if !on {
			if len(requests) > 0 {
				t.Errorf("AccessLog off: %d request lines:\n%s", len(requests), buf.String())
			}
			continue
		}
		if len(requests) != 3 {
			t.Fatalf("%d request lines, want 3 (the page, the 404, the 501):\n%s", len(requests), buf.String())
		}
		// The service's failures (5xx) at WARN, the rest at INFO.
		for i, want := range [][]string{
			{"level=INFO", "method=POST", "path=/clean", "status=200", "render=off", "blocks=", "kept=", "query=\"format=text&render=off&name=a.html\""},
			{"level=INFO", "method=GET", "path=/nothing", "status=404"},
			{"level=WARN", "method=POST", "path=/clean", "status=501"},
		} {
			for _, w := range want {
				if !strings.Contains(requests[i], w) {
					t.Errorf("line %d lacks %s: %s", i+1, w, requests[i])
				}
			}
		}
	}
}

// TestBatchRescueRefused: rescue=on on a batch the text model cleans is
// refused as a whole, as on /clean, not line by line.
func TestBatchRescueRefused(t *testing.T) {
	srv := start(t, Config{})
	resp, got := post(t, srv.url+"/clean/batch?render=off&rescue=on", []byte(`{"html": "<p>A page.</p>"}`+"\n"))
	if resp.StatusCode != 400 || !bytes.Contains(got, []byte("rescue")) {
		t.Errorf("%d %s, want 400 naming rescue", resp.StatusCode, got)
	}
}

// TestAccessLogCut: a client's long query or path, and an error that quotes it,
// are cut in the log line, which says how long they were.
func TestAccessLogCut(t *testing.T) {
	var buf lockedBuffer
	srv := start(t, Config{Log: slog.New(slog.NewTextHandler(&buf, nil)), AccessLog: true})
	long := strings.Repeat("é", 20000) // 40,000 bytes, cut inside none
	if resp, _ := post(t, srv.url+"/clean?render=off&url=https://example.org/"+long, readFile(t, article)); resp.StatusCode != 200 {
		t.Fatalf("a long url=: %d", resp.StatusCode)
	}
	if resp, _ := post(t, srv.url+"/clean?x=%zz"+strings.Repeat("a", 30000), readFile(t, article)); resp.StatusCode != 400 {
		t.Fatalf("a long bad query: %d", resp.StatusCode)
	}
	if resp, err := http.Get(srv.url + "/" + strings.Repeat("p", 30000)); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != 404 {
		t.Fatalf("a long path: %d", resp.StatusCode)
	}
	srv.stop(t)
	n := 0
	for _, l := range strings.Split(buf.String(), "\n") {
		if !strings.Contains(l, "msg=request") {
			continue
		}
		n++
		if len(l) > 4*logCutAt || !strings.Contains(l, "bytes)") || !utf8.ValidString(l) {
			t.Errorf("a request line of %d bytes, want it cut to about %d per field, saying so:\n%.300s", len(l), logCutAt, l)
		}
	}
	if n != 3 {
		t.Errorf("%d request lines, want 3:\n%.2000s", n, buf.String())
	}
}
