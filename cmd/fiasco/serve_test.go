package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServe runs fiasco serve without Chromium: its answer is what fiasco
// clean prints; fiasco health sees it alive; cancelling the run (the
// signal) stops it.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--no-render", "--addr", addr, "--workers", "1"}, io.Discard, &stderr)
	}()

	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		if code, _, _ := fiasco(t, "health", "--url", base+"/healthz", "--timeout", "1s"); code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fiasco serve not healthy after 10 s; stderr:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	page := filepath.Join("testdata", "article.html")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"cleaneval", "text", "html"} {
		resp, err := http.Post(base+"/clean?format="+format, "text/html", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		code, want, errs := fiasco(t, "clean", "--no-render", "--format", format, page)
		if code != 0 {
			t.Fatalf("fiasco clean: %d %s", code, errs)
		}
		if resp.StatusCode != 200 || string(got) != want {
			t.Errorf("format %s: serve answers %d %q, clean prints %q", format, resp.StatusCode, clip(got), clip([]byte(want)))
		}
	}
	resp, err := http.Post(base+"/clean?render=on", "text/html", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("render=on with --no-render: %d, want 501", resp.StatusCode)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("fiasco serve after its context ended: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("fiasco serve did not stop")
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("no stop in the log:\n%s", stderr.String())
	}
	if code, _, errs := fiasco(t, "health", "--url", base+"/healthz", "--timeout", "1s"); code != 1 || errs == "" {
		t.Errorf("fiasco health on a stopped service: exit %d, stderr %q; want 1 and a message", code, errs)
	}
	if code, _, errs := fiasco(t, "serve", "extra"); code != 2 {
		t.Errorf("fiasco serve extra: exit %d (%s), want 2", code, errs)
	}
}

func clip(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// TestServeFlagValues: limits of 0 or less, which serve.New would take for
// its defaults, and --chromium with --no-render are usage errors, not
// silently replaced or ignored.
func TestServeFlagValues(t *testing.T) {
	for _, args := range [][]string{
		{"--max-body", "0"}, {"--max-body", "-1"}, {"--timeout", "0"}, {"--read-timeout", "-1s"},
		{"--write-timeout", "0s"}, {"--shutdown-timeout", "0"}, {"--workers", "-3"}, {"--queue", "-5"}, {"--max-conns", "0"}, {"--max-conns", "-2"},
		{"--chromium", "/nonexistent"}, {"--remote", "ws://127.0.0.1:1"},
	} {
		code, _, errs := fiasco(t, append([]string{"serve", "--no-render", "--addr", "127.0.0.1:1"}, args...)...)
		if code != 2 || !strings.Contains(errs, args[0]) {
			t.Errorf("serve %v: exit %d, stderr %q; want a usage error naming %s", args, code, errs, args[0])
		}
	}
}

// TestServeAddrInUse: an address in use fails before Chromium starts,
// naming --addr.
func TestServeAddrInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, args := range [][]string{{}, {"--no-render"}} {
		start := time.Now()
		code, _, errs := fiasco(t, append([]string{"serve", "--addr", ln.Addr().String()}, args...)...)
		if code != 1 || !strings.Contains(errs, "--addr "+ln.Addr().String()) || !strings.Contains(errs, "address already in use") || strings.Contains(errs, "Chromium") {
			t.Errorf("serve %v on an address in use: exit %d, stderr %q; want 1 naming --addr, before Chromium", args, code, errs)
		}
		t.Logf("serve %v: failed in %v", args, time.Since(start))
	}
}
