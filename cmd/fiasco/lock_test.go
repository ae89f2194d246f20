//go:build unix && !solaris && !aix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fiasco-project/fiasco/corpus"
)

// TestCleanBusyBeforeBrowser: a batch whose output another run is writing,
// or has claimed while it starts, stops before it starts a browser. The browser here is a script that
// leaves a mark when started.
func TestCleanBusyBeforeBrowser(t *testing.T) {
	dir := t.TempDir()
	browser, mark := markingBrowser(t, dir)
	var pages []string
	for _, id := range []string{"a", "b"} {
		p := filepath.Join(dir, id+".html")
		if err := os.WriteFile(p, []byte("<html><body><p>A paragraph of page "+id+".</p></body></html>"), 0o644); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	out := filepath.Join(dir, "crawl.jsonl")
	first, err := corpus.Open(corpus.OutputOptions{Format: corpus.JSONL, Path: out})
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"clean", "-q", "--format", "jsonl", "--chromium", browser, "-o", out}, pages...)
	code, _, stderr := fiasco(t, args...)
	if code == 0 || !strings.Contains(stderr, "another run is writing it") {
		t.Errorf("output held by another run: exit %d, stderr %q; want it refused", code, stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("the refused run started the browser")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// A first run still starting (its output claimed, not yet open) holds
	// it off as well.
	release, err := corpus.Claim(corpus.JSONL, out)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fiasco(t, args...); code == 0 || !strings.Contains(stderr, "another run is writing it") {
		t.Errorf("output claimed by a run starting: exit %d, stderr %q; want it refused", code, stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("the refused run started the browser")
	}
	release(true)
	// A run whose browser fails leaves no empty output behind.
	fresh := filepath.Join(dir, "fresh.jsonl")
	if code, _, _ := fiasco(t, append([]string{"clean", "-q", "--format", "jsonl", "--chromium", browser, "-o", fresh}, pages...)...); code == 0 {
		t.Errorf("a browser that fails: exit 0")
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("a run that never started left %s behind", fresh)
	}
	os.Remove(mark)
	// Once free, the same run gets as far as the browser (which fails).
	code, _, stderr = fiasco(t, args...)
	if _, err := os.Stat(mark); code == 0 || err != nil {
		t.Errorf("free output: exit %d, browser started: %v (stderr %q); want the browser tried", code, err == nil, stderr)
	}
}

// TestResumeOtherSettingsBeforeBrowser: a --resume whose settings differ
// from the earlier run's is refused before a browser starts.
func TestResumeOtherSettingsBeforeBrowser(t *testing.T) {
	dir := t.TempDir()
	browser, mark := markingBrowser(t, dir)
	page := filepath.Join(dir, "a.html")
	if err := os.WriteFile(page, []byte("<html><body><p>A paragraph of running text, long enough to be kept as the page's own content.</p></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "crawl.jsonl")
	if code, _, stderr := fiasco(t, "clean", "-q", "--no-render", "--format", "jsonl", "-o", out, page); code != 0 {
		t.Fatalf("first run: exit %d, stderr %q", code, stderr)
	}
	// The default (rendered) model where the first run had the text model.
	code, _, stderr := fiasco(t, "clean", "-q", "--resume", "--chromium", browser, "--format", "jsonl", "-o", out, page)
	if code == 0 || !strings.Contains(stderr, "other settings") || !strings.Contains(stderr, "render false, now true") {
		t.Errorf("resume with the rendered model: exit %d, stderr %q; want it refused for its settings", code, stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("the refused resume started the browser")
	}
	// The same settings resume (nothing left to do).
	if code, _, stderr := fiasco(t, "clean", "-q", "--resume", "--no-render", "--format", "jsonl", "-o", out, page); code != 0 {
		t.Errorf("resume with the same settings: exit %d, stderr %q", code, stderr)
	}
}

// markingBrowser writes to dir a browser script that leaves the file mark
// when started, then fails.
func markingBrowser(t *testing.T, dir string) (browser, mark string) {
	t.Helper()
	mark = filepath.Join(dir, "started")
	browser = filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\ntouch '"+mark+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return browser, mark
}

// TestListFromPipe: a list of paths in a pipe (-i <(find ...), a named
// pipe) is read by the run alone: the check for outputs listed among
// the inputs, which reads a list file first, leaves it be.
func TestListFromPipe(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "a.html")
	if err := os.WriteFile(page, []byte("<html><body><p>A paragraph of running text, long enough to be kept as the page's own content.</p></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "list")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString(page + "\n")
			f.Close()
		}
	}()
	code, _, stderr := fiasco(t, "clean", "-q", "--no-render", "-o", filepath.Join(dir, "out"), "-i", fifo)
	if code != 0 || !strings.Contains(stderr, "1 page, 1 cleaned") {
		t.Errorf("exit %d, stderr %q; want the listed page cleaned", code, stderr)
	}
}
