package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// Defaults of [Config].
const (
	DefaultAddr            = ":8080"
	DefaultMaxBody         = 16 << 20
	DefaultTimeout         = 60 * time.Second
	DefaultReadTimeout     = 30 * time.Second
	DefaultWriteTimeout    = 60 * time.Second
	DefaultShutdownTimeout = 60 * time.Second
	DefaultMaxConns        = 128
	DefaultBatchBuffer     = 64 << 20
)

// maxHeaderTimeout bounds the time to receive a request's headers, which
// are small, below Config.ReadTimeout.
const maxHeaderTimeout = 10 * time.Second

// maxHeaderBytes bounds a request's headers.
const maxHeaderBytes = 64 << 10

// Config configures a [Server]. A zero field means its default.
type Config struct {
	// Addr is the address ListenAndServe listens on; DefaultAddr if empty.
	Addr string
	// Text cleans pages with render=off, and with render=auto where the
	// policy's default is not to render (classify.RendersByDefault; the
	// article policy) or the service has no Rendered. nil: the embedded
	// text-and-structure model.
	Text *pipeline.Cleaner
	// Rendered cleans pages with render=on; it must
	// have a visual model and a Visualizer (pipeline.New(ctx, true)). nil:
	// the service renders nothing and answers render=on with 501.
	Rendered *pipeline.Cleaner
	// ArticleText and ArticleRendered are the same for policy=article.
	// ArticleText nil: the embedded article model without visual
	// features. ArticleRendered nil: policy=article renders nothing
	// (render=auto means off; render=on answers 501).
	ArticleText, ArticleRendered *pipeline.Cleaner
	// MaxBody is the largest page accepted, in bytes (a batch: per page);
	// larger bodies get 413. DefaultMaxBody if 0.
	MaxBody int64
	// Timeout bounds one page: waiting for a worker and cleaning it.
	// DefaultTimeout if 0.
	Timeout time.Duration
	// ReadTimeout bounds receiving a request's body (a batch: each line of
	// it), and its headers (but those at most 10 s). DefaultReadTimeout if
	// 0.
	ReadTimeout time.Duration
	// WriteTimeout bounds sending an answer (a batch: each line of it,
	// counted from the later of its turn and the last line of the batch
	// read: a client may read the answers only once it has sent the
	// whole batch). DefaultWriteTimeout if 0.
	WriteTimeout time.Duration
	// BatchBuffer bounds the bytes of a batch's answers that wait for its
	// client to read them while the batch reads on (a client that sends
	// the whole batch before it reads: Python's http.client, requests);
	// beyond it the batch stops reading until the client reads, and such
	// a client's batch fails after WriteTimeout. DefaultBatchBuffer if 0.
	BatchBuffer int64
	// Workers is the number of pages cleaned at once; runtime.GOMAXPROCS
	// if 0.
	Workers int
	// Queue is the number of requests that may wait for a worker; beyond
	// it requests are answered 503. 4 × Workers if 0; -1 for none.
	Queue int
	// MaxConns is the number of connections served at once. When one more
	// comes, the connection idle longest (between two keep-alive
	// requests, or accepted with nothing sent yet) is closed to make room;
	// when none is idle, the new one is answered 503 (Retry-After: 1) once
	// its request's headers are read (not its body), and closed. Since a
	// page's body is read before its request waits for a worker, it
	// bounds the memory of /clean bodies being read: about MaxConns ×
	// MaxBody at most (a batch reads a few lines at a time, each up to
	// MaxLine(MaxBody), within the Workers + Queue places). DefaultMaxConns
	// if 0; -1 for no limit.
	MaxConns int
	// ShutdownTimeout bounds how long Serve waits for requests under way
	// once its context is done. DefaultShutdownTimeout if 0.
	ShutdownTimeout time.Duration
	// Log receives the service's events (start, stop, failed pages); nil
	// discards them.
	Log *slog.Logger
	// Recycle, when set, ends the browser of Rendered so that the next
	// page starts another (render.Browser.Recycle): the service calls it
	// when HealthRecycleAfter health probes in a row could not render,
	// for a browser that hangs rather than dies (one that dies is started
	// again by itself). It reports whether there was a browser to end.
	Recycle func() bool
	// BrowserStats, when set, gives the browser's own counts
	// (render.Browser.Stats): its restarts and the pages it rendered a
	// second time, which /metrics adds to the service's.
	BrowserStats func() render.Stats
	// AccessLog writes a line to Log for every request answered (method,
	// path, status, bytes, milliseconds, client, and the X-Fiasco
	// headers of a cleaned page), but for /healthz and /metrics answered
	// 200.
	AccessLog bool
}

