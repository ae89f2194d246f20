package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// Errors a Reader returns, wrapped in an *Error; test them with errors.Is.
var (
	// ErrTruncated: the input ends inside a record (its header, its block,
	// or the gzip member or zstd frame holding it).
	ErrTruncated = errors.New("truncated record")
	// ErrMalformed: a record header that is not WARC syntax (no WARC/
	// version line, a field line without a colon, a missing or bad
	// Content-Length, an over-long header).
	ErrMalformed = errors.New("malformed record header")
	// ErrGzip: corrupt gzip data (bad member header, bad deflate data,
	// checksum mismatch).
	ErrGzip = errors.New("corrupt gzip data")
	// ErrZstd: corrupt zstd data (bad frame header, bad block, checksum
	// mismatch, a dictionary that does not load).
	ErrZstd = errors.New("corrupt zstd data")
	// ErrStale: a read from a record, or from its HTTP body, after Next
	// moved to a later record.
	ErrStale = errors.New("record read after Next")
	// ErrBlockUsed: Record.Block after Record.HTTP, or HTTP after Block.
	ErrBlockUsed = errors.New("record block already used")
)

// DefaultMaxHeaderBytes is the size limit of one WARC header when
// Options.MaxHeaderBytes is 0.
const DefaultMaxHeaderBytes = 1 << 20

const bufSize = 64 << 10

// Options configures a Reader. The zero value is ready to use.
type Options struct {
	// Name names the input (a file name) in errors.
	Name string
	// MaxPayload, when > 0, caps the bytes a caller can read from a record
	// through Record.Block or HTTPResponse.Body; Record.Truncated then
	// reports the cut. The rest of the record is skipped, never buffered.
	MaxPayload int64
	// StartOffset is added to every reported offset: set it to the file
	// offset the input starts at when resuming from a Record.Offset.
	StartOffset int64
	// MaxHeaderBytes limits the size of one WARC header
	// (DefaultMaxHeaderBytes if 0).
	MaxHeaderBytes int
	// Gzip reads the input as gzip members even where it does not start
	// with one (a file cut in the middle of a member, as its name .warc.gz
	// says): the first Next then fails with ErrGzip at offset 0, and
	// Resync moves on to the first member header.
	Gzip bool
	// Zstd reads the input as zstd frames where it does not start with
	// one, as Gzip does gzip members (a file named .warc.zst).
	Zstd bool
	// ZstdDict is the dictionary of a .warc.zst read from an offset past
	// its dictionary frame (as Reader.ZstdDict gave it when the file was
	// read from its start); a dictionary frame read replaces it.
	ZstdDict []byte
}

