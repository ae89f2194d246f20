package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// Go's HTTP server hangs up without a word on a client whose headers do
// not arrive within ReadHeaderTimeout (a slowloris). The service answers
// it 408 first, so that a slow client learns why: watchedConn notices a
// read that timed out after bytes of a request were read and before its
// handler began, and writes the 408 itself; the server then closes the
// connection as before.

type watchedListener struct {
	net.Listener
	onSlow func() // counts the 408s
}

func (l watchedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c, onSlow: l.onSlow}, nil
}

type watchedConn struct {
	net.Conn
	onSlow func()

	mu        sync.Mutex
	inHandler bool // a request's handler runs
	pending   bool // bytes of a request read, its handler not begun
	answered  bool // the 408 went out
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > 0 && !c.inHandler {
		c.pending = true
	}
	if err != nil && c.pending && !c.inHandler && !c.answered && errors.Is(err, os.ErrDeadlineExceeded) {
		c.answered = true
		body := `{"error":"the request's headers did not arrive in time","status":408}` + "\n"
		c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		fmt.Fprintf(c.Conn, "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		if c.onSlow != nil {
			c.onSlow()
		}
	}
	return n, err
}

// CloseWrite passes net/http's half-close through.
func (c *watchedConn) CloseWrite() error { return closeWrite(c.Conn) }

// begin and end bracket a request's handler.
func (c *watchedConn) begin() {
	c.mu.Lock()
	c.inHandler, c.pending = true, false
	c.mu.Unlock()
}

func (c *watchedConn) end() {
	c.mu.Lock()
	c.inHandler = false
	c.mu.Unlock()
}

type connKey struct{}

func withConn(ctx context.Context, c net.Conn) context.Context {
	if wc, ok := c.(*watchedConn); ok {
		return context.WithValue(ctx, connKey{}, wc)
	}
	return ctx
}

func connOf(ctx context.Context) *watchedConn {
	wc, _ := ctx.Value(connKey{}).(*watchedConn)
	return wc
}
