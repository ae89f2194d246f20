package classify_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestCorruptModelRefused flips single bits of the embedded text model:
// every bit of the gzip header and trailer, and 200 seeded random bits
// across the file. Each flip must be refused, or load a model identical
// to the original (a flip in a field that does not matter, such as the
// header's modification time or OS byte).
func TestCorruptModelRefused(t *testing.T) {
	data, err := os.ReadFile("models/text.fiasco")
	if err != nil {
		t.Fatal(err)
	}
	want, err := classify.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var bits []int
	for i := 0; i < 10*8; i++ { // header: magic, method, flags, mtime, xfl, os
		bits = append(bits, i)
	}
	for i := (len(data) - 8) * 8; i < len(data)*8; i++ { // trailer: CRC-32, length
		bits = append(bits, i)
	}
	n := 200
	rng := rand.New(rand.NewPCG(10, 2026))
	if raceEnabled || testing.Short() {
		// A model load is slow under the race detector (and the test
		// has one goroutine): a bit of the flags, the mtime and the OS
		// byte, of the CRC-32 and of the length, and a few random bits.
		n = 3
		t8 := (len(data) - 8) * 8
		bits = []int{3*8 + 1, 4*8 + rng.IntN(8), 9*8 + rng.IntN(8), t8 + rng.IntN(32), t8 + 32 + rng.IntN(32)}
	}
	for i := 0; i < n; i++ {
		bits = append(bits, rng.IntN(len(data)*8))
	}
	refused, same := 0, 0
	reasons := map[string]int{}
	buf := make([]byte, len(data))
	for _, bit := range bits {
		copy(buf, data)
		buf[bit/8] ^= 1 << (bit % 8)
		m, err := classify.Read(bytes.NewReader(buf))
		switch {
		case err != nil:
			refused++
			msg := err.Error()
			if i := strings.IndexAny(msg, "(:"); i > 0 {
				msg = msg[:i]
			}
			reasons[strings.TrimSpace(msg)]++
		case reflect.DeepEqual(m, want):
			same++
			t.Logf("bit %d (byte %d of %d) loads the same model", bit, bit/8, len(data))
		default:
			t.Errorf("bit %d (byte %d of %d): a different model loaded without error", bit, bit/8, len(data))
		}
	}
	t.Logf("%d single-bit flips: %d refused, %d load the identical model; refusals: %v", len(bits), refused, same, reasons)
}

// TestModelTrailingData refuses a model followed by anything, a second
// gzip member included. The model is a stub (its JSON names the format
// and nothing else), so that a file that passes the checks of the gzip
// stream fails on the missing classifier instead.
func TestModelTrailingData(t *testing.T) {
	gz := func(parts ...string) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		for _, p := range parts {
			zw.Write([]byte(p))
		}
		zw.Close()
		return buf.Bytes()
	}
	stub := `{"format":"` + classify.Format + `"}`
	data := gz(stub, "\n")
	if _, err := classify.Read(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), "no classifier") {
		t.Fatalf("stub model: err = %v, want no classifier", err)
	}
	for name, tail := range map[string][]byte{
		"zero byte":     {0},
		"garbage":       []byte("garbage"),
		"gzip member":   gz("\n"),
		"another model": data,
	} {
		in := append(append([]byte(nil), data...), tail...)
		if _, err := classify.Read(bytes.NewReader(in)); err == nil || !strings.Contains(err.Error(), "after") {
			t.Errorf("%s after the model: err = %v", name, err)
		}
	}
	// JSON white space after the model inside the stream is fine, other
	// bytes are not.
	for tail, ok := range map[string]bool{"\n \t\r\n": true, "\n{}": false, "x": false} {
		_, err := classify.Read(bytes.NewReader(gz(stub, tail)))
		if ok != strings.Contains(err.Error(), "no classifier") {
			t.Errorf("JSON followed by %q: err = %v", tail, err)
		}
	}
	// Reserved header flags (RFC 1952 says refuse them; compress/gzip
	// does not).
	bad := append([]byte(nil), data...)
	bad[3] |= 0x20
	if _, err := classify.Read(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("reserved flag: err = %v", err)
	}
}

// TestModelTruncated refuses every cut of the file.
func TestModelTruncated(t *testing.T) {
	data, err := os.ReadFile("models/text.fiasco")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 5, 10, 100, len(data) / 2, len(data) - 8, len(data) - 4, len(data) - 1} {
		if _, err := classify.Read(bytes.NewReader(data[:n])); err == nil {
			t.Errorf("first %d of %d bytes: loaded", n, len(data))
		}
	}
}

