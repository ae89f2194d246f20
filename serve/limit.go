package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A page's body is read before its request takes a place in the queue, so
// that a slow upload holds none; what bounds the bodies being read at once
// is the number of connections served at once (Config.MaxConns), each
// body at most MaxBody. limitListener serves at most that many. When one
// more comes, the connection idle longest is closed to make room: one
// between two keep-alive requests, or one accepted that has sent nothing
// yet (a client's pool of idle connections does not lock others out, nor
// do bare connects); when none is idle, the new one is answered 503 once
// its request's headers are read (not its body) and closed. A connection
// is no longer idle once a byte of its next request is read; one whose
// bytes are still on their way when it is closed loses its request, as
// after the server's IdleTimeout.

// refuseLinger bounds how long a refused connection is kept open: reading
// its request's headers, then, after the answer, reading and dropping what
// the client still sends, so that the answer is not lost to a reset while
// the client writes its body. A client that sends a long body before it
// reads anything may still get the reset after it.
const refuseLinger = 2 * time.Second

type limitListener struct {
	net.Listener
	max int

	mu       sync.Mutex
	open     map[*limitedConn]struct{}
	refusing int // refused connections lingering, at most max

	wg sync.WaitGroup // the refusals lingering

	evicted  func()                               // an idle connection closed to make room
	answered func(r *http.Request, remote string) // a connection answered 503
	dropped  func()                               // a connection closed without an answer
}

func newLimitListener(ln net.Listener, max int) *limitListener {
	return &limitListener{Listener: ln, max: max, open: map[*limitedConn]struct{}{},
		evicted: func() {}, answered: func(*http.Request, string) {}, dropped: func() {}}
}

// served returns the number of connections served now.
func (l *limitListener) served() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitedConn{Conn: c, l: l}
		lc.setIdle(true) // until its first byte comes
		l.mu.Lock()
		var victim *limitedConn
		if len(l.open) >= l.max {
			var since int64
			for o := range l.open {
				if t := o.idleSince.Load(); o.idle.Load() && (victim == nil || t < since) {
					victim, since = o, t
				}
			}
			if victim != nil {
				delete(l.open, victim)
			}
		}
		if len(l.open) < l.max {
			l.open[lc] = struct{}{}
			l.mu.Unlock()
			if victim != nil {
				victim.Conn.Close() // the server sees it closed, as after its IdleTimeout
				l.evicted()
			}
			return lc, nil
		}
		linger := l.refusing < l.max
		if linger {
			l.refusing++
			l.wg.Add(1)
		}
		l.mu.Unlock()
		if !linger {
			// As many refusals linger as connections are served: beyond,
			// the connection is closed without a word.
			c.Close()
			l.dropped()
			continue
		}
		go func() {
			defer l.wg.Done()
			if r, ok := refuse(c, l.max); ok {
				l.answered(r, c.RemoteAddr().String())
			} else {
				l.dropped()
			}
			l.mu.Lock()
			l.refusing--
			l.mu.Unlock()
		}()
	}
}

// connState follows the server's view of a connection
// (http.Server.ConnState): an idle one may be closed to make room.
func (l *limitListener) connState(c net.Conn, st http.ConnState) {
	if wc, ok := c.(*watchedConn); ok {
		c = wc.Conn
	}
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateIdle:
		lc.setIdle(true)
	case http.StateActive:
		lc.setIdle(false)
	}
}

// wait waits for the refused connections still lingering.
func (l *limitListener) wait() { l.wg.Wait() }

// refuse answers c 503 once its request's headers are read (a client
// may take an answer that comes before it has written its request for
// one to an earlier request), then closes it. It reports the request and
// whether the answer went out.
func refuse(c net.Conn, max int) (*http.Request, bool) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(refuseLinger))
	br := bufio.NewReaderSize(io.LimitReader(c, maxHeaderBytes), 4096)
	r, err := http.ReadRequest(br)
	if err != nil {
		return nil, false // no request came in time, or not one of HTTP
	}
	msg := fmt.Sprintf("too many connections: the service serves %d at once (--max-conns), none idle; try again", max)
	if err := writeRawError(c, http.StatusServiceUnavailable, msg, "Retry-After: 1\r\n"); err != nil {
		return r, false
	}
	// No half-close (CloseWrite) first: a balancer that proxies TCP, as
	// the compose file's nginx does, closes both ways when one side
	// sends FIN, and its client, still writing, may get a reset before
	// the answer. The answer says Connection: close; the client closes.
	io.Copy(io.Discard, c) // until the client closes, or the deadline
	return r, true
}

// limitedConn gives its place back when it is closed.
type limitedConn struct {
	net.Conn
	l         *limitListener
	idle      atomic.Bool  // accepted or between two requests, no byte of a request read
	idleSince atomic.Int64 // UnixNano
	once      sync.Once
}

func (c *limitedConn) setIdle(idle bool) {
	if idle {
		c.idleSince.Store(time.Now().UnixNano())
	}
	c.idle.Store(idle)
}

// Read marks the connection busy as soon as a byte of a request comes
// (the server says so only once the request's headers are read).
func (c *limitedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.idle.Load() {
		c.idle.Store(false)
	}
	return n, err
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.open, c)
		c.l.mu.Unlock()
	})
	return err
}
