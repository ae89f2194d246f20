package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"mime"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// Formats lists the values of the format parameter.
var Formats = []string{"cleaneval", "text", "html", "json", "jsonl"}

// Policies lists the values of the policy parameter.
var Policies = []string{"corpus", "article"}

// options are a request's query parameters.
type options struct {
	format    export.Format
	jsonl     bool   // format=jsonl: the line fiasco clean --format jsonl prints
	render    string // auto, on, off
	threshold *float64
	article   bool  // policy=article
	rescue    bool  // rescue=on: classify.Model.Rescue
	floor     *bool // floor=on, off: pipeline.Cleaner.Floor (nil: the model's own)
	url, name string
}

var knownParams = map[string]bool{"format": true, "url": true, "name": true, "render": true, "threshold": true, "policy": true, "rescue": true, "floor": true}

func parseOptions(r *http.Request) (options, *Error) {
	// url.Values drops what it cannot parse (a ';' separator, a bad
	// %-escape) without a word: a typo must not silently change the answer.
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return options{}, badRequest("the query %q does not parse: %v (separate parameters with &, escape %% as %%25)", r.URL.RawQuery, err)
	}
	// In sorted order: the first of several faults named is the same
	// every time.
	for _, k := range slices.Sorted(maps.Keys(q)) {
		v := q[k]
		if !knownParams[k] {
			return options{}, badRequest("unknown parameter %q (known: format, render, threshold, policy, rescue, floor, url, name)", k)
		}
		if len(v) > 1 {
			return options{}, badRequest("parameter %q given %d times", k, len(v))
		}
		if v[0] == "" && k != "url" && k != "name" {
			return options{}, badRequest("parameter %q is empty: give a value, or leave it out for the default", k)
		}
	}
	o := options{render: "auto", url: q.Get("url"), name: q.Get("name")}
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "cleaneval":
		o.format = export.CleanEval
	case "jsonl":
		o.format, o.jsonl = export.JSON, true
	default:
		ef, err := export.ParseFormat(f)
		if err != nil {
			return options{}, badRequest("unknown format %q (want one of %s)", q.Get("format"), strings.Join(Formats, ", "))
		}
		o.format = ef
	}
	switch rm := strings.ToLower(q.Get("render")); rm {
	case "", "auto":
	case "on", "off":
		o.render = rm
	default:
		return options{}, badRequest("unknown render mode %q (want auto, on or off)", q.Get("render"))
	}
	if t := q.Get("threshold"); t != "" {
		if strings.Contains(t, " ") {
			return options{}, badRequest("threshold %q is not a number: a + in a query is a space; write %%2B, or leave the + out", t)
		}
		if strings.Trim(t, "0123456789.eE+-") != "" {
			// Go's literals (0x1p-1, 1_000) are no decimal number.
			return options{}, badRequest("threshold %q is not a number: want a decimal number, such as -0.25", t)
		}
		v, err := strconv.ParseFloat(t, 64)
		if errors.Is(err, strconv.ErrRange) || math.IsInf(v, 0) {
			return options{}, badRequest("threshold %q is out of range (a decision value; the models' lie between about -3 and 3)", t)
		}
		if err != nil || math.IsNaN(v) {
			return options{}, badRequest("threshold %q is not a number", t)
		}
		o.threshold = &v
	}
	switch p := strings.ToLower(q.Get("policy")); p {
	case "", "corpus":
	case "article":
		o.article = true
	default:
		return options{}, badRequest("unknown policy %q (known: %s)", q.Get("policy"), strings.Join(Policies, ", "))
	}
	if rs := q.Get("rescue"); rs != "" {
		v, ok := switchValue(rs)
		if !ok {
			return options{}, badRequest("unknown rescue mode %q (want on or off)", rs)
		}
		o.rescue = v
	}
	if fl := q.Get("floor"); fl != "" {
		v, ok := switchValue(fl)
		if !ok {
			return options{}, badRequest("unknown floor mode %q (want on or off)", fl)
		}
		if v && o.article {
			return options{}, badRequest("floor=on keeps every block of prose of a page the model all but empties, and policy=article keeps the main article only")
		}
		o.floor = &v
	} else if o.threshold != nil {
		off := false // a threshold set by hand is the cut, as on the command line
		o.floor = &off
	}
	if o.name == "" {
		o.name = o.url
	}
	if o.name == "" {
		o.name = "-"
	}
	return o, nil
}

// switchValue reads a parameter that turns something on or off: on, off,
// true, false, 1, 0 (any case).
func switchValue(v string) (on, ok bool) {
	switch strings.ToLower(v) {
	case "on", "true", "1":
		return true, true
	case "off", "false", "0":
		return false, true
	}
	return false, false
}

