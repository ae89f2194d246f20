package warc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/zstd"
)

// zstdEach compresses each part as its own zstd frame with enc, after
// the frames given as head.
func zstdEach(t testing.TB, enc *zstd.Encoder, head []byte, parts ...string) (data []byte, offsets []int64) {
	t.Helper()
	data = append([]byte{}, head...)
	for _, p := range parts {
		offsets = append(offsets, int64(len(data)))
		data = enc.EncodeAll([]byte(p), data)
	}
	return data, offsets
}

// skippable returns a skippable frame of the given magic number.
func skippable(magic uint32, content []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(content)))
	return append(b, content...)
}

// TestZstdFrames: a .warc.zst is read frame by frame: with no dictionary,
// with a dictionary frame first (zstd's format, compressed, or raw
// content) and a skippable frame between records, and as one frame for
// the whole file. Each record's offset is its frame's, from a file or a
// stream.
func TestZstdFrames(t *testing.T) {
	var parts []string
	for n := 1; n <= 6; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat(fmt.Sprintf("block of record %d, some words to compress. ", n), 40)))
	}
	raw := []byte(parts[0] + parts[1])
	formatted, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 9, Contents: [][]byte{[]byte(parts[0]), []byte(parts[1]), []byte(parts[2])}, History: raw, Offsets: [3]int{1, 4, 8}})
	if err != nil {
		t.Fatal(err)
	}
	plainEnc, _ := zstd.NewWriter(nil)
	dictEnc, _ := zstd.NewWriter(nil, zstd.WithEncoderDict(formatted))
	rawEnc, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, raw))
	type file struct {
		data    []byte
		offsets []int64
	}
	files := map[string]file{}
	add := func(name string, data []byte, offsets []int64) { files[name] = file{data, offsets} }
	add(func() (string, []byte, []int64) {
		d, o := zstdEach(t, plainEnc, nil, parts...)
		return "plain", d, o
	}())
	d, o := zstdEach(t, dictEnc, skippable(zstdDict, formatted), parts...)
	add("dictionary", d, o)
	d, o = zstdEach(t, dictEnc, skippable(zstdDict, plainEnc.EncodeAll(formatted, nil)), parts...)
	add("compressed dictionary", d, o)
	d, o = zstdEach(t, rawEnc, skippable(zstdDict, raw), parts...)
	add("raw dictionary", d, o)
	// A skippable frame between records 3 and 4 belongs to no record.
	d, o = zstdEach(t, plainEnc, nil, parts[:3]...)
	d = append(d, skippable(zstdSkippable+2, []byte("an index, say"))...)
	d2, o2 := zstdEach(t, plainEnc, d, parts[3:]...)
	add("skippable frame", d2, append(o, o2...))
	whole := plainEnc.EncodeAll([]byte(strings.Join(parts, "")), nil)
	add("one frame", whole, []int64{0, 0, 0, 0, 0, 0})
	for name, f := range files {
		for _, in := range []struct {
			how string
			r   io.Reader
		}{
			{"file", bytes.NewReader(f.data)},
			{"stream", iotest.HalfReader(bytes.NewReader(f.data))},
		} {
			r := NewReader(in.r, Options{})
			var ids []string
			var offs []int64
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s, %s: %v", name, in.how, err)
				}
				ids, offs = append(ids, rec.ID), append(offs, rec.Offset)
			}
			if want := []string{id(1), id(2), id(3), id(4), id(5), id(6)}; !slices.Equal(ids, want) || !slices.Equal(offs, f.offsets) {
				t.Errorf("%s, %s: records %v at %v, want %v at %v", name, in.how, ids, offs, want, f.offsets)
			}
		}
	}
}

// TestZstdDamage: a frame that is corrupt or cut short costs its own
// record only (ErrZstd, or ErrTruncated where its blocks ran on to the
// end), from a file or a stream; a stored block cut short too.
func TestZstdDamage(t *testing.T) {
	var parts []string
	for n := 1; n <= 5; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat(fmt.Sprintf("block of record %d, some words to compress. ", n), 60)))
	}
	rnd := make([]byte, 300<<10)
	rand.NewChaCha8([32]byte{3}).Read(rnd)
	enc, _ := zstd.NewWriter(nil)
	data, offs := zstdEach(t, enc, nil, parts...)
	offs = append(offs, int64(len(data)))
	cases := map[string][]byte{}
	flipped := bytes.Clone(data)
	flipped[(offs[1]+offs[2])/2] ^= 0xff
	cases["flipped byte"] = flipped
	for _, frac := range []float64{0.1, 0.5, 0.9} {
		cut := int64(float64(offs[1]) + frac*float64(offs[2]-offs[1]))
		cases[fmt.Sprintf("cut at %.1f", frac)] = append(bytes.Clone(data[:cut]), data[offs[2]:]...)
	}
	// Record 2 incompressible: stored as raw blocks, cut in one.
	stored := slices.Clone(parts)
	stored[1] = rec(2, TypeResource, "", string(rnd))
	sdata, soffs := zstdEach(t, enc, nil, stored...)
	cases["raw block cut"] = append(bytes.Clone(sdata[:soffs[1]+(soffs[2]-soffs[1])/2]), sdata[soffs[2]:]...)
	for name, data := range cases {
		for _, in := range []struct {
			how string
			r   io.Reader
		}{
			{"file", bytes.NewReader(data)},
			{"stream", struct{ io.Reader }{bytes.NewReader(data)}},
		} {
			var errs []error
			got := readIDs(NewReader(in.r, Options{}), func(err error) string {
				errs = append(errs, err)
				return "error"
			})
			// Record 2's header may lie before the damage.
			got = slices.DeleteFunc(got, func(s string) bool { return s == id(2) })
			if want := []string{id(1), "error", id(3), id(4), id(5)}; !slices.Equal(got, want) {
				t.Errorf("%s, %s: read %v, want %v (errors %v)", name, in.how, got, want, errs)
			}
			for _, err := range errs {
				if !errors.Is(err, ErrZstd) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrMalformed) {
					t.Errorf("%s, %s: error %v", name, in.how, err)
				}
			}
		}
	}
}

