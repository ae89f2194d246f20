package vcache

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// Lazy is a Visualizer that starts the one it wraps when it is first
// asked to measure a page: wrapped in a Cache, a run whose pages are all
// cached never starts a browser. A failed start is returned to that call
// and tried again on the next. Calls that come while a start is under way
// wait for it as long as their own context allows. Lazy is safe for
// concurrent use if the started Visualizer is.
type Lazy struct {
	start func(context.Context) (pipeline.Visualizer, error)

	mu sync.Mutex
	v  pipeline.Visualizer
	// starting is closed when the start under way ends; nil when none
	// is.
	starting chan struct{}
}

// NewLazy returns a Lazy that calls start on first use (for example
// pipeline.NewVisualizer with the render options).
func NewLazy(start func(context.Context) (pipeline.Visualizer, error)) *Lazy {
	return &Lazy{start: start}
}

// Visual starts the wrapped Visualizer if it has not been, and asks it.
func (l *Lazy) Visual(ctx context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	v, err := l.started(ctx)
	if err != nil {
		return nil, err
	}
	return v.Visual(ctx, d)
}

// started returns the started Visualizer, starting it with ctx when no
// start is under way, else waiting for that one; one that fails leaves
// the next call to start again (this one, when it waited).
func (l *Lazy) started(ctx context.Context) (pipeline.Visualizer, error) {
	for {
		l.mu.Lock()
		if l.v != nil {
			v := l.v
			l.mu.Unlock()
			return v, nil
		}
		wait := l.starting
		if wait == nil {
			break
		}
		l.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, fmt.Errorf("vcache: waiting for the visualizer to start: %w", ctx.Err())
		}
	}
	done := make(chan struct{})
	l.starting = done
	l.mu.Unlock()
	var v pipeline.Visualizer
	var err error
	defer func() {
		// Also when start panics: the waiting calls start again.
		l.mu.Lock()
		if err == nil {
			l.v = v
		}
		l.starting = nil
		l.mu.Unlock()
		close(done)
	}()
	v, err = l.start(ctx)
	return v, err
}

// Started reports whether the wrapped Visualizer was started.
func (l *Lazy) Started() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v != nil
}

// Close closes the started Visualizer if it is an io.Closer (a
// pipeline.ChromeVisualizer stops its browser); without one it does
// nothing. A start under way is waited for first, so that the browser
// it starts is closed too.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.starting != nil { // a start under way ends first
		wait := l.starting
		l.mu.Unlock()
		<-wait
		l.mu.Lock()
	}
	c, ok := l.v.(io.Closer)
	l.v = nil
	if ok {
		return c.Close()
	}
	return nil
}
