package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fiasco-project/fiasco/corpus"
)

// formUpload refuses a multipart body (curl -F, an HTML form's file
// upload): its boundaries and part headers would be cleaned as the page.
func formUpload(r *http.Request) *Error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if strings.HasPrefix(mt, "multipart/") {
		return &Error{Status: http.StatusUnsupportedMediaType, Kind: "multipart",
			Msg: fmt.Sprintf("a %s body: POST the page's bytes as they are (curl --data-binary @page.html), not a form upload (curl -F)", mt)}
	}
	return nil
}

// notAPage refuses, on /clean, a body whose Content-Type says it is JSON:
// a batch's lines, which /clean/batch takes. (A form's type is not
// refused: curl sends it with --data-binary too.) Other types, and none,
// are read as a page.
func notAPage(r *http.Request) *Error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "application/json", "application/x-ndjson", "application/jsonl", "application/json-seq":
		return &Error{Status: http.StatusUnsupportedMediaType, Kind: "content_type",
			Msg: fmt.Sprintf("Content-Type %s: /clean takes the bytes of one HTML page; JSON lines of pages go to /clean/batch", mt)}
	}
	return nil
}

// notOnePage refuses, on /clean, a body (decompressed) that is plainly
// no page, whatever its Content-Type says (curl --data-binary sends a
// form's): JSON lines of pages (a first line that is an object with
// "html" or "data"), which /clean/batch takes, or a URL alone,
// which the service does not fetch. Cleaned, either would come back as
// its own text with 200.
func notOnePage(data []byte) *Error {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\ufeff")), " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		line, _, _ := bytes.Cut(t, []byte("\n"))
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) == nil && (obj["html"] != nil || obj["data"] != nil) {
			return &Error{Status: http.StatusUnsupportedMediaType, Kind: "content_type",
				Msg: "the body is JSON lines of pages, a batch: POST it to /clean/batch; /clean takes the bytes of one HTML page"}
		}
	}
	if u := bytes.TrimSpace(t); len(u) < 8<<10 && !bytes.ContainsAny(u, " \t\r\n<") &&
		(bytes.HasPrefix(bytes.ToLower(u), []byte("http://")) || bytes.HasPrefix(bytes.ToLower(u), []byte("https://"))) {
		return &Error{Status: http.StatusBadRequest, Kind: "url",
			Msg: "the body is a URL: the service never fetches pages; POST the page's bytes (curl --data-binary @page.html), and its address as ?url= if you like"}
	}
	return nil
}

// readBody reads a request's body, bounded by MaxBody and ReadTimeout.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err != nil {
		// The rest of the body is not read: the server would try to
		// drain it before answering, and the connection cannot be reused.
		w.Header().Set("Connection", "close")
		return nil, s.readError(err, r.ContentLength)
	}
	// No deadline once read: an expired one would cancel the request's
	// context while the page is cleaned.
	rc.SetReadDeadline(time.Time{})
	return data, nil
}

// zstdMagic starts a zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// decodeBody returns the page a body holds, as fiasco clean reads a page
// file: a gzip- or zstd-compressed page decompressed, with or without
// Content-Encoding gzip (or zstd) saying so (a body that is not what its
// Content-Encoding says is an error), bounded by MaxBody.
func (s *Server) decodeBody(data []byte, encoding string) ([]byte, *Error) {
	switch enc := strings.ToLower(strings.TrimSpace(encoding)); enc {
	case "", "identity", "gzip", "x-gzip", "zstd":
		page, compressed, err := corpus.DecompressPage(data, s.cfg.MaxBody)
		switch {
		case errors.Is(err, corpus.ErrWARC), err == nil && corpus.IsWARC(page):
			return nil, warcBody()
		case errors.Is(err, corpus.ErrTooLarge):
			return nil, &Error{Status: http.StatusRequestEntityTooLarge, Kind: "too_large",
				Msg: fmt.Sprintf("the body decompresses to more than the limit of %d bytes", s.cfg.MaxBody)}
		case err != nil:
			return nil, &Error{Status: http.StatusBadRequest, Kind: "bad_request", Msg: "decompressing the body: " + err.Error()}
		case enc != "" && enc != "identity" && (!compressed || bytes.HasPrefix(data, zstdMagic) != (enc == "zstd")):
			return nil, &Error{Status: http.StatusBadRequest, Kind: "bad_request",
				Msg: fmt.Sprintf("Content-Encoding %s, but the body is not %s data", enc, strings.TrimPrefix(enc, "x-"))}
		}
		return page, nil
	}
	return nil, &Error{Status: http.StatusUnsupportedMediaType, Kind: "encoding",
		Msg: fmt.Sprintf("Content-Encoding %q is not supported: send the page as it is, gzip or zstd", encoding)}
}

