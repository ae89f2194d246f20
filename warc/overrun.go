package warc

import (
	"bytes"
	"io"
)

// A Content-Length that is too long takes the start of the next record
// into the block: the record after it would be lost, glued to the end
// of its page, and where the declared end lies past the end of the
// input, every record after it. A file compressed a member per record
// tells by its members (errMemberEnd); a plain one, or one compressed
// as a whole, by what follows the block. Where the bytes after the
// declared end are no record boundary (line ends, then a WARC version
// line, NUL padding or the end of the input), or the input ends before
// it, and the block holds a WARC version line after a blank line, that
// line starts the next record: the block is cut there and reading it
// fails (ErrMalformed, naming the Content-Length), and Resync goes on
// from that record.
//
// The bytes after the block are looked at where they are at hand: in
// the read buffer (a block of up to bufSize bytes, on any input; of a
// compressed one, up to the end of the current member), or read by
// offset (a plain input that is an io.ReaderAt and an io.Seeker, such
// as an *os.File). Of a larger block on a pipe nothing is looked at, nor
// in a compressed file, but where the input ends within bufSize bytes of
// the block's start: the error then comes after the block, naming its
// record (Next). A compressed input cut short (its data ends in a
// member: ErrTruncated from its decoder, not the end of a member) is
// not looked through.

// maxOverrunScan bounds how much of a block overrun reads to find the
// next record's start.
const maxOverrunScan = maxRewind

// tailBytes is how much overrun looks at after a block: the trailer's
// line ends and the next record's version line.
const tailBytes = 32

// overrun returns, for the record whose header was just read, the count
// of block bytes before the next record's start where its Content-Length
// n runs past it, or -1.
func (r *Reader) overrun(n int64) int64 {
	var tail []byte
	atEOF := false
	var at func(off int64, p []byte) (int, error) // reads the block by offset
	if n <= bufSize-tailBytes {
		// The record's own bytes (its trailer included) are waited
		// for; of the next record's, what has come: on a pipe a
		// crawl streamed in would otherwise wait for the next record.
		// In a compressed file, the current member's only: where the
		// block runs on into the next member, reading it tells
		// (errMemberEnd), and peeking must not take that answer.
		if r.dec != nil {
			r.mr.cross = false
			defer func() { r.mr.cross = true }()
		}
		b, err := r.dr.Peek(int(n) + 4)
		at = sliceAt(b)
		if int64(len(b)) < n {
			if err != io.EOF || !r.inputEnded() {
				return -1 // a member ends in the block: reading it on tells
			}
			// The input ends in the block: ErrTruncated when it is
			// read, but where what there is of the block holds the
			// next record, the Content-Length was too long and the
			// records after it are in the block.
			return nextRecordIn(at, min(int64(len(b)), maxOverrunScan))
		}
		if err != nil && err != io.EOF {
			return -1
		}
		atEOF = err == io.EOF
		if !atEOF {
			b, _ = r.dr.Peek(min(int(n)+tailBytes, max(int(n)+4, r.dr.Buffered())))
			at = sliceAt(b) // a version line may run on past the block's end
		}
		tail = b[n:]
	} else if r.dec != nil {
		// A larger block in a compressed file: where its member (the
		// whole file's, say) ends within the next bufSize bytes, in the
		// block, what there is is looked through as above.
		r.mr.cross = false
		defer func() { r.mr.cross = true }()
		b, err := r.dr.Peek(bufSize)
		if err != io.EOF || int64(len(b)) >= n || !r.inputEnded() {
			return -1
		}
		at = sliceAt(b)
		return nextRecordIn(at, int64(len(b)))
	} else {
		ra, ok := r.cr.r.(io.ReaderAt)
		if !ok || r.seeker == nil {
			return -1
		}
		start := r.base + r.filePos()
		at = func(off int64, p []byte) (int, error) { return ra.ReadAt(p, start+off) }
		var t [tailBytes]byte
		k, err := at(n, t[:])
		if err != nil && err != io.EOF {
			return -1
		}
		if k == 0 {
			if k, _ := at(n-1, t[:1]); k == 1 {
				return -1 // the input ends right after the block
			}
			// The input ends in the block (ErrTruncated when it is
			// read): see above.
			return nextRecordIn(at, min(n, maxOverrunScan))
		}
		tail, atEOF = t[:k], err == io.EOF
	}
	if boundary(tail, atEOF) {
		return -1
	}
	return nextRecordIn(at, min(n, maxOverrunScan))
}

// boundary reports whether tail, the bytes after a block (up to
// tailBytes; fewer at the end of the input, or where no more had come),
// may end a record: line ends, then a WARC version line, a NUL byte
// (padding), or nothing more; or too few bytes to tell that they are
// none.
func boundary(tail []byte, atEOF bool) bool {
	i := 0
	for i < len(tail) && (tail[i] == '\r' || tail[i] == '\n') {
		i++
	}
	rest := tail[i:]
	switch {
	case len(rest) == 0, rest[0] == 0:
		return true
	case len(rest) >= 8:
		return versionAt(rest)
	}
	// A few bytes: those of a version line's start, or the end of a
	// file cut there, may be one.
	return bytes.HasPrefix([]byte("WARC/"), rest[:min(len(rest), 5)]) && (len(rest) <= 5 || isDigit(rest[5]))
}

// nextRecordIn looks through the first n bytes of a block, read with at,
// for a WARC version line after a blank line (the line may run on past
// the block's end), and returns the count of block bytes before that
// blank line (the block as it should have been), or -1.
func nextRecordIn(at func(off int64, p []byte) (int, error), n int64) int64 {
	const overlap = 16
	end := n + 8 // a version line that starts in the block ends at most 8 bytes past it
	buf := make([]byte, min(end, bufSize))
	for off := int64(0); off < end; {
		k, err := at(off, buf[:min(int64(len(buf)), end-off)])
		b := buf[:k]
		for i := 0; ; {
			j := versionLine(b[i:])
			if j < 0 {
				break
			}
			i += j
			if blank := blankBefore(b[:i]); blank >= 0 && off+int64(blank) < n {
				return off + int64(blank)
			}
		}
		if err != nil || off+int64(k) >= end || k < len(buf) {
			break
		}
		off += int64(k) - overlap // a version line may start in the last bytes
	}
	return -1
}

// blankBefore returns where the line ends that end b begin, when b ends
// with a blank line (CRLF CRLF, or LF LF), or -1.
func blankBefore(b []byte) int {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n\r\n")):
		return len(b) - 4
	case bytes.HasSuffix(b, []byte("\n\n")):
		return len(b) - 2
	}
	return -1
}

// inputEnded reports, where the records' reader has come to an end,
// whether the input has: for a compressed one, whether no member follows
// the current one (in a file whose members split records anywhere, a
// member may end in a block that goes on in the next).
func (r *Reader) inputEnded() bool {
	if r.dec == nil {
		return true
	}
	more, _ := r.br.Peek(1)
	return len(more) == 0
}

// sliceAt reads b by offset, as an io.ReaderAt would.
func sliceAt(b []byte) func(off int64, p []byte) (int, error) {
	return func(off int64, p []byte) (int, error) {
		if off >= int64(len(b)) {
			return 0, io.EOF
		}
		k := copy(p, b[off:])
		if k < len(p) {
			return k, io.EOF
		}
		return k, nil
	}
}
