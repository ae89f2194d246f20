package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Go's HTTP server hangs up without a word on a client whose headers do
// not arrive within ReadHeaderTimeout (a slowloris). The service answers
// it 408 first, so that a slow client learns why: watchedConn notices a
// read that timed out after bytes of a request were read and before its
// handler began, and writes the 408 itself; the server then closes the
// connection as before.
//
// Go's server also refuses some requests itself, before any handler, in
// plain text: headers too large (431), a malformed request (400), an
// unsupported Transfer-Encoding or HTTP version (501, 505), an
// unsupported Expect (417). watchedConn notices such an answer as it is
// written (a request's bytes read, no handler begun, a status of those
// with a text/plain body, or 417, which has none) and writes it as the
// service's other refusals are, a JSON object, counting it. A
// connection's state turns idle (Server.Serve's ConnState hook calls
// idle) once an answer is done: what net/http reads after a handler
// returned (the unread rest of a body it drops) is no new request.

type watchedListener struct {
	net.Listener
	onSlow    func(remote string)                // counts and logs the 408s
	onRefusal func(code int, msg, remote string) // counts and logs net/http's own refusals
}

// slowHeaders is the 408's message where a request's headers came too
// slowly.
const slowHeaders = "the request's headers did not arrive in time"

func (l watchedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &watchedConn{Conn: c, onSlow: l.onSlow, onRefusal: l.onRefusal}, nil
}

// watchedConn, like limitedConn, hides the TCP connection's CloseWrite
// from net/http on purpose: with it, net/http half-closes a connection
// whose request body it did not read (an early 413) before it closes
// it, and nginx's stream proxy (the compose file's balancer) then closes
// both ways at once, so that a client still sending its body got a reset
// in place of the 413 (seen in docker/test.sh). Without it, net/http
// sends no FIN first, only waits half a second before it closes: time
// for the client to read the answer.
type watchedConn struct {
	net.Conn
	onSlow    func(remote string)
	onRefusal func(code int, msg, remote string)

	mu        sync.Mutex
	inHandler bool // a request's handler runs
	pending   bool // bytes of a request read, its handler not begun
	answered  bool // the 408, or a refusal of net/http's, went out
	closing   bool // answered, the rest of a body read to no purpose (dropBody): no request follows
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > 0 && !c.inHandler && !c.closing {
		c.pending = true
	}
	if err != nil && c.pending && !c.inHandler && !c.answered && !c.closing && errors.Is(err, os.ErrDeadlineExceeded) {
		c.answered = true
		c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		writeRawError(c.Conn, http.StatusRequestTimeout, slowHeaders, "")
		if c.onSlow != nil {
			c.onSlow(c.RemoteAddr().String())
		}
	}
	return n, err
}

func (c *watchedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	outside := c.pending && !c.inHandler
	answered := c.answered
	c.mu.Unlock()
	if outside {
		if code, msg, ok := serverRefusal(p); ok {
			if answered {
				// The 408 went out: net/http's own answer to the
				// half request that timed out (a 400 for a request
				// line cut short) would be a second.
				return len(p), nil
			}
			c.mu.Lock()
			c.answered = true
			c.mu.Unlock()
			if c.onRefusal != nil { // counted before the client can ask /metrics
				c.onRefusal(code, msg, c.RemoteAddr().String())
			}
			if err := writeRawError(c.Conn, code, msg, ""); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// serverRefusal reads p as one of net/http's own refusals: a whole
// answer in one write, status 400, 431, 501 or 505 with a text/plain body
// (the service's own errors are JSON), or 417 (headers only; the service
// never answers it). It returns the status and the body's message.
func serverRefusal(p []byte) (code int, msg string, ok bool) {
	head, body, found := bytes.Cut(p, []byte("\r\n\r\n"))
	if !found || !bytes.HasPrefix(head, []byte("HTTP/1.1 ")) || len(head) < 12 {
		return 0, "", false
	}
	code, err := strconv.Atoi(string(head[9:12]))
	if err != nil {
		return 0, "", false
	}
	switch code {
	case 400, 417, 431, 501, 505:
	default:
		return 0, "", false
	}
	if code != http.StatusExpectationFailed && !bytes.Contains(bytes.ToLower(head), []byte("\r\ncontent-type: text/plain")) {
		return 0, "", false
	}
	msg = strings.TrimSpace(string(body))
	if msg == "" {
		msg = http.StatusText(code)
	}
	return code, msg, true
}

// writeRawError writes an answer as the service's refusals are, a JSON
// object, straight to a connection that net/http does not serve (or no
// longer), the connection to close after it; extra are more header lines,
// each ending in CRLF.
func writeRawError(w io.Writer, code int, msg, extra string) error {
	body := errorBody(code, msg)
	_, err := fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\n%sConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		code, http.StatusText(code), extra, len(body), body)
	return err
}

// idle marks the connection between two requests: net/http answered the
// last one in full.
func (c *watchedConn) idle() {
	c.mu.Lock()
	c.pending = false
	c.mu.Unlock()
}

// dropping marks a connection whose request was answered without its
// body (dropBody): what net/http reads of the body after the handler is
// no request, and the read deadline that ends it no slow header.
func (c *watchedConn) dropping() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
}

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
