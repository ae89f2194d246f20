//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUnfinishedRefused: a batch interrupted after its first page (the
// next input, a named pipe no one writes, holds it there) leaves an
// output that the same command without --resume refuses to overwrite,
// leaving it as it was; --resume with --overwrite is a usage error;
// --overwrite starts afresh, and the output of a run that finished is
// overwritten without it.
func TestUnfinishedRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	os.WriteFile(filepath.Join(in, "a.html"), []byte("<p>Some text of a page, long enough to be kept by the model.</p>"), 0o644)
	fifo := filepath.Join(dir, "b.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	out := filepath.Join(dir, "out.jsonl")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan int)
	var stderr strings.Builder
	go func() {
		var stdout strings.Builder
		done <- runMain(ctx, []string{"clean", "--no-render", "-q", "--workers", "1", "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo}, &stdout, &stderr)
	}()
	for deadline := time.Now().Add(30 * time.Second); fileSize(out) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel(&signalError{sig: syscall.SIGINT})
	if code := <-done; code != 130 {
		t.Fatalf("interrupted run: exit %d, want 130; stderr:\n%s", code, stderr.String())
	}
	before, _ := os.ReadFile(out)
	if !bytes.Contains(before, []byte("a.html")) {
		t.Fatalf("the interrupted run's output lacks its first page: %q", before)
	}
	os.Remove(fifo)
	os.WriteFile(fifo, []byte("<p>Another page, of text enough to be kept by the model too.</p>"), 0o644)
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo)
	if now, _ := os.ReadFile(out); code != 1 || !strings.Contains(errs, "holds the output of an earlier run that did not finish") || !bytes.Equal(now, before) {
		t.Errorf("rerun without --resume: exit %d, stderr:\n%s", code, errs)
	}
	if code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, "--resume", "--overwrite", filepath.Join(in, "a.html"), fifo); code != 2 {
		t.Errorf("--resume --overwrite: exit %d, want 2; stderr:\n%s", code, errs)
	}
	for _, flag := range []string{"--overwrite", "-q"} { // -q: no --overwrite, the run before finished
		code, _, errs = fiasco(t, "clean", "--no-render", "-q", flag, "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo)
		if code != 0 || !strings.Contains(errs, "2 pages, 2 cleaned") || !strings.Contains(errs, "it is overwritten") {
			t.Errorf("rerun %s: exit %d, stderr:\n%s", flag, code, errs)
		}
	}
	// A resume refused for other inputs leaves the finished run finished.
	code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--resume", "--format", "jsonl", "-o", out, fifo)
	if code == 0 || !strings.Contains(errs, "these are not its inputs") {
		t.Errorf("resume with other inputs: exit %d, stderr:\n%s", code, errs)
	}
	code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo)
	if code != 0 || !strings.Contains(errs, "it is overwritten") {
		t.Errorf("after a refused resume: exit %d, stderr:\n%s", code, errs)
	}
	// Moved without its settings file, whether it finished cannot be
	// told: refused but for --overwrite.
	os.Remove(filepath.Join(dir, ".out.jsonl.settings.json"))
	before, _ = os.ReadFile(out)
	code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo)
	if now, _ := os.ReadFile(out); code != 1 || !strings.Contains(errs, "without the settings file that run wrote beside it") || !bytes.Equal(now, before) {
		t.Errorf("without its settings file: exit %d, stderr:\n%s", code, errs)
	}
	if code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--overwrite", "--format", "jsonl", "-o", out, filepath.Join(in, "a.html"), fifo); code != 0 {
		t.Errorf("without its settings file, --overwrite: exit %d, stderr:\n%s", code, errs)
	}
}