// Server is the HTTP service. Create it with [New]; its zero value is not
// usable.
type Server struct {
	cfg   Config
	admit chan struct{} // requests admitted: working or waiting for a worker
	work  chan struct{} // pages being cleaned
	met   *metrics
	log   *slog.Logger

	draining atomic.Bool
	batches  batchRunning
	conns    atomic.Pointer[limitListener] // the listener Serve serves, with MaxConns
	health   health
	handler  http.Handler
}

// New returns a Server for cfg, filling in defaults.
func New(cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.BatchBuffer <= 0 {
		cfg.BatchBuffer = DefaultBatchBuffer
	}
	switch {
	case cfg.MaxConns == 0:
		cfg.MaxConns = DefaultMaxConns
	case cfg.MaxConns < 0:
		cfg.MaxConns = 0
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case cfg.Queue == 0:
		cfg.Queue = 4 * cfg.Workers
	case cfg.Queue < 0:
		cfg.Queue = 0
	}
	if cfg.Text == nil {
		m, err := classify.Default(false)
		if err != nil {
			return nil, err
		}
		cfg.Text = &pipeline.Cleaner{Model: m}
	}
	if cfg.ArticleText == nil {
		m, err := classify.DefaultFor("article", false)
		if err != nil {
			return nil, err
		}
		cfg.ArticleText = &pipeline.Cleaner{Model: m}
	}
	for _, c := range []struct {
		name string
		c    *pipeline.Cleaner
	}{{"Text", cfg.Text}, {"ArticleText", cfg.ArticleText}} {
		if c.c.Model == nil || c.c.Model.Visual {
			return nil, fmt.Errorf("serve: Config.%s needs a model without visual features", c.name)
		}
	}
	for _, c := range []struct {
		name string
		c    *pipeline.Cleaner
	}{{"Rendered", cfg.Rendered}, {"ArticleRendered", cfg.ArticleRendered}} {
		if r := c.c; r != nil && (r.Model == nil || !r.Model.Visual || r.Prepare.Visual == nil) {
			return nil, fmt.Errorf("serve: Config.%s needs a visual model and a Visualizer", c.name)
		}
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		cfg:   cfg,
		admit: make(chan struct{}, cfg.Workers+cfg.Queue),
		work:  make(chan struct{}, cfg.Workers),
		met:   newMetrics(),
		log:   log,
	}
	s.handler = s.routes()
	return s, nil
}

