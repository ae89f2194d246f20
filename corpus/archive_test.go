package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/warc"
)

var date = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// testWARC writes records with a seeded Writer (gzip per record if gz).
type testWARC struct {
	buf bytes.Buffer
	w   *warc.Writer
	ids []string
}

func newTestWARC(gz bool) *testWARC {
	t := &testWARC{}
	t.w = warc.NewWriter(&t.buf, gz)
	t.w.Rand = rand.NewChaCha8([32]byte{7})
	return t
}

func (t *testWARC) record(typ, uri, contentType string, block string) {
	var f warc.Header
	if uri != "" {
		f.Add(warc.FieldTargetURI, uri)
	}
	if typ == warc.TypeRevisit {
		f.Add(warc.FieldProfile, "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")
	}
	id, err := t.w.WriteRecord(typ, date, contentType, f, []byte(block))
	if err != nil {
		panic(err)
	}
	t.ids = append(t.ids, id)
}

func (t *testWARC) response(uri, status, header, body string) {
	t.record(warc.TypeResponse, uri, "application/http; msgtype=response",
		"HTTP/1.1 "+status+"\r\n"+header+"\r\n"+body)
}

func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

const (
	latin1Page = "<html><head><title>Caf\xe9</title></head><body><p>Un caf\xe9 cr\xe8me et une br\xfbl\xe9e.</p></body></html>"
	css        = "p { color: red }"
)

// sampleWARC is a WARC of every kind of record a crawl holds, its last
// record cut in its body.
func sampleWARC(gz bool) (*testWARC, []byte) {
	t := newTestWARC(gz)
	t.record(warc.TypeWarcinfo, "", "application/warc-fields", "software: test\r\n")
	t.record(warc.TypeRequest, "http://ex.org/", "application/http; msgtype=request", "GET / HTTP/1.1\r\nHost: ex.org\r\n\r\n")
	t.response("http://ex.org/", "200 OK", "Content-Type: text/html; charset=iso-8859-1\r\n", latin1Page)
	t.record(warc.TypeMetadata, "http://ex.org/", "application/warc-fields", "outlinks: x\r\n")
	t.response("http://ex.org/style.css", "200 OK", "Content-Type: text/css\r\n", css)
	t.response("http://ex.org/gz", "200 OK", "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", gzipped(page))
	t.record(warc.TypeRevisit, "http://ex.org/", "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n\r\n")
	t.response("http://ex.org/missing", "404 Not Found", "Content-Type: text/html\r\n", "<html><body><p>Not found.</p></body></html>")
	t.response("http://ex.org/img.png", "200 OK", "Content-Type: image/png\r\n", "\x89PNG\r\n\x1a\n....")
	t.response("http://ex.org/sniffed", "200 OK", "", "<!DOCTYPE html><html><body><p>No type given.</p></body></html>")
	t.response("http://ex.org/empty", "200 OK", "Content-Type: text/html\r\n", "")
	t.response("http://ex.org/moved", "301 Moved Permanently", "Location: http://ex.org/\r\nContent-Type: text/html\r\n", "")
	whole := t.buf.Len()
	t.response("http://ex.org/last", "200 OK", "Content-Type: text/html\r\n", strings.Repeat("<p>Last page.</p>", 200))
	data := t.buf.Bytes()
	cut := whole + (len(data)-whole)/2
	return t, data[:cut]
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func inputsOf(t *testing.T, s *Source, args ...string) []pipeline.Input {
	t.Helper()
	var out []pipeline.Input
	for in := range s.Inputs(context.Background(), args, nil) {
		out = append(out, in)
	}
	return out
}

// TestArchivePages: of a WARC with every kind of record, the HTML 2xx
// responses are pages (decoded, with URL, record ID and HTTP Content-Type),
// the rest is counted (an empty body too: no page, no failure), and the
// truncated last record is one error.
func TestArchivePages(t *testing.T) {
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			w, data := sampleWARC(gz)
			path := writeFile(t, "crawl.warc.gz", data)
			s := NewSource(Options{})
			ins := inputsOf(t, s, path)
			var got []string
			for _, in := range ins {
				if in.Err != nil {
					got = append(got, "error "+in.Name[len(path):]+" "+in.RecordID)
					if !errors.Is(in.Err, warc.ErrTruncated) {
						t.Errorf("error %v is not ErrTruncated", in.Err)
					}
					continue
				}
				got = append(got, in.URL+" "+in.RecordID+" "+in.Rel)
			}
			want := []string{
				"http://ex.org/ " + w.ids[2] + " crawl.warc.gz#000001",
				"http://ex.org/gz " + w.ids[5] + " crawl.warc.gz#000002",
				"http://ex.org/sniffed " + w.ids[9] + " crawl.warc.gz#000003",
			}
			if len(got) != 4 || strings.Join(got[:3], "\n") != strings.Join(want, "\n") || !strings.HasPrefix(got[3], "error #") || !strings.HasSuffix(got[3], w.ids[12]) {
				t.Fatalf("inputs:\n%s\nwant\n%s\nand the last record's error", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if ins[0].ContentType != "text/html; charset=iso-8859-1" || string(ins[0].Data) != latin1Page {
				t.Errorf("first page: Content-Type %q, data %q", ins[0].ContentType, ins[0].Data)
			}
			if string(ins[1].Data) != page {
				t.Errorf("gzip-encoded page decoded to %q", ins[1].Data)
			}
			st := s.Stats()
			wantSkip := map[string]int{"warcinfo records": 1, "request records": 1, "metadata records": 1, "revisit records": 1, SkipNotHTML: 2, SkipStatus: 2, SkipEmpty: 1}
			if st.Archives != 1 || st.Records < 12 || fmt.Sprint(st.Skipped) != fmt.Sprint(wantSkip) {
				t.Errorf("stats %+v, want 12 or 13 records (the cut one read or not) and skipped %v", st, wantSkip)
			}
			for _, in := range ins[:3] {
				if in.HTTPStatus != 200 {
					t.Errorf("%s: HTTPStatus %d, want 200", in.URL, in.HTTPStatus)
				}
			}
			s = NewSource(Options{AnyStatus: true})
			all := inputsOf(t, s, path)
			if n := len(all); n != 5 {
				t.Errorf("AnyStatus: %d inputs, want 5 (the 404 page too; not the empty 301)", n)
			}
			statuses := map[int]int{}
			for _, in := range all {
				statuses[in.HTTPStatus]++
			}
			if statuses[404] != 1 {
				t.Errorf("AnyStatus: HTTP statuses %v, want one 404", statuses)
			}
			if n := s.Stats().Skipped[SkipEmpty]; n != 2 {
				t.Errorf("AnyStatus: %d empty responses skipped, want 2 (the 200 and the 301)", n)
			}
		})
	}
}

