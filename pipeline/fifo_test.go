//go:build unix

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestStalledFIFO: a page that is a named pipe no writer opens keeps
// neither CleanInput nor Stream past its context's end.
func TestStalledFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "page.html")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	t.Cleanup(func() {
		// A writer that comes and goes ends the opens left waiting.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	c := &Cleaner{}
	within := func(what string, run func(ctx context.Context) error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- run(ctx) }()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s: error %v, want one wrapping context.DeadlineExceeded", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading the named pipe 10 s after its context ended", what)
		}
	}
	within("CleanInput", func(ctx context.Context) error {
		_, err := c.CleanInput(ctx, Input{Name: fifo})
		return err
	})
	within("Stream", func(ctx context.Context) error {
		var errs []error
		c.Stream(ctx, slices.Values([]Input{{Name: fifo}}), BatchOptions{Workers: 1}, func(o Outcome) { errs = append(errs, o.Err) })
		if len(errs) != 1 {
			return fmt.Errorf("%d outcomes, want 1", len(errs))
		}
		return errs[0] // the page's
	})
}
