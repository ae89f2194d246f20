package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
)

// Test WARCs are built here, byte by byte, so that they can be malformed
// at will; well-formed ones also come from Writer in the round-trip tests.

// id returns a fixed record ID for record n of a test file.
func id(n int) string {
	return fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n)
}

// record returns one raw record: version line, fields (CRLF-terminated
// lines, or LF ones), a Content-Length for the block unless fields has one,
// the block and the CRLF CRLF trailer.
func record(version, fields, block string) string {
	var b strings.Builder
	b.WriteString(version + "\r\n")
	b.WriteString(fields)
	if !strings.Contains(strings.ToLower(fields), "content-length:") {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(block))
	}
	b.WriteString("\r\n")
	b.WriteString(block)
	b.WriteString("\r\n\r\n")
	return b.String()
}

// rec is record for a WARC/1.1 record of type typ with ID id(n).
func rec(n int, typ, extra, block string) string {
	return record("WARC/1.1", fmt.Sprintf("WARC-Type: %s\r\nWARC-Record-ID: %s\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n%s", typ, id(n), extra), block)
}

// response is rec for a response record holding an HTTP response.
func response(n int, uri, httpBlock string) string {
	return rec(n, TypeResponse, "WARC-Target-URI: "+uri+"\r\nContent-Type: application/http; msgtype=response\r\n", httpBlock)
}

// httpResp returns an HTTP response: status line, header lines (CRLF
// terminated), body.
func httpResp(status, header string, body []byte) string {
	return "HTTP/1.1 " + status + "\r\n" + header + "\r\n" + string(body)
}

func cat(parts ...string) []byte { return []byte(strings.Join(parts, "")) }

// gzipEach compresses every part as its own gzip member.
func gzipEach(parts ...string) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		b.Write(gz([]byte(p)))
	}
	return b.Bytes()
}

func gz(p []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func zl(p []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

func rawDeflate(p []byte) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

// chunk applies chunked transfer coding with chunks of size n.
func chunk(p []byte, n int) []byte {
	var b bytes.Buffer
	for len(p) > 0 {
		k := min(n, len(p))
		fmt.Fprintf(&b, "%x\r\n", k)
		b.Write(p[:k])
		b.WriteString("\r\n")
		p = p[k:]
	}
	b.WriteString("0\r\nX-Trailer: 1\r\n\r\n")
	return b.Bytes()
}

// page returns an HTML page of about n bytes.
func page(title string, n int) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d of %s: the quick brown fox jumps over the lazy dog.</p>\n", i, title)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// patternReader yields n bytes of a repeated pattern without holding them.
type patternReader struct {
	n   int64
	pat []byte
	off int
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > p.n {
		b = b[:p.n]
	}
	k := 0
	for k < len(b) {
		c := copy(b[k:], p.pat[p.off:])
		k += c
		p.off = (p.off + c) % len(p.pat)
	}
	p.n -= int64(k)
	return k, nil
}
