package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/export"
)

// batchIn is one line of a batch request.
type batchIn struct {
	ID   json.RawMessage `json:"id,omitempty"`
	URL  string          `json:"url,omitempty"`
	Name string          `json:"name,omitempty"`
	HTML *string         `json:"html,omitempty"`
	Data *string         `json:"data,omitempty"` // base64 (standard or URL alphabet, padded or not)
	// ContentType is the page's HTTP Content-Type header, as a crawl
	// recorded it: its charset is the page's HTTP charset, as a /clean
	// request's Content-Type charset is.
	ContentType string `json:"content_type,omitempty"`
}

// batchOut is one line of a batch answer.
type batchOut struct {
	Line   int             `json:"line"`
	ID     json.RawMessage `json:"id,omitempty"`
	URL    string          `json:"url,omitempty"`
	Name   string          `json:"name,omitempty"`
	Status int             `json:"status"`
	Render string          `json:"render,omitempty"`
	// RenderError: render=auto, the browser failed on the page and the
	// text model cleaned it (Render is then off).
	RenderError string `json:"render_error,omitempty"`
	// UnseenBlocks: blocks the rendering could not show, which the text
	// model decided (X-Fiasco-Unseen-Blocks).
	UnseenBlocks int `json:"unseen_blocks,omitempty"`
	// Floored: the prose floor kept blocks (X-Fiasco-Floored).
	Floored bool `json:"floored,omitempty"`
	// Note: why the page gave no text (X-Fiasco-Note).
	Note   string          `json:"note,omitempty"`
	Output *string         `json:"output,omitempty"`
	Page   json.RawMessage `json:"page,omitempty"`
	Error  string          `json:"error,omitempty"`
}

