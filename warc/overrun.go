package warc

import (
	"bytes"
	"io"
)

// A Content-Length that is too long, in a plain (uncompressed) file,
// takes the start of the next record into the block: the record after
// it would be lost, glued to the end of its page. A compressed file
// tells by its members (errMemberEnd); a plain one by what follows the
// block. Where the bytes after the declared end are no record
// boundary (line ends, then a WARC version line, NUL padding or the
// end of the input) and the block holds a WARC version line after a
// blank line, that line starts the next record: the block is cut there
// and reading it fails (ErrMalformed, naming the Content-Length), and
// Resync goes on from that record.
//
// The bytes after the block are looked at where they are at hand: in
// the read buffer (a block of up to bufSize bytes, on any input), or
// read by offset (an input that is an io.ReaderAt and an io.Seeker,
// such as an *os.File). Of a larger block on a pipe nothing is looked
// at: the error then comes after the block, naming its record (Next).

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
	if r.dec != nil {
		return -1
	}
	var tail []byte
	atEOF := false
	var at func(off int64, p []byte) (int, error) // reads the block by offset
	if n <= bufSize-tailBytes {
		// The record's own bytes (its trailer included) are waited
		// for; of the next record's, what has come: on a pipe a
		// crawl streamed in would otherwise wait for the next record.
		b, err := r.dr.Peek(int(n) + 4)
		if int64(len(b)) < n || err != nil && err != io.EOF {
			return -1 // the input ends in the block: ErrTruncated when it is read
		}
		atEOF = err == io.EOF
		if !atEOF {
			b, _ = r.dr.Peek(min(int(n)+tailBytes, max(int(n)+4, r.dr.Buffered())))
		}
		tail = b[n:]
		at = func(off int64, p []byte) (int, error) {
			if off >= int64(len(b)) {
				return 0, io.EOF
			}
			k := copy(p, b[off:])
			if k < len(p) {
				return k, io.EOF
			}
			return k, nil
		}
	} else {
		ra, ok := r.cr.r.(io.ReaderAt)
		if !ok || r.seeker == nil {
			return -1
		}
		start := r.base + r.filePos()
		at = func(off int64, p []byte) (int, error) { return ra.ReadAt(p, start+off) }
		var t [tailBytes]byte
		k, err := at(n, t[:])
		if err != nil && err != io.EOF || k == 0 {
			return -1 // the input may end in the block (ErrTruncated), or right after it
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