// TestArchiveLayouts: WARC 1.0, one gzip member for the whole file, zstd,
// standard input; a payload over MaxBytes is read up to MaxBytes+1.
func TestArchiveLayouts(t *testing.T) {
	rec10 := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n" +
		"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: <http://old.example/>\r\nContent-Type: application/http; msgtype=response\r\n"
	body := "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
	plain10 := fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s\r\n\r\n", rec10, len(body), body)
	var zs bytes.Buffer
	enc, _ := zstd.NewWriter(&zs)
	enc.Write([]byte(plain10))
	enc.Close()
	for name, data := range map[string]string{"plain10.warc": plain10, "whole.warc.gz": gzipped(plain10 + plain10), "z.warc.zst": zs.String()} {
		ins := inputsOf(t, NewSource(Options{}), writeFile(t, name, []byte(data)))
		if len(ins) == 0 || ins[0].Err != nil || ins[0].URL != "http://old.example/" || string(ins[0].Data) != page {
			t.Errorf("%s: %+v", name, ins)
		}
		if name == "whole.warc.gz" && (len(ins) != 2 || !strings.HasSuffix(ins[0].Name, "#0") || !strings.HasSuffix(ins[1].Name, "#0+1")) {
			t.Errorf("the two records of a WARC compressed as a whole: named %q, want NAME#0 and NAME#0+1", names(ins))
		}
	}
	ins := inputsOf(t, NewSource(Options{Stdin: strings.NewReader(gzipped(plain10))}), "-")
	if len(ins) != 1 || ins[0].Rel != "#000001" || string(ins[0].Data) != page {
		t.Errorf("a WARC on standard input: %+v", ins)
	}
	ins = inputsOf(t, NewSource(Options{MaxBytes: 10}), writeFile(t, "p.warc", []byte(plain10)))
	if len(ins) != 1 || len(ins[0].Data) != 11 {
		t.Errorf("MaxBytes 10: %d bytes read", len(ins[0].Data))
	}
}

