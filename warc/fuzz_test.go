package warc

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// FuzzReader checks that no input makes the reader panic, loop, or end
// with anything but io.EOF or a sticky *Error, also when Resync moves it
// past every error it can.
func FuzzReader(f *testing.F) {
	m := mixed()
	plain := cat(m...)
	f.Add(plain, uint16(0))
	f.Add(gzipEach(m...), uint16(100))
	f.Add(gz(plain), uint16(0))
	f.Add(plain[:len(plain)-300], uint16(0))
	f.Add(gzipEach(m[:3]...)[:700], uint16(0))
	f.Add(gzipEach(response(1, "http://f.example/", httpResp("200 OK",
		"Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", chunk(gz(htmlPage), 300)))), uint16(50))
	f.Add(cat(response(1, "http://f.example/", httpResp("200 OK", "Content-Encoding: deflate\r\n", zl(htmlPage)))), uint16(0))
	f.Add(cat(rec(1, TypeResource, "bad line\r\n", "x")), uint16(0))
	f.Add([]byte("WARC/1.1\r\nContent-Length: 99999999999\r\n\r\n"), uint16(0))
	enc, _ := zstd.NewWriter(nil)
	perFrame, _ := zstdEach(f, enc, nil, m...)
	f.Add(perFrame, uint16(100))
	f.Add(perFrame[:len(perFrame)/2], uint16(0))
	rawDict := []byte(m[0])
	dictEnc, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, rawDict))
	withDict, _ := zstdEach(f, dictEnc, skippable(zstdDict, rawDict), m...)
	f.Add(withDict, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, maxPayload uint16) {
		r := NewReader(bytes.NewReader(data), Options{MaxPayload: int64(maxPayload), MaxHeaderBytes: 4096})
		// A record takes at least ~24 decompressed bytes; deflate
		// expands at most ~1032 times, zstd (a block of 128 KiB
		// repeating one byte, in 4 bytes) some 33,000 times.
		limit := 1400*len(data) + 10
		resyncs := 0
		for i := 0; ; i++ {
			if i > limit {
				t.Fatalf("more than %d records from %d bytes", limit, len(data))
			}
			rec, err := r.Next()
			if err != nil {
				var we *Error
				if err != io.EOF && !errors.As(err, &we) {
					t.Fatalf("error %v (%T) is not an *Error", err, err)
				}
				if _, err2 := r.Next(); err2 != err {
					t.Fatalf("Next after %v returned %v", err, err2)
				}
				if err == io.EOF {
					return
				}
				// Read past the damage, as corpus does; each Resync moves
				// on by a byte at least.
				if _, rerr := r.Resync(); rerr != nil {
					return
				}
				if resyncs++; resyncs > len(data)+1 {
					t.Fatalf("%d resyncs in %d bytes", resyncs, len(data))
				}
				continue
			}
			if rec.ContentLength < 0 {
				t.Fatalf("negative Content-Length %d", rec.ContentLength)
			}
			switch i % 3 {
			case 0:
				if resp, err := rec.HTTP(); err == nil {
					resp.IsHTML()
					n, _ := io.Copy(io.Discard, resp.Body)
					if maxPayload > 0 && n > int64(maxPayload) {
						t.Fatalf("read %d body bytes over the cap %d", n, maxPayload)
					}
				}
			case 1:
				n, _ := io.Copy(io.Discard, rec.Block())
				if n > rec.ContentLength || maxPayload > 0 && n > int64(maxPayload) {
					t.Fatalf("read %d block bytes, Content-Length %d, cap %d", n, rec.ContentLength, maxPayload)
				}
			}
		}
	})
}
