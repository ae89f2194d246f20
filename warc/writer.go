package warc

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// DateFormat is the WARC-Date layout the Writer uses: RFC 3339, UTC,
// whole seconds, or the fraction of a second the date has (as WARC 1.1
// allows, to nanoseconds, without trailing zeros): a source record's
// date dated to the microsecond is copied as it is.
const DateFormat = "2006-01-02T15:04:05.999999999Z"

// Writer writes WARC/1.1 records, each ended by CRLF CRLF and, if asked,
// compressed as its own gzip member. It is not safe for concurrent use.
// After a failed write every later write fails too.
type Writer struct {
	// Rand is the source of the random bits of record IDs (version 4
	// UUIDs); nil means crypto/rand. Set a seeded source (a
	// *math/rand/v2.ChaCha8) for reproducible output.
	Rand io.Reader

	w    countingWriter
	gzip bool
	gz   *gzip.Writer
	buf  bytes.Buffer
	err  error
}

// NewWriter returns a Writer writing to w, one gzip member per record if
// gzipPerRecord. The Writer does not buffer between records: nothing needs
// flushing once a Write method has returned.
func NewWriter(w io.Writer, gzipPerRecord bool) *Writer {
	return &Writer{w: countingWriter{w: w}, gzip: gzipPerRecord}
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Offset returns the number of bytes written so far: the offset the next
// record will start at (relative to where w was when NewWriter got it).
func (w *Writer) Offset() int64 { return w.w.n }

// Conversion is a WET conversion record: the text extracted from a
// response record.
type Conversion struct {
	TargetURI string    // WARC-Target-URI of the page (required)
	RefersTo  string    // WARC-Record-ID of the response record, "<urn:uuid:...>"
	Date      time.Time // WARC-Date; Common Crawl uses the response's date
	Text      []byte    // the extracted text, UTF-8
	// Fields are further named fields, e.g.
	// WARC-Identified-Content-Language.
	Fields Header
}

// WriteConversion writes a conversion record with WARC-Target-URI,
// WARC-Refers-To (if set), WARC-Block-Digest and Content-Type text/plain,
// as Common Crawl WET files have them, and returns its record ID.
func (w *Writer) WriteConversion(c Conversion) (string, error) {
	fields := make(Header, 0, 2+len(c.Fields))
	fields.Add(FieldTargetURI, c.TargetURI)
	if c.RefersTo != "" {
		fields.Add(FieldRefersTo, c.RefersTo)
	}
	fields = append(fields, c.Fields...)
	return w.WriteRecord(TypeConversion, c.Date, "text/plain", fields, c.Text)
}

// WriteWarcinfo writes a warcinfo record, usually the first of a file:
// WARC-Filename (if filename is set) and a block of application/warc-fields
// made of info (e.g. software, isPartOf, description, operator). It returns
// the record ID.
func (w *Writer) WriteWarcinfo(date time.Time, filename string, info Header) (string, error) {
	var fields Header
	if filename != "" {
		fields.Add(FieldFilename, filename)
	}
	var block bytes.Buffer
	for _, f := range info {
		if err := checkField(f.Name, f.Value); err != nil {
			return "", err
		}
		block.WriteString(f.Name)
		block.WriteString(": ")
		block.WriteString(f.Value)
		block.WriteString("\r\n")
	}
	return w.WriteRecord(TypeWarcinfo, date, "application/warc-fields", fields, block.Bytes())
}

// requiredFields lists the named fields WARC 1.1 says a record of a type
// shall have, beyond WARC-Record-ID, Content-Length, WARC-Date and
// WARC-Type, which every record has.
func requiredFields(typ string) []string {
	switch typ {
	case TypeResponse, TypeResource, TypeRequest, TypeConversion:
		return []string{FieldTargetURI}
	case TypeRevisit:
		return []string{FieldTargetURI, FieldProfile}
	case TypeContinuation:
		return []string{FieldTargetURI, FieldSegmentOriginID, FieldSegmentNumber}
	}
	return nil
}

// WriteRecord writes one record of type typ, dated date, with block as its
// block and contentType as its Content-Type (omitted if ""), and returns its
// record ID. It writes, in order: WARC-Type, WARC-Record-ID (a new
// "<urn:uuid:...>" unless fields has one), WARC-Date, fields,
// WARC-Block-Digest (sha1, base32, unless fields has one), Content-Type,
// Content-Length. fields must not hold WARC-Type, WARC-Date, Content-Type
// or Content-Length, and must hold the fields the record type requires
// (WARC-Target-URI for response, resource, request, conversion...).
func (w *Writer) WriteRecord(typ string, date time.Time, contentType string, fields Header, block []byte) (string, error) {
	if w.err != nil {
		return "", w.err
	}
	if err := checkField(FieldType, typ); err != nil || typ == "" || strings.ContainsAny(typ, " \t") {
		return "", fmt.Errorf("warc: bad record type %q", typ)
	}
	if date.IsZero() {
		return "", errors.New("warc: record without a date")
	}
	if y := date.UTC().Year(); y < 0 || y > 9999 {
		return "", fmt.Errorf("warc: date %s outside the years 0000 to 9999 a WARC-Date can hold", date.UTC().Format(time.RFC3339))
	}
	if err := checkField(FieldContentType, contentType); err != nil {
		return "", err
	}
	for _, f := range fields {
		switch {
		case strings.EqualFold(f.Name, FieldType), strings.EqualFold(f.Name, FieldDate),
			strings.EqualFold(f.Name, FieldContentType), strings.EqualFold(f.Name, FieldContentLength):
			return "", fmt.Errorf("warc: field %s is set by WriteRecord", f.Name)
		}
		if err := checkField(f.Name, f.Value); err != nil {
			return "", err
		}
	}
	for _, name := range requiredFields(typ) {
		if fields.Get(name) == "" {
			return "", fmt.Errorf("warc: %s record without %s", typ, name)
		}
	}
	id := fields.Get(FieldRecordID)
	if id == "" {
		var err error
		if id, err = w.newID(); err != nil {
			return "", err
		}
	}

	b := &w.buf
	b.Reset()
	b.WriteString("WARC/1.1\r\n")
	writeField(b, FieldType, typ)
	writeField(b, FieldRecordID, id)
	writeField(b, FieldDate, date.UTC().Format(DateFormat))
	for _, f := range fields {
		if !strings.EqualFold(f.Name, FieldRecordID) {
			writeField(b, f.Name, f.Value)
		}
	}
	if fields.Get(FieldBlockDigest) == "" {
		writeField(b, FieldBlockDigest, BlockDigest(block))
	}
	if contentType != "" {
		writeField(b, FieldContentType, contentType)
	}
	writeField(b, FieldContentLength, strconv.Itoa(len(block)))
	b.WriteString("\r\n")

	var out io.Writer = &w.w
	if w.gzip {
		if w.gz == nil {
			w.gz = gzip.NewWriter(&w.w)
		} else {
			w.gz.Reset(&w.w)
		}
		out = w.gz
	}
	_, err := out.Write(b.Bytes())
	if err == nil {
		_, err = out.Write(block)
	}
	if err == nil {
		_, err = io.WriteString(out, "\r\n\r\n")
	}
	if err == nil && w.gzip {
		err = w.gz.Close()
	}
	if err != nil {
		w.err = fmt.Errorf("warc: writing record %s: %w", id, err)
		return "", w.err
	}
	return id, nil
}

func writeField(b *bytes.Buffer, name, value string) {
	b.WriteString(name)
	b.WriteString(": ")
	b.WriteString(value)
	b.WriteString("\r\n")
}

// checkField refuses names that are not tokens and values that would break
// the header (line ends, other control characters but tab).
func checkField(name, value string) error {
	if name == "" {
		return errors.New("warc: empty field name")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return fmt.Errorf("warc: bad field name %q", name)
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < ' ' && c != '\t' || c == 0x7f {
			return fmt.Errorf("warc: bad character in %s value %q", name, value)
		}
	}
	return nil
}

func (w *Writer) newID() (string, error) {
	var u [16]byte
	src := w.Rand
	if src == nil {
		src = rand.Reader
	}
	if _, err := io.ReadFull(src, u[:]); err != nil {
		return "", fmt.Errorf("warc: record ID: %w", err)
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16]), nil
}

// BlockDigest returns the digest of a block as Common Crawl writes
// WARC-Block-Digest: "sha1:" and the base32 SHA-1.
func BlockDigest(block []byte) string {
	sum := sha1.Sum(block)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}