// Error is the error type of Reader: what went wrong, where.
type Error struct {
	Name     string // Options.Name
	Offset   int64  // offset of the record (see Record.Offset)
	RecordID string // WARC-Record-ID of the record, if it was read
	Err      error  // wraps one of the Err* values, or an I/O error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("warc: ")
	if e.Name != "" {
		b.WriteString(e.Name)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "record at offset %d", e.Offset)
	if e.RecordID != "" {
		b.WriteString(" ")
		b.WriteString(e.RecordID)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Reader reads the records of one WARC file in order. It is not safe for
// concurrent use.
type Reader struct {
	opts Options
	cr   countingReader
	br   *bufio.Reader // over cr: the file
	dec  member        // nil for a plain file
	mr   memberReader
	dr   *bufio.Reader // the records (br itself for a plain file)

	started   bool
	headers   int       // record headers begun: NUL padding counts only after one
	seeker    io.Seeker // the input, when it can seek: Resync looks back
	replay    *replay   // the compressed input, when it cannot seek: Resync reads it again
	base      int64     // the input's offset when reading began
	inMember  int       // records begun in the current member
	perRecord bool      // a member ended after one record: compressed per record
	err       error     // sticky: returned by every later Next
	rec       *Record   // current record
	gen       uint64    // bumped by Next; older records go stale
	scratch   []byte

	// reused by Record.HTTP
	hb, cb, sb *bufio.Reader
	ceGzip     *gzip.Reader
	ceFlate    io.ReadCloser
	ceZstd     *zstd.Decoder
	ceBrotli   *brotli.Reader
}

// NewReader returns a Reader of the WARC file r, plain, gzip- or
// zstd-compressed (one member or frame per record, or any other layout;
// see the package doc). It reads r through its own buffer: r need not be
// buffered.
func NewReader(r io.Reader, opts Options) *Reader {
	if opts.MaxHeaderBytes <= 0 {
		opts.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	rd := &Reader{opts: opts}
	rd.cr.r = r
	return rd
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// memberReader yields the decompressed bytes of the current member (gzip
// member or zstd frame).
// At its end it moves on to the next member only while cross is set (in
// the middle of a record); otherwise it reports io.EOF, so that Next can
// note where each member starts.
type memberReader struct {
	r     *Reader
	done  bool  // current member fully read
	cross bool  // may continue into the next member
	start int64 // file offset of the current member
}

func (m *memberReader) Read(p []byte) (int, error) {
	for {
		if m.done {
			if !m.cross {
				return 0, io.EOF
			}
			if err := m.r.nextMember(); err != nil {
				return 0, err
			}
		}
		n, err := m.r.dec.Read(p)
		if err == io.EOF {
			m.done = true
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}

// nextMember starts the next member (gzip member or zstd frame); io.EOF
// at the end of the file. Bytes that do not start a member are ErrGzip or
// ErrZstd and left unread, for Resync to look through.
func (r *Reader) nextMember() error {
	start := r.filePos()
	r.mr.start = start
	r.inMember = 0
	if r.replay != nil {
		b, _ := r.br.Peek(r.br.Buffered())
		r.replay.keepFrom(start, b)
	}
	if r.headers > 0 && zeroTail(r.br) {
		return io.EOF // NUL padding after the last member, as gzip(1) ignores it
	}
	skipped, err := r.dec.begin(r.br)
	r.mr.start += skipped // a zstd dictionary or skippable frame is no record's
	if err != nil {
		return err
	}
	r.mr.done = false
	return nil
}

func (r *Reader) init() {
	r.started = true
	if s, ok := r.cr.r.(io.Seeker); ok {
		if pos, err := s.Seek(0, io.SeekCurrent); err == nil {
			r.seeker, r.base = s, pos
		}
	}
	if r.seeker == nil {
		r.replay = &replay{src: r.cr.r, whole: true, limit: replayLimit}
		r.cr.r = r.replay
	}
	r.br = bufio.NewReaderSize(&r.cr, bufSize)
	magic, _ := r.br.Peek(4)
	zstdStart := len(magic) == 4 && (bytes.Equal(magic, zstdMagic) || binary.LittleEndian.Uint32(magic)&^0xf == zstdSkippable)
	switch {
	case r.opts.Gzip || !r.opts.Zstd && bytes.HasPrefix(magic, gzipMagic[:2]):
		r.dec = new(gzipMember)
	case r.opts.Zstd || zstdStart:
		r.dec = &zstdMember{dict: r.opts.ZstdDict}
	}
	if r.dec != nil {
		r.mr = memberReader{r: r, done: true}
		r.dr = bufio.NewReaderSize(&r.mr, bufSize)
	} else {
		r.dr = r.br
		if r.replay != nil {
			// A plain WARC is looked through forward only: keep
			// nothing. The replay has given every byte it read.
			r.cr.r, r.replay = r.replay.src, nil
		}
	}
}

// ZstdDict returns the dictionary of the .warc.zst being read, from its
// dictionary frame or Options.ZstdDict; nil for other files, and before
// Next read the frame.
func (r *Reader) ZstdDict() []byte {
	if z, ok := r.dec.(*zstdMember); ok {
		return z.dict
	}
	return nil
}

// MemberRecords returns how many records were begun in the current gzip
// member or zstd frame of a compressed input, the one Next read last or
// failed in (0 for an uncompressed input). Where Next failed for corrupt
// data or a header that is no WARC header and this is more than 1, the
// member held records read before the damage, which its checksum, read
// at the member's end, could not check: in a file compressed as one
// member their data may already have been damaged.
func (r *Reader) MemberRecords() int {
	if r.dec == nil {
		return 0
	}
	return r.inMember
}

// Next returns the next record, after skipping what the caller left unread
// of the previous one. At the end of the input it returns io.EOF. Any
// other error is an *Error and ends the reading: every later call returns
// it again. The previous record's readers fail with ErrStale from then on.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.started {
		r.init()
	}
	prev := r.rec
	if prev != nil {
		r.rec = nil
		r.gen++
		left, err := r.discard(prev.remaining)
		prev.remaining = left
		if err != nil {
			if err == io.EOF {
				err = prev.errorf(ErrTruncated, "block ends after %d of %d bytes",
					prev.ContentLength-left, prev.ContentLength)
			}
			r.err = prev.wrap(err)
			return nil, r.err
		}
	}
	rec, err := r.readHeader()
	if err != nil {
		// Corrupt gzip data at the end of a member that held the previous
		// record alone (a checksum that fails once the record was read):
		// the error is that record's. So is a header that is no WARC
		// header inside that member when the member's data fails further
		// on: the record's bytes were corrupt, and its Content-Length
		// counted garbage. In a file compressed per record, where a
		// member holds one record, the member is read on to its end to
		// see (a member cut short decodes on into the members after it,
		// giving garbage a long way before its data fails).
		var we *Error
		if prev != nil && r.dec != nil && r.inMember == 1 && errors.As(err, &we) &&
			we.RecordID == "" && we.Offset == prev.Offset {
			if errors.Is(err, ErrMalformed) {
				cerr, recordAhead := r.memberErr()
				if cerr == nil && !recordAhead && r.perRecord {
					cerr = r.drainMember()
				}
				if cerr != nil {
					we.Err = cerr
				}
			}
			if corrupt(err) || errors.Is(err, ErrTruncated) {
				we.RecordID = prev.ID
			}
		}
		r.err = err
		return nil, err
	}
	r.rec = rec
	return rec, nil
}

// memberErr returns the corrupt data (ErrGzip, ErrZstd) that ends the
// current member within the next bufSize bytes, with no record start
// before it; nil when the member ends well there, or goes on, or holds
// another record (a file compressed as one member: recordAhead). What it
// reads is left for Resync, which moves on to the next member after it.
func (r *Reader) memberErr() (err error, recordAhead bool) {
	r.mr.cross = false
	b, err := r.dr.Peek(bufSize)
	if bytes.Contains(b, []byte("\nWARC/1.")) {
		return nil, true
	}
	if err != nil && corrupt(err) {
		return err, false
	}
	return nil, false
}

// drainMember reads the current member on to its end while Resync can
// still look back to its start (see canRewind), and returns the corrupt
// data or truncation that ends it; nil where it ends well, or is too long
// to tell.
func (r *Reader) drainMember() error {
	r.mr.cross = false
	for r.filePos()-r.mr.start <= maxRewind-drainSlack {
		if _, err := r.dr.Discard(bufSize); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
	return nil
}

// drainSlack is what drainMember leaves of maxRewind: the input one
// Discard of decompressed bytes may take (deflate takes at most about 4
// bytes a byte it gives).
const drainSlack = 8 * bufSize

// Resync moves past damage after Next failed with ErrGzip, ErrZstd or
// ErrMalformed: it skips the input to the next place where a record may
// start and clears the error, so that Next reads on from there. After a
// header that is no WARC header that is the next line starting "WARC/1."
// in the records' bytes (in a compressed file, member by member); after
// corrupt compressed data, the next gzip member header or zstd frame
// header in the file, looked for, where at most maxRewind bytes of the
// member were read, from just after the start of the damaged member: the
// data of a member cut short runs on into the members after it, and the
// next one would be lost. An input that can seek (an *os.File) is read
// there again; of one that cannot (standard input, a pipe), the Reader
// keeps the current member's bytes (up to maxRewind) to read them again.
// For the same reason a member that ran on to the end of the file
// (ErrTruncated) is looked past too; where no member follows it, Resync
// returns that error. It returns the file
// offset of the record found (as Record.Offset gives it), or io.EOF when
// the input holds no such place. What lay between is lost; if it was no
// record start after all, Next fails again and Resync can be called
// again: each call moves on by at least one byte. Resync does nothing for
// other errors (ErrTruncated at the end of the input, an I/O error) and
// returns the error.
func (r *Reader) Resync() (int64, error) {
	if r.err == nil {
		return 0, errors.New("warc: Resync without an error to move past")
	}
	malformed := errors.Is(r.err, ErrMalformed)
	// A member cut short in the middle of a file whose deflate data
	// (a stored block) ran on to the file's end reads as truncated: where
	// the member can be read again, a member after it may still be found.
	truncated := errors.Is(r.err, ErrTruncated) && r.canRewind()
	if !malformed && !corrupt(r.err) && !truncated {
		return 0, r.err
	}
	if r.rec != nil {
		r.rec = nil
		r.gen++
	}
	var err error
	switch {
	case malformed:
		err = r.seekRecord()
		// The member whose bytes read as no header failed further on:
		// its data may have run on into the members after it, so look
		// for the next member from its start, as after corrupt data.
		if r.dec != nil && (corrupt(err) || errors.Is(err, ErrTruncated)) && r.canRewind() {
			err, malformed = r.rewindMember(), false
		}
	case r.canRewind():
		// Even a checksum failure may come from deflate data that ran
		// on into the next member and ended there.
		err = r.rewindMember()
	}
	if r.dec != nil && (!malformed && err == nil || malformed && corrupt(err)) {
		err = r.seekMember()
	}
	switch {
	case err == io.EOF && truncated:
		return 0, r.err // nothing after it: the input ends inside that member
	case err == io.EOF:
		r.err = io.EOF
		return 0, io.EOF
	case err != nil:
		r.err = &Error{Name: r.opts.Name, Offset: r.offset(), Err: err}
		return 0, r.err
	}
	r.err = nil
	return r.offset(), nil
}

// maxRewind bounds what Resync reads again of a damaged member: a WARC
// compressed per record has members of a record each; one compressed as
// a whole (gigabytes, maybe) is not read again from its start.
const maxRewind = 64 << 20

// canRewind reports whether Resync may look back into the current
// member: the member's bytes read so far are at most maxRewind, and the
// input can seek or its replay kept them.
func (r *Reader) canRewind() bool {
	if r.dec == nil || r.filePos()-r.mr.start > maxRewind {
		return false
	}
	return r.seeker != nil || r.replay != nil && r.replay.has(r.mr.start+1)
}

// seekRecord skips the records' bytes to the next "WARC/1." that starts a
// line (or the next member), or stands at the current position, member by
// member in a compressed file.
func (r *Reader) seekRecord() error {
	pat := []byte("\nWARC/1.")
	r.mr.cross = false
	lineStart := true
	for {
		buf, err := r.dr.Peek(bufSize)
		if lineStart && bytes.HasPrefix(buf, pat[1:]) {
			return nil
		}
		lineStart = false
		if i := bytes.Index(buf, pat); i >= 0 {
			r.dr.Discard(i + 1)
			return nil
		}
		if err == nil {
			r.dr.Discard(len(buf) - len(pat)) // the pattern may start in the last bytes
			continue
		}
		if err != io.EOF {
			return err
		}
		r.dr.Discard(len(buf))
		if r.dec == nil || !r.mr.done {
			return io.EOF
		}
		if err := r.nextMember(); err != nil {
			return err
		}
		lineStart = true
	}
}

// filePos is the offset in the input, from where reading began, of the
// next byte the reader has not taken from its buffer.
func (r *Reader) filePos() int64 { return r.cr.n - int64(r.br.Buffered()) }

// rewindMember moves back to just after the start of the member whose
// data was corrupt (see canRewind): its deflate stream may have run on
// into the members after it (a member cut short in the middle of the
// file), and the next member header is to be looked for from there, so
// that no whole member after the damage is lost.
func (r *Reader) rewindMember() error {
	at := r.mr.start + 1
	if at >= r.filePos() {
		return nil
	}
	if r.seeker == nil {
		r.replay.rewind(at)
	} else if _, err := r.seeker.Seek(r.base+at, io.SeekStart); err != nil {
		return err
	}
	r.cr.n = at
	r.br.Reset(&r.cr)
	return nil
}

// seekMember skips the file to the next member header (gzip member or
// zstd frame) and starts that member.
func (r *Reader) seekMember() error {
	for {
		if err := r.seek(r.dec.magic()); err != nil {
			return err
		}
		if h, _ := r.br.Peek(18); !r.dec.plausible(h) {
			r.br.Discard(1)
			continue
		}
		err := r.nextMember()
		if err == nil {
			r.dr.Reset(&r.mr)
			r.mr.cross = false
			return nil
		}
		if err == io.EOF || !corrupt(err) && !errors.Is(err, ErrTruncated) {
			return err
		}
		// A false start that passed the checks above: nextMember read
		// part of it; look on from there.
	}
}

// seek skips the file to the next occurrence of pat; io.EOF when pat does
// not occur.
func (r *Reader) seek(pat []byte) error {
	for {
		buf, err := r.br.Peek(bufSize)
		if i := bytes.Index(buf, pat); i >= 0 {
			r.br.Discard(i)
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF {
			r.br.Discard(len(buf))
			return io.EOF
		}
		r.br.Discard(len(buf) - (len(pat) - 1)) // pat may start in the last bytes
	}
}

// discard skips n bytes of the current record and returns how many it
// could not skip.
func (r *Reader) discard(n int64) (int64, error) {
	for n > 0 {
		d, err := r.dr.Discard(int(min(n, 1<<30)))
		n -= int64(d)
		if err != nil {
			return n, err
		}
	}
	return 0, nil
}

func (r *Reader) offset() int64 {
	if r.dec != nil {
		return r.mr.start + r.opts.StartOffset
	}
	return r.filePos() + r.opts.StartOffset
}

// zeroTail reports whether what is left of br is NUL bytes only, fewer
// than bufSize of them, and if so takes them. It is asked only after a
// record: a file of NUL bytes alone (an aborted download) is no WARC.
func zeroTail(br *bufio.Reader) bool {
	b, err := br.Peek(bufSize)
	if err != io.EOF || len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	br.Discard(len(b))
	return true
}

// skipToRecord skips line ends between records, and moves to the next
// member when the current one is exhausted. It returns io.EOF at the end of
// the input.
func (r *Reader) skipToRecord() error {
	r.mr.cross = false
	for {
		b, err := r.dr.Peek(1)
		if err == nil {
			if b[0] == 0 && r.headers > 0 && zeroTail(r.dr) {
				continue // NUL padding after the last record (a tape's block, a writer's preallocation)
			}
			if b[0] != '\r' && b[0] != '\n' {
				return nil
			}
			r.dr.Discard(1)
			continue
		}
		if err == io.EOF && r.dec != nil && r.mr.done {
			if r.inMember == 1 {
				r.perRecord = true
			}
			err = r.nextMember()
			if err == nil {
				continue
			}
		}
		if err == io.EOF {
			return io.EOF
		}
		return &Error{Name: r.opts.Name, Offset: r.offset(), Err: err}
	}
}

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
			rec.ID = rec.Header.Get(FieldRecordID)
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
			rec.ID = rec.Header.Get(FieldRecordID)
			return nil, rec.errorf(ErrMalformed, "bad field line %.60q", line)
		}
		rec.Header = append(rec.Header, Field{name, value})
	}
	h := rec.Header
	rec.ID = h.Get(FieldRecordID)
	cl, ok := h.Lookup(FieldContentLength)
	if !ok {
		return nil, rec.errorf(ErrMalformed, "no Content-Length")
	}
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 {
		return nil, rec.errorf(ErrMalformed, "bad Content-Length %.40q", cl)
	}
	rec.ContentLength, rec.remaining = n, n
	rec.Type = h.Get(FieldType)
	rec.TargetURI = trimAngle(h.Get(FieldTargetURI))
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
	// Version is the version line, "WARC/1.0" or "WARC/1.1".
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

func (rec *Record) errorf(sentinel error, format string, args ...any) *Error {
	return &Error{
		Name:     rec.r.opts.Name,
		Offset:   rec.Offset,
		RecordID: rec.ID,
		Err:      fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...),
	}
}

func (rec *Record) wrap(err error) *Error {
	if we, ok := err.(*Error); ok {
		return we
	}
	return &Error{Name: rec.r.opts.Name, Offset: rec.Offset, RecordID: rec.ID, Err: err}
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
	if int64(len(p)) > rec.remaining {
		p = p[:rec.remaining]
	}
	n, err := r.dr.Read(p)
	rec.remaining -= int64(n)
	if err != nil {
		if err == io.EOF {
			if rec.remaining == 0 {
				return n, io.EOF
			}
			err = rec.errorf(ErrTruncated, "block ends after %d of %d bytes",
				rec.ContentLength-rec.remaining, rec.ContentLength)
		} else {
			err = rec.wrap(err)
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