// page is one page to clean.
type page struct {
	name, url   string
	data        []byte
	contentType string // the HTTP charset hint, if any
}

// answer is a cleaned page in the requested format.
type answer struct {
	body     []byte
	rendered bool
	// renderErr: render=auto, the browser failed on the page twice and
	// the text model cleaned it (pipeline.Result.RenderErr).
	renderErr string
	blocks    int
	kept      int
	truncated bool   // the page was cut at a size limit (load.Page.Truncated)
	unseen    int    // blocks the rendering could not show, decided by the text model (pipeline.Result.Unseen)
	floored   bool   // the prose floor kept blocks (pipeline.Result.Floored)
	note      string // why a page gave no text (pipeline.Result.NoTextNote), "" where it gave some
}

// cleaner returns the Cleaner for o's policy and render mode.
func (s *Server) cleaner(o options) (*pipeline.Cleaner, bool, *Error) {
	text, rendered, policy := s.cfg.Text, s.cfg.Rendered, "corpus"
	if o.article {
		text, rendered, policy = s.cfg.ArticleText, s.cfg.ArticleRendered, "article"
	}
	switch {
	case o.render == "off", o.render == "auto" && (rendered == nil || !classify.RendersByDefault(policy)):
		if o.rescue {
			return nil, false, badRequest("rescue=on keeps prose that a rendered model drops, and this request is cleaned by the text model (render=off, policy=article without render=on, or a service without a browser)")
		}
		return text, false, nil
	case rendered == nil:
		return nil, false, &Error{Status: http.StatusNotImplemented, Msg: "render=on: this service runs without a browser (use render=off or auto)", Kind: "no_browser"}
	}
	return rendered, true, nil
}

// acquire takes a worker, waiting at most until ctx is done.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.work <- struct{}{}:
		return nil
	default:
	}
	t0 := time.Now()
	select {
	case s.work <- struct{}{}:
		s.met.queueWait(time.Since(t0))
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) release() { <-s.work }

// admitRequest counts a request in, or refuses it when Workers+Queue
// requests are in already.
func (s *Server) admitRequest() *Error {
	select {
	case s.admit <- struct{}{}:
		return nil
	default:
		s.met.rejected("queue_full")
		return &Error{Status: http.StatusServiceUnavailable, Kind: "queue_full", RetryAfter: s.retryAfter(),
			Msg: fmt.Sprintf("busy: all %d places taken (--workers %d, --queue %d); retry later", s.cfg.Workers+s.cfg.Queue, s.cfg.Workers, s.cfg.Queue)}
	}
}

func (s *Server) leave() { <-s.admit }

// retryAfter estimates in seconds when a place in the queue frees up: as
// long as the pages admitted take to be cleaned, at the mean time of a
// page so far, or, when every place is held by a batch, until the first
// batch is expected to end (batchRunning.remaining). 1 to 60.
func (s *Server) retryAfter() int {
	mean := s.met.meanPageSeconds()
	sec := mean * float64(s.cfg.Workers+s.cfg.Queue) / float64(s.cfg.Workers)
	if rem, all := s.batches.remaining(len(s.admit)); all {
		sec = rem
	}
	return min(max(int(math.Ceil(sec)), 1), 60)
}

