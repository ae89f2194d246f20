//go:build unix

package corpus

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// stalled runs the inputs of args and lists (standard input being stdin) until ctx
// is cancelled 100 ms in, and returns their errors; it fails the test when
// the source is still blocked 10 s after the cancellation.
func stalled(t *testing.T, stdin io.Reader, lists []string, args ...string) []error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []error, 1)
	go func() {
		var errs []error
		for in := range NewSource(Options{Stdin: stdin}).Inputs(ctx, args, lists) {
			errs = append(errs, in.Err)
		}
		done <- errs
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case errs := <-done:
		return errs
	case <-time.After(10 * time.Second):
		t.Fatalf("%v: still blocked 10 s after the cancellation", args)
		return nil
	}
}

// TestStalledStdin: standard input whose writer stalls, before its first
// byte and in the middle of a WARC record, does not keep a cancelled run
// waiting.
func TestStalledStdin(t *testing.T) {
	for _, head := range []string{"", "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5000\r\n\r\nHTTP/1.1 200 OK\r\n"} {
		pr, pw := io.Pipe()
		defer pw.Close()
		go pw.Write([]byte(head))
		errs := stalled(t, pr, nil, "-")
		if head == "" && len(errs) != 1 {
			// A WARC's record under way gets none: the resumed run
			// reads from it (see cmd/fiasco's clean -h).
			t.Fatalf("head %q: %d inputs reported, want 1", head, len(errs))
		}
		for _, err := range errs {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("head %q: error %v, want one wrapping context.Canceled (an interrupted page)", head, err)
			}
		}
	}
}

// TestStalledFIFO: a named pipe that no writer opens does not keep a
// cancelled run waiting either, as a page or as a list of inputs (-i).
func TestStalledFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "page.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	errs := stalled(t, nil, nil, fifo)
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("errors %v, want one wrapping context.Canceled", errs)
	}
	errs = stalled(t, nil, []string{fifo})
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("as a list: errors %v, want one wrapping context.Canceled", errs)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	errs = stalled(t, pr, []string{"-"})
	for _, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a list from stalled standard input: error %v, want one wrapping context.Canceled", err)
		}
	}
}