// TestArchiveResources: with Options.Resources, a page gets the archive's
// requisites by URL (in Chromium's canonical form), and only those.
func TestArchiveResources(t *testing.T) {
	_, data := sampleWARC(true)
	path := writeFile(t, "crawl.warc.gz", data)
	ins := inputsOf(t, NewSource(Options{Resources: true}), path)
	res := ins[0].Resources
	if res == nil {
		t.Fatal("no Resources for a page of a gzip-per-record WARC")
	}
	for _, u := range []string{"http://ex.org/style.css", "HTTP://EX.ORG:80/style.css#x"} {
		r, ok := res(u)
		if !ok || r.ContentType != "text/css" || string(r.Body) != css {
			t.Errorf("%s: %v %+v", u, ok, r)
		}
	}
	for _, u := range []string{"http://ex.org/", "http://ex.org/gz", "http://ex.org/other.css", "https://ex.org/style.css"} {
		if _, ok := res(u); ok {
			t.Errorf("%s served as a requisite", u)
		}
	}
	if r, ok := res("http://ex.org/img.png"); !ok || !strings.HasPrefix(string(r.Body), "\x89PNG") {
		t.Errorf("image not served: %v", ok)
	}
	src := NewSource(Options{Resources: true})
	inputsOf(t, src, path)
	if n := src.Stats().Unindexed; n != 0 {
		t.Errorf("a gzip-per-record WARC counted %d times as rendered without its records", n)
	}
	whole := writeFile(t, "whole.warc.gz", []byte(gzipped(string(sampleWARCPlain()))))
	src = NewSource(Options{Resources: true})
	if ins := inputsOf(t, src, whole); ins[0].Resources != nil {
		t.Error("Resources for a WARC that cannot be read by offset")
	}
	if n := src.Stats().Unindexed; n != 1 {
		t.Errorf("a WARC compressed as a whole: Stats.Unindexed %d, want 1 (its pages render without its records)", n)
	}
	// A .warc.zst, a frame per record with a dictionary: served too.
	zst := writeFile(t, "crawl.warc.zst", zstdPerRecord(t, sampleWARCPlain()))
	src = NewSource(Options{Resources: true})
	ins = inputsOf(t, src, zst)
	if len(ins) == 0 || ins[0].Resources == nil {
		t.Fatal("no Resources for a page of a .warc.zst with a frame per record")
	}
	if r, ok := ins[0].Resources("http://ex.org/style.css"); !ok || string(r.Body) != css {
		t.Errorf(".warc.zst: style sheet %v %+v", ok, r)
	}
	if n := src.Stats().Unindexed; n != 0 {
		t.Errorf(".warc.zst: Stats.Unindexed %d", n)
	}
}

// zstdPerRecord compresses each record of the plain WARC data as its own
// zstd frame with a raw dictionary (the first record), after the
// dictionary frame.
func zstdPerRecord(t *testing.T, data []byte) []byte {
	t.Helper()
	var offs []int64
	r := warc.NewReader(bytes.NewReader(data), warc.Options{})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		offs = append(offs, rec.Offset)
	}
	offs = append(offs, int64(len(data)))
	dict := data[offs[0]:offs[1]]
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(0, dict))
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(append([]byte{}, zstdDictMagic...), uint32(len(dict)))
	out = append(out, dict...)
	for i := range len(offs) - 1 {
		out = enc.EncodeAll(data[offs[i]:offs[i+1]], out)
	}
	return out
}

func sampleWARCPlain() []byte {
	_, data := sampleWARC(false)
	return data
}

