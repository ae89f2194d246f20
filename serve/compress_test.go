package serve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "x-gzip": true, "*": true, "deflate, gzip;q=0.5": true,
		"br, zstd": false, "gzip;q=0": false, "gzip; q=0.0, br": false, "identity": false, "gzipx": false,
		" gzip ;q=1.0": true, "*;q=0": false, "gzip;q=0, *": false, "br, *;q=0.1": true, "*, gzip;q=0": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}

// do sends a request with the given Accept-Encoding (none if empty),
// without the transport's own compression, and returns the answer with
// its body as it came.
func do(t *testing.T, method, url, acceptEncoding string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	resp, err := rawClient.Do(req)
	return readAnswer(t, resp, err)
}

// rawClient leaves Accept-Encoding to the request and bodies as they come.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGzipAnswers: an answer 200 to a client that takes gzip is the
// answer to one that does not, compressed; errors and clients that do not
// ask get answers as they are; every answer says it varies by
// Accept-Encoding.
func TestGzipAnswers(t *testing.T) {
	srv := start(t, Config{Workers: 2})
	data := readFile(t, article)
	for _, path := range []string{"/clean?format=text", "/clean?format=json"} {
		plain, pb := do(t, "POST", srv.url+path, "", bytes.NewReader(data))
		if plain.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || plain.ContentLength != int64(len(pb)) {
			t.Fatalf("%s without Accept-Encoding: %d, Content-Encoding %q, Content-Length %d for %d bytes",
				path, plain.StatusCode, plain.Header.Get("Content-Encoding"), plain.ContentLength, len(pb))
		}
		zipped, zb := do(t, "POST", srv.url+path, "br;q=1, gzip;q=0.8", bytes.NewReader(data))
		if zipped.StatusCode != 200 || zipped.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s with gzip: %d, Content-Encoding %q, Vary %q", path, zipped.StatusCode, zipped.Header.Get("Content-Encoding"), zipped.Header.Get("Vary"))
		}
		if got := gunzip(t, zb); !bytes.Equal(got, pb) {
			t.Errorf("%s: the gzip answer decompressed differs from the plain one:\n%s\nwant:\n%s", path, trunc(got), trunc(pb))
		}
		if len(zb) >= len(pb) {
			t.Errorf("%s: %d bytes compressed for %d", path, len(zb), len(pb))
		}
		if zipped.Header.Get("X-Fiasco-Kept") != plain.Header.Get("X-Fiasco-Kept") || zipped.Header.Get("X-Fiasco-Kept") == "" {
			t.Errorf("%s: X-Fiasco-Kept %q with gzip, %q without", path, zipped.Header.Get("X-Fiasco-Kept"), plain.Header.Get("X-Fiasco-Kept"))
		}
	}
	resp, b := do(t, "POST", srv.url+"/clean?threshold=x", "gzip", bytes.NewReader(data))
	if resp.StatusCode != 400 || resp.Header.Get("Content-Encoding") != "" || !json.Valid(b) {
		t.Errorf("an error to a client taking gzip: %d, Content-Encoding %q: %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), b)
	}
	resp, b = do(t, "POST", srv.url+"/clean?format=text", "gzip;q=0, identity", bytes.NewReader(data))
	if resp.Header.Get("Content-Encoding") != "" || len(b) == 0 {
		t.Errorf("gzip;q=0: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
}

// TestGzipBatchStreams: a compressed batch answer still comes line by
// line: the first line can be read before the second input line is sent.
func TestGzipBatchStreams(t *testing.T) {
	srv := start(t, Config{Workers: 2})
	data := readFile(t, article)
	line, _ := json.Marshal(map[string]string{"id": "a", "html": string(data)})
	pr, pw := io.Pipe()
	req, err := http.NewRequest("POST", srv.url+"/clean/batch?format=text", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := rawClient.Do(req)
		done <- result{resp, err}
	}()
	pw.Write(append(line, '\n'))
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	defer res.resp.Body.Close()
	if res.resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("batch with gzip: Content-Encoding %q", res.resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(res.resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	first, err := br.ReadBytes('\n')
	if err != nil || !bytes.Contains(first, []byte(`"id":"a"`)) {
		t.Fatalf("first answer line before the second input line: %q, %v", first, err)
	}
	line2, _ := json.Marshal(map[string]string{"id": "b", "html": string(data)})
	pw.Write(append(line2, '\n'))
	pw.Close()
	rest, err := io.ReadAll(br)
	if err != nil || !bytes.Contains(rest, []byte(`"id":"b"`)) || bytes.Count(rest, []byte("\n")) != 1 {
		t.Errorf("the rest of the batch answer: %q, %v", rest, err)
	}
}

// TestGzipFlushFirst: a flush before anything is written starts the
// compressed answer, so that what is written after it is readable.
func TestGzipFlushFirst(t *testing.T) {
	rec := httptest.NewRecorder()
	w := &gzipWriter{ResponseWriter: rec}
	if err := w.FlushError(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "a line\n")
	w.close()
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("%d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	if got := gunzip(t, rec.Body.Bytes()); string(got) != "a line\n" {
		t.Errorf("body %q", got)
	}
}

// BenchmarkGzipAnswer: the cost of compressing an answer against the
// answer itself: /clean?format=json on testdata/article.html through the
// handler, with and without Accept-Encoding: gzip (compare the two
// ns/op).
func BenchmarkGzipAnswer(b *testing.B) {
	s, err := New(Config{Text: textCleaner(b), Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	data := readFile(b, article)
	for _, enc := range []string{"identity", "gzip"} {
		b.Run(enc, func(b *testing.B) {
			var n int
			for range b.N {
				req := httptest.NewRequest("POST", "/clean?format=json", bytes.NewReader(data))
				req.Header.Set("Accept-Encoding", enc)
				rec := httptest.NewRecorder()
				s.Handler().ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d: %s", rec.Code, rec.Body)
				}
				n = rec.Body.Len()
			}
			b.ReportMetric(float64(n), "bytes/answer")
		})
	}
}
