package warc

import "io"

// replay stands between a Reader and an input that cannot seek (standard
// input, a pipe): it keeps the input's bytes from the start of the
// current member (gzip member or zstd frame) on, so that Resync can read
// a damaged member again from just after its start, as it seeks back in a
// file. It keeps at most maxRewind and two buffers' worth: past that it
// stops keeping bytes, and that member cannot be read again (as canRewind
// says for a file), until the next member starts, from which it keeps
// them again (the Reader's buffer holds the bytes read ahead of it).
type replay struct {
	src   io.Reader
	buf   []byte // the input's bytes from off to end, while whole
	off   int64  // input offset of buf[0]
	pos   int64  // input offset of the next byte Read gives
	end   int64  // input offset of the next byte src gives
	whole bool   // buf holds every byte from off to end
	limit int    // most bytes kept (replayLimit)
}

// replayLimit bounds buf: the member's bytes Resync may read again, and
// what the Reader's buffer read ahead of them.
const replayLimit = maxRewind + 2*bufSize

func (r *replay) Read(p []byte) (int, error) {
	if r.pos < r.end {
		n := copy(p, r.buf[r.pos-r.off:])
		r.pos += int64(n)
		return n, nil
	}
	n, err := r.src.Read(p)
	if r.whole && n > 0 {
		if len(r.buf)+n <= r.limit {
			r.buf = append(r.buf, p[:n]...)
		} else {
			r.whole, r.buf = false, nil
		}
	}
	r.pos += int64(n)
	r.end = r.pos
	return n, err
}

// keepFrom drops the bytes before input offset at, where a member
// starts. Where bytes were not kept, it keeps them again from at on:
// buffered is what the Reader's buffer holds, the bytes from at to end.
func (r *replay) keepFrom(at int64, buffered []byte) {
	switch {
	case !r.whole:
		r.whole, r.off, r.buf = true, at, append([]byte(nil), buffered...)
	case at > r.off && at <= r.end:
		rest := r.buf[at-r.off:]
		if cap(r.buf) > 4*bufSize && len(rest) < cap(r.buf)/4 {
			// After a long member: let its bytes go.
			r.buf = append(make([]byte, 0, 2*len(rest)+bufSize), rest...)
		} else {
			r.buf = r.buf[:copy(r.buf, rest)]
		}
		r.off = at
	}
}

// has reports whether the bytes from input offset at to the furthest read
// are kept.
func (r *replay) has(at int64) bool { return r.whole && at >= r.off && at <= r.end }

// rewind makes Read give the input again from offset at (see has).
func (r *replay) rewind(at int64) { r.pos = at }
