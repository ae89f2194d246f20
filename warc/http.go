package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// Errors of Record.HTTP and of reading an HTTP body. They concern one
// record only: the Reader goes on with the next. Test them with errors.Is.
var (
	// ErrNotHTTP: the record block is not an HTTP response
	// (Content-Type other than application/http, or a request).
	ErrNotHTTP = errors.New("not an HTTP response")
	// ErrBadHTTP: an HTTP response that cannot be parsed (status line,
	// over-long header, chunked framing).
	ErrBadHTTP = errors.New("malformed HTTP response")
	// ErrUnsupportedEncoding: a Content-Encoding this package does not
	// decode (compress, or more than one coding).
	ErrUnsupportedEncoding = errors.New("unsupported Content-Encoding")
)

// MaxHTTPHeaderBytes limits the HTTP status line and header of a response.
const MaxHTTPHeaderBytes = 256 << 10

// sniffLen is how much of a body IsHTML looks at.
const sniffLen = 1024

// HTTPResponse is the HTTP response held in a response record.
type HTTPResponse struct {
	Proto      string      // "HTTP/1.1"
	StatusCode int         // 200, 404, ...
	Status     string      // reason phrase, "OK"; may be empty
	Header     http.Header // the HTTP header, keys canonicalized
	// MediaType is the lower-case media type of the HTTP Content-Type
	// ("text/html"), "" if absent; Charset is its lower-case charset
	// parameter ("utf-8"), "" if absent.
	MediaType, Charset string
	// Body is the HTTP body: chunked transfer coding and gzip, deflate, br or zstd
	// content coding removed, cut at Options.MaxPayload (see
	// Record.Truncated). It fails with ErrStale after Reader.Next.
	Body io.Reader

	rec   *Record
	sniff *bufio.Reader
	short bool // the block ends before the HTTP Content-Length (Short)
	// cutCoded: the body's content coding ended early on a record that
	// says it is cut (decoder); Short reports it.
	cutCoded bool
}

// Truncated reports whether Body was cut at Options.MaxPayload; see
// Record.Truncated.
func (h *HTTPResponse) Truncated() bool { return h.rec.truncated }

// contentLength returns a header's Content-Length where it has one, and
// its values (repeated fields, or a list) agree.
func contentLength(h http.Header) (int64, bool) {
	n, ok := int64(-1), false
	for _, v := range h.Values("Content-Length") {
		for _, part := range strings.Split(v, ",") {
			m, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil || m < 0 || ok && m != n {
				return 0, false
			}
			n, ok = m, true
		}
	}
	return n, ok
}

// Short reports whether the record's block ends before the body's HTTP
// Content-Length, or for a chunked body before its last chunk: the
// crawler stored the body cut (without a WARC-Truncated field), or a
// length is wrong; or whether a body with a content coding (gzip,
// deflate, br, zstd) ended before its coding did on a record that says
// it is cut (WARC-Truncated, or short as above), whose decoded part Body
// gives. Known once HTTP returns, for a chunked or coded body once Body
// has been read to its end.
func (h *HTTPResponse) Short() bool { return h.short || h.cutCoded }

// IsHTML reports whether the response holds an HTML page: by its
// Content-Type, or, when that is missing, unknown or
// application/octet-stream, by the first bytes of Body, which it peeks
// without consuming them (call it before reading Body).
func (h *HTTPResponse) IsHTML() bool {
	if !needsSniff(h.MediaType) {
		return IsHTML(h.MediaType, nil)
	}
	if h.rec.gen != h.rec.r.gen {
		return false
	}
	head, _ := h.sniff.Peek(sniffLen)
	return IsHTML(h.MediaType, head)
}