// clean cleans one page as o asks, bounded by Config.Timeout (waiting for
// a worker included).
func (s *Server) clean(ctx context.Context, o options, p page) (*answer, *Error) {
	c, rendered, e := s.cleaner(o)
	if e != nil {
		return nil, e
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	t0 := time.Now()
	if err := s.acquire(ctx); err != nil {
		return nil, s.ctxError(ctx, err, "waiting for a worker")
	}
	defer s.release()

	cc := *c // per request: threshold, and falling back only where asked below
	cc.TextFallback = false
	if o.threshold != nil {
		cc.Threshold = o.threshold
	}
	if o.floor != nil {
		cc.Floor = o.floor
	}
	if o.rescue {
		m := *c.Model // the model is shared by every request; a copy per request
		m.Rescue = true
		cc.Model = &m
	}
	if rendered {
		cc.Prepare.Visual = tag(c.Prepare.Visual)
	}
	res, err := safeClean(ctx, &cc, p)
	var re *renderError
	if err != nil && rendered && errors.As(err, &re) && ctx.Err() == nil {
		// render=auto is what fiasco clean does by default: a page the
		// browser fails on is cleaned by the text model.
		cc.TextFallback = o.render == "auto"
		// A page whose renderer crashed was rendered twice already
		// (render.ErrPageCrashed): no third time.
		crashed := errors.Is(err, render.ErrPageCrashed) && !errors.Is(err, render.ErrBrowserDied)
		switch {
		case (errors.Is(err, context.DeadlineExceeded) || crashed) && cc.TextFallback:
			// The page ran out of the renderer's own time limit (drawing
			// it, or waiting for a browser that does not answer): a
			// second render would take as long and use up the page's.
			// The text model cleans it now, the failure reported as a
			// render's.
			cc.Prepare.Visual = failedVisual{re.err}
			res, err = safeClean(ctx, &cc, p)
		case !errors.Is(err, context.DeadlineExceeded) && !crashed:
			// Chromium may have died under the page (it restarts on the
			// next render): try once more.
			s.met.retry()
			s.log.Warn("render failed, retrying once", "page", p.name, "err", err)
			res, err = safeClean(ctx, &cc, p)
		}
		if err == nil && res.RenderErr != nil {
			s.met.fallback()
		}
		if err != nil || res.RenderErr != nil {
			s.health.renderFail()
			// A hung browser looks like a page that takes too long:
			// ask whether it still renders (HealthRecycleAfter failed
			// probes in a row end it), without a /healthz call to wait
			// for. A retry that rendered answered that.
			s.checkBrowser()
		}
	}
	renderErr := ""
	if err == nil && res.RenderErr != nil {
		// As the json answer's render_error says it, word for word.
		rendered, renderErr = false, res.RenderErrText()
		s.log.Warn("render failed, cleaned by the text model", "page", p.name, "err", res.RenderErr)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // the limit passed in the last stage: the answer is late all the same
	}
	if err != nil {
		e := s.pageError(ctx, err, p.name)
		// A page refused as no page (empty, binary) was not rendered.
		s.met.page(rendered && e.Kind != "empty" && e.Kind != "binary", time.Since(t0), nil, e.Kind)
		return nil, e
	}
	if rendered && len(res.Blocks) == 0 {
		rendered = false // no text block: nothing to draw, nothing drawn
	}
	if rendered {
		s.health.renderOK()
	}
	if o.url != "" {
		res.Page.URL = o.url
	}
	t1 := time.Now()
	var buf bytes.Buffer
	if err := res.Write(&buf, o.format); err != nil {
		e := &Error{Status: http.StatusInternalServerError, Msg: fmt.Sprintf("%s: export: %v", p.name, err), Kind: "internal"}
		s.met.page(rendered, time.Since(t0), nil, e.Kind)
		return nil, e
	}
	body := buf.Bytes()
	if o.jsonl {
		// The line "fiasco clean --format jsonl" prints for the page.
		line, err := corpus.JSONLine(&pipeline.Outcome{Input: pipeline.Input{Name: p.name, URL: o.url}, Result: res}, false)
		if err != nil {
			return nil, &Error{Status: http.StatusInternalServerError, Msg: fmt.Sprintf("%s: jsonl: %v", p.name, err), Kind: "internal"}
		}
		body = line
	}
	tm := res.Timings
	s.met.page(rendered, time.Since(t0), &stageTimes{Timings: tm, Export: time.Since(t1)}, "")
	kept := 0
	for _, k := range res.Keep {
		if k {
			kept++
		}
	}
	unseen, _ := res.Unseen()
	return &answer{body: body, rendered: rendered, renderErr: renderErr, blocks: len(res.Blocks), kept: kept, truncated: res.Page.Truncated, unseen: unseen, floored: res.Floored(), note: res.NoTextNote()}, nil
}

// safeClean runs the cleaner, turning a panic into an error.
func safeClean(ctx context.Context, c *pipeline.Cleaner, p page) (res *pipeline.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &panicError{fmt.Sprintf("%s: internal error (please report): %v\n%s", p.name, r, debug.Stack())}
		}
	}()
	data := p.data
	if data == nil {
		data = []byte{} // never let CleanInput read a file named by the request
	}
	// As fiasco clean does for a WARC record: the HTTP charset joins the
	// charset chain, and the page's URL reaches its metadata and the
	// renderer (which serves the page there, without network).
	return c.CleanInput(ctx, pipeline.Input{Name: p.name, Data: data, URL: p.url, ContentType: p.contentType})
}

type panicError struct{ msg string }

func (e *panicError) Error() string { return e.msg }

// tagged marks the errors of a Visualizer, so that the service can tell
// a failed render from a page that cannot be cleaned. It is generic in
// what the Visualizer returns (tag infers it from the method), so that it
// follows pipeline.Visualizer as it is.
type tagged[T any] struct {
	v interface {
		Visual(context.Context, *pipeline.Doc) (T, error)
	}
}