func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	o, e := parseOptions(r)
	if e != nil {
		s.refuse(w, e)
		return
	}
	if o.url != "" || o.name != "-" {
		s.refuse(w, badRequest("url and name are given per line in a batch"))
		return
	}
	_, rendered, e := s.cleaner(o)
	if e != nil {
		s.refuse(w, e)
		return
	}
	if enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc != "" && enc != "identity" {
		s.refuse(w, &Error{Status: http.StatusUnsupportedMediaType, Kind: "encoding",
			Msg: fmt.Sprintf("Content-Encoding %q: a batch is read as it is sent (a line's data may hold a compressed page)", r.Header.Get("Content-Encoding"))})
		return
	}
	if e := formUpload(r); e != nil {
		s.refuse(w, e)
		return
	}
	if e := s.admitRequest(); e != nil {
		s.refuse(w, e) // the batch body was not read
		return
	}
	defer s.leave()
	br := bufio.NewReaderSize(r.Body, 64<<10)
	if r.ContentLength > 0 {
		// A body sent whole (curl --data-binary @file): one that cannot
		// be JSON Lines is refused as a whole. A streamed one is not
		// looked at before the answer's headers go out: its client may
		// wait for them before it writes.
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
		if e := notJSONLines(br); e != nil {
			s.refuse(w, e)
			return
		}
	}

	rc := http.NewResponseController(w)
	// Answers go out while the request is still being read.
	rc.EnableFullDuplex()
	w.Header().Set("Content-Type", "application/x-ndjson")
	if r.ProtoAtLeast(1, 1) { // HTTP/1.0 has no trailers: announce none
		w.Header().Set("Trailer", "Fiasco-Batch")
	}
	w.Header().Set("X-Fiasco-Render", onOff(rendered))
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	defer s.batches.begin()() // a batch that runs, for retryAfter

	// Not r.Context() itself: net/http cancels that on any error reading
	// the body, a time-out included, and the pages read before it must
	// still be answered. What cancels the batch's pages: the shutdown's
	// deadline (it cancels every request's context while the service
	// drains) and a client that takes no answers (the writer below).
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(r.Context()))
	defer cancel(nil)
	stopShutdown := context.AfterFunc(r.Context(), func() {
		if s.draining.Load() {
			cancel(context.Cause(r.Context()))
		}
	})
	defer stopShutdown()
	answers := newAnswerQueue(s.cfg.BatchBuffer)
	send := func(out batchOut) {
		b, err := json.Marshal(out)
		if err != nil { // no such batchOut: the writer's error, were it one
			b, _ = json.Marshal(batchOut{ID: out.ID, Line: out.Line, Status: http.StatusInternalServerError, Error: err.Error()})
		}
		answers.put(append(b, '\n'))
	}
	var writeErr error
	var wasFull bool // the queue was full when the writes timed out
	done := make(chan struct{})
	go func() { // the one writer
		defer close(done)
		for {
			b, ok := answers.get()
			if !ok {
				return
			}
			if writeErr != nil {
				continue // drain: the client is gone
			}
			rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
			_, err := w.Write(b)
			if err == nil {
				err = rc.Flush()
			}
			if err != nil {
				writeErr, wasFull = err, answers.full()
				cancel(errClientGone)
			}
		}
	}()

	var wg sync.WaitGroup
	slots := make(chan struct{}, s.cfg.Workers) // this batch's pages at once
	maxLine := MaxLine(s.cfg.MaxBody)
	status := "complete"
	var gone error      // the client went away (read or write)
	readFailed := false // the body could not be read to its end
	for n := 1; ; n++ {
		rc.SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
		line, err := readLine(br, maxLine)
		if err == nil && len(bytes.TrimSpace(line)) > 0 {
			// A client that still sends pages is still there: the
			// answers it has not read yet (it may read once it has sent
			// all) wait on it so long, in the batch buffer and the
			// connection's. Blank lines, which get no answer, do not
			// count: they would keep a client that reads nothing in
			// its place for ever.
			rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
		}
		if n == 1 {
			// A byte order mark (notJSONLines took that of a batch
			// sent whole; a streamed one is not looked at before).
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if errors.Is(err, errLineTooLong) {
			s.met.error(&Error{Status: http.StatusRequestEntityTooLarge, Kind: "too_large"})
			send(batchOut{Line: n, ID: leadingID(line), Status: http.StatusRequestEntityTooLarge,
				Error: fmt.Sprintf("line %d is longer than the limit of %d bytes", n, maxLine)})
			continue
		}
		if (err == nil || err == io.EOF) && len(bytes.TrimSpace(line)) > 0 {
			// A page that is read goes out, whatever happens to the rest;
			// a line cut by a read error is that error's (answered below).
			slots <- struct{}{}
			wg.Add(1)
			go func(n int, line []byte) {
				defer wg.Done()
				defer func() { <-slots }()
				send(s.batchLine(ctx, o, n, line))
			}(n, line)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			readFailed = true
			e := s.readError(err, -1)
			if connGone(err) {
				// The connection ended inside the body: the client went
				// away, and takes no answers either.
				gone = fmt.Errorf("its connection ended inside the body: %w", err)
				e = &Error{Status: 499, Kind: "canceled", Msg: "the client went away"}
				cancel(errClientGone) // its pages under way are for nobody
			}
			s.met.error(e)
			status = fmt.Sprintf("interrupted after line %d: %s", n-1, e.Msg)
			if e.Status == http.StatusRequestTimeout {
				send(batchOut{Line: n, Status: e.Status, Error: e.Msg})
			}
			// The rest of the body cannot be told from the next request:
			// the connection closes once the answer is out.
			closeAfterReply(w)
			break
		}
		if errors.Is(context.Cause(ctx), errClientGone) {
			status = fmt.Sprintf("interrupted after line %d: %v", n, errClientGone)
			break
		}
		// Cancelled by the shutdown deadline, the batch reads on: every
		// line still coming is answered 503 at once, so that the client
		// knows which pages to send again.
	}
	if status == "complete" && ctx.Err() != nil {
		status = "complete, cut short by the shutdown: the pages answered 503 were not cleaned"
	}
	if readFailed {
		// What net/http would read of the body's rest after the handler
		// (up to 256 KiB) fails at once: the connection closes.
		rc.SetReadDeadline(time.Now())
	} else {
		rc.SetReadDeadline(time.Time{})
	}
	wg.Wait()
	answers.close()
	<-done
	if writeErr != nil && gone == nil {
		gone = fmt.Errorf("the client does not take the answers: %w", writeErr)
		if wasFull {
			gone = fmt.Errorf("the client does not take the answers, and they filled the batch buffer of %d bytes (a client that sends the whole batch before it reads: send fewer pages at once, or raise --batch-buffer): %w", s.cfg.BatchBuffer, writeErr)
		}
		s.met.error(&Error{Status: 499, Kind: "canceled"})
	}
	if gone != nil {
		// Counted and logged as 499, as a /clean whose client went away.
		if sw, ok := w.(*statusWriter); ok {
			sw.status = 499
			sw.err = &Error{Status: 499, Kind: "canceled", Msg: gone.Error()}
		}
		return
	}
	w.Header().Set("Fiasco-Batch", status)
}