// HTTP parses the record block as an HTTP response: the status line and
// header now, the body as HTTPResponse.Body. Interim 1xx responses before
// the final one are skipped. It returns the same response on every call.
// It fails with ErrNotHTTP for a block that is not an HTTP response,
// ErrBadHTTP for one that cannot be parsed, ErrUnsupportedEncoding for a
// Content-Encoding it cannot decode, and ErrBlockUsed after Block; such
// errors concern this record only.
func (rec *Record) HTTP() (*HTTPResponse, error) {
	if rec.resp != nil {
		return rec.resp, nil
	}
	r := rec.r
	if rec.gen != r.gen {
		return nil, rec.wrap(ErrStale)
	}
	if rec.used {
		return nil, rec.wrap(ErrBlockUsed)
	}
	ct := strings.ToLower(rec.ContentType)
	if ct != "" && !strings.HasPrefix(ct, "application/http") || strings.Contains(ct, "msgtype=request") {
		return nil, rec.errorf(ErrNotHTTP, "Content-Type %.60q", rec.ContentType)
	}
	rec.used, rec.httpUsed = true, true
	if r.hb == nil {
		r.hb = bufio.NewReaderSize(&rec.raw, 16<<10)
	} else {
		r.hb.Reset(&rec.raw)
	}
	hb := r.hb
	if p, err := hb.Peek(5); string(p) != "HTTP/" {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, rec.errorf(ErrNotHTTP, "block starts with %.20q", p)
	}
	resp := &HTTPResponse{rec: rec, Header: make(http.Header)}
	budget := MaxHTTPHeaderBytes
	for {
		if err := resp.readHeader(hb, &budget); err != nil {
			return nil, err
		}
		// Skip interim responses (100 Continue, 103 Early Hints).
		if resp.StatusCode >= 200 || resp.StatusCode == 101 {
			break
		}
		if p, _ := hb.Peek(5); string(p) != "HTTP/" {
			break
		}
		clear(resp.Header)
	}
	resp.MediaType, resp.Charset = parseContentType(resp.Header.Get("Content-Type"))

	var body *bufio.Reader = hb
	te := strings.ToLower(strings.Join(resp.Header.Values("Transfer-Encoding"), ","))
	if cl, ok := contentLength(resp.Header); ok && !strings.Contains(te, "chunked") && resp.StatusCode >= 200 && resp.StatusCode != 204 && resp.StatusCode != 304 {
		resp.short = cl > int64(hb.Buffered())+rec.left() // left: a block cut at the next record (overrun) is that short
	}
	if strings.Contains(te, "chunked") && looksChunked(hb) {
		if r.cb == nil {
			r.cb = bufio.NewReaderSize(nil, 16<<10)
		}
		r.cb.Reset(&chunkedReader{rec: rec, br: hb, short: &resp.short})
		body = r.cb
	}
	enc, err := contentCoding(resp.Header)
	if err != nil {
		return nil, rec.wrap(err)
	}
	if enc != "" {
		dec, err := r.decoder(enc, body, resp)
		if err != nil {
			return nil, rec.wrap(err)
		}
		if r.sb == nil {
			r.sb = bufio.NewReaderSize(nil, 4<<10)
		}
		r.sb.Reset(dec)
		body = r.sb
	}
	resp.sniff = body
	rec.capped = capReader{rec: rec, r: body, left: -1}
	if maxp := r.opts.MaxPayload; maxp > 0 {
		rec.capped.left = maxp
	}
	resp.Body = &rec.capped
	rec.resp = resp
	return resp, nil
}

// readHeader reads a status line and header fields.
func (h *HTTPResponse) readHeader(br *bufio.Reader, budget *int) error {
	rec := h.rec
	line, err := readLine(br, &rec.r.scratch, budget)
	if err != nil && (err != io.EOF || len(line) == 0) {
		return h.lineErr(err)
	}
	proto, rest, _ := strings.Cut(strings.TrimSpace(string(line)), " ")
	code, reason, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	c, cerr := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/") || len(code) != 3 || cerr != nil || c < 100 {
		return rec.errorf(ErrBadHTTP, "status line %.60q", line)
	}
	h.Proto, h.StatusCode, h.Status = proto, c, strings.TrimSpace(reason)
	var last string
	for err == nil {
		line, err = readLine(br, &rec.r.scratch, budget)
		if err != nil && err != io.EOF {
			return h.lineErr(err)
		}
		if len(line) == 0 {
			break
		}
		if isLWS(line) && last != "" {
			vs := h.Header[last]
			vs[len(vs)-1] = strings.TrimSpace(vs[len(vs)-1] + " " + strings.TrimSpace(string(line)))
			continue
		}
		// Real-world headers are messy: lines that are not fields are skipped.
		if name, value, ok := parseField(line); ok {
			last = http.CanonicalHeaderKey(name)
			h.Header[last] = append(h.Header[last], value)
		}
	}
	return nil
}

