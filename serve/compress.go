package serve

import (
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// An answer 200 goes gzip-compressed to a client whose Accept-Encoding
// takes gzip (curl --compressed; Go's http.Client asks by itself); every
// other answer, and every answer to a client that does not ask, goes as
// it is. A batch's lines are flushed through the compressor one by one, so
// that they still arrive as their pages finish.

// acceptsGzip reports whether an Accept-Encoding header value takes gzip:
// gzip (or x-gzip) with a q-value above 0, or, where neither is named, *
// with one.
func acceptsGzip(header string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gzipQ = max(gzipQ, q)
		case "*":
			starQ = max(starQ, q)
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// gzipWriter compresses the body of an answer 200; other answers pass
// through. close must be called when the handler is done.
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer // set once a 200 answer starts
	decided bool
}

func (w *gzipWriter) WriteHeader(code int) {
	if !w.decided {
		w.decided = true
		if code == http.StatusOK {
			h := w.Header()
			h.Del("Content-Length")
			h.Set("Content-Encoding", "gzip")
			w.gz = gzipPool.Get().(*gzip.Writer)
			w.gz.Reset(w.ResponseWriter)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *gzipWriter) Write(p []byte) (int, error) {
	if !w.decided {
		w.WriteHeader(http.StatusOK)
	}
	if w.gz == nil {
		return w.ResponseWriter.Write(p)
	}
	return w.gz.Write(p)
}

// FlushError sends what the compressor holds, then flushes the
// connection (http.ResponseController.Flush calls it).
func (w *gzipWriter) FlushError() error {
	if !w.decided {
		w.WriteHeader(http.StatusOK) // as the connection's flush would
	}
	if w.gz != nil {
		if err := w.gz.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// close ends the compressed body, if one was started.
func (w *gzipWriter) close() {
	if w.gz == nil {
		return
	}
	w.gz.Close()
	w.gz.Reset(nil)
	gzipPool.Put(w.gz)
	w.gz = nil
}
