package render

import (
	"context"
	"errors"
	"testing"
	"time"
)

// admitted starts acquire(n) on g and reports whether it returned within
// d; the channel gives its error (at once, or once it returns).
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

// result waits for an acquire started by admitted, failing t after a
// while rather than hanging.
func result(t *testing.T, what string, ch chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: not admitted after 5 s", what)
		return nil
	}
}

// TestGate: pages are admitted while their bytes fit under the limit, a
// page larger than the limit alone, in arrival order (a small page does
// not pass a large one that waits), a waiter whose ctx ends gives up its
// turn, and a page of gateFree bytes or fewer does not wait at all.
func TestGate(t *testing.T) {
	ctx := context.Background()
	const short = 50 * time.Millisecond
	const u = gateFree + 1 // the smallest page the gate holds
	g := newGate(10 * u)
	if _, ok := admitted(ctx, g, 4*u, short); !ok {
		t.Fatal("4 of 10 units: not admitted")
	}
	if _, ok := admitted(ctx, g, 5*u, short); !ok {
		t.Fatal("4+5 of 10 units: not admitted")
	}
	big, ok := admitted(ctx, g, 30*u, short)
	if ok {
		t.Fatal("a page over the limit admitted beside others")
	}
	small, ok := admitted(ctx, g, u, short)
	if ok {
		t.Fatal("a small page passed a large one that waits")
	}
	if _, ok := admitted(ctx, g, gateFree, short); !ok {
		t.Fatal("a page of gateFree bytes waited (a health probe's page must not)")
	}
	g.release(gateFree) // a no-op, as its acquire was
	g.release(4 * u)
	time.Sleep(short)
	if len(big) != 0 || len(small) != 0 {
		t.Fatal("admitted with 5 units still in flight")
	}
	g.release(5 * u)
	if err := result(t, "the large page, alone", big); err != nil {
		t.Fatal(err)
	}
	time.Sleep(short)
	if len(small) != 0 {
		t.Fatal("a small page admitted beside a page over the limit")
	}
	g.release(30 * u)
	if err := result(t, "the small page after the large one", small); err != nil {
		t.Fatal(err)
	}

	// Waiters that give up: their turns pass on, whether first in line or
	// not, also when the next in line gave up before.
	c1, cancel1 := context.WithCancel(ctx)
	c2, cancel2 := context.WithCancel(ctx)
	first, _ := admitted(c1, g, 20*u, short)  // waits: 1 unit in flight
	second, _ := admitted(c2, g, 20*u, short) // behind it
	third, ok := admitted(ctx, g, 2*u, short) // behind both; fits beside the 1 unit
	if ok {
		t.Fatal("a page passed the waiting ones")
	}
	cancel2() // the second gives up first, while not first in line
	if err := result(t, "the second, cancelled", second); !errors.Is(err, context.Canceled) {
		t.Errorf("a waiter whose ctx ended: %v", err)
	}
	cancel1() // then the first: the turn passes the second's to the third
	if err := result(t, "the first, cancelled", first); !errors.Is(err, context.Canceled) {
		t.Errorf("a waiter whose ctx ended: %v", err)
	}
	// The third fits beside the unit in flight: admitted with no release.
	if err := result(t, "the page behind two that gave up", third); err != nil {
		t.Fatal(err)
	}
	g.release(u)
	g.release(2 * u)
	g.mu.Lock()
	if g.used != 0 || g.next != g.end || len(g.gone) != 0 {
		t.Errorf("at rest: %d bytes in use, turn %d of %d, %d tickets gone", g.used, g.next, g.end, len(g.gone))
	}
	g.mu.Unlock()

	// No limit: anything at once.
	g = newGate(-1)
	for range 3 {
		if _, ok := admitted(ctx, g, 1<<40, short); !ok {
			t.Fatal("no limit: a page waits")
		}
	}
}