func (h *HTTPResponse) lineErr(err error) error {
	if err == errLineTooLong {
		return h.rec.errorf(ErrBadHTTP, "header longer than %d bytes", MaxHTTPHeaderBytes)
	}
	if err == io.EOF {
		return h.rec.errorf(ErrBadHTTP, "empty block")
	}
	return err // already an *Error from the block reader
}

// contentCoding returns the one content coding to undo ("" for none).
func contentCoding(h http.Header) (string, error) {
	var enc string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			switch c {
			case "", "identity", "none":
				continue
			case "x-gzip":
				c = "gzip"
			}
			if c == enc {
				continue // a repeated header line, most likely
			}
			if c != "gzip" && c != "deflate" && c != "br" && c != "zstd" || enc != "" {
				return "", fmt.Errorf("%w: %.40q", ErrUnsupportedEncoding, v)
			}
			enc = c
		}
	}
	return enc, nil
}

// decoder returns a reader undoing enc ("gzip", "deflate", "br" or
// "zstd") on src. A gzip or zstd body that does not start like its coding
// says (a crawler that stored it decoded), or a br body that starts like
// markup, is passed through as is; an empty body stays empty.
//
// A body that ends before its coding does (a truncated gzip stream) is
// an error, but where the record says it is cut (its WARC-Truncated
// field, or a block shorter than the body's HTTP Content-Length: see
// Short), as crawlers cut large responses: what was decoded is the body
// then, and resp.cutCoded is set.
func (r *Reader) decoder(enc string, src *bufio.Reader, resp *HTTPResponse) (io.Reader, error) {
	magic, err := src.Peek(4)
	if len(magic) == 0 {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return src, nil
	}
	switch {
	case enc == "zstd" && len(magic) == 4 && binary.LittleEndian.Uint32(magic) == 0xFD2FB528:
		if r.ceZstd == nil {
			zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(64<<20))
			if err != nil {
				return nil, decodeErr("zstd", err)
			}
			r.ceZstd = zr
		} else if err := r.ceZstd.Reset(src); err != nil {
			return nil, decodeErr("zstd", err)
		}
		return &decodeErrReader{r: r.ceZstd, enc: enc, resp: resp}, nil
	case enc == "zstd":
		return src, nil
	case enc == "br" && looksLikeMarkup(src):
		return src, nil
	case enc == "br":
		if r.ceBrotli == nil {
			r.ceBrotli = brotli.NewReader(src)
		} else if err := r.ceBrotli.Reset(src); err != nil {
			return nil, decodeErr("br", err)
		}
		return &decodeErrReader{r: r.ceBrotli, enc: enc, resp: resp}, nil
	case enc == "gzip" && len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		if r.ceGzip == nil {
			r.ceGzip = new(gzip.Reader)
		}
		if err := r.ceGzip.Reset(src); err != nil {
			return nil, decodeErr("gzip", err)
		}
		r.ceGzip.Multistream(false) // ignore junk after the gzip data
		return &decodeErrReader{r: r.ceGzip, enc: enc, resp: resp}, nil
	case enc == "gzip":
		return src, nil
	case len(magic) >= 2 && magic[0]&0x0f == 8 && (uint(magic[0])<<8|uint(magic[1]))%31 == 0:
		zr, err := zlib.NewReader(src)
		if err != nil {
			return nil, decodeErr("deflate", err)
		}
		return &decodeErrReader{r: zr, enc: enc, resp: resp}, nil
	}
	// Raw deflate, as some servers send for "deflate".
	if r.ceFlate == nil {
		r.ceFlate = flate.NewReader(src)
	} else {
		r.ceFlate.(flate.Resetter).Reset(src, nil)
	}
	return &decodeErrReader{r: r.ceFlate, enc: enc, resp: resp}, nil
}

