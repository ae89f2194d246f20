package corpus

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fiasco-project/fiasco/internal/lang"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/warc"
)

// FieldInput is the named field of a WET conversion record that holds the
// input's name (pipeline.Input.Name), so that a resumed run knows pages
// that come from files rather than WARC records.
const FieldInput = "Fiasco-Input"

// FieldRenderError is the named field of a WET conversion record whose
// page the text model cleaned because rendering it failed
// (pipeline.Result.RenderErr): why it failed.
const FieldRenderError = "Fiasco-Render-Error"

// FieldUnseenBlocks is the named field of a WET conversion record whose
// page had blocks the rendering could not show, which the text model
// decided (pipeline.Result.Unseen): their number.
const FieldUnseenBlocks = "Fiasco-Unseen-Blocks"

// FieldFloored is the named field of a WET conversion record whose page
// had blocks of prose kept by the prose floor (pipeline.Result.Floored):
// "true".
const FieldFloored = "Fiasco-Floored"

// FieldHTTPStatus is the named field of a WET conversion record whose
// page comes from a WARC response: its HTTP status code (not 2xx only
// with Options.AnyStatus).
const FieldHTTPStatus = "Fiasco-HTTP-Status"

// wetSink writes a WET file: a warcinfo record, then one conversion
// record per cleaned page, each its own gzip member, as Common Crawl's.
// Failed pages have no record (the error log lists them).
type wetSink struct {
	out  entryWriter
	pool sync.Pool // of *wetEncoder
	now  func() time.Time
}

type wetEncoder struct {
	buf bytes.Buffer
	w   *warc.Writer
}

func newWETSink(out entryWriter) *wetSink {
	s := &wetSink{out: out, now: time.Now}
	s.pool.New = func() any {
		e := &wetEncoder{}
		e.w = warc.NewWriter(&e.buf, true)
		return e
	}
	return s
}

// warcinfo writes the file's leading warcinfo record.
func (s *wetSink) warcinfo(filename, software string) error {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	info := warc.Header{
		{Name: "software", Value: software},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "conformsTo", Value: "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{Name: "description", Value: "Text of web pages with boilerplate removed by fiasco, one conversion record per page"},
	}
	if _, err := w.WriteWarcinfo(s.now(), filename, info); err != nil {
		return err
	}
	return s.out.write(buf.Bytes())
}

// truncatedWhy is the WARC-Truncated value of a truncated page's
// conversion record: the source record's reason where it was cut before
// fiasco saw it (unspecified for an HTTP body shorter than its
// Content-Length or a value WARC 1.1 does not name, and for a compressed
// page file cut short, cut: load.CutFile), length where fiasco's own
// limits cut it (the page's bytes, its blocks).
func truncatedWhy(in pipeline.Input, cut string) string {
	if cut == load.CutFile {
		return "unspecified"
	}
	if !in.Truncated {
		return "length"
	}
	switch in.TruncatedWhy {
	case "length", "time", "disconnect", "unspecified":
		return in.TruncatedWhy
	}
	return "unspecified"
}

func (s *wetSink) Encode(o *pipeline.Outcome) {
	if o.Err == nil && o.Result == nil { // a caller's mistake: as JSONLine says
		o.Err = emptyOutcome(o.Input.Name)
	}
	if o.Err != nil {
		o.Result, o.Value = nil, &Encoded{}
		return
	}
	r, in := o.Result, o.Input
	text := strings.TrimSuffix(r.Text(), "\n")
	fields := warc.Header{{Name: FieldInput, Value: oneLine(RecordedName(in.Name))}}
	if in.HTTPStatus != 0 {
		fields.Add(FieldHTTPStatus, strconv.Itoa(in.HTTPStatus))
	}
	if code := Lang(text); code != "" {
		fields.Add(warc.FieldIdentifiedLanguage, lang.ISO639_3(code))
	}
	if r.Page.Truncated {
		fields.Add(warc.FieldTruncated, truncatedWhy(in, r.Page.Cut))
	}
	enc := encoded(r)
	if enc.RenderError != "" {
		fields.Add(FieldRenderError, enc.RenderError)
	}
	if enc.Unseen > 0 {
		fields.Add(FieldUnseenBlocks, strconv.Itoa(enc.Unseen))
	}
	if enc.Floored {
		fields.Add(FieldFloored, "true")
	}
	date := in.Date
	if date.IsZero() {
		date = s.now()
	}
	e := s.pool.Get().(*wetEncoder)
	defer s.pool.Put(e)
	e.buf.Reset()
	_, err := e.w.WriteConversion(warc.Conversion{
		TargetURI: targetURI(in, r.Page.URL),
		RefersTo:  in.RecordID,
		Date:      date,
		Text:      []byte(text),
		Fields:    fields,
	})
	if err != nil {
		o.Result, o.Err, o.Value = nil, err, &Encoded{}
		return
	}
	enc.Data = bytes.Clone(e.buf.Bytes())
	o.Result, o.Value = nil, &enc
}

