package warc

import "io"

// replay stands between a Reader and an input that cannot seek (standard
// input, a pipe): it keeps the input's bytes from the start of the
// current gzip member on, so that Resync can read a damaged member again
// from just after its start, as it seeks back in a file. It keeps at most
// maxRewind and a buffer's worth: past that it stops keeping bytes until
// the next member starts, and that member cannot be read again (as
// canRewind says for a file).
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

// keepFrom drops the bytes before input offset at, where a gzip member
// starts. Where bytes were not kept, keeping starts again with the next
// byte read from src.
func (r *replay) keepFrom(at int64) {
	switch {
	case !r.whole:
		r.whole, r.off, r.buf = true, r.end, nil
	case at > r.off && at <= r.end:
		n := copy(r.buf, r.buf[at-r.off:])
		r.buf, r.off = r.buf[:n], at
	}
}

// has reports whether the bytes from input offset at to the furthest read
// are kept.
func (r *replay) has(at int64) bool { return r.whole && at >= r.off && at <= r.end }

// rewind makes Read give the input again from offset at (see has).
func (r *replay) rewind(at int64) { r.pos = at }