// TestWETTruncated: a conversion record says why its page was cut: the
// source record's WARC-Truncated reason, unspecified for a value WARC 1.1
// does not name or an HTTP body shorter than its Content-Length, and none
// for a whole page.
func TestWETTruncated(t *testing.T) {
	tw := newTestWARC(false)
	html := "<html><body><p>The text of a page that is long enough to be kept as the page's clean text.</p></body></html>"
	respond := func(uri, header, body string, extra ...warc.Field) {
		id, err := tw.w.WriteRecord(warc.TypeResponse, date, "application/http; msgtype=response",
			append(warc.Header{{Name: warc.FieldTargetURI, Value: uri}}, extra...),
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"+header+"\r\n"+body))
		if err != nil {
			t.Fatal(err)
		}
		tw.ids = append(tw.ids, id)
	}
	respond("http://ex.org/whole", "", html)
	respond("http://ex.org/time", "", html, warc.Field{Name: warc.FieldTruncated, Value: "time"})
	respond("http://ex.org/disconnect", "", html, warc.Field{Name: warc.FieldTruncated, Value: "disconnect"})
	respond("http://ex.org/odd", "", html, warc.Field{Name: warc.FieldTruncated, Value: "because"})
	respond("http://ex.org/short", fmt.Sprintf("Content-Length: %d\r\n", len(html)+100), html)
	path := writeFile(t, "crawl.warc", tw.buf.Bytes())

	var wet bytes.Buffer
	sink := newWETSink(streamWriter{&wet})
	put(t, sink, clean(t, inputsOf(t, NewSource(Options{}), path), sink))
	got := map[string]string{}
	eachRecord(t, &wet, func(rec *warc.Record) {
		if rec.Type == warc.TypeConversion {
			got[rec.TargetURI] = rec.Header.Get(warc.FieldTruncated)
		}
	})
	want := map[string]string{"http://ex.org/whole": "", "http://ex.org/time": "time", "http://ex.org/disconnect": "disconnect",
		"http://ex.org/odd": "unspecified", "http://ex.org/short": "unspecified"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("WARC-Truncated of the conversion records: %v, want %v", got, want)
	}
}

// TestArchiveDetection: a WARC is read as one whatever its first bytes
// when its name says WARC (a file split in the middle of a record, a
// corrupt first gzip member), and whatever its name when it starts with
// "WARC/" after line ends or is zstd-compressed with a first block larger
// than a small read; an ARC file is an error, not a page.
func TestArchiveDetection(t *testing.T) {
	w := newTestWARC(false)
	rng := rand.New(rand.NewPCG(1, 2))
	var words strings.Builder
	for range 40000 { // about 200 KB that compresses to well over 4 KiB
		fmt.Fprintf(&words, "w%d ", rng.IntN(100000))
	}
	for i := range 3 {
		w.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n",
			"<html><body><p>"+words.String()+"</p></body></html>")
	}
	plain := w.buf.Bytes()
	var zs bytes.Buffer
	enc, _ := zstd.NewWriter(&zs)
	enc.Write(plain)
	enc.Close()
	gzw := newTestWARC(true)
	for i := range 3 {
		gzw.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n", page)
	}
	firstBad := bytes.Clone(gzw.buf.Bytes())
	firstBad[20] ^= 0xff // inside the first member's deflate data
	second := bytes.Index(plain[1:], []byte("WARC/1.")) + 1
	for _, c := range []struct {
		name  string
		data  []byte
		pages int
		errs  int
	}{
		{"big.zst", zs.Bytes(), 3, 0},
		{"lead.dat", append([]byte("\r\n\r\n"), plain...), 3, 0},
		{"split.warc", plain[second-1000:], 2, 1},
		{"first.warc.gz", firstBad, 2, 1},
		{"cut.warc.gz", gzw.buf.Bytes()[30:], 2, 1}, // its first member cut: the others read
		{"plain-named.warc.gz", plain, 3, 0},
	} {
		pages, errs := 0, 0
		for _, in := range inputsOf(t, NewSource(Options{}), writeFile(t, c.name, c.data)) {
			switch {
			case in.Err != nil:
				errs++
			case in.URL != "":
				pages++
			default:
				t.Errorf("%s: read as one page", c.name)
			}
		}
		if pages != c.pages || errs != c.errs {
			t.Errorf("%s: %d pages and %d errors, want %d and %d", c.name, pages, errs, c.pages, c.errs)
		}
	}
	arc := "filedesc://x.arc 0.0.0.0 20000101000000 text/plain 76\n1 0 Test\n"
	for name, data := range map[string]string{"x.arc": arc, "x.arc.gz": gzipped(arc)} {
		ins := inputsOf(t, NewSource(Options{}), writeFile(t, name, []byte(data)))
		if len(ins) != 1 || !errors.Is(ins[0].Err, errARC) {
			t.Errorf("%s: %+v, want one error naming ARC", name, ins)
		}
	}
	ins := inputsOf(t, NewSource(Options{Stdin: strings.NewReader(arc)}), "-")
	if len(ins) != 1 || !errors.Is(ins[0].Err, errARC) {
		t.Errorf("ARC on standard input: %+v", ins)
	}
}