func tag[T any](v interface {
	Visual(context.Context, *pipeline.Doc) (T, error)
}) tagged[T] {
	return tagged[T]{v}
}

func (t tagged[T]) Visual(ctx context.Context, d *pipeline.Doc) (T, error) {
	vi, err := t.v.Visual(ctx, d)
	if err != nil {
		return vi, &renderError{err}
	}
	return vi, nil
}

// failedVisual is a Visualizer that fails at once with err: what the text
// model's fallback is given after a render ran out of its time, so that
// the page is not rendered a second time.
type failedVisual struct{ err error }

func (f failedVisual) Visual(context.Context, *pipeline.Doc) ([]vision.Features, error) {
	return nil, f.err
}

type renderError struct{ err error }

func (e *renderError) Error() string { return e.err.Error() }
func (e *renderError) Unwrap() error { return e.err }

func isRenderError(err error) bool {
	var re *renderError
	return errors.As(err, &re)
}

// ctxError is the answer when ctx ended the work.
func (s *Server) ctxError(ctx context.Context, err error, doing string) *Error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Status: http.StatusGatewayTimeout, Kind: "timeout",
			Msg: fmt.Sprintf("timed out after %v %s (the service's per-page limit)", s.cfg.Timeout, doing)}
	case s.draining.Load():
		return &Error{Status: http.StatusServiceUnavailable, Kind: "shutdown", RetryAfter: 1,
			Msg: "the service is shutting down: the page was not finished"}
	default: // the client went away
		return &Error{Status: 499, Kind: "canceled", Msg: "the client closed its connection before the answer was ready (the request was cancelled: " + err.Error() + "): the page was not cleaned"}
	}
}

