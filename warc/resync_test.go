package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestResync: after damage within a file (a corrupt gzip member, junk
// between members, a header that is no WARC header), Resync moves on to
// the next record start and Next reads every later record, at its true
// offset; what lies past the last record start is io.EOF.
func TestResync(t *testing.T) {
	var parts []string
	for n := 1; n <= 5; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat("block of record ", 20+n)))
	}
	members := make([][]byte, len(parts))
	var offsets []int64
	var whole []byte
	for i, p := range parts {
		members[i] = gz([]byte(p))
		offsets = append(offsets, int64(len(whole)))
		whole = append(whole, members[i]...)
	}
	corrupt := bytes.Clone(whole)
	mid := offsets[1] + int64(len(members[1]))/2
	for i := mid; i < mid+8; i++ {
		corrupt[i] ^= 0x5a
	}
	junk := append(append(bytes.Clone(whole[:offsets[2]]), "\x1f\x8b junk, not a gzip member"...), whole[offsets[2]:]...)
	shift := int64(len(junk) - len(whole))
	short := append(append(bytes.Clone(whole[:offsets[2]]), "\r\n"...), whole[offsets[2]:]...)
	wholeFile, _ := joinWith(parts, 2, "garbage, no record\r\n")
	wholeFile = gz(wholeFile)
	junkLine, junkLineOffsets := joinWith(parts, 3, "a junk line\n")
	plain, plainOffsets := joinWith(parts, 2, "WARC/1.1\r\nthis line has no colon\r\n\r\n")
	for _, c := range []struct {
		name    string
		data    []byte
		want    []int   // records read, by number
		offsets []int64 // their offsets
		errs    []error // the errors met on the way
	}{
		{"corrupt member", corrupt, []int{1, 3, 4, 5}, []int64{offsets[0], offsets[2], offsets[3], offsets[4]}, []error{ErrGzip}},
		{"junk between members", junk, []int{1, 2, 3, 4, 5}, []int64{offsets[0], offsets[1], offsets[2] + shift, offsets[3] + shift, offsets[4] + shift}, []error{ErrGzip}},
		{"plain, bad header", plain, []int{1, 2, 3, 4, 5}, plainOffsets, []error{ErrMalformed}},
		{"two bytes between members", short, []int{1, 2, 3, 4, 5}, []int64{offsets[0], offsets[1], offsets[2] + 2, offsets[3] + 2, offsets[4] + 2}, []error{ErrGzip}},
		{"whole-file gzip, junk between records", wholeFile, []int{1, 2, 3, 4, 5}, []int64{0, 0, 0, 0, 0}, []error{ErrMalformed}},
		{"plain, a junk line right before a record", junkLine, []int{1, 2, 3, 4, 5}, junkLineOffsets, []error{ErrMalformed}},
	} {
		r := NewReader(bytes.NewReader(c.data), Options{Name: c.name})
		var got []int
		var gotOff []int64
		var errs []error
		for range 100 {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				errs = append(errs, err)
				if _, rerr := r.Resync(); rerr != nil {
					t.Fatalf("%s: Resync after %v: %v", c.name, err, rerr)
				}
				continue
			}
			for n := 1; n <= 5; n++ {
				if rec.ID == id(n) {
					got = append(got, n)
					gotOff = append(gotOff, rec.Offset)
				}
			}
			if b, err := io.ReadAll(rec.Block()); err != nil || !bytes.HasPrefix(b, []byte("block of record")) {
				t.Errorf("%s: record %s block %.20q, %v", c.name, rec.ID, b, err)
			}
		}
		if len(errs) != len(c.errs) {
			t.Errorf("%s: errors %v, want one of each of %v", c.name, errs, c.errs)
		}
		for i := range min(len(errs), len(c.errs)) {
			if !errors.Is(errs[i], c.errs[i]) {
				t.Errorf("%s: error %v, want %v", c.name, errs[i], c.errs[i])
			}
		}
		if c.name == "corrupt member" && len(errs) > 0 {
			// The damage lies in record 2's own member: the error is its.
			if we := (*Error)(nil); !errors.As(errs[0], &we) || we.RecordID != id(2) {
				t.Errorf("%s: error %v does not name record 2", c.name, errs[0])
			}
		}
		if !slices.Equal(got, c.want) || !slices.Equal(gotOff, c.offsets) {
			t.Errorf("%s: records %v at %v, want %v at %v", c.name, got, gotOff, c.want, c.offsets)
		}
	}
	// Damage past the last record start: Resync finds nothing.
	r := NewReader(bytes.NewReader(append(bytes.Clone(whole), "junk at the end"...)), Options{})
	for range 10 {
		if _, err := r.Next(); err != nil {
			if _, rerr := r.Resync(); rerr != io.EOF {
				t.Errorf("Resync after trailing junk: %v, want io.EOF", rerr)
			}
			break
		}
	}
	// A truncated last record is the end: Resync returns its error.
	r = NewReader(bytes.NewReader(whole[:len(whole)-10]), Options{})
	for range 10 {
		if _, err := r.Next(); err != nil {
			if _, rerr := r.Resync(); !errors.Is(rerr, ErrTruncated) {
				t.Errorf("Resync after a truncated record: %v, want ErrTruncated", rerr)
			}
			break
		}
	}
}