// TestCutMemberStdin: a gzip member cut short in the middle of a WARC
// costs its own record only, read from a file or from standard input
// (which cannot seek: the reader keeps the member's bytes to look
// through them again): every other page is read, and the damage is an
// error.
func TestCutMemberStdin(t *testing.T) {
	w := newTestWARC(true)
	var offs []int
	for i := range 6 {
		offs = append(offs, w.buf.Len())
		w.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n",
			strings.Repeat(fmt.Sprintf("<p>Page %d says a few words in its paragraph.</p>", i), 30+i))
	}
	data := w.buf.Bytes()
	cut := append([]byte{}, data[:offs[2]+(offs[3]-offs[2])/2]...)
	cut = append(cut, data[offs[3]:]...)
	summary := func(ins []pipeline.Input) (pages []string, errs int) {
		for _, in := range ins {
			if in.Err != nil {
				errs++
				continue
			}
			pages = append(pages, in.URL)
		}
		return pages, errs
	}
	want := []string{"http://ex.org/0", "http://ex.org/1", "http://ex.org/3", "http://ex.org/4", "http://ex.org/5"}
	for name, src := range map[string]*Source{
		"file":  NewSource(Options{}),
		"stdin": NewSource(Options{Stdin: bytes.NewReader(cut)}),
	} {
		arg := "-"
		if name == "file" {
			arg = writeFile(t, "cut.warc.gz", cut)
		}
		pages, errs := summary(inputsOf(t, src, arg))
		if !slices.Equal(pages, want) || errs == 0 {
			t.Errorf("%s: pages %v and %d errors, want %v and the damage's error", name, pages, errs, want)
		}
	}
}

// TestWholeGzipDamage: in a WARC compressed as one gzip member, damage
// found after the first records (a bit flipped in the compressed data,
// which decodes to garbage before anything fails) says that the pages
// read before it from the member may hold damaged text: the member's
// checksum, read at its end, could not check them. A file compressed per
// record does not say so: each page's member is checked on its own.
func TestWholeGzipDamage(t *testing.T) {
	tw := newTestWARC(false)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 12 {
		// Words drawn at random, so that each page's compressed data
		// is about as long as the page.
		var words []string
		for range 300 {
			words = append(words, fmt.Sprintf("w%x", r.Uint32()))
		}
		tw.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n",
			fmt.Sprintf("<html><body><p>Page %d. %s.</p></body></html>", i, strings.Join(words, " ")))
	}
	whole := []byte(gzipped(tw.buf.String()))
	damaged, warned := 0, 0
	for k := range 16 {
		data := bytes.Clone(whole)
		data[len(data)*(8+k)/32] ^= 0x10 // past the first records, before the last
		for _, in := range inputsOf(t, NewSource(Options{}), writeFile(t, "whole.warc.gz", data)) {
			if in.Err == nil {
				continue
			}
			damaged++
			if strings.Contains(in.Err.Error(), "may hold damaged text") {
				warned++
			} else {
				t.Errorf("flip %d: %v; want it to say that the pages read before may hold damaged text", k, in.Err)
			}
		}
	}
	t.Logf("%d errors of 16 flipped files", damaged)
	if damaged == 0 || warned != damaged {
		t.Errorf("%d errors of 16 flipped files, %d saying the pages before may be damaged", damaged, warned)
	}
	// Per record: a damaged member is that page's error alone.
	tw2 := newTestWARC(true)
	tw2.response("http://ex.org/a", "200 OK", "Content-Type: text/html\r\n", page)
	first := tw2.buf.Len()
	tw2.response("http://ex.org/b", "200 OK", "Content-Type: text/html\r\n", page)
	data := bytes.Clone(tw2.buf.Bytes())
	data[first+(len(data)-first)/2] ^= 0x10
	for _, in := range inputsOf(t, NewSource(Options{}), writeFile(t, "rec.warc.gz", data)) {
		if in.Err != nil && strings.Contains(in.Err.Error(), "may hold damaged text") {
			t.Errorf("compressed per record: %v", in.Err)
		}
	}
}