// headerText makes s, which may quote the page (a frame's address), a
// header value that every client reads alike: line breaks and other
// control characters become spaces, and each byte of a character beyond
// ASCII, and "%", is written %XX (the percent-encoding of its UTF-8, as
// in a URL, which url.PathUnescape reverses; invalid UTF-8 is first
// replaced by U+FFFD).
func headerText(s string) string {
	var b strings.Builder
	for _, c := range []byte(strings.ToValidUTF8(s, "\ufffd")) {
		switch {
		case c >= 0x80 || c == '%':
			fmt.Fprintf(&b, "%%%02X", c)
		case c < 0x20 || c == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// pageError is the answer for a page named name that failed. The name
// "-" (a page given no name or url, named as the command line names
// standard input) is left out of the message: it means nothing to a
// client.
func (s *Server) pageError(ctx context.Context, err error, name string) *Error {
	msg := err.Error()
	if name == "-" {
		msg = strings.TrimPrefix(msg, "-: ")
	}
	var pe *panicError
	switch {
	case ctx.Err() != nil:
		return s.ctxError(ctx, ctx.Err(), "cleaning the page")
	case errors.As(err, &pe):
		s.log.Error("panic", "err", err)
		return &Error{Status: http.StatusInternalServerError, Msg: firstLine(msg), Kind: "internal"}
	case errors.Is(err, load.ErrEmpty):
		return &Error{Status: http.StatusBadRequest, Msg: msg, Kind: "empty"}
	case errors.Is(err, load.ErrBinary), errors.Is(err, load.ErrModel):
		return &Error{Status: http.StatusUnsupportedMediaType, Msg: msg + ": send the bytes of an HTML page", Kind: "binary"}
	case errors.Is(err, context.DeadlineExceeded):
		// The renderer's own time limit (render.Options.Timeout).
		return &Error{Status: http.StatusGatewayTimeout, Msg: msg, Kind: "timeout"}
	case isRenderError(err):
		s.log.Warn("render failed", "err", err)
		return &Error{Status: http.StatusBadGateway, Msg: "Chromium failed on the page: " + msg, Kind: "render"}
	}
	return &Error{Status: http.StatusUnprocessableEntity, Msg: msg, Kind: "page"}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// pageType returns the request's Content-Type header as the page's HTTP
// header, as a batch line's content_type is taken (load reads it
// leniently, as browsers do: "text/html;; charset=shift_jis"), but for
// the types a client sends for any body (curl's form type, bytes of no
// type, plain text), which say nothing of the page: of those only a
// charset counts, and the page's name says whether it is XHTML
// ("name=page.xhtml").
func pageType(r *http.Request, name string) string {
	ct := strings.TrimSpace(r.Header.Get("Content-Type"))
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.ToLower(strings.TrimSpace(mt)) {
	case "application/x-www-form-urlencoded", "application/octet-stream", "text/plain":
		if _, params, err := mime.ParseMediaType(ct); err == nil && params["charset"] != "" {
			mt := "text/html"
			if load.XHTMLName(name) {
				mt = "application/xhtml+xml"
			}
			return mime.FormatMediaType(mt, map[string]string{"charset": params["charset"]})
		}
		return ""
	}
	return ct
}

func (s *Server) handleClean(w http.ResponseWriter, r *http.Request) {
	o, e := parseOptions(r)
	if e != nil {
		s.refuse(w, e)
		return
	}
	if _, _, e := s.cleaner(o); e != nil {
		s.refuse(w, e)
		return
	}
	if r.ContentLength > s.cfg.MaxBody {
		s.refuse(w, tooLarge(r.ContentLength, s.cfg.MaxBody))
		return
	}
	if e := formUpload(r); e != nil {
		s.refuse(w, e)
		return
	}
	if e := notAPage(r); e != nil {
		s.refuse(w, e)
		return
	}
	if ce := r.Header.Values("Content-Encoding"); len(ce) > 1 || len(ce) == 1 && strings.Contains(ce[0], ",") {
		s.refuse(w, &Error{Status: http.StatusUnsupportedMediaType, Kind: "encoding",
			Msg: fmt.Sprintf("Content-Encoding %q: one coding at most (gzip or zstd)", strings.Join(ce, ", "))})
		return
	}
	// The body is read before the request takes a place, so that a slow
	// upload holds no place a page could be cleaned in; each body is
	// bounded by MaxBody and ReadTimeout.
	data, e := s.readBody(w, r)
	if e != nil {
		s.refuse(w, e)
		return
	}
	if len(data) == 0 {
		s.fail(w, &Error{Status: http.StatusBadRequest, Msg: "empty body: POST the bytes of an HTML page (the service never fetches a URL: curl --data-binary @page.html)", Kind: "empty"})
		return
	}
	if e := s.admitRequest(); e != nil {
		s.fail(w, e)
		return
	}
	// The place is the cleaning's: it is given up before the answer is
	// written, so that a client slow to read holds none.
	left := false
	leave := func() {
		if !left {
			left = true
			s.leave()
		}
	}
	defer leave()
	if data, e = s.decodeBody(data, r.Header.Get("Content-Encoding")); e != nil {
		s.fail(w, e)
		return
	}
	if e := notOnePage(data); e != nil {
		s.fail(w, e)
		return
	}
	a, e := s.clean(r.Context(), o, page{name: o.name, url: o.url, data: data, contentType: pageType(r, o.name)})
	leave()
	if e != nil {
		s.fail(w, e)
		return
	}
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
	h := w.Header()
	h.Set("Content-Type", contentType(o))
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	if o.format == export.HTML && !o.jsonl {
		// The cleaned page keeps the page's attributes (onclick, ...): a
		// browser that opens the answer runs nothing of it, and not in
		// the service's origin.
		h.Set("Content-Security-Policy", "sandbox")
	}
	h.Set("X-Fiasco-Render", onOff(a.rendered))
	if a.renderErr != "" {
		h.Set("X-Fiasco-Render-Error", headerText(a.renderErr))
	}
	h.Set("X-Fiasco-Blocks", strconv.Itoa(a.blocks))
	h.Set("X-Fiasco-Kept", strconv.Itoa(a.kept))
	if a.truncated {
		h.Set("X-Fiasco-Truncated", "true") // json and jsonl: truncated
	}
	if a.unseen > 0 {
		h.Set("X-Fiasco-Unseen-Blocks", strconv.Itoa(a.unseen)) // json and jsonl: unseen_blocks
	}
	if a.floored {
		h.Set("X-Fiasco-Floored", "true") // json and jsonl: floored
	}
	if a.note != "" {
		h.Set("X-Fiasco-Note", headerText(a.note))
	}
	if _, err := w.Write(a.body); err != nil {
		// The client went away, or took too long to read (the write
		// time-out): counted and logged as 499, not as an answer given.
		s.met.error(&Error{Status: 499, Kind: "canceled"})
		if sw, ok := w.(*statusWriter); ok {
			sw.status = 499
			sw.err = &Error{Status: 499, Kind: "canceled", Msg: "the answer could not be written: " + err.Error()}
		}
	}
}

// contentType is the Content-Type of an answer in the format o asks for.
func contentType(o options) string {
	switch {
	case o.jsonl:
		return "application/x-ndjson"
	case o.format == export.JSON:
		return "application/json"
	case o.format == export.HTML:
		return "text/html; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

// onOff names a switch's state in an answer: "on" or "off".
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