// TestCutMember: a gzip member cut short in the middle of the file (here
// record 2's, at several places) has its deflate stream run on into the
// members after it. On an input that can seek, Resync looks for the next
// member from just after the damaged member's start, so the record right
// after it (3) is read; on one that cannot, it is lost (from where the
// reading stopped, the next member found may be 4's). (Record 2 itself
// may come first, where its header lies before the cut.)
func TestCutMember(t *testing.T) {
	var parts []string
	for n := 1; n <= 5; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat(fmt.Sprintf("block of record %d, some words to compress. ", n), 60)))
	}
	for _, frac := range []float64{0.1, 0.5, 0.9, 0.99} {
		var data []byte
		for i, p := range parts {
			m := gz([]byte(p))
			if i == 1 {
				m = m[:int(frac*float64(len(m)))]
			}
			data = append(data, m...)
		}
		onErr := func(err error) string {
			if !errors.Is(err, ErrGzip) && !errors.Is(err, ErrMalformed) {
				t.Errorf("cut at %.2f: error %v, want ErrGzip or ErrMalformed", frac, err)
			}
			return "error"
		}
		got := readIDs(NewReader(bytes.NewReader(data), Options{}), onErr)
		// Record 2's header may lie before the cut: Next returns it,
		// and reading on fails in its block.
		got = slices.DeleteFunc(got, func(s string) bool { return s == id(2) })
		want := []string{id(1), "error", id(3), id(4), id(5)}
		if !slices.Equal(got, want) {
			t.Errorf("cut at %.2f, seekable: read %v, want %v", frac, got, want)
		}
		// Not seekable (standard input): the member's bytes were kept,
		// and are read again as a file's would be.
		got = readIDs(NewReader(struct{ io.Reader }{bytes.NewReader(data)}, Options{}), onErr)
		got = slices.DeleteFunc(got, func(s string) bool { return s == id(2) })
		if !slices.Equal(got, want) {
			t.Errorf("cut at %.2f, not seekable: read %v, want %v", frac, got, want)
		}
		// Read a few bytes at a time, as from a pipe.
		got = readIDs(NewReader(iotest.HalfReader(bytes.NewReader(data)), Options{}), onErr)
		got = slices.DeleteFunc(got, func(s string) bool { return s == id(2) })
		if !slices.Equal(got, want) {
			t.Errorf("cut at %.2f, half reads: read %v, want %v", frac, got, want)
		}
	}
}