func names(ins []pipeline.Input) []string {
	var s []string
	for _, in := range ins {
		s = append(s, in.Name)
	}
	return s
}

// threeRecords writes three responses, http://ex.org/1 to 3, each by a
// fresh writer, the second changed by edit, plain and gzipped per record;
// ids are their record IDs.
func threeRecords(edit func(rec string) string) (plain, gz []byte, ids []string) {
	for i, uri := range []string{"http://ex.org/1", "http://ex.org/2", "http://ex.org/3"} {
		tw := newTestWARC(false)
		tw.response(uri, "200 OK", "Content-Type: text/html\r\n", page)
		rec := tw.buf.String()
		ids = append(ids, tw.ids[0])
		if i == 1 {
			rec = edit(rec)
		}
		gz = append(gz, gzipped(rec)...)
		plain = append(plain, rec...)
	}
	return plain, gz, ids
}

// TestOverlongRecord: in a WARC gzipped per record, or plain, a response whose
// Content-Length is too long yields an error record naming it, and the
// response after it is still a page (it was swallowed before).
func TestOverlongRecord(t *testing.T) {
	cl := regexp.MustCompile(`Content-Length: (\d+)`)
	plain, data, ids := threeRecords(func(rec string) string {
		return cl.ReplaceAllStringFunc(rec, func(s string) string {
			n, _ := strconv.Atoi(cl.FindStringSubmatch(s)[1])
			return fmt.Sprintf("Content-Length: %d", n+300)
		})
	})
	for name, data := range map[string][]byte{"long.warc.gz": data, "long.warc": plain} {
		ins := inputsOf(t, NewSource(Options{}), writeFile(t, name, data))
		var got []string
		for _, in := range ins {
			if in.Err != nil {
				got = append(got, "error "+in.RecordID)
				if !strings.Contains(in.Err.Error(), "Content-Length") {
					t.Errorf("%s: the long record's error does not name its Content-Length: %v", name, in.Err)
				}
				continue
			}
			got = append(got, in.URL)
		}
		want := []string{"http://ex.org/1", "error " + ids[1], "http://ex.org/3"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: inputs %q, want %q", name, got, want)
		}
	}
}

// TestRecordNamesUnique: every record and damaged stretch of a file has
// a name of its own, whatever the layout: gzip per record, as a whole,
// members that split records, as a whole with junk between records.
func TestRecordNamesUnique(t *testing.T) {
	tw := newTestWARC(false)
	for i := range 6 {
		tw.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n", page)
	}
	plain := tw.buf.String()
	third := len(plain) / 3
	junk := strings.Replace(plain, "WARC/1.1\r\n", "junk\r\nWARC/1.1\r\n", 3)
	for name, data := range map[string]string{
		"per-record.warc.gz": string(newTestWARCGzipped(t, 6)),
		"whole.warc.gz":      gzipped(plain),
		"split.warc.gz":      gzipped(plain[:third]) + gzipped(plain[third:2*third]) + gzipped(plain[2*third:]),
		"junk.warc.gz":       gzipped(junk),
	} {
		ins := inputsOf(t, NewSource(Options{}), writeFile(t, name, []byte(data)))
		seen := map[string]bool{}
		for _, in := range ins {
			if seen[in.Name] {
				t.Errorf("%s: two inputs named %s: %q", name, in.Name, names(ins))
			}
			seen[in.Name] = true
		}
		if len(ins) < 6 {
			t.Errorf("%s: %d inputs, want 6 or more: %q", name, len(ins), names(ins))
		}
	}
}

