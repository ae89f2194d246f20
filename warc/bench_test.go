package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// benchFile is a gzip-per-record WARC of 300 response records with HTML
// pages of ~30 KB of random words, generated once.
var benchFile = sync.OnceValues(func() ([]byte, int64) {
	rnd := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the of and to in is was for on that with as by at from his her an which were are this be have had not it but or their its also first one new after who they has been two other more into time all when")
	var out bytes.Buffer
	w := NewWriter(&out, true)
	w.Rand = rand.NewChaCha8([32]byte{})
	date := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	var raw int64
	for i := range 300 {
		var p bytes.Buffer
		p.WriteString("<!DOCTYPE html><html><head><title>page</title></head><body>\n")
		for p.Len() < 30000 {
			p.WriteString("<p>")
			for range 12 + rnd.IntN(30) {
				p.WriteString(words[rnd.IntN(len(words))])
				p.WriteString(" ")
			}
			fmt.Fprintf(&p, "%d</p>\n", rnd.Int())
		}
		p.WriteString("</body></html>\n")
		block := cat(httpResp("200 OK", fmt.Sprintf("Content-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n", p.Len()), p.Bytes()))
		uri := fmt.Sprintf("http://bench.example/%d", i)
		if _, err := w.WriteRecord(TypeResponse, date, "application/http; msgtype=response", Header{{FieldTargetURI, uri}}, block); err != nil {
			panic(err)
		}
	}
	zr, _ := gzip.NewReader(bytes.NewReader(out.Bytes()))
	raw, _ = io.Copy(io.Discard, zr)
	return out.Bytes(), raw
})

// BenchmarkGzipScan only decompresses the file: the floor for BenchmarkRead.
// MB/s are of decompressed bytes in both.
func BenchmarkGzipScan(b *testing.B) {
	data, raw := benchFile()
	b.SetBytes(raw)
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead reads every record and its whole block.
func BenchmarkRead(b *testing.B) {
	benchRead(b, func(rec *Record) error {
		_, err := io.Copy(io.Discard, rec.Block())
		return err
	})
}

// BenchmarkReadHTTP parses each HTTP response and reads its body.
func BenchmarkReadHTTP(b *testing.B) {
	benchRead(b, func(rec *Record) error {
		resp, err := rec.HTTP()
		if err != nil {
			return err
		}
		resp.IsHTML()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	})
}

// BenchmarkReadStream is BenchmarkRead from an input that cannot seek
// (standard input): the Reader keeps each member's bytes for Resync.
func BenchmarkReadStream(b *testing.B) {
	benchReadFrom(b, func(data []byte) io.Reader { return struct{ io.Reader }{bytes.NewReader(data)} }, func(rec *Record) error {
		_, err := io.Copy(io.Discard, rec.Block())
		return err
	})
}

func benchRead(b *testing.B, use func(*Record) error) {
	benchReadFrom(b, func(data []byte) io.Reader { return bytes.NewReader(data) }, use)
}

func benchReadFrom(b *testing.B, input func([]byte) io.Reader, use func(*Record) error) {
	data, raw := benchFile()
	b.SetBytes(raw)
	records := 0
	for b.Loop() {
		r := NewReader(input(data), Options{})
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			records++
			if err := use(rec); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "records/s")
}

// TestHugeRecordMemory reads the body of a 256 MiB record under a 1 MiB cap
// and checks that reading it and skipping the rest allocates little.
func TestHugeRecordMemory(t *testing.T) {
	const size = 256 << 20
	head := rec(1, TypeResponse, fmt.Sprintf("WARC-Target-URI: http://big.example/\r\nContent-Type: application/http\r\nContent-Length: %d\r\n", size), "")
	head = head[:len(head)-4]
	hb := "HTTP/1.1 200 OK\r\n\r\n"
	src := io.MultiReader(strings.NewReader(head+hb), &patternReader{n: size - int64(len(hb)), pat: []byte(strings.Repeat("<p>huge</p>\n", 341))},
		strings.NewReader("\r\n\r\n"+rec(2, TypeMetadata, "", "end")))
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	r := NewReader(src, Options{MaxPayload: 1 << 20})
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.HTTP()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != 1<<20 || !resp.Truncated() {
		t.Fatalf("read %d bytes (%v), truncated %v; want 1 MiB, truncated", n, err, resp.Truncated())
	}
	if rec, err = r.Next(); err != nil || rec.Type != TypeMetadata {
		t.Fatalf("record after the huge one: %v", err)
	}
	runtime.ReadMemStats(&m1)
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes for a %d-byte record", alloc, size)
	}
}

// benchZstd is benchFile's records, each compressed as a zstd frame.
var benchZstd = sync.OnceValue(func() []byte {
	data, _ := benchFile()
	r := NewReader(bytes.NewReader(data), Options{})
	enc, _ := zstd.NewWriter(nil)
	var out []byte
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		var b bytes.Buffer
		b.WriteString(rec.Version + "\r\n")
		for _, f := range rec.Header {
			b.WriteString(f.Name + ": " + f.Value + "\r\n")
		}
		b.WriteString("\r\n")
		io.Copy(&b, rec.Block())
		b.WriteString("\r\n\r\n")
		out = enc.EncodeAll(b.Bytes(), out)
	}
	return out
})

// BenchmarkReadZstd is BenchmarkRead of the same records in a .warc.zst,
// a frame each.
func BenchmarkReadZstd(b *testing.B) {
	benchReadFrom(b, func([]byte) io.Reader { return bytes.NewReader(benchZstd()) }, func(rec *Record) error {
		_, err := io.Copy(io.Discard, rec.Block())
		return err
	})
}