// Config returns the configuration in effect, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Handler returns the service's HTTP handler. Serve adds the connection
// limits (header and body time-outs) that a bare handler lacks.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	var served []string
	for _, rt := range []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"POST", "/clean", s.handleClean},
		{"POST", "/clean/batch", s.handleBatch},
		{"GET", "/healthz", s.handleHealth},
		{"GET", "/metrics", s.handleMetrics},
	} {
		mux.HandleFunc(rt.method+" "+rt.path, rt.h)
		// Other methods get a JSON error, as every other refusal.
		mux.HandleFunc(rt.path, func(w http.ResponseWriter, r *http.Request) {
			allow := rt.method
			if allow == "GET" {
				allow = "GET, HEAD" // ServeMux's GET patterns match HEAD too
			}
			w.Header().Set("Allow", allow)
			s.refuse(w, &Error{Status: http.StatusMethodNotAllowed, Msg: fmt.Sprintf("%s takes %s, not %s", rt.path, rt.method, r.Method), Kind: "method"})
		})
		served = append(served, rt.method+" "+rt.path)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, &Error{Status: http.StatusNotFound, Msg: fmt.Sprintf("no such path %q: the service answers %s", r.URL.Path, strings.Join(served, ", ")), Kind: "not_found"})
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		if p := cleanPath(r.URL.Path); p != r.URL.Path {
			// //clean, /clean/, /x/../clean: served as /clean, not
			// redirected (ServeMux's 301 or 307, which a client that
			// posts a page rarely follows).
			r.URL.Path, r.URL.RawPath = p, ""
		}
		_, route := mux.Handler(r)
		if _, p, ok := strings.Cut(route, " "); ok {
			route = p // "POST /clean": the method is in the pattern
		}
		if route == "" || route == "/" {
			route = "other"
		}
		if c := connOf(r.Context()); c != nil {
			c.begin()
			defer c.end()
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff") // every answer: none is to be sniffed as another type
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			gw := &gzipWriter{ResponseWriter: w}
			defer gw.close()
			w = gw
		}
		sw := &statusWriter{ResponseWriter: w, conn: connOf(r.Context())}
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.ContentLength != 0 {
			// A body no handler of these reads (a health check's
			// Content-Length with no body would hold its answer: net/http
			// reads such a body before it answers).
			dropBody(sw)
		}
		if s.draining.Load() && r.Method == http.MethodPost {
			// A request on a kept-alive connection after shutdown began.
			w.Header().Set("Connection", "close")
			s.met.rejected("shutdown")
			writeError(sw, &Error{Status: http.StatusServiceUnavailable, Msg: "the service is shutting down", RetryAfter: 1})
		} else if r.RequestURI == "*" {
			// ServeMux answers the target "*" 400 with no body: here it
			// is refused in JSON, as every other request the service
			// does not serve. "PRI *" is HTTP/2's preface sent without
			// TLS (curl --http2-prior-knowledge), which the service does
			// not speak.
			e := &Error{Status: http.StatusBadRequest, Kind: "bad_request", Msg: fmt.Sprintf("the request target \"*\" names no resource: the service answers %s", strings.Join(served, ", "))}
			if r.Method == "PRI" {
				e = &Error{Status: http.StatusHTTPVersionNotSupported, Kind: "http", Msg: "HTTP/2 without TLS (prior knowledge) is not served: send HTTP/1.1"}
			}
			w.Header().Set("Connection", "close")
			s.refuse(sw, e)
		} else {
			mux.ServeHTTP(sw, r)
		}
		s.met.request(route, sw.code())
		if s.cfg.AccessLog && (sw.code() != http.StatusOK || (route != "/healthz" && route != "/metrics")) {
			s.logRequest(r, sw, time.Since(t0))
		}
	})
}

// cleanPath is path.Clean of a request's path, rooted.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return path.Clean(p)
}

// logRequest writes one line for an answered request (Config.AccessLog).
func (s *Server) logRequest(r *http.Request, sw *statusWriter, took time.Duration) {
	args := []any{"method", r.Method, "path", logCut(r.URL.Path), "status", sw.code(), "bytes", sw.n,
		"ms", took.Milliseconds(), "remote", r.RemoteAddr}
	h := sw.Header()
	for _, f := range []struct{ key, header string }{
		{"render", "X-Fiasco-Render"}, {"blocks", "X-Fiasco-Blocks"}, {"kept", "X-Fiasco-Kept"},
		{"truncated", "X-Fiasco-Truncated"}, {"unseen", "X-Fiasco-Unseen-Blocks"}, {"floored", "X-Fiasco-Floored"}, {"render_error", "X-Fiasco-Render-Error"},
	} {
		if v := h.Get(f.header); v != "" {
			args = append(args, f.key, v)
		}
	}
	if q := r.URL.RawQuery; q != "" {
		args = append(args, "query", logCut(q))
	}
	if e := sw.err; e != nil {
		args = append(args, "error_kind", e.Kind, "error", logCut(e.Msg))
	}
	// The service's own failures (5xx, 499 aside: the client left) stand
	// out from the clients' mistakes (4xx) and the pages cleaned.
	level := slog.LevelInfo
	if sw.code() >= 500 && (sw.err == nil || sw.err.Kind != "http") { // a client's protocol (HTTP/2 without TLS) is no failure of the service's
		level = slog.LevelWarn
	}
	s.log.Log(r.Context(), level, "request", args...)
}

// logCutAt bounds what of a request's own text (its query, an error
// that quotes it) a log line holds: a client may send 64 KiB of query.
const logCutAt = 1024

// logCut is s cut to logCutAt bytes (at a character's start), saying how
// long it was.
func logCut(s string) string {
	if len(s) <= logCutAt {
		return s
	}
	i := logCutAt
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:i], len(s))
}