// newTestWARCGzipped is a WARC of n responses, gzip per record.
func newTestWARCGzipped(t *testing.T, n int) []byte {
	tw := newTestWARC(true)
	for i := range n {
		tw.response(fmt.Sprintf("http://ex.org/%d", i), "200 OK", "Content-Type: text/html\r\n", page)
	}
	return tw.buf.Bytes()
}

// TestOutputNamesWithHash: a '#' in a file's name is part of its name;
// only a WARC record's number after the last '#' is split off.
func TestOutputNamesWithHash(t *testing.T) {
	for _, c := range []struct {
		rel, archive, record string
		ok                   bool
		name, mirrored       string
	}{
		{"crawl.warc.gz#000001", "crawl.warc.gz", "000001", true, "crawl-000001.txt", "crawl/000001.txt"},
		{"a#b.warc#000002", "a#b.warc", "000002", true, "a#b-000002.txt", "a#b/000002.txt"},
		{"d/x#y.html", "d/x#y.html", "", false, "x#y.txt", "d/x#y.txt"},
		{"tail#", "tail#", "", false, "tail#.txt", "tail#.txt"},
		{"notes#2", "notes", "2", true, "notes#2.txt", "notes#2.txt"}, // a file's name: a record's number has six digits
	} {
		a, r, ok := SplitRecord(c.rel)
		if a != c.archive || r != c.record || ok != c.ok {
			t.Errorf("SplitRecord(%q) = %q, %q, %v; want %q, %q, %v", c.rel, a, r, ok, c.archive, c.record, c.ok)
		}
		for _, keep := range []bool{false, true} {
			n := &namer{ext: ".txt", keepDirs: keep, used: map[string]bool{}}
			want := c.name
			if keep {
				want = c.mirrored
			}
			if got := n.name(pipeline.Input{Rel: c.rel}); got != want {
				t.Errorf("%q (mirrored %v): named %q, want %q", c.rel, keep, got, want)
			}
		}
	}
}

// TestCutEmptyBodyNotSkipped: a body its crawler cut to nothing (a zstd
// body cut in its first block decodes to nothing) is a truncated page,
// whose failure the output shows, not an empty response skipped.
func TestCutEmptyBodyNotSkipped(t *testing.T) {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	data := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"+
		"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: http://x.example/cut\r\nWARC-Truncated: length\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(http), http)
	s := NewSource(Options{})
	ins := inputsOf(t, s, writeFile(t, "cut.warc", []byte(data)))
	if len(ins) != 1 || !ins[0].Truncated || s.Stats().Skipped[SkipEmpty] != 0 {
		t.Errorf("inputs %+v, skipped %v; want the cut page, truncated", ins, s.Stats().Skipped)
	}
}

// TestBadContentLengthURL: a record whose Content-Length cannot be read
// (reading goes on at the next record found) gives an error record with
// its URL and record ID, as a too-long one does. The three records share
// one record ID (each written by a fresh writer of the same seed), as
// records of a careless crawler may: the error is still the damaged
// record's, not the page read before it.
func TestBadContentLengthURL(t *testing.T) {
	data, _, ids := threeRecords(func(rec string) string {
		return regexp.MustCompile(`Content-Length: \d+`).ReplaceAllString(rec, "Content-Length: 12x")
	})
	var got []string
	for _, in := range inputsOf(t, NewSource(Options{}), writeFile(t, "bad.warc", data)) {
		if in.Err != nil {
			got = append(got, "error "+in.RecordID+" "+in.URL)
			continue
		}
		got = append(got, in.URL)
	}
	want := []string{"http://ex.org/1", "error " + ids[1] + " http://ex.org/2", "http://ex.org/3"}
	if !slices.Equal(got, want) || ids[0] != ids[1] {
		t.Errorf("inputs %q, want %q (record IDs %q, all alike)", got, want, ids)
	}
}