// decodeErrReader marks decoding errors of a body as ErrBadHTTP, leaving
// the block reader's own errors (*Error) alone.
type decodeErrReader struct {
	r    io.Reader
	enc  string
	out  int64 // bytes decoded so far
	resp *HTTPResponse
}

func (d *decodeErrReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.out += int64(n)
	if err != nil && err != io.EOF {
		if d.out > 0 && junkAfterStream(err) {
			return n, io.EOF // bytes after a complete stream, as gzip's Multistream(false) ignores them
		}
		var we *Error
		if errors.Is(err, io.ErrUnexpectedEOF) && !errors.As(err, &we) && d.resp.recordCut() {
			d.resp.cutCoded = true
			return n, io.EOF // the crawler cut the body: what was decoded is what there is
		}
		err = decodeErr(d.enc, err)
	}
	return n, err
}

// recordCut reports whether the record says its body is cut: by its
// WARC-Truncated field, or a block that ends before the body's HTTP
// Content-Length.
func (h *HTTPResponse) recordCut() bool {
	return h.short || h.rec.Header.Get(FieldTruncated) != ""
}

// junkAfterStream reports whether a decoder's error says that its stream
// ended and other bytes followed: brotli's "excessive input" (the package
// exports no value for it), zstd's magic-number mismatch where a next frame
// would start.
func junkAfterStream(err error) bool {
	return errors.Is(err, zstd.ErrMagicMismatch) || err.Error() == "brotli: excessive input"
}

func decodeErr(enc string, err error) error {
	var we *Error
	if errors.As(err, &we) {
		return we
	}
	return fmt.Errorf("%w: Content-Encoding %s: %w", ErrBadHTTP, enc, err)
}

