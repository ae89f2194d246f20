package render

import (
	"context"
	"errors"
	"testing"
	"time"
)

// admitted reports whether acquire(n) on g returns within d (and then
// holds n), and its error.
func admitted(ctx context.Context, g *gate, n int64, d time.Duration) (chan error, bool) {
	ch := make(chan error, 1)
	go func() { ch <- g.acquire(ctx, n) }()
	select {
	case err := <-ch:
		ch <- err
		return ch, true
	case <-time.After(d):
		return ch, false
	}
}

// TestGate: pages are admitted while their bytes fit under the limit, a
// page larger than the limit alone, in arrival order (a small page does
// not pass a large one that waits), and a waiter whose ctx ends gives up
// its turn.
func TestGate(t *testing.T) {
	ctx := context.Background()
	const short = 50 * time.Millisecond
	g := newGate(10)
	if _, ok := admitted(ctx, g, 4, short); !ok {
		t.Fatal("4 of 10 bytes: not admitted")
	}
	if _, ok := admitted(ctx, g, 5, short); !ok {
		t.Fatal("4+5 of 10 bytes: not admitted")
	}
	big, ok := admitted(ctx, g, 30, short)
	if ok {
		t.Fatal("a page over the limit admitted beside others")
	}
	small, ok := admitted(ctx, g, 1, short)
	if ok {
		t.Fatal("a small page passed a large one that waits")
	}
	g.release(4)
	time.Sleep(short)
	if len(big) != 0 || len(small) != 0 {
		t.Fatal("admitted with 5 bytes still in flight")
	}
	g.release(5)
	if err := <-big; err != nil {
		t.Fatalf("the large page, alone: %v", err)
	}
	time.Sleep(short)
	if len(small) != 0 {
		t.Fatal("a small page admitted beside a page over the limit")
	}
	g.release(30)
	if err := <-small; err != nil {
		t.Fatal(err)
	}

	// A waiter that gives up: its turn passes on, also when it was not
	// first in line.
	cctx, cancel := context.WithCancel(ctx)
	first, _ := admitted(cctx, g, 20, short) // waits: 1 byte in flight
	second, _ := admitted(ctx, g, 20, short) // waits behind it
	third, _ := admitted(cctx, g, 20, short) // waits behind both
	fourth, ok := admitted(ctx, g, 2, short) // waits behind all
	if ok {
		t.Fatal("a page passed the waiting ones")
	}
	cancel()
	for _, ch := range []chan error{first, third} {
		if err := <-ch; !errors.Is(err, context.Canceled) {
			t.Errorf("a waiter whose ctx ended: %v", err)
		}
	}
	g.release(1)
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	g.release(20)
	if err := <-fourth; err != nil {
		t.Fatalf("the page behind the one that gave up: %v", err)
	}

	// No limit: anything at once.
	g = newGate(-1)
	for range 3 {
		if _, ok := admitted(ctx, g, 1<<40, short); !ok {
			t.Fatal("no limit: a page waits")
		}
	}
}
