package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

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
	// Content-Length, an over-long header), or a Content-Length that runs
	// past the record's gzip member or zstd frame into the next record.
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

// errMemberEnd is what the records' reader returns where a record runs
// past the end of its member into one that starts a record (see
// memberReader.Read). Where not one byte of the record's block was read,
// the header and the block are in members of their own,
// and the block may be a WARC itself: the block is read on, from what
// the next member gave.
var errMemberEnd = fmt.Errorf("%w: the record runs past the end of its gzip member or zstd frame into a member that starts a record", ErrMalformed)

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
	URI      string // its WARC-Target-URI without angle brackets, if it was read
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
	crossed   bool      // a record ran on from one member into the next
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
// note where each member starts. Moving on, it reads the new member's
// first bytes (pending): where they are a WARC version line, and no
// record of the file ran on into a next member before, the record has
// run past its member into the next record, and Read returns
// errMemberEnd once (a Content-Length too long; but see errMemberEnd).
type memberReader struct {
	r     *Reader
	done  bool  // current member fully read
	cross bool  // may continue into the next member
	start int64 // file offset of the current member
	// pending holds the first bytes of the current member, read to see
	// whether it starts a record, not yet given.
	pending []byte
	peek    [8]byte
}

// peekStart reads the first bytes of the member just begun into pending.
func (m *memberReader) peekStart() error {
	n := 0
	for n < len(m.peek) {
		k, err := m.r.dec.Read(m.peek[n:])
		n += k
		if err == io.EOF {
			m.done = true
			break
		}
		if err != nil {
			return err
		}
	}
	m.pending = m.peek[:n]
	return nil
}

func (m *memberReader) Read(p []byte) (int, error) {
	for {
		if len(m.pending) > 0 { // before m.done: a member may end within them
			n := copy(p, m.pending)
			m.pending = m.pending[n:]
			return n, nil
		}
		if m.done {
			if !m.cross {
				return 0, io.EOF
			}
			if err := m.r.nextMember(); err != nil {
				return 0, err
			}
			// A record that runs on into a member starting with a
			// record header has a Content-Length that is too long
			// (members split mid-record do not start so): read on,
			// it would swallow that record.
			if err := m.peekStart(); err != nil {
				return 0, err
			}
			if versionAt(m.pending) && !m.r.crossed {
				return 0, errMemberEnd
			}
			// A record runs on into the next member: the file is not
			// compressed a member per record, and a member may start
			// in a block anywhere, even with a WARC version line (a
			// WARC inside a record).
			m.r.crossed = true
			continue
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
	r.mr.pending = nil
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
		want := prev.left()
		left, err := r.discard(want)
		if err == errMemberEnd && left == prev.ContentLength {
			left, err = r.discard(left) // see errMemberEnd
		}
		prev.remaining -= want - left
		if err == nil && prev.remaining > 0 {
			err = prev.overrunErr()
		}
		if err != nil {
			if err == io.EOF {
				err = prev.errorf(ErrTruncated, "block ends after %d of %d bytes",
					prev.ContentLength-prev.remaining, prev.ContentLength)
			}
			r.err = prev.blockErr(err)
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
		// Bytes that are no header right after a record's block: most
		// often that record's Content-Length was wrong (too short, its
		// block's tail is read as a header; too long, the next header
		// was read into its block).
		if prev != nil && errors.As(err, &we) && we.RecordID == "" && errors.Is(we.Err, ErrMalformed) {
			id := prev.ID
			if id == "" {
				id = "without WARC-Record-ID"
			}
			we.Err = fmt.Errorf("%w, right after the block of the record %s at offset %d, whose Content-Length (%d) may be wrong", we.Err, id, prev.Offset, prev.ContentLength)
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
	if versionLine(b) >= 0 {
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
	// The next byte first: reading on to bufSize bytes would wait, on a
	// pipe, for data that may come much later (a crawl streamed in), and
	// hold back the record before it.
	if b, err := br.Peek(1); err != nil || b[0] != 0 {
		return false
	}
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
