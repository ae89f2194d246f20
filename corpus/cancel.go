package corpus

import (
	"context"
	"fmt"
	"io"
	"os"
)

// cancelReader reads r, which may block for good (standard input, a pipe
// whose writer stalls), until ctx is done: a Read then returns at once
// with an error wrapping ctx.Err(), and so does every Read after it. The
// read under way goes on in its goroutine and its bytes are dropped; the
// process is about to end, and nothing else reads r.
type cancelReader struct {
	ctx  context.Context
	name string
	r    io.Reader
	buf  []byte
	res  chan readResult
	dead error
}

type readResult struct {
	n   int
	err error
}

func newCancelReader(ctx context.Context, name string, r io.Reader) *cancelReader {
	return &cancelReader{ctx: ctx, name: name, r: r, res: make(chan readResult, 1)}
}

func (c *cancelReader) Read(p []byte) (int, error) {
	if c.dead != nil {
		return 0, c.dead
	}
	if err := c.ctx.Err(); err != nil {
		c.dead = fmt.Errorf("%s: reading stopped: %w", c.name, err)
		return 0, c.dead
	}
	if len(p) == 0 {
		return 0, nil
	}
	// The goroutine reads into c.buf, never into p: p may be reused by
	// the caller once a cancelled Read has returned.
	if cap(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	go func() {
		n, err := c.r.Read(buf)
		c.res <- readResult{n, err}
	}()
	select {
	case r := <-c.res:
		return copy(p, buf[:r.n]), r.err
	case <-c.ctx.Done():
		c.buf = nil // still the goroutine's
		c.dead = fmt.Errorf("%s: reading stopped: %w", c.name, c.ctx.Err())
		return 0, c.dead
	}
}

// openCancel opens path, which may not be a regular file, as os.Open does,
// but gives up when ctx is done first: opening a named pipe blocks until
// a writer opens it. The open under way then goes on in its goroutine and
// closes what it opens.
func openCancel(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("%s: opening stopped: %w", path, ctx.Err())
	}
}