// TestGzipBombRefused: a small file that decompresses past MaxModelBytes
// (JSON white space, which a decoder would skip) is refused, naming the
// limit.
func TestGzipBombRefused(t *testing.T) {
	limit := int64(classify.MaxModelBytes)
	if raceEnabled || testing.Short() {
		// Decompressing 256 MiB is slow under the race detector.
		limit = 16 << 20
		defer classify.SetMaxModelBytes(limit)()
	}
	// One MiB of spaces compressed as non-final deflate blocks with no
	// back-references before them, repeated: a valid stream built without
	// compressing 256 MiB.
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	var blocks bytes.Buffer
	fw, _ := flate.NewWriter(&blocks, flate.BestCompression)
	fw.Write(chunk)
	fw.Flush()
	tail := []byte(`{"format":"` + classify.Format + `"}`)
	var last bytes.Buffer
	fw, _ = flate.NewWriter(&last, flate.BestCompression)
	fw.Write(tail)
	fw.Close()

	var file bytes.Buffer
	file.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	crc, size := uint32(0), uint32(0)
	for written := int64(0); written <= limit; written += int64(len(chunk)) {
		file.Write(blocks.Bytes())
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
		size += uint32(len(chunk))
	}
	file.Write(last.Bytes())
	crc = crc32.Update(crc, crc32.IEEETable, tail)
	size += uint32(len(tail))
	file.Write(binary.LittleEndian.AppendUint32(nil, crc))
	file.Write(binary.LittleEndian.AppendUint32(nil, size))
	t.Logf("%d MiB of JSON white space in a %d KiB file", limit>>20+1, file.Len()>>10)
	_, err := classify.Read(&file)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d MiB", limit>>20)) {
		t.Errorf("gzip bomb: err = %v, want the size limit", err)
	}
}

// TestBlendStored: a visual model's Blend survives a write and a read;
// a file giving a text model a blend, or a weight outside 0 to 1, is
// refused by name.
func TestBlendStored(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		visual bool
		blend  float64
		ok     bool
	}{{true, 0.5, true}, {true, 1, true}, {true, 0, true}, {false, 0.5, false}, {true, 1.5, false}, {true, -0.1, false}} {
		mm := *m
		mm.Visual, mm.Blend = c.visual, c.blend
		// Writing refuses what reading would.
		var buf bytes.Buffer
		werr := mm.Write(&buf)
		if (werr == nil) != c.ok {
			t.Errorf("visual %v, blend %v: Write error %v", c.visual, c.blend, werr)
		}
		if !c.ok {
			// A file written otherwise: a valid one with its fields edited.
			ok := *m
			ok.Visual, ok.Blend = true, 0.5
			buf.Reset()
			if err := ok.Write(&buf); err != nil {
				t.Fatal(err)
			}
			file := rewriteModel(t, buf.Bytes(), `"blend": 0.5`, fmt.Sprintf(`"blend": %v`, c.blend))
			file = rewriteModel(t, file, `"visual": true`, fmt.Sprintf(`"visual": %v`, c.visual))
			buf.Reset()
			buf.Write(file)
		}
		got, err := classify.Read(&buf)
		switch {
		case c.ok && err != nil:
			t.Errorf("visual %v, blend %v: %v", c.visual, c.blend, err)
		case c.ok && got.Blend != c.blend:
			t.Errorf("visual %v, blend %v: read back %v", c.visual, c.blend, got.Blend)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "blend")):
			t.Errorf("visual %v, blend %v: error %v, want one naming the blend", c.visual, c.blend, err)
		}
	}
	// A blend changes the digest (a batch's resume check); none leaves
	// it as it was before Blend existed.
	if m, err = classify.Default(true); err != nil {
		t.Fatal(err)
	}
	d0, err := m.Digest()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(gunzip(t, buf.Bytes()), []byte(`"blend"`)) {
		t.Error(`a model without a blend writes a "blend" field: its file and digest differ from before Blend`)
	}
	mb := *m
	mb.Blend = 0.5
	if d1, err := mb.Digest(); err != nil || d1 == d0 {
		t.Errorf("blend 0.5: digest %s (error %v), want one other than %s", d1, err, d0)
	}
}