// TestCutStoredMember: a member cut short inside a stored deflate block
// (incompressible data, as an image) has its decoder take the members
// after it as the block's bytes and run to the end of the file: Next
// fails with ErrTruncated. On an input that can seek, Resync still finds
// the members after the damaged one; where none follows, it returns the
// truncation.
func TestCutStoredMember(t *testing.T) {
	rnd := make([]byte, 100<<10)
	src := rand.NewChaCha8([32]byte{1})
	src.Read(rnd)
	var data []byte
	for n := 1; n <= 4; n++ {
		block := "small block"
		if n == 2 {
			block = string(rnd)
		}
		m := gz([]byte(rec(n, TypeResource, "", block)))
		if n == 2 {
			m = m[:len(m)/2]
		}
		data = append(data, m...)
	}
	for _, in := range []struct {
		name string
		r    io.Reader
	}{
		{"seekable", bytes.NewReader(data)},
		{"not seekable", struct{ io.Reader }{bytes.NewReader(data)}},
	} {
		var errs []error
		got := readIDs(NewReader(in.r, Options{}), func(err error) string {
			errs = append(errs, err)
			return "error"
		})
		got = slices.DeleteFunc(got, func(s string) bool { return s == id(2) })
		if want := []string{id(1), "error", id(3), id(4)}; !slices.Equal(got, want) {
			t.Errorf("%s: read %v, want %v (errors %v)", in.name, got, want, errs)
		}
		if len(errs) != 1 || !errors.Is(errs[0], ErrTruncated) {
			t.Errorf("%s: errors %v, want one ErrTruncated (the stored block ran to the end)", in.name, errs)
		}
	}
	// The damaged member last: the truncation stands.
	last := data[:len(gz([]byte(rec(1, TypeResource, "", "small block"))))+len(gz([]byte(rec(2, TypeResource, "", string(rnd)))))/2]
	r := NewReader(bytes.NewReader(last), Options{})
	for range 10 {
		if _, err := r.Next(); err != nil {
			if _, rerr := r.Resync(); !errors.Is(rerr, ErrTruncated) {
				t.Errorf("Resync after a last member cut short: %v, want ErrTruncated", rerr)
			}
			break
		}
	}
}

// joinWith joins parts with junk before part at, and returns the parts'
// offsets in the result.
func joinWith(parts []string, at int, junk string) ([]byte, []int64) {
	var out []byte
	var offsets []int64
	for i, p := range parts {
		if i == at {
			out = append(out, junk...)
		}
		offsets = append(offsets, int64(len(out)))
		out = append(out, p...)
	}
	return out, offsets
}

// TestCorruptMemberHeaderAfter: a gzip member whose damage deflate does
// not notice (here a stored block, a digit of its record's Content-Length
// changed) makes the record's block end early, and what follows in the
// member is no WARC header. The member's checksum fails a little further
// on, so the error is the record's corrupt gzip data, naming it, not a
// malformed header of a record of its own; reading goes on at the next
// member.
func TestCorruptMemberHeaderAfter(t *testing.T) {
	var parts []string
	for n := 1; n <= 3; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat("block of record ", 40+n)))
	}
	stored := func(p string) []byte {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
		w.Write([]byte(p))
		w.Close()
		return b.Bytes()
	}
	var data []byte
	var starts []int
	for _, p := range parts {
		starts = append(starts, len(data))
		data = append(data, stored(p)...)
	}
	// Record 2's Content-Length, 672, becomes 072: the stored bytes
	// change, the deflate stream stays valid, the CRC-32 does not.
	i := bytes.Index(data[starts[1]:], []byte("Content-Length: 6")) + starts[1] + len("Content-Length: ")
	if i < starts[1]+len("Content-Length: ") || i > starts[2] {
		t.Fatal("no Content-Length in record 2's member")
	}
	data[i] = '0'
	got := readIDs(NewReader(bytes.NewReader(data), Options{Name: "t"}), func(err error) string {
		var we *Error
		if !errors.Is(err, ErrGzip) || !errors.As(err, &we) || we.RecordID != id(2) || we.Offset != int64(starts[1]) {
			t.Errorf("error %v: want corrupt gzip data of record 2 at offset %d", err, starts[1])
		}
		return "error"
	})
	if want := []string{id(1), id(2), "error", id(3)}; !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}

