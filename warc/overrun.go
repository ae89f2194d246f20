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

// overrun returns, for the record whose header was just read, the count
// of block bytes before the next record's start where its Content-Length
// n runs past it, or -1.
func (r *Reader) overrun(n int64) int64 {
	if r.dec != nil {
		return -1
	}
	var tail []byte
	var at func(off int64, p []byte) (int, error) // reads the block by offset
	if n <= bufSize-4 {
		b, err := r.dr.Peek(int(n) + 4)
		if int64(len(b)) < n || err != nil && err != io.EOF {
			return -1 // the input ends in the block: ErrTruncated when it is read
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
		var t [4]byte
		k, err := at(n, t[:])
		if err != nil && err != io.EOF {
			return -1
		}
		if k == 0 && err == io.EOF {
			// The input may end in the block (ErrTruncated), or
			// right after it.
			return -1
		}
		tail = t[:k]
	}
	if boundary(tail) {
		return -1
	}
	return nextRecordIn(at, min(n, maxOverrunScan))
}

// boundary reports whether b, the bytes after a block (up to 4; fewer at
// the end of the input), may end a record: line ends, then the start of
// a WARC version, a NUL byte (padding) or the end of the input.
func boundary(b []byte) bool {
	for i, c := range b {
		switch c {
		case '\r', '\n':
			continue
		case 0:
			return true
		}
		return bytes.HasPrefix([]byte("WARC/"), b[i:]) // b holds 4 bytes at most
	}
	return true
}

// nextRecordIn looks through the first n bytes of a block, read with at,
// for a WARC version line after a blank line, and returns the count of
// block bytes before that blank line (the block as it should have
// been), or -1.
func nextRecordIn(at func(off int64, p []byte) (int, error), n int64) int64 {
	const overlap = 16
	buf := make([]byte, min(n, bufSize))
	for off := int64(0); off < n; {
		k, err := at(off, buf[:min(int64(len(buf)), n-off)])
		b := buf[:k]
		for i := 0; ; {
			j := versionLine(b[i:])
			if j < 0 {
				break
			}
			i += j
			if end := blankBefore(b[:i]); end >= 0 {
				return off + int64(end)
			}
		}
		if err != nil || k < len(buf) || off+int64(k) >= n {
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