// warcBody is the refusal of a WARC file sent as a page: fiasco clean
// reads its records as pages; here it would be cleaned as one page of
// WARC and HTTP headers.
func warcBody() *Error {
	return &Error{Status: http.StatusUnsupportedMediaType, Kind: "warc",
		Msg: "the body is a WARC file, and the service takes one page at a time: send each record's page (its HTTP body), or clean the file with fiasco clean"}
}

func (s *Server) readError(err error, n int64) *Error {
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return tooLarge(n, s.cfg.MaxBody)
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return &Error{Status: http.StatusRequestTimeout, Kind: "slow_client",
			Msg: fmt.Sprintf("the body did not arrive within %v", s.cfg.ReadTimeout)}
	case connGone(err):
		// The connection ended inside the body: the client went away,
		// as a batch's client whose connection ends there (499).
		return &Error{Status: 499, Kind: "canceled", Msg: "the client went away: its connection ended inside the body (" + err.Error() + ")"}
	}
	return &Error{Status: http.StatusBadRequest, Kind: "bad_request", Msg: "reading the body: " + err.Error()}
}

func tooLarge(n, max int64) *Error {
	msg := fmt.Sprintf("the body is larger than the limit of %d bytes", max)
	if n > 0 {
		msg = fmt.Sprintf("the body of %d bytes is larger than the limit of %d bytes", n, max)
	}
	return &Error{Status: http.StatusRequestEntityTooLarge, Msg: msg, Kind: "too_large"}
}

// fail writes e as a JSON error and counts it.
func (s *Server) fail(w http.ResponseWriter, e *Error) {
	s.met.error(e)
	sw, _ := w.(*statusWriter)
	if sw != nil {
		sw.err = e
	}
	if e.Status == 499 && sw != nil && sw.status != 0 {
		return // an answer was begun: the access log says 499 (sw.err)
	}
	// A 499 is written too: a client that half-closed its connection
	// after its request (nc -N, shutdown(SHUT_WR)) looks gone to the
	// server but may still read, and must not take the empty 200 that
	// net/http would send for a handler that wrote nothing for an
	// answer; where nobody listens, the write fails unseen.
	writeError(w, e)
}

// refuse is fail for a request refused before its body was read (a bad
// parameter, a body too large): the connection closes after the answer,
// else the server would read the body's late bytes (sent after an
// unanswered 100-continue, say) as the next request's headers and answer
// them 408 in the end. Answers after the body was read keep it open.
func (s *Server) refuse(w http.ResponseWriter, e *Error) {
	dropBody(w)
	s.fail(w, e)
}

// dropBody closes the connection once the answer is out, reading what is
// left of the request's body for lingerTime at most: net/http reads up
// to 256 KiB of it after the handler, with no time limit, and a client
// that sends a body's headers but not the body (or waits for the answer
// before it sends the body) would hold its connection, and a place of
// Config.MaxConns, for ever. What it does read in that time keeps the
// client's writes from meeting a reset before it reads the answer.
func dropBody(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	if sw, ok := w.(*statusWriter); ok && sw.conn != nil {
		sw.conn.dropping() // the body's rest is no new request: no 408 for it
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(lingerTime))
}

// lingerTime is how long dropBody reads on for the body of a request
// answered without it.
const lingerTime = 2 * time.Second

func writeError(w http.ResponseWriter, e *Error) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	w.WriteHeader(e.Status)
	w.Write(errorBody(e.Status, e.Msg))
}

// errorBody is the body of every refusal: {"error": msg, "status": code}
// and a newline.
func errorBody(code int, msg string) []byte {
	b, _ := json.Marshal(struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}{msg, code})
	return append(b, '\n')
}