// statusWriter records the status of an answer for the metrics. It keeps
// http.ResponseController working through Unwrap.
type statusWriter struct {
	http.ResponseWriter
	status int
	n      int64        // body bytes written
	err    *Error       // the error answered (fail), for the access log
	conn   *watchedConn // the request's connection (nil in tests without one), for dropBody
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// ListenAndServe listens on Config.Addr and serves until ctx is done (see
// Serve).
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve serves HTTP on ln until ctx is done, then shuts down: it closes ln,
// lets requests under way finish within Config.ShutdownTimeout, cancels
// those still running after it (they are answered 503) and returns. It
// returns nil after a shutdown, or the error that stopped the listener.
// The cleaners of the Config are the caller's to close afterwards.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, cancelAll := context.WithCancel(context.Background())
	defer cancelAll()
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: min(s.cfg.ReadTimeout, maxHeaderTimeout),
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	s.log.Info("serving", "addr", ln.Addr().String(), "workers", s.cfg.Workers, "queue", s.cfg.Queue,
		"render", s.cfg.Rendered != nil, "max_body", s.cfg.MaxBody, "max_conns", s.cfg.MaxConns, "timeout", s.cfg.Timeout)
	errc := make(chan error, 1)
	slow := func(remote string) {
		s.met.error(&Error{Status: http.StatusRequestTimeout, Kind: "slow_client"})
		s.met.request("other", http.StatusRequestTimeout)
		if s.cfg.AccessLog {
			s.log.Info("request", "status", http.StatusRequestTimeout, "remote", remote, "error_kind", "slow_client", "error", slowHeaders)
		}
	}
	var ll *limitListener
	if s.cfg.MaxConns > 0 {
		ll = newLimitListener(ln, s.cfg.MaxConns)
		ll.evicted = func() { s.met.connEvent("evicted") }
		ll.dropped = func() { s.met.connEvent("dropped") }
		ll.answered = func(r *http.Request, remote string) {
			s.met.rejected("connections")
			s.met.request("other", http.StatusServiceUnavailable)
			if s.cfg.AccessLog {
				s.log.Warn("request", "method", r.Method, "path", r.URL.Path, "status", http.StatusServiceUnavailable,
					"remote", remote, "error_kind", "connections", "error", "too many connections, none idle")
			}
		}
		s.conns.Store(ll)
		ln = ll
	}
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		if wc, ok := c.(*watchedConn); ok && st == http.StateIdle {
			wc.idle()
		}
		if ll != nil {
			ll.connState(c, st)
		}
	}
	refusal := func(code int, msg, remote string) {
		s.met.error(&Error{Status: code, Kind: "http"})
		s.met.request("other", code)
		if s.cfg.AccessLog {
			s.log.Info("request", "status", code, "remote", remote, "error_kind", "http", "error", msg)
		}
	}
	go func() { errc <- hs.Serve(watchedListener{ln, slow, refusal}) }()
	select {
	case err := <-errc:
		if ll != nil {
			ll.wait()
		}
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	t0 := time.Now()
	s.log.Info("shutting down: no new connections, finishing requests under way",
		"in_flight", len(s.admit), "deadline", s.cfg.ShutdownTimeout)
	// The whole shutdown keeps within ShutdownTimeout: requests under way
	// have it but its last part (half of it, at most 5 s), in which those
	// still running are cancelled and answer 503 (a batch: to every line
	// that still comes); then every connection closes.
	grace := min(5*time.Second, s.cfg.ShutdownTimeout/2)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout-grace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		s.log.Warn("shutdown deadline passed: cancelling requests under way", "in_flight", len(s.admit))
		cancelAll()
		gctx, gcancel := context.WithTimeout(context.Background(), grace)
		if hs.Shutdown(gctx) != nil {
			hs.Close()
		}
		gcancel()
	}
	<-errc // http.ErrServerClosed
	if ll != nil {
		ll.wait() // connections refused, at most refuseLinger more
	}
	s.log.Info("stopped", "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// Error is an answer other than 200, with the message sent to the client.
type Error struct {
	Status     int
	Msg        string
	Kind       string // for the metrics: empty, binary, too_large, ...
	RetryAfter int    // seconds, for 503
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Msg) }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Msg: fmt.Sprintf(format, args...), Kind: "bad_request"}
}
