package corpus

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstdWARC compresses each record of a plain WARC as its own frame with
// the dictionary enc was given, after a dictionary frame holding frame.
func zstdWARC(t *testing.T, recs [][]byte, frame []byte, opt zstd.EOption) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(append([]byte{}, zstdDictMagic...), uint32(len(frame)))
	out = append(out, frame...)
	for _, r := range recs {
		out = enc.EncodeAll(r, out)
	}
	return out
}

// TestZstdDictionary: a .warc.zst whose records are compressed with a
// dictionary held in a dictionary frame at its start (IIPC's warc-zstd,
// as Archive Team writes them) is read, from a file or standard input,
// whether the dictionary is in zstd's format, compressed, or raw content;
// a damaged dictionary frame is an error naming it.
func TestZstdDictionary(t *testing.T) {
	w := newTestWARC(false)
	var recs [][]byte
	for i := range 8 {
		at := w.buf.Len()
		w.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n",
			strings.Repeat(fmt.Sprintf("<p>Page %d of the crawl says a few words.</p>", i), 20))
		recs = append(recs, append([]byte{}, w.buf.Bytes()[at:]...))
	}
	formatted, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 7, Contents: recs, History: bytes.Join(recs[:4], nil), Offsets: [3]int{1, 4, 8}})
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	compressed := enc.EncodeAll(formatted, nil)
	raw := bytes.Join(recs[:2], nil)
	files := map[string][]byte{
		"formatted":  zstdWARC(t, recs, formatted, zstd.WithEncoderDict(formatted)),
		"compressed": zstdWARC(t, recs, compressed, zstd.WithEncoderDict(formatted)),
		"raw":        zstdWARC(t, recs, raw, zstd.WithEncoderDictRaw(0, raw)),
	}
	for name, data := range files {
		for _, src := range []string{"file", "stdin"} {
			s, arg := NewSource(Options{Stdin: bytes.NewReader(data)}), "-"
			if src == "file" {
				s, arg = NewSource(Options{}), writeFile(t, "crawl.warc.zst", data)
			}
			ins := inputsOf(t, s, arg)
			var urls []string
			for _, in := range ins {
				if in.Err != nil {
					t.Errorf("%s, %s: %v", name, src, in.Err)
					continue
				}
				urls = append(urls, in.URL)
			}
			if len(urls) != len(recs) || urls[0] != "http://ex.org/0" || urls[len(recs)-1] != fmt.Sprintf("http://ex.org/%d", len(recs)-1) {
				t.Errorf("%s, %s: pages %v", name, src, urls)
			}
		}
	}
	// A part split from the file after its dictionary frame: its frames
	// cannot be read, and the error says why.
	split := files["formatted"][len(zstdDictMagic)+4+len(formatted)+3:]
	ins := inputsOf(t, NewSource(Options{}), writeFile(t, "part.warc.zst", split))
	if len(ins) != 1 || ins[0].Err == nil || !strings.Contains(ins[0].Err.Error(), "need a dictionary the file does not hold") {
		t.Errorf("a part without the dictionary frame: %+v", ins)
	}
	cut := files["formatted"][:len(zstdDictMagic)+4+100]
	ins = inputsOf(t, NewSource(Options{}), writeFile(t, "cut.warc.zst", cut))
	if len(ins) != 1 || ins[0].Err == nil || !strings.Contains(ins[0].Err.Error(), "dictionary frame ends early") {
		t.Errorf("a cut dictionary frame: %+v", ins)
	}
}

// TestStretchCount: junk between two frames that holds ten false frame
// starts is one damaged stretch, with one error record, however many
// times reading moved past a false start.
func TestStretchCount(t *testing.T) {
	w := newTestWARC(false)
	var recs [][]byte
	for i := range 4 {
		at := w.buf.Len()
		w.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n", "<p>A page of its own.</p>")
		recs = append(recs, append([]byte{}, w.buf.Bytes()[at:]...))
	}
	enc, _ := zstd.NewWriter(nil)
	var data []byte
	for i, r := range recs {
		if i == 2 {
			data = append(data, bytes.Repeat([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0}, 10)...)
		}
		data = enc.EncodeAll(r, data)
	}
	src := NewSource(Options{})
	ins := inputsOf(t, src, writeFile(t, "junk.warc.zst", data))
	pages, errs := 0, 0
	for _, in := range ins {
		if in.Err != nil {
			errs++
		} else {
			pages++
		}
	}
	if pages != 4 || errs != 1 || src.Stats().Resyncs != 1 {
		t.Errorf("%d pages, %d error records, %d stretches counted; want 4, 1, 1", pages, errs, src.Stats().Resyncs)
	}
}
