package warc

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

// TestReplay: the replay gives the input's bytes again from any offset it
// kept, keeps no more than its limit, and keeps again from the next byte
// read once a member starts after bytes it did not keep.
func TestReplay(t *testing.T) {
	in := make([]byte, 1000)
	for i := range in {
		in[i] = byte(i * 7)
	}
	r := &replay{src: iotest.HalfReader(bytes.NewReader(in)), whole: true, limit: 300}
	p := make([]byte, 100)
	read := func(n int) []byte {
		var out []byte
		for len(out) < n {
			k, err := r.Read(p[:min(len(p), n-len(out))])
			out = append(out, p[:k]...)
			if err != nil {
				break
			}
		}
		return out
	}
	if got := read(250); !bytes.Equal(got, in[:250]) {
		t.Fatal("first read differs")
	}
	r.keepFrom(100, nil)
	if !r.has(101) || r.has(99) || r.off != 100 || len(r.buf) != 150 {
		t.Fatalf("after keepFrom(100): off %d, %d bytes kept", r.off, len(r.buf))
	}
	r.rewind(101)
	if got := read(300); !bytes.Equal(got, in[101:401]) {
		t.Fatal("read again from 101 differs")
	}
	// 150 + 151 new bytes pass the limit of 300: nothing is kept.
	if r.has(101) || r.buf != nil {
		t.Fatalf("past the limit: %d bytes kept", len(r.buf))
	}
	r.keepFrom(380, in[380:401]) // a member starting before the furthest byte read, 21 bytes buffered
	if !r.has(380) || !r.has(401) {
		t.Fatalf("keeping again: off %d, whole %v", r.off, r.whole)
	}
	rest, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(rest, in[401:]) {
		t.Fatalf("the rest: %v", err)
	}
}