// TestSmoothStored: a model's Smooth survives a write and a read, changes
// the digest, and is not written when 0 (the files and digests of models
// without it stay as before it); a file with a switch cost outside 0 to
// MaxSmooth is refused by name.
func TestSmoothStored(t *testing.T) {
	m, err := classify.Default(true) // the rendered model: no smoothing
	if err != nil {
		t.Fatal(err)
	}
	if m.Smooth != 0 {
		t.Fatalf("the embedded rendered model smooths at %g", m.Smooth)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(gunzip(t, buf.Bytes()), []byte(`"smooth"`)) {
		t.Error(`a model without smoothing writes a "smooth" field`)
	}
	d0, err := m.Digest()
	if err != nil {
		t.Fatal(err)
	}
	ms := *m
	ms.Smooth = 0.25
	buf.Reset()
	if err := ms.Write(&buf); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	got, err := classify.Read(bytes.NewReader(file))
	if err != nil || got.Smooth != 0.25 {
		t.Fatalf("read back smoothing %v (error %v), want 0.25", got.Smooth, err)
	}
	if d1, err := ms.Digest(); err != nil || d1 == d0 {
		t.Errorf("smoothing 0.25: digest %s (error %v), want one other than %s", d1, err, d0)
	}
	for _, bad := range []string{"-1", "5"} {
		edited := rewriteModel(t, file, `"smooth": 0.25`, `"smooth": `+bad)
		if _, err := classify.Read(bytes.NewReader(edited)); err == nil || !strings.Contains(err.Error(), "smoothing") {
			t.Errorf("smoothing %s: error %v, want one naming the smoothing", bad, err)
		}
		ms.Smooth, _ = strconv.ParseFloat(bad, 64)
		if err := ms.Write(io.Discard); err == nil {
			t.Errorf("smoothing %s: Write accepted it", bad)
		}
	}
}

// TestFloorShareStored: a model's FloorShare survives a write and a read,
// changes the digest, and is not written when 0 (a quarter, the default:
// files and digests of models without it stay as before it); a file with
// a share outside [0, 1) is refused by name.
func TestFloorShareStored(t *testing.T) {
	m, err := classify.Default(false) // the text model: a floor at the default share
	if err != nil {
		t.Fatal(err)
	}
	if !m.Floor || m.FloorShare != 0 {
		t.Fatalf("the embedded text model: floor %v at share %g, want the floor at the default", m.Floor, m.FloorShare)
	}
	if v, err := classify.Default(true); err != nil || !v.Floor || v.FloorShare != 0.1 {
		t.Errorf("the embedded rendered model: floor at share %v (error %v), want the floor at a tenth (RESULTS.md: A floor at a tenth for the rendered model)", v, err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(gunzip(t, buf.Bytes()), []byte(`"floor_share"`)) {
		t.Error(`a model at the default share writes a "floor_share" field`)
	}
	d0, err := m.Digest()
	if err != nil {
		t.Fatal(err)
	}
	ms := *m
	ms.FloorShare = 0.1
	buf.Reset()
	if err := ms.Write(&buf); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	got, err := classify.Read(bytes.NewReader(file))
	if err != nil || got.FloorShare != 0.1 {
		t.Fatalf("read back floor share %v (error %v), want 0.1", got.FloorShare, err)
	}
	if d1, err := ms.Digest(); err != nil || d1 == d0 {
		t.Errorf("floor share 0.1: digest %s (error %v), want one other than %s", d1, err, d0)
	}
	for _, bad := range []string{"-0.5", "1"} {
		edited := rewriteModel(t, file, `"floor_share": 0.1`, `"floor_share": `+bad)
		if _, err := classify.Read(bytes.NewReader(edited)); err == nil || !strings.Contains(err.Error(), "floor share") {
			t.Errorf("floor share %s: error %v, want one naming the floor share", bad, err)
		}
		ms.FloorShare, _ = strconv.ParseFloat(bad, 64)
		if err := ms.Write(io.Discard); err == nil {
			t.Errorf("floor share %s: Write accepted it", bad)
		}
	}
}

// TestVisualFeatureInTextModel: a model marked without visual features
// ("visual": false) whose SVM reads a visual feature (a hand-edited
// file) is refused: cleaned without rendering, it would read zeros.
func TestVisualFeatureInTextModel(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	first := m.English.FeatureNames[0]
	file := rewriteModel(t, buf.Bytes(), `"`+first+`"`, `"vis_x"`)
	_, err = classify.Read(bytes.NewReader(file))
	if err == nil || !strings.Contains(err.Error(), `reads "vis_x", a visual feature`) {
		t.Errorf("error %v, want one naming vis_x", err)
	}
	// The rendered model, marked visual, reads its visual features.
	if vm, err := classify.Default(true); err != nil {
		t.Fatal(err)
	} else if buf.Reset(); vm.Write(&buf) != nil {
		t.Fatal("writing the rendered model")
	} else if _, err := classify.Read(&buf); err != nil {
		t.Errorf("the rendered model: %v", err)
	}
}
