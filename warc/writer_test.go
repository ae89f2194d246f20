package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var uuidRE = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)

type written struct {
	id, typ, contentType string
	date                 time.Time
	fields               Header
	block                []byte
	offset               int64
}

// writeSample writes a warcinfo record, then for two pages a response and
// its conversion record, then one record of each other type.
func writeSample(t *testing.T, w *Writer) []written {
	t.Helper()
	var out []written
	add := func(typ, ct string, date time.Time, fields Header, block []byte) string {
		t.Helper()
		off := w.Offset()
		id, err := w.WriteRecord(typ, date, ct, fields, block)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, written{id, typ, ct, date, fields, block, off})
		return id
	}
	d := time.Date(2024, 5, 1, 12, 30, 45, 0, time.FixedZone("CEST", 7200))
	off := w.Offset()
	infoID, err := w.WriteWarcinfo(d, "sample.warc.wet.gz", Header{{"software", "fiasco"}, {"isPartOf", "test"}})
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, written{infoID, TypeWarcinfo, "application/warc-fields", d, Header{{FieldFilename, "sample.warc.wet.gz"}},
		[]byte("software: fiasco\r\nisPartOf: test\r\n"), off})
	for i, text := range []string{"First page text.\nSecond line.", "Zweite Seite – üñí©ødé."} {
		uri := "https://example.org/page/" + strconv.Itoa(i)
		respID := add(TypeResponse, "application/http; msgtype=response", d, Header{{FieldTargetURI, uri}},
			cat(httpResp("200 OK", "Content-Type: text/html\r\n", page(uri, 200))))
		off := w.Offset()
		// The second conversion is dated to the microsecond, as its
		// source record may be: WARC 1.1 keeps the fraction.
		c := Conversion{TargetURI: uri, RefersTo: respID, Date: d.Add(time.Duration(i) * (time.Second + 123456*time.Microsecond)), Text: []byte(text),
			Fields: Header{{FieldIdentifiedLanguage, "eng"}}}
		convID, err := w.WriteConversion(c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, written{convID, TypeConversion, "text/plain", c.Date,
			Header{{FieldTargetURI, uri}, {FieldRefersTo, respID}, {FieldIdentifiedLanguage, "eng"}}, c.Text, off})
	}
	add(TypeRequest, "application/http; msgtype=request", d, Header{{FieldTargetURI, "https://example.org/"}}, []byte("GET / HTTP/1.1\r\n\r\n"))
	add(TypeRevisit, "", d, Header{{FieldTargetURI, "https://example.org/"}, {FieldProfile, "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}}, nil)
	add(TypeMetadata, "application/warc-fields", d, Header{{FieldConcurrentTo, out[1].id}}, []byte("k: v\r\n"))
	add(TypeResource, "text/plain", d, Header{{FieldTargetURI, "file:///x"}, {FieldRecordID, "<urn:uuid:11111111-2222-4333-8444-555555555555>"}}, []byte("r"))
	return out
}

func TestRoundTrip(t *testing.T) {
	for _, z := range []bool{false, true} {
		var buf bytes.Buffer
		w := NewWriter(&buf, z)
		w.Rand = rand.NewChaCha8([32]byte{1})
		recs := writeSample(t, w)
		if w.Offset() != int64(buf.Len()) {
			t.Errorf("Offset %d, wrote %d", w.Offset(), buf.Len())
		}
		data := buf.Bytes()
		checkFraming(t, data, recs, z)

		r := NewReader(bytes.NewReader(data), Options{})
		for i, want := range recs {
			rec, err := r.Next()
			if err != nil {
				t.Fatalf("gzip=%v record %d: %v", z, i, err)
			}
			h := rec.Header
			// Every record: the fields WARC 1.1 makes mandatory.
			for _, f := range []string{FieldRecordID, FieldContentLength, FieldDate, FieldType} {
				if h.Get(f) == "" {
					t.Errorf("record %d (%s): no %s", i, want.typ, f)
				}
			}
			// Fields the type requires, and those the writer was given.
			for _, f := range requiredFields(want.typ) {
				if h.Get(f) == "" {
					t.Errorf("record %d (%s): no %s", i, want.typ, f)
				}
			}
			for _, f := range want.fields {
				if got := h.Get(f.Name); got != f.Value {
					t.Errorf("record %d: %s = %q, want %q", i, f.Name, got, f.Value)
				}
			}
			if want.typ == TypeConversion && (h.Get(FieldRefersTo) == "" || h.Get(FieldRefersTo) != recs[i-1].id) {
				t.Errorf("record %d: WARC-Refers-To %q, want the response %q", i, h.Get(FieldRefersTo), recs[i-1].id)
			}
			if rec.Version != "WARC/1.1" || rec.Type != want.typ || rec.ID != want.id || !uuidRE.MatchString(rec.ID) {
				t.Errorf("record %d: %s %s %s, want WARC/1.1 %s %s", i, rec.Version, rec.Type, rec.ID, want.typ, want.id)
			}
			if !rec.Date.Equal(want.date) || h.Get(FieldDate) != want.date.UTC().Format(DateFormat) || rec.Date.Location() != time.UTC {
				t.Errorf("record %d: date %s (%q), want %s", i, rec.Date, h.Get(FieldDate), want.date.UTC())
			}
			if rec.ContentType != want.contentType {
				t.Errorf("record %d: Content-Type %q, want %q", i, rec.ContentType, want.contentType)
			}
			if rec.Offset != want.offset {
				t.Errorf("gzip=%v record %d: offset %d, want %d", z, i, rec.Offset, want.offset)
			}
			block, err := io.ReadAll(rec.Block())
			if err != nil || !bytes.Equal(block, want.block) || rec.ContentLength != int64(len(want.block)) {
				t.Errorf("record %d: block %q (%v), want %q", i, block, err, want.block)
			}
			if got := h.Get(FieldBlockDigest); got != BlockDigest(block) || len(got) != len("sha1:")+32 {
				t.Errorf("record %d: block digest %q, want %q", i, got, BlockDigest(block))
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("after the last record: %v", err)
		}
	}
}

// checkFraming checks that each record sits at its offset, alone in its
// gzip member if z, and ends with CRLF CRLF.
func checkFraming(t *testing.T, data []byte, recs []written, z bool) {
	for i, rec := range recs {
		end := int64(len(data))
		if i+1 < len(recs) {
			end = recs[i+1].offset
		}
		raw := data[rec.offset:end]
		if z {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
			if raw, err = io.ReadAll(zr); err != nil {
				t.Fatalf("record %d: member: %v", i, err)
			}
		}
		if !bytes.HasPrefix(raw, []byte("WARC/1.1\r\nWARC-Type: "+rec.typ+"\r\n")) || !bytes.HasSuffix(raw, []byte("\r\n\r\n")) {
			t.Errorf("gzip=%v record %d: framing %.30q ... %q", z, i, raw, raw[max(0, len(raw)-8):])
		}
	}
}

func TestWriterDeterministic(t *testing.T) {
	out := func() []byte {
		var b bytes.Buffer
		w := NewWriter(&b, true)
		w.Rand = rand.NewChaCha8([32]byte{7})
		writeSample(t, w)
		return b.Bytes()
	}
	if !bytes.Equal(out(), out()) {
		t.Error("same seed, different output")
	}
	var b bytes.Buffer
	w := NewWriter(&b, false)
	id1, _ := w.WriteRecord(TypeMetadata, time.Now(), "", nil, nil)
	id2, _ := w.WriteRecord(TypeMetadata, time.Now(), "", nil, nil)
	if id1 == id2 || !uuidRE.MatchString(id1) {
		t.Errorf("crypto/rand IDs %s %s", id1, id2)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriterErrors(t *testing.T) {
	d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	w := NewWriter(io.Discard, false)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"no target URI", func() error { _, err := w.WriteConversion(Conversion{Date: d, Text: []byte("x")}); return err }()},
		{"zero date", func() error { _, err := w.WriteRecord(TypeMetadata, time.Time{}, "", nil, nil); return err }()},
		{"year 10000", func() error {
			_, err := w.WriteRecord(TypeMetadata, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "", nil, nil)
			return err
		}()},
		{"year -1", func() error {
			_, err := w.WriteRecord(TypeMetadata, time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), "", nil, nil)
			return err
		}()},
		{"CRLF in value", func() error {
			_, err := w.WriteConversion(Conversion{TargetURI: "http://x/\r\nWARC-Type: response", Date: d})
			return err
		}()},
		{"bad name", func() error { _, err := w.WriteRecord(TypeMetadata, d, "", Header{{"A B", "x"}}, nil); return err }()},
		{"reserved field", func() error {
			_, err := w.WriteRecord(TypeMetadata, d, "", Header{{"content-length", "1"}}, nil)
			return err
		}()},
		{"bad type", func() error { _, err := w.WriteRecord("two words", d, "", nil, nil); return err }()},
		{"revisit without profile", func() error {
			_, err := w.WriteRecord(TypeRevisit, d, "", Header{{FieldTargetURI, "http://x/"}}, nil)
			return err
		}()},
	} {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if w.Offset() != 0 {
		t.Errorf("refused records wrote %d bytes", w.Offset())
	}
	for _, z := range []bool{false, true} {
		w := NewWriter(&failWriter{n: 100}, z)
		_, err1 := w.WriteRecord(TypeMetadata, d, "", nil, make([]byte, 1000))
		_, err2 := w.WriteRecord(TypeMetadata, d, "", nil, nil)
		if err1 == nil || err2 != err1 {
			t.Errorf("gzip=%v: failing writer gave %v then %v", z, err1, err2)
		}
	}
}

// TestDateFraction: a WARC-Date keeps a date's fraction of a second
// (WARC 1.1), without trailing zeros, and whole seconds stay whole.
func TestDateFraction(t *testing.T) {
	for _, c := range []struct {
		d    time.Time
		want string
	}{
		{time.Date(2024, 3, 2, 10, 0, 1, 123456000, time.UTC), "2024-03-02T10:00:01.123456Z"},
		{time.Date(2024, 3, 2, 10, 0, 1, 500000000, time.FixedZone("CET", 3600)), "2024-03-02T09:00:01.5Z"},
		{time.Date(2024, 3, 2, 10, 0, 1, 0, time.UTC), "2024-03-02T10:00:01Z"},
	} {
		var buf bytes.Buffer
		if _, err := NewWriter(&buf, false).WriteConversion(Conversion{TargetURI: "https://example.org/", Date: c.d, Text: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "\r\nWARC-Date: "+c.want+"\r\n") {
			t.Errorf("%v: record\n%s\nwant WARC-Date %s", c.d, buf.String(), c.want)
		}
	}
}