// TestCorruptWholeFileMember: in a file compressed as one gzip member, a
// garbled header after the first record is that header's error, not the
// first record's, though the member's checksum fails further on: another
// record starts before it, and is read.
func TestCorruptWholeFileMember(t *testing.T) {
	var parts []string
	for n := 1; n <= 3; n++ {
		parts = append(parts, rec(n, TypeResource, "", strings.Repeat("block of record ", 40+n)))
	}
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
	w.Write([]byte(strings.Join(parts, "")))
	w.Close()
	data := b.Bytes()
	i := bytes.Index(data, []byte("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: "+id(2)))
	if i < 0 {
		t.Fatal("record 2 not found")
	}
	data[i] = 'X' // stored bytes change; the CRC-32 no longer holds
	for _, in := range []io.Reader{bytes.NewReader(data), struct{ io.Reader }{bytes.NewReader(data)}} {
		got := readIDs(NewReader(in, Options{}), func(err error) string {
			var we *Error
			errors.As(err, &we)
			return fmt.Sprintf("error %v %q", errors.Is(err, ErrMalformed), we.RecordID)
		})
		if len(got) < 3 || got[0] != id(1) || got[1] != `error true ""` || got[2] != id(3) {
			t.Errorf("%T: read %q, want record 1, a malformed header naming no record, record 3", in, got)
		}
	}
}

// readIDs reads r to its end, moving past damage (Resync), and returns
// the IDs of the records read, in order, with what onErr says of each
// error in its place.
func readIDs(r *Reader, onErr func(error) string) []string {
	var got []string
	for range 100 {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, onErr(err))
			if _, err := r.Resync(); err != nil {
				break
			}
			continue
		}
		got = append(got, rec.ID)
	}
	return got
}

// TestCutMemberNamesItsRecord: in a file compressed per record, a member
// cut short inside its record's block decodes on into the members after
// it, giving garbage that may run for tens of kilobytes before the data
// fails; the garbage fills the block, and what follows in the member is
// no header. The error is then the record's own (it names it), so that
// its garbled text is not taken for a page, and reading goes on at the
// next member. Each of 48 members of pages with a varied vocabulary is
// cut at 85% in turn (the code before let 4 of them through as pages).
func TestCutMemberNamesItsRecord(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	var words []string
	for range 3000 {
		w := make([]byte, 2+rnd.IntN(9))
		for i := range w {
			w[i] = byte('a' + rnd.IntN(26))
		}
		words = append(words, string(w))
	}
	var parts []string
	for n := 1; n <= 50; n++ {
		var b strings.Builder
		b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>\n")
		for b.Len() < 60000+rnd.IntN(100000) {
			fmt.Fprintf(&b, "<div class=\"c%d\"><a href=\"/x/%d\">", rnd.IntN(50), rnd.IntN(100000))
			for range 5 + rnd.IntN(30) {
				b.WriteString(words[rnd.IntN(len(words))] + " ")
			}
			b.WriteString("</a></div>\n")
		}
		parts = append(parts, response(n, "http://x.example/", b.String()))
	}
	var data []byte
	var offs []int64
	for _, p := range parts {
		offs = append(offs, int64(len(data)))
		data = append(data, gz([]byte(p))...)
	}
	offs = append(offs, int64(len(data)))
	for k := 1; k < 49; k++ {
		cut := offs[k] + (offs[k+1]-offs[k])*85/100
		d := append(bytes.Clone(data[:cut]), data[offs[k+1]:]...)
		got := readIDs(NewReader(bytes.NewReader(d), Options{}), func(err error) string {
			var we *Error
			errors.As(err, &we)
			return "error " + we.RecordID
		})
		cutID := id(k + 1)
		if i := slices.Index(got, cutID); i >= 0 && (i+1 >= len(got) || got[i+1] != "error "+cutID) {
			t.Errorf("member %d cut: its record read, no error naming it after: %v", k+1, got)
		}
		for n := 1; n <= 50; n++ {
			if id(n) != cutID && !slices.Contains(got, id(n)) {
				t.Errorf("member %d cut: record %d lost", k+1, n)
			}
		}
	}
}

