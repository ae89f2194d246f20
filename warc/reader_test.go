package warc

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// wantRec is what a test expects of one record.
type wantRec struct {
	typ       string
	id        int    // expected ID is id(n); 0: not checked
	uri       string // WARC-Target-URI; "" not checked
	read      string // "block", "http", "" (leave unread), "part" (read 10 bytes)
	block     string // expected block, if read == "block" and non-empty
	status    int    // expected HTTP status, if read == "http"
	httpErr   error  // expected error of HTTP(), if read == "http"
	bodyErr   error  // expected error reading the HTTP body
	body      []byte // expected HTTP body, if non-nil
	bodyLen   int    // expected HTTP body length, if > 0
	charset   string
	html      bool
	truncated bool
}

type readCase struct {
	name    string
	src     func() io.Reader
	opts    Options
	want    []wantRec
	wantErr error // error ending the reading; nil for a clean io.EOF
	errAt   int   // index in want of the record the error names (-1: none)
}

var (
	htmlPage  = page("home", 3000)
	errPage   = page("not found", 500)
	chunkPage = page("chunked", 20000)
)

// mixed returns one record of every type, plus HTTP variants.
func mixed() []string {
	return []string{
		rec(1, TypeWarcinfo, "Content-Type: application/warc-fields\r\nWARC-Filename: t.warc\r\n", "software: test\r\n"),
		rec(2, TypeRequest, "WARC-Target-URI: http://a.example/\r\nContent-Type: application/http; msgtype=request\r\n",
			"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n"),
		response(3, "http://a.example/", httpResp("200 OK", "Content-Type: text/html; charset=UTF-8\r\n", htmlPage)),
		rec(4, TypeMetadata, "WARC-Target-URI: http://a.example/\r\nContent-Type: application/warc-fields\r\n", "fetchTimeMs: 12\r\n"),
		rec(5, TypeRevisit, "WARC-Target-URI: http://a.example/\r\nWARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n"+
			"WARC-Refers-To: "+id(3)+"\r\nContent-Type: application/http; msgtype=response\r\n", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"),
		response(6, "http://a.example/missing", httpResp("404 Not Found", "Content-Type: text/html;charset=\"iso-8859-1\"\r\n", errPage)),
		rec(7, TypeResource, "WARC-Target-URI: file:///notes.txt\r\nContent-Type: text/plain\r\n", "plain notes"),
		rec(8, TypeConversion, "WARC-Target-URI: http://a.example/\r\nWARC-Refers-To: "+id(3)+"\r\nContent-Type: text/plain\r\n", "home text"),
	}
}

var mixedWant = []wantRec{
	{typ: TypeWarcinfo, id: 1, read: "block", block: "software: test\r\n"},
	{typ: TypeRequest, id: 2, read: "http", httpErr: ErrNotHTTP},
	{typ: TypeResponse, id: 3, uri: "http://a.example/", read: "http", status: 200, body: htmlPage, charset: "utf-8", html: true},
	{typ: TypeMetadata, id: 4},
	{typ: TypeRevisit, id: 5, read: "part"},
	{typ: TypeResponse, id: 6, read: "http", status: 404, body: errPage, charset: "iso-8859-1", html: true},
	{typ: TypeResource, id: 7, read: "block", block: "plain notes"},
	{typ: TypeConversion, id: 8, read: "block", block: "home text"},
}

func bytesSrc(b []byte) func() io.Reader {
	return func() io.Reader { return bytes.NewReader(b) }
}

// httpCase is a case of one response record, then a metadata one. head is
// the HTTP header, after a "200 OK" status line unless it has its own.
func httpCase(name, head string, body []byte, w wantRec) readCase {
	if !strings.HasPrefix(head, "HTTP/") {
		head = "HTTP/1.1 200 OK\r\n" + head
	}
	w.typ, w.id, w.read = TypeResponse, 1, "http"
	if w.status == 0 && w.httpErr == nil {
		w.status = 200
	}
	return readCase{
		name:  name,
		src:   bytesSrc(gzipEach(response(1, "http://h.example/", head+"\r\n"+string(body)), rec(2, TypeMetadata, "", "after"))),
		want:  []wantRec{w, {typ: TypeMetadata, id: 2, read: "block", block: "after"}},
		errAt: -1,
	}
}

func readCases() []readCase {
	m := mixed()
	last := response(9, "http://a.example/last", httpResp("200 OK", "Content-Type: text/html\r\n", htmlPage))
	hugeHead := rec(1, TypeResponse, "WARC-Target-URI: http://big.example/\r\nContent-Type: application/http\r\nContent-Length: 67108900\r\n", "")
	hugeHead = hugeHead[:len(hugeHead)-4] // the header only
	huge := func() io.Reader {
		hb := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
		return io.MultiReader(strings.NewReader(hugeHead), strings.NewReader(hb),
			&patternReader{n: 67108900 - int64(len(hb)), pat: []byte("<p>huge</p>\n")},
			strings.NewReader("\r\n\r\n"+rec(2, TypeMetadata, "", "after huge")))
	}
	bigGz := gzipEach(strings.Repeat("x", 0)+rec(1, TypeResource, "WARC-Target-URI: http://big.example/z\r\nContent-Type: application/octet-stream\r\n", strings.Repeat("z", 8<<20)),
		rec(2, TypeMetadata, "", "after"))
	plainAll := cat(m...)
	truncPlain := cat(append(m, last)...)
	truncPlain = truncPlain[:len(truncPlain)-500]
	truncGz := gzipEach(append(m, last)...)
	truncGz = truncGz[:len(truncGz)-40]
	corruptGz := gzipEach(append(m, last)...)
	lastLen := len(gz([]byte(last)))
	corruptGz = append([]byte(nil), corruptGz...)
	for i := len(corruptGz) - lastLen + 30; i < len(corruptGz)-20; i += 7 {
		corruptGz[i] ^= 0x55
	}
	headerCut := cat(append(m, last[:40])...)
	lastWant := wantRec{typ: TypeResponse, id: 9, read: "http", status: 200, html: true, bodyErr: ErrTruncated}

	cases := []readCase{
		{name: "plain", src: bytesSrc(plainAll), want: mixedWant, errAt: -1},
		{name: "gzip per record", src: bytesSrc(gzipEach(m...)), want: mixedWant, errAt: -1},
		{name: "whole-file gzip", src: bytesSrc(gz(plainAll)), want: mixedWant, errAt: -1},
		{name: "gzip members split mid-record", src: bytesSrc(gzipEach(string(plainAll[:1000]), string(plainAll[1000:5000]), string(plainAll[5000:]))), want: mixedWant, errAt: -1},
		{name: "empty input", src: bytesSrc(nil), errAt: -1},
		{name: "blank lines between records", src: bytesSrc(cat("\r\n", m[0], "\n\r\n", m[1])), want: mixedWant[:2], errAt: -1},
		{
			name:  "WARC/1.0, LF line ends, folded field, <uri>",
			src:   bytesSrc(cat("WARC/1.0\nWARC-Type: resource\nwarc-record-id: " + id(1) + "\nWARC-Target-URI: <http://old.example/>\nX-Folded: a\n  b\ncontent-length: 2\n\nhi\n\n")),
			want:  []wantRec{{typ: TypeResource, id: 1, uri: "http://old.example/", read: "block", block: "hi"}},
			errAt: -1,
		},

		// HTTP payloads.
		httpCase("chunked and gzip", "Content-Type: text/html; charset=windows-1252\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
			chunk(gz(chunkPage), 1000), wantRec{body: chunkPage, charset: "windows-1252", html: true}),
		httpCase("chunked", "Transfer-Encoding: chunked\r\nContent-Type: text/html\r\n", chunk(chunkPage, 4096), wantRec{body: chunkPage, html: true}),
		httpCase("chunked header, body stored de-chunked", "Transfer-Encoding: chunked\r\nContent-Type: text/html\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("chunked cut short", "Transfer-Encoding: chunked\r\n", chunk(htmlPage, 1000)[:1500], wantRec{bodyLen: 1488, html: true}),
		httpCase("deflate (zlib)", "Content-Encoding: deflate\r\nContent-Type: text/html\r\n", zl(htmlPage), wantRec{body: htmlPage, html: true}),
		httpCase("deflate (raw)", "Content-Encoding: deflate\r\nContent-Type: text/html\r\n", rawDeflate(htmlPage), wantRec{body: htmlPage, html: true}),
		httpCase("gzip header, body stored decoded", "Content-Encoding: x-gzip\r\nContent-Type: text/html\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("gzip empty body", "Content-Encoding: gzip\r\n", nil, wantRec{status: 0, body: []byte{}}),
		httpCase("gzip corrupt body", "Content-Encoding: gzip\r\n", append(gz(htmlPage)[:200], make([]byte, 300)...), wantRec{bodyErr: ErrBadHTTP, html: true}),
		httpCase("br", "Content-Encoding: br\r\nContent-Type: text/html\r\n", brotliOf(chunkPage), wantRec{body: chunkPage, html: true}),
		httpCase("br header, body stored decoded", "Content-Encoding: br\r\nContent-Type: text/html\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("br corrupt body", "Content-Encoding: br\r\n", append(brotliOf(chunkPage)[:100], make([]byte, 300)...), wantRec{bodyErr: ErrBadHTTP, html: true}),
		httpCase("zstd", "Content-Encoding: zstd\r\nContent-Type: text/html\r\n", zstdOf(chunkPage), wantRec{body: chunkPage, html: true}),
		httpCase("br, bytes after the stream", "Content-Encoding: br\r\nContent-Type: text/html\r\n", append(brotliOf(chunkPage), "\r\n\r\n"...), wantRec{body: chunkPage, html: true}),
		httpCase("br header, body stored decoded after a BOM", "Content-Encoding: br\r\nContent-Type: text/html\r\n", append([]byte("\xef\xbb\xbf"), htmlPage...), wantRec{body: append([]byte("\xef\xbb\xbf"), htmlPage...), html: true}),
		httpCase("zstd, bytes after the frame", "Content-Encoding: zstd\r\nContent-Type: text/html\r\n", append(zstdOf(chunkPage), "junk after the frame"...), wantRec{body: chunkPage, html: true}),
		httpCase("zstd header, body stored decoded", "Content-Encoding: zstd\r\nContent-Type: text/html\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("compress unsupported", "Content-Encoding: compress\r\nContent-Type: text/html\r\n", []byte("\x1f\x9d\x90"), wantRec{httpErr: ErrUnsupportedEncoding}),
		httpCase("repeated Content-Encoding line", "Content-Encoding: gzip\r\nContent-Encoding: gzip\r\n", gz(htmlPage), wantRec{body: htmlPage, html: true}),
		httpCase("two codings", "Content-Encoding: deflate, gzip\r\n", gz(htmlPage), wantRec{httpErr: ErrUnsupportedEncoding}),
		httpCase("100 Continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("no reason phrase, odd header lines", "HTTP/1.0 200\r\nContent-Type: TEXT/HTML; Charset=UTF-8; junk\r\nnot a field\r\n  folded\r\n", htmlPage, wantRec{body: htmlPage, charset: "utf-8", html: true}),
		httpCase("bad status line", "HTTP/1.1 2xx OK\r\n", nil, wantRec{httpErr: ErrBadHTTP}),

		// HTML or not.
		httpCase("png", "Content-Type: image/png\r\n", []byte("\x89PNG\r\n\x1a\n<html>"), wantRec{html: false}),
		httpCase("pdf", "Content-Type: application/pdf\r\n", []byte("%PDF-1.4 <html>"), wantRec{html: false}),
		httpCase("plain text", "Content-Type: text/plain; charset=us-ascii\r\n", []byte("<html> in plain text"), wantRec{charset: "us-ascii"}),
		httpCase("xhtml", "Content-Type: application/xhtml+xml\r\n", []byte("<?xml version=\"1.0\"?><html/>"), wantRec{html: true}),
		httpCase("octet-stream sniffed html", "Content-Type: application/octet-stream\r\n", htmlPage, wantRec{body: htmlPage, html: true}),
		httpCase("no type, sniffed html late", "", []byte("<?xml version=\"1.0\"?>\n<!-- x -->\n<HTML lang=en>"), wantRec{html: true}),
		httpCase("no type, binary", "", []byte("\x00\x01\x02binary"), wantRec{html: false}),
		httpCase("octet-stream, gzip, sniffed after decoding", "Content-Type: application/octet-stream\r\nContent-Encoding: gzip\r\n", gz(htmlPage), wantRec{body: htmlPage, html: true}),

		// Payload cap.
		{
			name: "huge payload over the cap", src: huge, opts: Options{MaxPayload: 1 << 20},
			want: []wantRec{
				{typ: TypeResponse, id: 1, read: "http", status: 200, bodyLen: 1 << 20, html: true, truncated: true},
				{typ: TypeMetadata, id: 2, read: "block", block: "after huge"},
			},
			errAt: -1,
		},
		{
			name: "gzip block over the cap", src: bytesSrc(bigGz), opts: Options{MaxPayload: 1000},
			want: []wantRec{
				{typ: TypeResource, id: 1, read: "block", block: strings.Repeat("z", 1000), truncated: true},
				{typ: TypeMetadata, id: 2, read: "block", block: "after"},
			},
			errAt: -1,
		},
		{
			name: "under the cap", src: bytesSrc(gzipEach(m...)), opts: Options{MaxPayload: 1 << 20},
			want: mixedWant, errAt: -1,
		},

		// Broken input.
		{name: "truncated last record, plain", src: bytesSrc(truncPlain), want: append(mixedWant[:8:8], wantRec{typ: TypeResponse, id: 9}), wantErr: ErrTruncated, errAt: 8},
		{name: "truncated last record, read", src: bytesSrc(truncPlain), want: append(mixedWant[:8:8], lastWant), wantErr: ErrTruncated, errAt: 8},
		{name: "truncated last record, gzip", src: bytesSrc(truncGz), want: append(mixedWant[:8:8], lastWant), wantErr: ErrTruncated, errAt: 8},
		{name: "corrupt last gzip member", src: bytesSrc(corruptGz), want: mixedWant, wantErr: ErrGzip, errAt: 8},
		{name: "input ends in a header", src: bytesSrc(headerCut), want: mixedWant, wantErr: ErrTruncated, errAt: 8},
		{name: "trailing garbage after gzip members", src: bytesSrc(append(gzipEach(m[0]), "this is no gzip member"...)), want: mixedWant[:1], wantErr: ErrGzip, errAt: -1},
	}
	malformed := []struct{ name, data string }{
		{"field without colon", rec(1, TypeResource, "this is not a field\r\n", "x")},
		{"no Content-Length", "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: " + id(1) + "\r\n\r\nx\r\n\r\n"},
		{"bad Content-Length", record("WARC/1.1", "WARC-Record-ID: "+id(1)+"\r\nContent-Length: 12x\r\n", "x")},
		{"negative Content-Length", record("WARC/1.1", "WARC-Record-ID: "+id(1)+"\r\nContent-Length: -1\r\n", "x")},
		{"not a WARC record", "HTTP/1.1 200 OK\r\n\r\n"},
		{"space in field name", rec(1, TypeResource, "Bad Name: v\r\n", "x")},
		{"header over the limit", rec(1, TypeResource, "X-Long: "+strings.Repeat("a", 5000)+"\r\n", "x")},
	}
	for _, c := range malformed {
		for _, z := range []bool{false, true} {
			data := cat(m[0], c.data, m[1])
			name := "malformed: " + c.name
			if z {
				data, name = gzipEach(m[0], c.data, m[1]), name+", gzip"
			}
			cases = append(cases, readCase{name: name, src: bytesSrc(data), opts: Options{MaxHeaderBytes: 4096},
				want: mixedWant[:1], wantErr: ErrMalformed, errAt: 1})
		}
	}
	return cases
}

func TestReader(t *testing.T) {
	for _, c := range readCases() {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Name = "test.warc"
			r := NewReader(c.src(), c.opts)
			var offsets []int64
			var err error
			for i := 0; ; i++ {
				var rec *Record
				rec, err = r.Next()
				if err != nil {
					break
				}
				offsets = append(offsets, rec.Offset)
				if i >= len(c.want) {
					t.Fatalf("record %d: unexpected %s record %s", i, rec.Type, rec.ID)
				}
				checkRecord(t, i, rec, c.want[i])
			}
			if c.wantErr == nil {
				if err != io.EOF {
					t.Fatalf("ended with %v, want io.EOF", err)
				}
				if len(offsets) != len(c.want) {
					t.Fatalf("read %d records, want %d", len(offsets), len(c.want))
				}
				return
			}
			var we *Error
			if !errors.Is(err, c.wantErr) || !errors.As(err, &we) {
				t.Fatalf("ended with %v, want *Error wrapping %v", err, c.wantErr)
			}
			if we.Name != "test.warc" || !strings.Contains(err.Error(), "test.warc") {
				t.Errorf("error %q does not name the file", err)
			}
			if c.errAt >= 0 && c.errAt < len(c.want) {
				if want := id(c.want[c.errAt].id); we.RecordID != want {
					t.Errorf("error names record %q, want %q", we.RecordID, want)
				}
			}
			if c.errAt >= 0 && c.errAt < len(offsets) && we.Offset != offsets[c.errAt] {
				t.Errorf("error offset %d, want %d", we.Offset, offsets[c.errAt])
			}
			if _, err2 := r.Next(); err2 != err {
				t.Errorf("Next after error returned %v, want the same error", err2)
			}
		})
	}
}

func checkRecord(t *testing.T, i int, rec *Record, w wantRec) {
	t.Helper()
	if rec.Type != w.typ {
		t.Fatalf("record %d: type %q, want %q", i, rec.Type, w.typ)
	}
	if w.id != 0 && rec.ID != id(w.id) {
		t.Errorf("record %d: ID %q, want %q", i, rec.ID, id(w.id))
	}
	if w.uri != "" && rec.TargetURI != w.uri {
		t.Errorf("record %d: target URI %q, want %q", i, rec.TargetURI, w.uri)
	}
	switch w.read {
	case "block":
		b, err := io.ReadAll(rec.Block())
		if err != nil {
			t.Fatalf("record %d: block: %v", i, err)
		}
		if w.block != "" && string(b) != w.block {
			t.Errorf("record %d: block %.40q (%d bytes), want %.40q (%d)", i, b, len(b), w.block, len(w.block))
		}
	case "part":
		io.ReadFull(rec.Block(), make([]byte, 10))
	case "http":
		resp, err := rec.HTTP()
		if w.httpErr != nil || err != nil {
			if !errors.Is(err, w.httpErr) {
				t.Fatalf("record %d: HTTP() = %v, want %v", i, err, w.httpErr)
			}
			return
		}
		if resp.StatusCode != w.status {
			t.Errorf("record %d: status %d, want %d", i, resp.StatusCode, w.status)
		}
		if resp.Charset != w.charset {
			t.Errorf("record %d: charset %q, want %q", i, resp.Charset, w.charset)
		}
		if got := resp.IsHTML(); got != w.html {
			t.Errorf("record %d: IsHTML = %v, want %v (media type %q)", i, got, w.html, resp.MediaType)
		}
		body, err := io.ReadAll(resp.Body)
		if w.bodyErr != nil || err != nil {
			if !errors.Is(err, w.bodyErr) {
				t.Fatalf("record %d: reading body: %v, want %v", i, err, w.bodyErr)
			}
			return
		}
		if w.body != nil && !bytes.Equal(body, w.body) {
			t.Errorf("record %d: body %.40q (%d bytes), want %.40q (%d)", i, body, len(body), w.body, len(w.body))
		}
		if w.bodyLen > 0 && len(body) != w.bodyLen {
			t.Errorf("record %d: body of %d bytes, want %d", i, len(body), w.bodyLen)
		}
		if resp.Truncated() != w.truncated {
			t.Errorf("record %d: Truncated = %v, want %v", i, resp.Truncated(), w.truncated)
		}
	}
	if rec.Truncated() != w.truncated {
		t.Errorf("record %d: Truncated = %v, want %v", i, rec.Truncated(), w.truncated)
	}
}

func TestStale(t *testing.T) {
	r := NewReader(bytes.NewReader(gzipEach(mixed()...)), Options{})
	r.Next()
	first, _ := r.Next() // the request
	blk := first.Block()
	r.Next()
	if _, err := blk.Read(make([]byte, 8)); !errors.Is(err, ErrStale) {
		t.Errorf("read of an old record: %v, want ErrStale", err)
	}
	resp, err := func() (*HTTPResponse, error) {
		rec, _ := r.Next()
		r.Next()
		return rec.HTTP()
	}()
	if !errors.Is(err, ErrStale) || resp != nil {
		t.Errorf("HTTP of an old record: %v, want ErrStale", err)
	}
}

func TestOffsetsAndResume(t *testing.T) {
	m := mixed()
	for _, z := range []bool{false, true} {
		var data []byte
		var want []int64
		for _, p := range m {
			want = append(want, int64(len(data)))
			if z {
				data = append(data, gz([]byte(p))...)
			} else {
				data = append(data, p...)
			}
		}
		r := NewReader(bytes.NewReader(data), Options{})
		for i := range m {
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Offset != want[i] {
				t.Errorf("gzip=%v record %d: offset %d, want %d", z, i, rec.Offset, want[i])
			}
		}
		// Resume at the fifth record.
		r = NewReader(bytes.NewReader(data[want[4]:]), Options{StartOffset: want[4]})
		rec, err := r.Next()
		if err != nil || rec.ID != id(5) || rec.Offset != want[4] {
			t.Errorf("gzip=%v resume: %v %q at %d, want %q at %d", z, err, rec.ID, rec.Offset, id(5), want[4])
		}
	}
}

func TestIsHTML(t *testing.T) {
	for _, c := range []struct {
		ct   string
		head string
		want bool
	}{
		{"text/html", "", true},
		{"Text/HTML; charset=utf-8", "", true},
		{"application/xhtml+xml", "", true},
		{"text/plain", "<html>", false},
		{"image/jpeg", "<!DOCTYPE html>", false},
		{"", "<!DOCTYPE html>", true},
		{"", "  \n<!doctype HTML>", true},
		{"application/octet-stream", "<html>", true},
		{"unknown/unknown", "<?xml?><html>", true},
		{"garbage", "<html>", true},
		{"", "%PDF-1.5", false},
		{"", "", false},
		{"application/octet-stream", "\x00\x00", false},
	} {
		if got := IsHTML(c.ct, []byte(c.head)); got != c.want {
			t.Errorf("IsHTML(%q, %q) = %v, want %v", c.ct, c.head, got, c.want)
		}
	}
}

func TestHeader(t *testing.T) {
	h := Header{{"WARC-Type", "response"}, {"X-A", "1"}, {"x-a", "2"}}
	if h.Get("warc-type") != "response" || h.Get("nope") != "" {
		t.Error("Get")
	}
	if vs := h.Values("X-A"); len(vs) != 2 || vs[1] != "2" {
		t.Errorf("Values = %q", vs)
	}
	h.Set("X-a", "3")
	if len(h) != 2 || h.Get("x-a") != "3" {
		t.Errorf("Set: %v", h)
	}
	h.Del("WARC-TYPE")
	h.Add("Y", "4")
	if len(h) != 2 || h[0].Name != "X-A" || h[1].Value != "4" {
		t.Errorf("Del/Add: %v", h)
	}
}

func TestBlockOrHTTP(t *testing.T) {
	r := NewReader(bytes.NewReader(cat(mixed()...)), Options{})
	r.Next()
	r.Next()
	rec, _ := r.Next() // the first response
	io.ReadFull(rec.Block(), make([]byte, 3))
	if _, err := rec.HTTP(); !errors.Is(err, ErrBlockUsed) {
		t.Errorf("HTTP after Block: %v", err)
	}
	r.Next()
	r.Next()
	rec, _ = r.Next() // the 404
	resp, err := rec.HTTP()
	if err != nil || resp.StatusCode != 404 {
		t.Fatal(err)
	}
	if again, _ := rec.HTTP(); again != resp {
		t.Error("second HTTP call returned another response")
	}
	if _, err := rec.Block().Read(make([]byte, 3)); !errors.Is(err, ErrBlockUsed) {
		t.Errorf("Block after HTTP: %v", err)
	}
	if rec, err = r.Next(); err != nil || rec.ID != id(7) {
		t.Errorf("record after: %v", err)
	}
}

func brotliOf(b []byte) []byte {
	var out bytes.Buffer
	w := brotli.NewWriterLevel(&out, 5)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func zstdOf(b []byte) []byte {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

// TestShortBody: Short reports a block that ends before its body's HTTP
// Content-Length (the body is read as stored), or for a chunked body,
// once read, before its last chunk; not a whole body or a body without
// Content-Length.
func TestShortBody(t *testing.T) {
	body := []byte(strings.Repeat("<p>text</p>", 4000)) // more than one buffer of the header reader
	for _, c := range []struct {
		name, header string
		body         []byte
		short        bool
	}{
		{"whole", fmt.Sprintf("Content-Length: %d\r\n", len(body)), body, false},
		{"cut", fmt.Sprintf("Content-Length: %d\r\n", len(body)+500), body, true},
		{"cut small", "Content-Length: 20\r\n", []byte("<p>ten bytes"), true},
		{"longer than said", "Content-Length: 5\r\n", []byte("<p>ten bytes"), false},
		{"none", "", body, false},
		{"chunked", "Transfer-Encoding: chunked\r\nContent-Length: 999\r\n", []byte("5\r\n<p>ab\r\n0\r\n\r\n"), false},
		{"chunked, no trailer line end", "Transfer-Encoding: chunked\r\n", []byte("5\r\n<p>ab\r\n0\r\n"), false},
		{"chunked, last chunk's line end cut", "Transfer-Encoding: chunked\r\n", []byte("5\r\n<p>ab\r\n0"), false},
		{"chunked, cut in a chunk", "Transfer-Encoding: chunked\r\n", []byte("5\r\n<p>ab\r\n9\r\n<p>cd"), true},
		{"chunked, cut before the last chunk", "Transfer-Encoding: chunked\r\n", []byte("5\r\n<p>ab\r\n"), true},
		{"repeated, agreeing", "Content-Length: 20\r\nContent-Length: 20\r\n", []byte("<p>ten bytes"), true},
		{"repeated, disagreeing", "Content-Length: 5000\r\nContent-Length: 12\r\n", []byte("<p>ten bytes"), false},
		{"a list", "Content-Length: 12, 12\r\n", []byte("<p>ten bytes"), false},
		{"304", "Content-Length: 5000\r\n", nil, false},
	} {
		status := "200 OK"
		if c.name == "304" {
			status = "304 Not Modified"
		}
		r := NewReader(bytes.NewReader(cat(response(1, "http://x/", httpResp(status, "Content-Type: text/html\r\n"+c.header, c.body)))), Options{})
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := rec.HTTP()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if resp.Short() != c.short {
			t.Errorf("%s: Short() = %v, want %v", c.name, resp.Short(), c.short)
		}
		if !strings.HasPrefix(c.name, "chunked") && !bytes.Equal(got, c.body) {
			t.Errorf("%s: body of %d bytes, want the %d stored", c.name, len(got), len(c.body))
		}
	}
}

// TestNULPadding: NUL bytes after the last record (a tape's block, a
// writer that preallocates), in the file or inside the last gzip member,
// end the input as its end would; gzip(1) ignores them after the last
// member too. NUL bytes followed by more are no padding.
func TestNULPadding(t *testing.T) {
	recs := []string{response(1, "http://a.example/", httpResp("200 OK", "Content-Type: text/html\r\n", page("a", 3))),
		response(2, "http://b.example/", httpResp("200 OK", "Content-Type: text/html\r\n", page("b", 3)))}
	pad := strings.Repeat("\x00", 4096)
	for name, data := range map[string][]byte{
		"plain":               cat(recs[0], recs[1], pad),
		"gzip per record":     append(gzipEach(recs...), pad...),
		"gzip, padded inside": gzipEach(recs[0], recs[1]+pad),
		"gzip as a whole":     append(gz(cat(recs...)), pad...),
	} {
		r := NewReader(bytes.NewReader(data), Options{Name: name})
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: record %d: %v", name, n+1, err)
				break
			}
			n++
		}
		if n != 2 {
			t.Errorf("%s: %d records, want 2", name, n)
		}
	}
	r := NewReader(bytes.NewReader(cat(recs[0], pad, "junk")), Options{})
	r.Next()
	if _, err := r.Next(); err == nil || err == io.EOF {
		t.Errorf("NUL bytes and junk after the last record: %v, want an error", err)
	}
	// NUL bytes alone are no WARC (an aborted download), compressed or not.
	for name, data := range map[string][]byte{"plain": []byte(pad), "gzip": append([]byte{0x1f, 0x8b}, pad...)} {
		if _, err := NewReader(bytes.NewReader(data), Options{Gzip: name == "gzip"}).Next(); err == nil || err == io.EOF {
			t.Errorf("NUL bytes alone (%s): %v, want an error", name, err)
		}
	}
	if _, err := NewReader(bytes.NewReader([]byte(pad)), Options{Gzip: true}).Next(); err == nil || err == io.EOF {
		t.Errorf("NUL bytes alone, read as gzip: %v, want an error", err)
	}
}

// TestStreamedMembers: records gzipped per record, read from a pipe whose
// writer has not closed it, are each returned once their bytes are in:
// Next does not wait for more input than the record it returns (a crawl
// streamed in).
func TestStreamedMembers(t *testing.T) {
	m := mixed()
	pr, pw := io.Pipe()
	go pw.Write(gzipEach(m[0], m[1], m[2])) // and no Close: more may come
	r := NewReader(pr, Options{})
	got := make(chan string, 3)
	go func() {
		for range 3 {
			rec, err := r.Next()
			if err != nil {
				got <- err.Error()
				return
			}
			got <- rec.ID
		}
	}()
	for n := 1; n <= 2; n++ {
		select {
		case id1 := <-got:
			if id1 != id(n) {
				t.Errorf("record %d: %s", n, id1)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("record %d not returned while its writer waits", n)
		}
	}
	pw.Close()
	if last := <-got; last != id(3) {
		t.Errorf("record 3, once the writer closed: %s", last)
	}
}

// TestCutCodedBody: a gzip, deflate or zstd body that a crawler cut (the
// record's WARC-Truncated field, or a block shorter than the HTTP
// Content-Length) gives what decodes of it, and Short reports the cut;
// one cut on a record that says nothing of it is an error (ErrBadHTTP).
func TestCutCodedBody(t *testing.T) {
	// Text that does not compress to nothing: a zstd frame decodes a
	// block of 128 KiB at a time, and the cut must leave one whole.
	var pb bytes.Buffer
	for i := range 40000 {
		fmt.Fprintf(&pb, "<p>%d %x</p>\n", i*7919%100003, i*i)
	}
	page := pb.Bytes()
	var zl bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write(page)
	zw.Close()
	for enc, coded := range map[string][]byte{"gzip": gz(page), "deflate": zl.Bytes(), "zstd": zstdOf(page)} {
		cut := coded[:len(coded)/2]
		head := "Content-Type: text/html\r\nContent-Encoding: " + enc + "\r\n"
		for _, c := range []struct {
			name, warcField, httpField string
			short                      bool // else an error
		}{
			{"WARC-Truncated", "WARC-Truncated: length\r\n", "", true},
			{"HTTP Content-Length", "", fmt.Sprintf("Content-Length: %d\r\n", len(coded)), true},
			{"no word of the cut", "", "", false},
		} {
			data := rec(1, TypeResponse, "WARC-Target-URI: http://h.example/\r\nContent-Type: application/http; msgtype=response\r\n"+c.warcField,
				httpResp("200 OK", head+c.httpField, cut))
			r := NewReader(strings.NewReader(data), Options{})
			record, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := record.HTTP()
			if err != nil {
				t.Fatalf("%s, %s: %v", enc, c.name, err)
			}
			body, err := io.ReadAll(resp.Body)
			if !c.short {
				if !errors.Is(err, ErrBadHTTP) || resp.Short() {
					t.Errorf("%s, %s: read %d bytes, %v, short %v; want ErrBadHTTP", enc, c.name, len(body), err, resp.Short())
				}
				continue
			}
			if err != nil || !resp.Short() || len(body) == 0 || !bytes.HasPrefix(page, body) {
				t.Errorf("%s, %s: read %d bytes (a prefix of the page: %v), %v, short %v; want part of the page, short", enc, c.name, len(body), bytes.HasPrefix(page, body), err, resp.Short())
			}
		}
	}
}

// TestErrorURI: an error in a record whose header fields were read names
// its WARC-Target-URI, so that the page's error record gives its URL.
func TestErrorURI(t *testing.T) {
	uri := "WARC-Target-URI: <http://example.org/a>\r\n"
	for _, c := range []struct{ name, data string }{
		{"bad Content-Length", record("WARC/1.1", "WARC-Record-ID: "+id(2)+"\r\n"+uri+"Content-Length: 12x\r\n", "x")},
		{"negative Content-Length", record("WARC/1.1", "WARC-Record-ID: "+id(2)+"\r\n"+uri+"Content-Length: -1\r\n", "x")},
		{"no Content-Length", "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: " + id(2) + "\r\n" + uri + "\r\nx\r\n\r\n"},
		{"field without colon", "WARC/1.1\r\nWARC-Record-ID: " + id(2) + "\r\n" + uri + "this is not a field\r\n\r\n"},
	} {
		_, err := NewReader(strings.NewReader(c.data), Options{Name: "t.warc"}).Next()
		var we *Error
		if !errors.As(err, &we) || we.URI != "http://example.org/a" || we.RecordID != id(2) {
			t.Errorf("%s: %#v, want an *Error naming http://example.org/a and %s", c.name, err, id(2))
		}
	}
}