// TestArchiveLatin1URL: a WARC-Target-URI holding a byte that is not
// UTF-8 (a Latin-1 site's raw é) is the page's URL with the byte as %XX,
// as a URL writes it, rather than lost to U+FFFD in JSON and WET.
func TestArchiveLatin1URL(t *testing.T) {
	w := newTestWARC(false)
	w.response("http://ex.org/caf\xe9.html", "200 OK", "Content-Type: text/html\r\n", page)
	w.response("http://ex.org/caf%C3%A9", "200 OK", "Content-Type: text/html\r\n", page)
	path := writeFile(t, "crawl.warc", w.buf.Bytes())
	ins := inputsOf(t, NewSource(Options{}), path)
	var got []string
	for _, in := range ins {
		got = append(got, in.URL)
	}
	if want := []string{"http://ex.org/caf%E9.html", "http://ex.org/caf%C3%A9"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("URLs %q, want %q", got, want)
	}
}

// TestNoRecordArchive: a WARC file that holds no record (empty, plain or
// compressed: an aborted download) yields one error record of damage
// named by the file, and Stats.Empty names it; a WARC file with records
// but no page yields nothing.
func TestNoRecordArchive(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Close()
	for _, c := range []struct {
		name string
		data []byte
	}{{"empty.warc", nil}, {"empty.warc.gz", nil}, {"nothing.warc.gz", gz.Bytes()}} {
		s := NewSource(Options{})
		path := writeFile(t, c.name, c.data)
		ins := inputsOf(t, s, path)
		if len(ins) != 1 || ins[0].Name != path || !IsDamage(ins[0].Err) || !errors.Is(ins[0].Err, ErrNoRecord) ||
			!strings.Contains(ins[0].Err.Error(), path) {
			t.Errorf("%s: inputs %+v; want one error record of damage naming the file", c.name, ins)
		}
		if st := s.Stats(); len(st.Empty) != 1 || st.Empty[0] != path || st.Archives != 1 {
			t.Errorf("%s: stats %+v; want the file named empty", c.name, st)
		}
	}
	tw := newTestWARC(false)
	tw.response("http://ex.org/a.png", "200 OK", "Content-Type: image/png\r\n", "\x89PNG")
	s := NewSource(Options{})
	if ins := inputsOf(t, s, writeFile(t, "images.warc", tw.buf.Bytes())); len(ins) != 0 || len(s.Stats().Empty) != 0 {
		t.Errorf("a WARC file of no page: inputs %+v, empty %v; want none", ins, s.Stats().Empty)
	}
}

// TestArchiveResourcePages: a resource record of HTML (a page kept
// without its HTTP exchange, as warcit writes a folder of files) is a
// page, its block the page's bytes; one of another type is counted as
// skipped; a 206 response (a range of the page) is a page marked
// truncated.
func TestArchiveResourcePages(t *testing.T) {
	w := newTestWARC(true)
	w.record(warc.TypeResource, "file:///site/index.html", "text/html", page)
	w.record(warc.TypeResource, "file:///site/logo.png", "image/png", "\x89PNG\r\n\x1a\n....")
	w.record(warc.TypeResource, "file:///site/empty.html", "text/html; charset=utf-8", "")
	w.response("http://ex.org/part", "206 Partial Content", "Content-Type: text/html\r\nContent-Range: bytes 0-99/5000\r\n", "<html><body><p>The first part of a page")
	path := writeFile(t, "site.warc.gz", w.buf.Bytes())
	s := NewSource(Options{})
	ins := inputsOf(t, s, path)
	if len(ins) != 2 {
		t.Fatalf("%d inputs, want 2: %v", len(ins), names(ins))
	}
	if in := ins[0]; in.Err != nil || in.URL != "file:///site/index.html" || in.RecordID != w.ids[0] || string(in.Data) != page || in.ContentType != "text/html" || in.HTTPStatus != 0 || in.Truncated {
		t.Errorf("the resource page: %+v", in)
	}
	if in := ins[1]; in.Err != nil || in.HTTPStatus != 206 || !in.Truncated || in.Rel != "site.warc.gz#000003" {
		t.Errorf("the 206 response: %+v", in)
	}
	if st := s.Stats(); st.Skipped["resource records"] != 1 || st.Skipped[SkipEmpty] != 1 {
		t.Errorf("skipped %v, want 1 resource record (the image) and 1 empty", st.Skipped)
	}
}