// connGone reports a read error that means the client's connection ended:
// its end inside the body (no final chunk, fewer bytes than its
// Content-Length) or a reset. (net.ErrClosed is the server's own close,
// at the shutdown's end: not the client's doing.)
func connGone(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// closeAfterReply makes net/http close the connection once the answer
// to the request is out, as it does when a body exceeds its limit: a
// http.MaxBytesReader over w that hits its limit tells w so ("it tells the
// ResponseWriter to close the connection after the limit has been
// reached"), and nothing else can after the answer's headers went out.
// The reader it reads is a byte of its own, not the request's body.
func closeAfterReply(w http.ResponseWriter) {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	http.MaxBytesReader(w, io.NopCloser(strings.NewReader("x")), 0).Read(make([]byte, 1))
}

// MaxLine is the longest batch line read for a page limit of maxBody
// bytes: four bytes for each of the page's, room for a typical page
// written as a JSON string with many \u00XX escapes (Python's json.dumps
// writes é as \u00e9, three times its UTF-8; encoding/json writes <, >
// and & as six bytes) and for base64 (four for three). A page whose line is longer can
// go as data, in base64. Each batch holds at most Workers+1 lines at once.
func MaxLine(maxBody int64) int64 { return 4*maxBody + 64<<10 }

// notJSONLines looks at the first bytes of a batch sent whole (past white
// space and a byte order mark) and refuses one that is compressed (a batch
// is read as it is sent) or is an HTML page posted to the wrong endpoint.
// Anything else is left to the lines' own errors. An empty body passes.
func notJSONLines(br *bufio.Reader) *Error {
	if b, _ := br.Peek(3); string(b) == "\xef\xbb\xbf" {
		br.Discard(3) // a byte order mark
	}
	for i := 0; ; i++ {
		b, err := br.Peek(i + 1)
		if err != nil {
			return nil // the end of the body, or an error the batch reports
		}
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		head, _ := br.Peek(i + 4)
		head = head[i:]
		switch {
		case bytes.HasPrefix(head, []byte{0x1f, 0x8b}), bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
			return &Error{Status: http.StatusUnsupportedMediaType, Kind: "encoding",
				Msg: "the batch is compressed (gzip or zstd): send its JSON Lines as they are (a line's data may hold a compressed page)"}
		case head[0] == '<':
			return &Error{Status: http.StatusBadRequest, Kind: "bad_request",
				Msg: `the batch starts with "<", as an HTML page does: a batch is JSON Lines, one {"html": ..} or {"data": ..} object per line; POST a single page to /clean`}
		}
		return nil
	}
}

var (
	errLineTooLong = errors.New("line too long")
	errClientGone  = errors.New("the client does not take the answers")
)

// readLine reads one line (without its newline). A line longer than limit
// is skipped up to its end and reported with errLineTooLong, with its
// first idHead bytes (for its id). At the end
// of the input it returns the last line, if any, and io.EOF.
func readLine(br *bufio.Reader, limit int64) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(buf)+len(chunk)) > limit {
			// The line's start, for its id (leadingID).
			head := append(buf[:len(buf):len(buf)], chunk[:min(len(chunk), max(0, idHead-len(buf)))]...)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return head[:min(len(head), idHead)], errLineTooLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return buf, err
		}
	}
}

// idHead is how much of a line over the limit readLine keeps, for its id.
const idHead = 4096

// leadingID returns the "id" of a JSON object whose start is head (a line
// cut short), where it comes before any member that head does not hold
// whole (as {"id": ..., "html": ...} writes it); nil otherwise.
func leadingID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil
		}
		if key == "id" {
			return v
		}
	}
}

