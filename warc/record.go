package warc

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// readHeader reads the WARC header of the next record (skipToRecord
// first) and returns the record, its block unread.
func (r *Reader) readHeader() (*Record, error) {
	if err := r.skipToRecord(); err != nil {
		return nil, err
	}
	rec := &Record{Offset: r.offset(), r: r, gen: r.gen}
	r.headers++
	r.mr.cross = true
	budget := r.opts.MaxHeaderBytes
	line, err := readLine(r.dr, &r.scratch, &budget)
	if err != nil {
		return nil, rec.headerErr(err)
	}
	if !strings.HasPrefix(string(line), "WARC/") {
		return nil, rec.errorf(ErrMalformed, "no WARC version line, found %.40q", line)
	}
	r.inMember++
	switch string(line) {
	case "WARC/1.1":
		rec.Version = "WARC/1.1"
	case "WARC/1.0":
		rec.Version = "WARC/1.0"
	default:
		rec.Version = string(line)
	}
	rec.Header = make(Header, 0, 16)
	for {
		line, err = readLine(r.dr, &r.scratch, &budget)
		if err != nil {
			rec.readIdentity()
			return nil, rec.headerErr(err)
		}
		if len(line) == 0 {
			break
		}
		if isLWS(line) && len(rec.Header) > 0 {
			f := &rec.Header[len(rec.Header)-1]
			f.Value = strings.TrimSpace(f.Value + " " + strings.TrimSpace(string(line)))
			continue
		}
		name, value, ok := parseField(line)
		if !ok {
			rec.readIdentity()
			return nil, rec.errorf(ErrMalformed, "bad field line %.60q", line)
		}
		rec.Header = append(rec.Header, Field{name, value})
	}
	h := rec.Header
	rec.readIdentity()
	cl, ok := h.Lookup(FieldContentLength)
	if !ok {
		return nil, rec.errorf(ErrMalformed, "no Content-Length")
	}
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 {
		return nil, rec.errorf(ErrMalformed, "bad Content-Length %.40q", cl)
	}
	rec.ContentLength, rec.remaining = n, n
	rec.stop = r.overrun(n)
	rec.Type = h.Get(FieldType)
	rec.ContentType = h.Get(FieldContentType)
	if d, err := time.Parse(time.RFC3339Nano, h.Get(FieldDate)); err == nil {
		rec.Date = d
	}
	rec.raw.rec = rec
	return rec, nil
}

// Record is one WARC record. Its fields are valid for good; its block
// can be read only until the next call of Reader.Next.
type Record struct {
	// Offset is where the record starts in the file (plus
	// Options.StartOffset): for a plain file, its first byte; for a
	// compressed file, the first byte of the gzip member or zstd frame the
	// record starts in, which is the record's own in a file compressed
	// per record (the usual layout), and the same for every record of a
	// file compressed as a whole (0 for gzip; for zstd, where the frame
	// starts after a dictionary frame). A reader started at that offset
	// reads this record first (a .warc.zst's given the dictionary,
	// Options.ZstdDict).
	Offset int64
	// Version is the version line, "WARC/1.0" or "WARC/1.1" (or a
	// draft's, "WARC/0.18").
	Version string
	// Header holds every named field, in file order.
	Header Header

	Type          string    // WARC-Type, e.g. TypeResponse
	ID            string    // WARC-Record-ID, e.g. "<urn:uuid:...>"
	TargetURI     string    // WARC-Target-URI without angle brackets
	ContentType   string    // Content-Type of the block
	Date          time.Time // WARC-Date; zero if absent or unparsable
	ContentLength int64     // Content-Length: the size of the block

	r         *Reader
	gen       uint64
	remaining int64 // unread block bytes
	stop      int64 // block bytes before the next record where the Content-Length runs past it (overrun), or -1
	used      bool  // Block or HTTP was called
	httpUsed  bool  // HTTP was called
	truncated bool
	raw       rawReader
	capped    capReader
	resp      *HTTPResponse
}

// Block returns the record block: ContentLength bytes, or Options.MaxPayload
// bytes if that is set and smaller (then Truncated reports true). Block
// returns the same reader on every call. After HTTP, the reader fails with
// ErrBlockUsed.
func (rec *Record) Block() io.Reader {
	if rec.httpUsed {
		return errReader{rec.wrap(ErrBlockUsed)}
	}
	if !rec.used {
		rec.used = true
		rec.capped = capReader{rec: rec, r: &rec.raw, left: -1}
		if maxp := rec.r.opts.MaxPayload; maxp > 0 {
			rec.capped.left = maxp
			rec.truncated = rec.ContentLength > maxp
		}
	}
	return &rec.capped
}

