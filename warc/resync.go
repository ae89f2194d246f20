package warc

import (
	"bytes"
	"errors"
	"io"
)

// Resync moves past damage after Next failed with ErrGzip, ErrZstd or
// ErrMalformed: it skips the input to the next place where a record may
// start and clears the error, so that Next reads on from there. After a
// header that is no WARC header that is the next line starting with a
// WARC version ("WARC/1.", or a draft's "WARC/0.")
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

// seekRecord skips the records' bytes to the next WARC version that starts a
// line (or the next member), or stands at the current position, member by
// member in a compressed file.
func (r *Reader) seekRecord() error {
	r.mr.cross = false
	lineStart := true
	for {
		buf, err := r.dr.Peek(bufSize)
		if lineStart && versionAt(buf) {
			return nil
		}
		lineStart = false
		if i := versionLine(buf); i >= 0 {
			r.dr.Discard(i)
			return nil
		}
		if err == nil {
			r.dr.Discard(len(buf) - len("\nWARC/1.0")) // a version line may start in the last bytes
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

// versionAt reports whether b starts with a WARC version: "WARC/", a
// digit, a dot and a digit (WARC/1.0, WARC/1.1, and the drafts' WARC/0.17
// and WARC/0.18 of older archives).
func versionAt(b []byte) bool {
	return len(b) >= 8 && bytes.HasPrefix(b, []byte("WARC/")) && isDigit(b[5]) && b[6] == '.' && isDigit(b[7])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// versionLine returns the index in b of the first line that starts with
// a WARC version (versionAt) after a line feed, or -1.
func versionLine(b []byte) int {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("\nWARC/"))
		if j < 0 {
			return -1
		}
		i += j + 1
		if versionAt(b[i:]) {
			return i
		}
	}
}