// TestOverlongContentLength: in a file compressed a member (or frame) per
// record, a record whose Content-Length is too long runs past its member
// into the next record's: that record is not swallowed. The long record's
// block fails (ErrMalformed, naming it), and reading goes on at the next
// member. Members split in the middle of records, after members of one
// record each, still read as one stream.
func TestOverlongContentLength(t *testing.T) {
	m := mixed()
	long := slices.Clone(m)
	for _, k := range []int{0, 2} { // the first record, and a response
		cl := fmt.Sprintf("Content-Length: %d\r\n", len(strings.SplitN(m[k], "\r\n\r\n", 2)[1])-4)
		if !strings.Contains(m[k], cl) {
			t.Fatalf("record %d: no %q", k+1, cl)
		}
		long[k] = strings.Replace(m[k], cl, fmt.Sprintf("Content-Length: %d\r\n", len(m[k])+100), 1)
	}
	var zs []byte
	for _, p := range long {
		zs = append(zs, zstdOf([]byte(p))...)
	}
	// The header of a long record reads; the error comes where its block
	// is skipped, at the next call of Next.
	want := []string{id(1), "error " + id(1), id(2), id(3), "error " + id(3), id(4), id(5), id(6), id(7), id(8)}
	for name, data := range map[string][]byte{"gzip": gzipEach(long...), "zstd": zs} {
		for _, in := range []io.Reader{bytes.NewReader(data), struct{ io.Reader }{bytes.NewReader(data)}} {
			got := readIDs(NewReader(in, Options{}), func(err error) string {
				var we *Error
				if !errors.As(err, &we) || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "runs past the end") {
					return "unexpected " + err.Error()
				}
				return "error " + we.RecordID
			})
			if !slices.Equal(got, want) {
				t.Errorf("%s (%T), Content-Length too long in records 1 and 3: read %q, want %q", name, in, got, want)
			}
		}
	}
	// In a plain file the bytes after the long block are no record
	// boundary, and the block holds the next record's version line after
	// a blank line: the block is cut there, and the same records are read.
	plain := cat(long...)
	for _, in := range []io.Reader{bytes.NewReader(plain), struct{ io.Reader }{bytes.NewReader(plain)}} {
		got := readIDs(NewReader(in, Options{}), func(err error) string {
			var we *Error
			if !errors.As(err, &we) || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "into the next record") {
				return "unexpected " + err.Error()
			}
			return "error " + we.RecordID
		})
		if !slices.Equal(got, want) {
			t.Errorf("plain (%T), Content-Length too long in records 1 and 3: read %q, want %q", in, got, want)
		}
	}
	rest := strings.Join(m[2:], "")
	split := gzipEach(m[0], m[1], rest[:1000], rest[1000:3000], rest[3000:])
	got := readIDs(NewReader(bytes.NewReader(split), Options{}), func(err error) string { return "error " + err.Error() })
	var all []string
	for n := 1; n <= len(m); n++ {
		all = append(all, id(n))
	}
	if !slices.Equal(got, all) {
		t.Errorf("members split mid-record after two of one record each: read %q, want %q", got, all)
	}
}

// TestResyncDraftVersion: Resync finds records of the drafts' versions
// (WARC/0.18, as in ClueWeb09) after damage, as it finds WARC/1.x ones,
// and not a line that only starts "WARC/".
func TestResyncDraftVersion(t *testing.T) {
	var parts []string
	for n := 1; n <= 4; n++ {
		parts = append(parts, record("WARC/0.18", fmt.Sprintf("WARC-Type: resource\r\nWARC-Record-ID: %s\r\n", id(n)), strings.Repeat("text ", 10+n)))
	}
	data := []byte(parts[0] + parts[1] + "junk, no record\r\nWARC/ is no version\r\n" + parts[2] + parts[3])
	for name, in := range map[string][]byte{"plain": data, "gzip as a whole": gz(data)} {
		got := readIDs(NewReader(bytes.NewReader(in), Options{}), func(err error) string {
			if !errors.Is(err, ErrMalformed) {
				return "unexpected " + err.Error()
			}
			return "malformed"
		})
		want := []string{id(1), id(2), "malformed", id(3), id(4)}
		if !slices.Equal(got, want) {
			t.Errorf("%s: read %q, want %q", name, got, want)
		}
	}
}

// readAll reads every record to the first error.
func (r *Reader) readAll() (n int, err error) {
	for {
		if _, err = r.Next(); err != nil {
			if err == io.EOF {
				err = nil
			}
			return n, err
		}
		n++
	}
}