// looksChunked reports whether the body starts with a chunk-size line;
// some crawlers keep "Transfer-Encoding: chunked" on a body they stored
// de-chunked.
func looksChunked(br *bufio.Reader) bool {
	p, _ := br.Peek(64)
	i := 0
	for i < len(p) && isHex(p[i]) {
		i++
	}
	if i == 0 || i > 16 {
		return false
	}
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\n':
			return true
		case c == ';':
			return bytes.IndexByte(p[i:], '\n') >= 0
		case c != ' ' && c != '\t' && c != '\r':
			return false
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// chunkedReader removes chunked transfer coding. A body cut by the end of
// the block ends there without error (the record may be WARC-Truncated),
// and *short is set.
type chunkedReader struct {
	rec     *Record
	br      *bufio.Reader
	short   *bool // set when the block ends before the last chunk
	n       int64 // bytes left in the current chunk
	started bool
	done    bool
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	for c.n == 0 {
		if c.done {
			return 0, io.EOF
		}
		if err := c.nextChunk(); err != nil {
			if err == io.EOF {
				if !c.done { // no last chunk: the block ended first
					*c.short = true
				}
				c.done = true
				continue
			}
			return 0, err
		}
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.br.Read(p)
	c.n -= int64(n)
	if err == io.EOF {
		if c.n > 0 {
			*c.short = true // inside a chunk
		}
		c.done, c.n, err = true, 0, nil
	}
	return n, err
}

// nextChunk reads a chunk-size line (after the line end of the previous
// chunk); at the last chunk it skips the trailer and sets done.
func (c *chunkedReader) nextChunk() error {
	budget := 4 << 10
	scratch := &c.rec.r.scratch
	if c.started {
		line, err := readLine(c.br, scratch, &budget)
		if err != nil {
			return c.err(err, line)
		}
		if len(line) != 0 {
			return c.rec.errorf(ErrBadHTTP, "chunk longer than its size")
		}
	}
	c.started = true
	line, err := readLine(c.br, scratch, &budget)
	if err == io.EOF && strings.TrimSpace(string(line)) == "0" {
		c.done = true // the last chunk, its line end cut: the body is whole
		return io.EOF
	}
	if err != nil {
		return c.err(err, line)
	}
	size, _, _ := strings.Cut(string(line), ";")
	n, perr := strconv.ParseUint(strings.TrimSpace(size), 16, 63)
	if perr != nil {
		return c.rec.errorf(ErrBadHTTP, "chunk size line %.40q", line)
	}
	if n == 0 {
		c.done = true
		for { // trailer fields
			budget = 4 << 10
			line, err := readLine(c.br, scratch, &budget)
			if err != nil || len(line) == 0 {
				return c.err(err, nil)
			}
		}
	}
	c.n = int64(n)
	return nil
}

func (c *chunkedReader) err(err error, line []byte) error {
	switch err {
	case nil, io.EOF:
		return io.EOF
	case errLineTooLong:
		return c.rec.errorf(ErrBadHTTP, "chunk line too long")
	}
	return err
}

// parseContentType returns the lower-case media type and charset of a
// Content-Type value, tolerating malformed parameters.
func parseContentType(ct string) (mediaType, charset string) {
	ct = strings.TrimSpace(ct)
	if ct == "" {
		return "", ""
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil || errors.Is(err, mime.ErrInvalidMediaParameter) {
		mediaType, charset = mt, params["charset"]
	} else {
		mt, _, _ = strings.Cut(ct, ";")
		mediaType = strings.ToLower(strings.TrimSpace(mt))
	}
	if charset == "" {
		lc := strings.ToLower(ct)
		if i := strings.Index(lc, "charset="); i >= 0 {
			v := lc[i+len("charset="):]
			if j := strings.IndexAny(v, "; ,"); j >= 0 {
				v = v[:j]
			}
			charset = strings.Trim(v, `"' `)
		}
	}
	return mediaType, strings.ToLower(strings.TrimSpace(charset))
}

// needsSniff reports whether a media type says too little to judge HTML.
func needsSniff(mediaType string) bool {
	switch mediaType {
	case "", "application/octet-stream", "binary/octet-stream", "application/unknown",
		"unknown/unknown", "application/x-unknown-content-type", "application/binary", "*/*":
		return true
	}
	return !strings.Contains(mediaType, "/")
}

// IsHTML judges whether a payload is HTML from its Content-Type (a media
// type, or a whole Content-Type value with parameters) and its first bytes
// (head; 1 KiB is enough). text/html and application/xhtml+xml are HTML;
// when the type is missing, unknown or application/octet-stream, head is
// sniffed as http.DetectContentType does, and searched for "<html" or
// "<!doctype html". Any other type is not HTML.
func IsHTML(contentType string, head []byte) bool {
	mt := strings.ToLower(strings.TrimSpace(contentType))
	if strings.ContainsAny(mt, "; ") {
		mt, _ = parseContentType(contentType)
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return true
	}
	if !needsSniff(mt) {
		return false
	}
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	if strings.HasPrefix(http.DetectContentType(head), "text/html") {
		return true
	}
	var low [sniffLen]byte
	l := low[:len(head)]
	for i, c := range head {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	return bytes.Contains(l, []byte("<html")) || bytes.Contains(l, []byte("<!doctype html"))
}

// looksLikeMarkup reports whether a body starts like text markup (after
// optional white space, a '<'): brotli data has no magic number, so a body
// stored decoded is recognised this way. A brotli stream's first byte
// holds its window size; encoders at their default window (22) write 0x1b
// or 0x8b, and '<' (0x3c) would need a 64 KiB window with a particular
// first meta-block, so the test errs on that rare case only.
func looksLikeMarkup(src *bufio.Reader) bool {
	p, _ := src.Peek(64)
	p = bytes.TrimPrefix(p, []byte("\xef\xbb\xbf")) // a UTF-8 byte-order mark
	for _, c := range p {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '<':
			return true
		}
		return false
	}
	return false
}
