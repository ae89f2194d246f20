package vcache

import (
	"context"
	"io"
	"sync"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// Lazy is a Visualizer that starts the one it wraps when it is first
// asked to measure a page: wrapped in a Cache, a run whose pages are all
// cached never starts a browser. A failed start is returned to that call
// and tried again on the next. Lazy is safe for concurrent use if the
// started Visualizer is.
type Lazy struct {
	start func(context.Context) (pipeline.Visualizer, error)

	mu sync.Mutex
	v  pipeline.Visualizer
}

// NewLazy returns a Lazy that calls start on first use (for example
// pipeline.NewVisualizer with the render options).
func NewLazy(start func(context.Context) (pipeline.Visualizer, error)) *Lazy {
	return &Lazy{start: start}
}

// Visual starts the wrapped Visualizer if it has not been, and asks it.
func (l *Lazy) Visual(ctx context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	l.mu.Lock()
	if l.v == nil {
		v, err := l.start(ctx)
		if err != nil {
			l.mu.Unlock()
			return nil, err
		}
		l.v = v
	}
	v := l.v
	l.mu.Unlock()
	return v.Visual(ctx, d)
}

// Started reports whether the wrapped Visualizer was started.
func (l *Lazy) Started() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v != nil
}

// Close closes the started Visualizer if it is an io.Closer (a
// pipeline.ChromeVisualizer stops its browser); without one it does
// nothing.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.v.(io.Closer)
	l.v = nil
	if ok {
		return c.Close()
	}
	return nil
}