// targetURI is a page's WARC-Target-URI: its URL; for a WARC record
// without one, its WARC-Record-ID (a urn:uuid: URI, which names the
// record and not the file it was read from); else a file: URL of its
// path.
func targetURI(in pipeline.Input, pageURL string) string {
	if in.URL != "" {
		return oneLine(in.URL)
	}
	if pageURL != "" {
		return oneLine(pageURL)
	}
	if id := strings.TrimSuffix(strings.TrimPrefix(in.RecordID, "<"), ">"); id != "" {
		return oneLine(id)
	}
	if in.Name == "-" {
		return "file:///dev/stdin"
	}
	p, err := filepath.Abs(in.Name)
	if err != nil {
		p = in.Name
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// oneLine makes a value fit a WARC header line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

func (s *wetSink) Put(o pipeline.Outcome) (string, error) {
	if o.Err != nil {
		return "", nil
	}
	e, ok := o.Value.(*Encoded)
	if !ok {
		s.Encode(&o)
		if o.Err != nil {
			// Failed here, where only Put can tell (o is its own
			// copy): no record, as for a page that failed before.
			return "", &PageError{o.Err}
		}
		e = o.Value.(*Encoded)
	}
	return "", s.out.write(e.Data)
}

func (s *wetSink) Skip(pipeline.Input) {}

func (s *wetSink) Close() error { return s.out.close() }

// goodRecords returns the length of the whole records of a WARC file: up
// to the first record that cannot be read to its end.
func goodRecords(f *os.File, size int64) (int64, error) {
	r := warc.NewReader(io.NewSectionReader(f, 0, size), warc.Options{Name: f.Name()})
	for {
		_, err := r.Next()
		if err == io.EOF {
			return size, nil
		}
		var we *warc.Error
		if errors.As(err, &we) {
			return we.Offset, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// wetIDs returns the identities of the conversion records in the first
// size bytes of the WET file at path, read as they are asked for; the
// file is closed as lineIDs closes its.
func wetIDs(path string, size int64) (next func() (string, bool, error), stop func()) {
	var f *os.File
	var r *warc.Reader
	stop = func() {
		if f != nil {
			f.Close()
			f = nil
		}
	}
	next = func() (string, bool, error) {
		if r == nil {
			var err error
			if f, err = os.Open(path); err != nil {
				return "", false, err
			}
			r = warc.NewReader(io.NewSectionReader(f, 0, size), warc.Options{Name: path})
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				stop()
				return "", false, nil
			}
			if err != nil {
				stop()
				return "", false, err
			}
			if rec.Type != warc.TypeConversion {
				continue
			}
			if id := rec.Header.Get(warc.FieldRefersTo); id != "" {
				return id, true, nil
			}
			return rec.Header.Get(FieldInput), true, nil
		}
	}
	return next, stop
}

// openWET opens a WET output file: with resume, its partial last record is
// cut and its records are a log of inputs done; a new (or emptied) file
// starts with a warcinfo record. before runs once the file is locked and
// before anything is written to it.
func openWET(path string, resume bool, software string, before func() error) (*wetSink, *doneLog, error) {
	a, err := openAppend(path, resume, true, goodRecords)
	if err != nil {
		return nil, nil, err
	}
	if err := before(); err != nil {
		a.close()
		return nil, nil, err
	}
	s := newWETSink(a)
	var log *doneLog
	if resume && a.size > 0 {
		log = &doneLog{name: path}
		log.next, log.stop = wetIDs(path, a.size)
	} else if err := s.warcinfo(filepath.Base(path), software); err != nil {
		a.close()
		return nil, nil, err
	}
	return s, log, nil
}