// TestMemberStarts: what memberReader reads of a member's start, to see
// whether it starts a record, is given in order, also where the member
// is shorter than that and the reader takes a few bytes at a time (a
// header line that nearly fills the buffer); and a record whose header
// and block are members of their own, its block a WARC itself, reads
// whole, by Block and by Next skipping it.
func TestMemberStarts(t *testing.T) {
	long := strings.Repeat("A", bufSize-5)
	data := gzipEach("WARC/1.0\r\nX: "+long, "BBBB", "CC\r\nWARC-Type: resource\r\nWARC-Record-ID: "+id(1)+"\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	first, err := NewReader(bytes.NewReader(data), Options{}).Next()
	if err != nil || first.Header.Get("X") != long+"BBBBCC" {
		t.Fatalf("a header across a member of four bytes: %v", err)
	}
	inner := rec(2, TypeWarcinfo, "", "software: test\r\n")
	head := strings.TrimSuffix(rec(3, TypeResource, "Content-Type: application/warc\r\n", inner), inner+"\r\n\r\n")
	split := gzipEach(head, inner+"\r\n\r\n", rec(4, TypeMetadata, "", "after"))
	for _, readBlock := range []bool{true, false} {
		got, blocks := readBlocks(NewReader(bytes.NewReader(split), Options{}), readBlock)
		if b, ok := blocks[id(3)]; readBlock && (!ok || b != inner) {
			t.Errorf("the block in a member of its own: %q", b)
		}
		if want := []string{id(3), id(4)}; !slices.Equal(got, want) {
			t.Errorf("header and block in members of their own (block read %v): %q, want %q", readBlock, got, want)
		}
	}
	// Members that split a block anywhere: once a record ran on into a
	// next member, a member starting with a version line inside a block
	// (a WARC in the record) is no sign of a Content-Length too long.
	whole := rec(5, TypeResource, "Content-Type: application/warc\r\n", "abcd"+inner)
	at := strings.Index(whole, "abcd") + 2
	chunked := gzipEach(whole[:at], whole[at:at+2], whole[at+2:], rec(6, TypeMetadata, "", "after"))
	got, blocks := readBlocks(NewReader(bytes.NewReader(chunked), Options{}), true)
	if b := blocks[id(5)]; b != "abcd"+inner {
		t.Errorf("a block split before a WARC inside it: %q", b)
	}
	if want := []string{id(5), id(6)}; !slices.Equal(got, want) {
		t.Errorf("a block split before a WARC inside it: %q, want %q", got, want)
	}
}

// readBlocks reads r to its end or first error, and returns the IDs of
// its records (the error's text last) and, if readBlock, their blocks
// by ID (with the read's error, if any, after the bytes).
func readBlocks(r *Reader, readBlock bool) (ids []string, blocks map[string]string) {
	blocks = map[string]string{}
	for {
		rec, err := r.Next()
		if err != nil {
			if err != io.EOF {
				ids = append(ids, err.Error())
			}
			return ids, blocks
		}
		ids = append(ids, rec.ID)
		if readBlock {
			b, err := io.ReadAll(rec.Block())
			if err != nil {
				b = append(b, " "+err.Error()...)
			}
			blocks[rec.ID] = string(b)
		}
	}
}

// TestOverlongPlainBlock: in a plain file, a record whose block is
// larger than the read buffer and whose Content-Length is too long is cut
// at the next record's start where the input can be read by offset (an
// *os.File, a bytes.Reader); the block reads whole up to there. On a pipe
// the bytes after such a block are not at hand: the error comes after
// it, naming the record. A block that is itself a WARC, with a right
// Content-Length, reads whole, and so does one whose record ends
// without the blank line (its version line follows no blank line).
func TestOverlongPlainBlock(t *testing.T) {
	body := strings.Repeat("<p>a long page of words, line after line.</p>\r\n", 3000) // 144 KB
	big := rec(1, TypeResource, "WARC-Target-URI: http://a.example/big\r\nContent-Type: text/html\r\n", body)
	next := rec(2, TypeResource, "WARC-Target-URI: http://a.example/next\r\nContent-Type: text/plain\r\n", strings.Repeat("next record's text ", 50))
	last := rec(3, TypeResource, "WARC-Target-URI: http://a.example/last\r\nContent-Type: text/plain\r\n", "the last one")
	cl := fmt.Sprintf("Content-Length: %d\r\n", len(body))
	long := strings.Replace(big, cl, fmt.Sprintf("Content-Length: %d\r\n", len(body)+300), 1)
	data := cat(long, next, last)
	onErr := func(err error) string {
		var we *Error
		errors.As(err, &we)
		if we == nil || !errors.Is(err, ErrMalformed) {
			return "unexpected " + err.Error()
		}
		return "error " + we.RecordID
	}

	// By offset: the block stops where the next record starts.
	r := NewReader(bytes.NewReader(data), Options{})
	first, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(first.Block())
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), fmt.Sprintf("Content-Length %d runs past the end of the record, %d bytes into the block", len(body)+300, len(body))) {
		t.Errorf("long block read: %v", err)
	}
	if string(b) != body {
		t.Errorf("long block read %d bytes, want the %d of the page", len(b), len(body))
	}
	if _, err := r.Resync(); err != nil {
		t.Fatal(err)
	}
	if got := readIDs(r, onErr); !slices.Equal(got, []string{id(2), id(3)}) {
		t.Errorf("after the long block: read %q, want the two records after it", got)
	}

	// On a pipe: the record after it is lost, and the error names the
	// long record.
	got := readIDs(NewReader(struct{ io.Reader }{bytes.NewReader(data)}, Options{}), func(err error) string {
		if !strings.Contains(err.Error(), "right after the block of the record "+id(1)) {
			return "unexpected " + err.Error()
		}
		return "error after " + id(1)
	})
	if want := []string{id(1), "error after " + id(1), id(3)}; !slices.Equal(got, want) {
		t.Errorf("pipe: read %q, want %q", got, want)
	}

	// Blocks that hold WARC version lines, with right Content-Lengths,
	// and a record without the blank line after its block: all read whole.
	inner := string(cat(next, last))
	nested := rec(4, TypeResource, "Content-Type: application/warc\r\n", strings.Repeat(inner, 200))
	bare := strings.TrimSuffix(rec(5, TypeResource, "Content-Type: text/plain\r\n", "no blank line after"), "\r\n\r\n")
	for _, in := range [][]byte{cat(nested, next), cat(rec(6, TypeResource, "Content-Type: application/warc\r\n", inner), last), cat(bare, next)} {
		n, err := NewReader(bytes.NewReader(in), Options{}).readAll()
		if err != nil || n != 2 {
			t.Errorf("right Content-Lengths: %d records, %v", n, err)
		}
	}
}

