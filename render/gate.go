package render

import (
	"context"
	"sync"
)

// gate bounds the bytes of the documents rendered at once
// (Options.MaxInflightBytes): a renderer process takes memory in
// proportion to its page (about 1.4 GB for a 6.5 MB page of table rows),
// so two or three large pages at once can exhaust a container's memory
// where one at a time would not. Pages are admitted in arrival order; a
// page is admitted when the bytes in flight and its own fit under the
// limit, or when nothing is in flight (a page larger than the limit
// renders alone). Pages wait behind a large one that waits, so it is not
// starved. A document of gateFree bytes or fewer does not pass the gate
// at all (nor count in it): it costs little memory, and a health probe's
// page must not queue behind large ones and be taken for a hung browser.
type gate struct {
	max int64 // <= 0: no limit

	mu        sync.Mutex
	used      int64           // bytes of the pages admitted
	next, end uint64          // the ticket to admit next, the next ticket to hand out
	gone      map[uint64]bool // tickets of waiters whose ctx ended before their turn
	changed   chan struct{}   // closed and replaced on every admission and release
}

// gateFree is the largest document that renders without the gate.
const gateFree = 64 << 10

func newGate(max int64) *gate {
	return &gate{max: max, gone: map[uint64]bool{}, changed: make(chan struct{})}
}

// acquire waits until the page of n bytes may render, or ctx ends. The
// caller releases n once the page is done (not when acquire failed).
func (g *gate) acquire(ctx context.Context, n int64) error {
	if g == nil || g.max <= 0 || n <= gateFree {
		return nil
	}
	g.mu.Lock()
	ticket := g.end
	g.end++
	for {
		if ticket == g.next && (g.used == 0 || g.used+n <= g.max) {
			g.used += n
			g.next++
			g.skipGone()
			g.signal()
			g.mu.Unlock()
			return nil
		}
		wait := g.changed
		g.mu.Unlock()
		select {
		case <-wait:
			g.mu.Lock()
		case <-ctx.Done():
			g.mu.Lock()
			if ticket == g.next {
				// Its turn passes to the next ticket.
				g.next++
				g.skipGone()
				g.signal()
			} else {
				g.gone[ticket] = true
			}
			g.mu.Unlock()
			return ctx.Err()
		}
	}
}

// release gives back the n bytes of a page done.
func (g *gate) release(n int64) {
	if g == nil || g.max <= 0 || n <= gateFree {
		return
	}
	g.mu.Lock()
	g.used -= n
	g.signal()
	g.mu.Unlock()
}

// skipGone moves the turn past the tickets of waiters gone (g.mu held).
func (g *gate) skipGone() {
	for g.gone[g.next] {
		delete(g.gone, g.next)
		g.next++
	}
}

// signal wakes every waiter to look again (g.mu held).
func (g *gate) signal() {
	close(g.changed)
	g.changed = make(chan struct{})
}