// TestZstdBadDictionary: a dictionary frame cut short or too big is an
// error at offset 0; a dictionary that does not load is the error of the
// frame after it.
func TestZstdBadDictionary(t *testing.T) {
	enc, _ := zstd.NewWriter(nil)
	body, _ := zstdEach(t, enc, nil, rec(1, TypeResource, "", "block"))
	for name, data := range map[string][]byte{
		"cut":     skippable(zstdDict, make([]byte, 100))[:50],
		"too big": binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, zstdDict), MaxZstdDict+1),
		"bad":     append(skippable(zstdDict, append(slices.Clone(zstdFormattedDict), 1, 2, 3)), body...),
	} {
		_, err := NewReader(bytes.NewReader(data), Options{}).Next()
		var we *Error
		if !errors.As(err, &we) || name != "bad" && we.Offset != 0 || !errors.Is(err, ErrZstd) && !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestZstdDictFromOffset: a .warc.zst with a dictionary, read from a
// record's offset (past the dictionary frame), needs the dictionary the
// reader of its start found (Reader.ZstdDict, Options.ZstdDict).
func TestZstdDictFromOffset(t *testing.T) {
	var parts []string
	for n := 1; n <= 3; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat("a block of words ", 30)))
	}
	raw := []byte(parts[0])
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, raw))
	data, offs := zstdEach(t, enc, skippable(zstdDict, raw), parts...)
	r := NewReader(bytes.NewReader(data), Options{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	dict := r.ZstdDict()
	if !bytes.Equal(dict, raw) {
		t.Fatalf("ZstdDict: %d bytes, want the %d of the dictionary frame", len(dict), len(raw))
	}
	at := offs[2]
	rec, err := NewReader(bytes.NewReader(data[at:]), Options{StartOffset: at, Zstd: true, ZstdDict: dict}).Next()
	if err != nil || rec.ID != id(3) || rec.Offset != at {
		t.Errorf("from offset %d with the dictionary: %v", at, err)
	}
	if _, err := NewReader(bytes.NewReader(data[at:]), Options{StartOffset: at}).Next(); !errors.Is(err, ErrZstd) {
		t.Errorf("from offset %d without the dictionary: %v, want ErrZstd", at, err)
	}
}

// readIDsWithin is readIDs, failing the test where reading does not end
// within a few seconds (a Resync that does not move on).
func readIDsWithin(t *testing.T, r *Reader, onErr func(error) string) []string {
	t.Helper()
	done := make(chan []string)
	go func() { done <- readIDs(r, onErr) }()
	select {
	case got := <-done:
		return got
	case <-time.After(10 * time.Second):
		t.Fatal("reading did not end: Resync does not move on")
		return nil
	}
}

// TestZstdBadDictionaryEnds: a dictionary that does not load is the error
// of its frame, and reading goes on (each frame after it an error, as it
// needs the dictionary), ending.
func TestZstdBadDictionaryEnds(t *testing.T) {
	enc, _ := zstd.NewWriter(nil)
	body, _ := zstdEach(t, enc, nil, rec(1, TypeResource, "", "block"), rec(2, TypeResource, "", "block"))
	data := append(skippable(zstdDict, append(slices.Clone(zstdFormattedDict), 1, 2, 3)), body...)
	for _, in := range []io.Reader{bytes.NewReader(data), struct{ io.Reader }{bytes.NewReader(data)}} {
		got := readIDsWithin(t, NewReader(in, Options{}), func(err error) string {
			if !errors.Is(err, ErrZstd) {
				t.Errorf("error %v, want ErrZstd", err)
			}
			return "error"
		})
		if len(got) == 0 || got[0] != "error" {
			t.Errorf("%T: read %v, want the dictionary's error first", in, got)
		}
	}
	// A bad Options.ZstdDict: every frame is an error, and reading ends.
	got := readIDsWithin(t, NewReader(bytes.NewReader(body), Options{ZstdDict: append(slices.Clone(zstdFormattedDict), 9)}), func(error) string { return "error" })
	if slices.Contains(got, id(1)) || len(got) == 0 {
		t.Errorf("a bad Options.ZstdDict: read %v", got)
	}
}

// TestCutEveryByte: a member (gzip) or frame (zstd, its 200 KiB record
// stored in raw blocks) cut at every byte of its first few hundred costs
// its own record only, on a file, a stream and a stream giving one byte a
// read: the damage may first show as a header that is no WARC header,
// whose member's data ran on into the members after it.
func TestCutEveryByte(t *testing.T) {
	rnd := make([]byte, 200<<10)
	rand.NewChaCha8([32]byte{5}).Read(rnd)
	parts := []string{rec(1, TypeResource, "", "one"), rec(2, TypeResource, "", string(rnd)),
		rec(3, TypeResource, "", "three"), rec(4, TypeResource, "", "four")}
	enc, _ := zstd.NewWriter(nil)
	zdata, zoffs := zstdEach(t, enc, nil, parts...)
	var gdata []byte
	var goffs []int64
	for _, p := range parts {
		goffs = append(goffs, int64(len(gdata)))
		gdata = append(gdata, gz([]byte(p))...)
	}
	for _, f := range []struct {
		name string
		data []byte
		offs []int64
	}{{"gzip", gdata, goffs}, {"zstd", zdata, zoffs}} {
		for k := int64(1); k < 400; k++ {
			d := append(bytes.Clone(f.data[:f.offs[1]+k]), f.data[f.offs[2]:]...)
			for _, in := range []struct {
				how string
				r   io.Reader
			}{
				{"file", bytes.NewReader(d)},
				{"stream", struct{ io.Reader }{bytes.NewReader(d)}},
				{"byte stream", iotest.OneByteReader(bytes.NewReader(d))},
			} {
				errs := 0
				got := readIDsWithin(t, NewReader(in.r, Options{}), func(error) string { errs++; return "error" })
				if !slices.Contains(got, id(1)) || !slices.Contains(got, id(3)) || !slices.Contains(got, id(4)) || errs == 0 {
					t.Errorf("%s cut %d bytes into record 2, %s: read %v", f.name, k, in.how, got)
				}
			}
		}
	}
}

// failAfter gives n bytes of r, then fails.
type failAfter struct {
	r io.Reader
	n int
}

var errDisk = errors.New("disk error")

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errDisk
	}
	n, err := f.r.Read(p[:min(len(p), f.n)])
	f.n -= n
	return n, err
}