// TestOverlongEveryLength: in a plain file, whatever the length by which
// a record's Content-Length is too long (into the next record's trailer,
// version line, header fields, blank line, HTTP header, block, or on
// into the record after it), no later record is lost, read by offset or
// on a pipe; but where the block then ends right before a record (the
// record after it swallowed whole), which cannot be told from a block
// that holds a WARC file.
func TestOverlongEveryLength(t *testing.T) {
	m := mixed()
	first, next, last := m[1], m[2], m[3] // a request, a response with an HTTP header and a page, metadata
	body := strings.SplitN(first, "\r\n\r\n", 2)[1]
	cl := fmt.Sprintf("Content-Length: %d\r\n", len(body)-4)
	if !strings.Contains(first, cl) {
		t.Fatalf("no %q in %q", cl, first)
	}
	for extra := 1; extra <= len(next)+len(last)/2; extra++ {
		long := strings.Replace(first, cl, fmt.Sprintf("Content-Length: %d\r\n", len(body)-4+extra), 1)
		data := cat(long, next, last)
		end := strings.Index(long, "\r\n\r\n") + 4 + len(body) - 4 + extra // the block's declared end
		if boundary(data[end:min(len(data), end+tailBytes)], end+tailBytes >= len(data)) {
			if extra > 4 && (extra < len(next)-8 || extra > len(next)+4) { // the trailer's line ends, the page's last ones
				t.Errorf("Content-Length %d too long: taken for a record's end", extra)
			}
			continue
		}
		for _, in := range []io.Reader{bytes.NewReader(data), struct{ io.Reader }{bytes.NewReader(data)}} {
			got := readIDs(NewReader(in, Options{}), func(error) string { return "error" })
			if !slices.Contains(got, id(3)) || !slices.Contains(got, id(4)) {
				t.Errorf("Content-Length %d too long (%T): read %q, want %s and %s among them", extra, in, got, id(3), id(4))
			}
		}
	}
}