// batchLine cleans the page of one batch line.
func (s *Server) batchLine(ctx context.Context, o options, n int, line []byte) batchOut {
	out := batchOut{Line: n}
	var in batchIn
	fail := func(e *Error) batchOut {
		if out.ID == nil {
			// The line's id, where it starts as an object that has one,
			// goes with its error too.
			var idOnly struct {
				ID json.RawMessage `json:"id"`
			}
			if json.NewDecoder(bytes.NewReader(line)).Decode(&idOnly) == nil {
				out.ID = idOnly.ID
			}
		}
		s.met.error(e)
		out.Status, out.Error = e.Status, e.Msg
		return out
	}
	if e := checkFields(line, n); e != nil {
		return fail(e)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields() // as unknown query parameters: a typo must not pass unseen
	err := dec.Decode(&in)
	if _, terr := dec.Token(); err == nil && terr != io.EOF {
		return fail(badRequest("line %d: more than one JSON value", n))
	}
	if err != nil {
		var ute *json.UnmarshalTypeError
		switch {
		case errors.As(err, &ute) && ute.Field == "":
			return fail(badRequest("line %d: not a JSON object but %s", n, ute.Value))
		case errors.As(err, &ute):
			return fail(badRequest("line %d: %q is %s, want %s", n, ute.Field, ute.Value, ute.Type))
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return fail(badRequest("line %d: %s (a line has html or data, and url, name, id, content_type)", n, strings.TrimPrefix(err.Error(), "json: ")))
		}
		return fail(badRequest("line %d: not a JSON object: %v", n, err))
	}
	out.ID, out.URL, out.Name = in.ID, in.URL, in.Name
	var data []byte
	switch {
	case in.HTML != nil && in.Data != nil:
		return fail(badRequest("line %d: give html or data, not both", n))
	case in.HTML != nil:
		data = []byte(*in.HTML)
		if corpus.IsWARC(data) {
			return fail(warcBody())
		}
	case in.Data != nil:
		var err error
		if data, err = decodeBase64(*in.Data); err != nil {
			return fail(badRequest("line %d: data is not base64: %v", n, err))
		}
		if int64(len(data)) <= s.cfg.MaxBody {
			var e *Error
			if data, e = s.decodeBody(data, ""); e != nil {
				e.Msg = fmt.Sprintf("line %d: %s", n, e.Msg)
				return fail(e)
			}
		}
	default:
		return fail(badRequest(`line %d: no page: give "html" (a string) or "data" (base64 bytes)`, n))
	}
	if int64(len(data)) > s.cfg.MaxBody {
		e := tooLarge(int64(len(data)), s.cfg.MaxBody)
		e.Msg = fmt.Sprintf("line %d: the page of %d bytes is larger than the limit of %d bytes (--max-body)", n, len(data), s.cfg.MaxBody)
		return fail(e)
	}
	if len(data) == 0 {
		return fail(&Error{Status: http.StatusBadRequest, Msg: fmt.Sprintf("line %d: empty page", n), Kind: "empty"})
	}
	lo := o
	lo.url, lo.name = in.URL, in.Name
	if lo.name == "" {
		lo.name = lo.url
	}
	if lo.name == "" {
		lo.name = "-"
	}
	a, e := s.clean(ctx, lo, page{name: lo.name, url: lo.url, data: data, contentType: in.ContentType})
	if e != nil {
		le := *e
		le.Msg = fmt.Sprintf("line %d: %s", n, e.Msg) // as the line's other errors
		return fail(&le)
	}
	out.Status, out.Render, out.RenderError, out.UnseenBlocks, out.Floored, out.Note = http.StatusOK, onOff(a.rendered), a.renderErr, a.unseen, a.floored, a.note
	if o.format == export.JSON {
		out.Page = json.RawMessage(bytes.TrimSpace(a.body))
	} else {
		text := string(a.body)
		out.Output = &text
	}
	return out
}

func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return nil, err
}

// batchRunning follows the batches admitted, for retryAfter.
type batchRunning struct {
	mu       sync.Mutex
	next     uint64               // key of the next batch
	running  map[uint64]time.Time // start of each batch running
	done     int                  // batches ended
	doneSecs float64              // their time in all
}

// begin counts a batch in; the function it returns counts it out.
func (b *batchRunning) begin() (end func()) {
	t0 := time.Now()
	b.mu.Lock()
	if b.running == nil {
		b.running = map[uint64]time.Time{}
	}
	key := b.next
	b.next++
	b.running[key] = t0
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.running, key)
		b.done++
		b.doneSecs += time.Since(t0).Seconds()
		b.mu.Unlock()
	}
}

// remaining estimates in seconds when the first batch running ends, and
// reports whether batches hold all the admitted places (admitted of
// them): then a place frees only when a batch ends. A batch is expected
// to run as long as the batches that ended did on average, or, before one
// ended, twice as long as it has run so far; at least 1 s more.
func (b *batchRunning) remaining(admitted int) (sec float64, all bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.running) == 0 || len(b.running) < admitted {
		return 0, false
	}
	sec = math.Inf(1)
	for _, t0 := range b.running {
		ran := time.Since(t0).Seconds()
		expect := 2 * ran
		if b.done > 0 {
			expect = b.doneSecs / float64(b.done)
		}
		sec = min(sec, max(expect-ran, 1))
	}
	return sec, true
}

// batchFields are the fields of a batch line.
var batchFields = map[string]bool{"id": true, "url": true, "name": true, "html": true, "data": true, "content_type": true}

// checkFields refuses a batch line whose object names a field in another
// case than batchIn's ("HTML", which encoding/json would take for html)
// or names one twice (encoding/json would keep the last). A line that is
// no object is left to the decoder, which says so.
func checkFields(line []byte, n int) *Error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := t.(string)
		switch {
		case seen[k]:
			return badRequest("line %d: field %q given twice", n, k)
		case !batchFields[k] && batchFields[strings.ToLower(k)]:
			return badRequest("line %d: field %q: field names are lower case (%q)", n, k, strings.ToLower(k))
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