// TestZstdIOErrorInFrames: an I/O error inside a dictionary frame or a
// skippable frame is that error, not a truncation Resync would move past.
func TestZstdIOErrorInFrames(t *testing.T) {
	raw := []byte(strings.Repeat("dictionary words ", 40))
	enc, _ := zstd.NewWriter(nil)
	body, _ := zstdEach(t, enc, nil, rec(1, TypeResource, "", "block"))
	for name, data := range map[string][]byte{
		"dictionary frame": append(skippable(zstdDict, raw), body...),
		"skippable frame":  append(skippable(zstdSkippable+1, raw), body...),
	} {
		_, err := NewReader(&failAfter{bytes.NewReader(data), 100}, Options{}).Next()
		if !errors.Is(err, errDisk) || errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v, want the disk error", name, err)
		}
	}
}

// TestZstdChecksum: a frame whose checksum fails gives all its data, then
// the error (as gzip does): in a file compressed as one frame every
// record is read before it; in one compressed per record the error is
// that record's, and the rest are read.
func TestZstdChecksum(t *testing.T) {
	var parts []string
	for n := 1; n <= 4; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat(fmt.Sprintf("words of record %d ", n), 3000)))
	}
	enc, _ := zstd.NewWriter(nil)
	whole := enc.EncodeAll([]byte(strings.Join(parts, "")), nil)
	whole[len(whole)-2] ^= 0xff // in the checksum
	var errs []error
	got := readIDs(NewReader(bytes.NewReader(whole), Options{}), func(err error) string { errs = append(errs, err); return "error" })
	if want := []string{id(1), id(2), id(3), id(4), "error"}; !slices.Equal(got, want) || !errors.Is(errs[0], ErrZstd) || !errors.Is(errs[0], zstd.ErrCRCMismatch) {
		t.Errorf("one frame: read %v (errors %v), want %v and a checksum error", got, errs, want)
	}
	data, offs := zstdEach(t, enc, nil, parts...)
	data[offs[2]-1] ^= 0xff // the last byte of record 2's frame
	errs = nil
	got = readIDs(NewReader(bytes.NewReader(data), Options{}), func(err error) string { errs = append(errs, err); return "error" })
	var we *Error
	if want := []string{id(1), id(2), "error", id(3), id(4)}; !slices.Equal(got, want) || !errors.As(errs[0], &we) || we.RecordID != id(2) {
		t.Errorf("a frame each: read %v (errors %v), want %v, the error naming record 2", got, errs, want)
	}
}