// Truncated reports whether the payload the caller reads was cut at
// Options.MaxPayload: for Block it is known at once (ContentLength >
// MaxPayload); for HTTPResponse.Body it is set once Body returned io.EOF at
// the cap with more data left. It says nothing of the WARC-Truncated field,
// which is in Header.
func (rec *Record) Truncated() bool { return rec.truncated }

// readIdentity sets the record's ID and TargetURI from the fields read
// so far, so that an error in the rest of its header names them.
func (rec *Record) readIdentity() {
	rec.ID, rec.TargetURI = rec.Header.Get(FieldRecordID), trimAngle(rec.Header.Get(FieldTargetURI))
}

func (rec *Record) errorf(sentinel error, format string, args ...any) *Error {
	return &Error{
		Name:     rec.r.opts.Name,
		Offset:   rec.Offset,
		RecordID: rec.ID,
		URI:      rec.TargetURI,
		Err:      fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...),
	}
}

func (rec *Record) wrap(err error) *Error {
	if we, ok := err.(*Error); ok {
		return we
	}
	return &Error{Name: rec.r.opts.Name, Offset: rec.Offset, RecordID: rec.ID, URI: rec.TargetURI, Err: err}
}

// blockErr wraps an error met reading the block; a block that runs past
// its member's end (errMemberEnd) is named by its Content-Length.
func (rec *Record) blockErr(err error) *Error {
	if err == errMemberEnd {
		return rec.errorf(ErrMalformed, "Content-Length %d runs past the end of the record's gzip member or zstd frame, %d bytes into the block, into a member that starts the next record",
			rec.ContentLength, rec.ContentLength-rec.remaining)
	}
	return rec.wrap(err)
}

func (rec *Record) headerErr(err error) *Error {
	switch {
	case err == errLineTooLong:
		return rec.errorf(ErrMalformed, "header longer than %d bytes", rec.r.opts.MaxHeaderBytes)
	case err == io.EOF:
		return rec.errorf(ErrTruncated, "input ends in the header")
	}
	return rec.wrap(err)
}

// left returns the count of block bytes there are to read: those before
// the next record's start, where the Content-Length runs past it.
func (rec *Record) left() int64 {
	if rec.stop < 0 {
		return rec.remaining
	}
	return max(0, rec.stop-(rec.ContentLength-rec.remaining))
}

// overrunErr is the error of a block cut at the next record's start.
func (rec *Record) overrunErr() *Error {
	return rec.errorf(ErrMalformed, "Content-Length %d runs past the end of the record, %d bytes into the block (a blank line and the next record follow), into the next record",
		rec.ContentLength, rec.stop)
}

// rawReader reads the block, uncapped.
type rawReader struct{ rec *Record }

func (b *rawReader) Read(p []byte) (int, error) {
	rec := b.rec
	r := rec.r
	if rec.gen != r.gen {
		return 0, rec.wrap(ErrStale)
	}
	if r.err != nil {
		return 0, r.err
	}
	if rec.remaining <= 0 {
		return 0, io.EOF
	}
	left := rec.left()
	if left == 0 {
		r.err = rec.overrunErr()
		return 0, r.err
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := r.dr.Read(p)
	if err == errMemberEnd && n == 0 && rec.remaining == rec.ContentLength {
		n, err = r.dr.Read(p) // see errMemberEnd
	}
	rec.remaining -= int64(n)
	if err != nil {
		if err == io.EOF {
			if rec.remaining == 0 {
				return n, io.EOF
			}
			err = rec.errorf(ErrTruncated, "block ends after %d of %d bytes",
				rec.ContentLength-rec.remaining, rec.ContentLength)
		} else {
			err = rec.blockErr(err)
		}
		r.err = err
	}
	return n, err
}

// capReader is the reader handed to callers: it checks staleness and
// stops at the cap (left < 0: no cap), probing for more data there.
type capReader struct {
	rec  *Record
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.rec.gen != c.rec.r.gen {
		return 0, c.rec.wrap(ErrStale)
	}
	if c.left < 0 {
		return c.r.Read(p)
	}
	if c.left == 0 {
		var b [1]byte
		n, err := io.ReadFull(c.r, b[:])
		if n > 0 {
			c.rec.truncated = true
		} else if err != io.EOF && err != io.ErrUnexpectedEOF {
			return 0, err
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