// TestOverlongPastEnd: a Content-Length that runs past the end of the
// input, in a plain file (by offset and on a pipe) and in one compressed
// as a whole (gzip, zstd), took every record after it: the input ended
// in its block, and it was read as cut short. Where what there is of the
// block holds the next record, the block is cut there, and the records
// after it are read.
func TestOverlongPastEnd(t *testing.T) {
	m := mixed()
	k := 2 // the third record, a response
	cl := fmt.Sprintf("Content-Length: %d\r\n", len(strings.SplitN(m[k], "\r\n\r\n", 2)[1])-4)
	if !strings.Contains(m[k], cl) {
		t.Fatalf("record %d: no %q", k+1, cl)
	}
	want := []string{id(1), id(2), id(3), "error " + id(3), id(4), id(5), id(6), id(7), id(8)}
	onErr := func(err error) string {
		var we *Error
		if !errors.As(err, &we) || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "into the next record") {
			return "unexpected " + err.Error()
		}
		return "error " + we.RecordID
	}
	for _, extra := range []int{1500, 1_000_000} {
		long := slices.Clone(m)
		long[k] = strings.Replace(m[k], cl, fmt.Sprintf("Content-Length: %d\r\n", len(strings.Join(m[k:], ""))+extra), 1)
		plain := cat(long...)
		inputs := map[string]io.Reader{
			"plain by offset": bytes.NewReader(plain),
			"gzip":            bytes.NewReader(gzipEach(string(plain))),
			"zstd":            bytes.NewReader(zstdOf(plain)),
		}
		if extra < bufSize {
			// On a pipe, a block that fits the read buffer.
			inputs["plain on a pipe"] = struct{ io.Reader }{bytes.NewReader(plain)}
		}
		for name, in := range inputs {
			if got := readIDs(NewReader(in, Options{}), onErr); !slices.Equal(got, want) {
				t.Errorf("%s, Content-Length %d bytes past the end: read %q, want %q", name, extra, got, want)
			}
		}
	}
	// A record cut short with no record in its block stays cut short.
	cut := cat(m[0], m[1], m[2][:len(m[2])/2])
	got := readIDs(NewReader(bytes.NewReader(cut), Options{}), func(err error) string {
		if !errors.Is(err, ErrTruncated) {
			return "unexpected " + err.Error()
		}
		return "truncated"
	})
	if w := []string{id(1), id(2), id(3), "truncated"}; !slices.Equal(got, w) {
		t.Errorf("a file cut in its last record: read %q, want %q", got, w)
	}
}

// TestSplitMemberInWARCBlock: in a file whose gzip members split records
// anywhere, a member that ends in a block holding a WARC file (a blank
// line, then a version line) is no Content-Length too long: the block
// goes on in the next member, and every record is read whole.
func TestSplitMemberInWARCBlock(t *testing.T) {
	inner := string(cat(rec(7, TypeResource, "Content-Type: text/plain\r\n", "inner one"), rec(8, TypeResource, "Content-Type: text/plain\r\n", "inner two")))
	outer := rec(1, TypeResource, "Content-Type: application/warc\r\n", "some text first\r\n\r\n"+inner)
	plain := string(cat(outer, rec(2, TypeMetadata, "", "after")))
	start := strings.Index(plain, "some text first")
	for k := start; k < start+len("some text first\r\n\r\n")+len(inner); k += 7 {
		data := gzipEach(plain[:k], plain[k:])
		got := readIDs(NewReader(bytes.NewReader(data), Options{}), func(err error) string { return "error " + err.Error() })
		if want := []string{id(1), id(2)}; !slices.Equal(got, want) {
			t.Fatalf("members split at %d: read %q, want %q", k, got, want)
		}
	}
}
