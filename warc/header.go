package warc

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
)

// Names of the WARC named fields this package reads or writes.
const (
	FieldType               = "WARC-Type"
	FieldRecordID           = "WARC-Record-ID"
	FieldDate               = "WARC-Date"
	FieldContentLength      = "Content-Length"
	FieldContentType        = "Content-Type"
	FieldTargetURI          = "WARC-Target-URI"
	FieldRefersTo           = "WARC-Refers-To"
	FieldRefersToTargetURI  = "WARC-Refers-To-Target-URI"
	FieldRefersToDate       = "WARC-Refers-To-Date"
	FieldBlockDigest        = "WARC-Block-Digest"
	FieldPayloadDigest      = "WARC-Payload-Digest"
	FieldIdentifiedPayload  = "WARC-Identified-Payload-Type"
	FieldWarcinfoID         = "WARC-Warcinfo-ID"
	FieldFilename           = "WARC-Filename"
	FieldProfile            = "WARC-Profile"
	FieldTruncated          = "WARC-Truncated"
	FieldConcurrentTo       = "WARC-Concurrent-To"
	FieldIPAddress          = "WARC-IP-Address"
	FieldSegmentNumber      = "WARC-Segment-Number"
	FieldIdentifiedLanguage = "WARC-Identified-Content-Language"
	FieldSegmentOriginID    = "WARC-Segment-Origin-ID"
	FieldSegmentTotalLength = "WARC-Segment-Total-Length"
)

// WARC record types (values of WARC-Type).
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// Field is one named field of a WARC header, as it appears in the file
// (name spelling kept, value with surrounding white space removed).
type Field struct {
	Name, Value string
}

// Header is the ordered list of a record's named fields. Lookups by name
// are case-insensitive; repeated names are kept.
type Header []Field

// Get returns the value of the first field named name (case-insensitive),
// or "" if there is none.
func (h Header) Get(name string) string {
	v, _ := h.Lookup(name)
	return v
}

// Lookup is Get that also says whether the field is present.
func (h Header) Lookup(name string) (string, bool) {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Values returns the values of every field named name (case-insensitive),
// in file order.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Add appends a field.
func (h *Header) Add(name, value string) {
	*h = append(*h, Field{name, value})
}

// Set replaces the value of the first field named name and removes any
// other field of that name, or appends the field if there is none.
func (h *Header) Set(name, value string) {
	out := (*h)[:0]
	done := false
	for _, f := range *h {
		if strings.EqualFold(f.Name, name) {
			if done {
				continue
			}
			f.Value, done = value, true
		}
		out = append(out, f)
	}
	if !done {
		out = append(out, Field{name, value})
	}
	*h = out
}

// Del removes every field named name.
func (h *Header) Del(name string) {
	out := (*h)[:0]
	for _, f := range *h {
		if !strings.EqualFold(f.Name, name) {
			out = append(out, f)
		}
	}
	*h = out
}

var errLineTooLong = errors.New("header line too long")

// readLine reads one line ending in LF from br and returns it without its
// line end (LF or CRLF). The returned slice is valid until the next call;
// scratch is reused across calls. budget is the number of bytes the line may
// take (line end included); it is decremented. At EOF without a line end,
// readLine returns the partial line and the error.
func readLine(br *bufio.Reader, scratch *[]byte, budget *int) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append((*scratch)[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(buf) > *budget {
				*scratch = buf
				return nil, errLineTooLong
			}
			line, err = br.ReadSlice('\n')
			buf = append(buf, line...)
		}
		*scratch = buf
		line = buf
	}
	*budget -= len(line)
	if *budget < 0 {
		return nil, errLineTooLong
	}
	if err != nil {
		return line, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// parseField splits a "Name: value" line. It reports false if the line has
// no colon or an empty or invalid name.
func parseField(line []byte) (name, value string, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	n := line[:i]
	for _, c := range n {
		if c <= ' ' || c == 0x7f {
			return "", "", false
		}
	}
	return internName(n), string(bytes.Trim(line[i+1:], " \t")), true
}

// internName returns the usual spellings of common field names without
// allocating.
func internName(n []byte) string {
	switch string(n) {
	case FieldType:
		return FieldType
	case FieldRecordID:
		return FieldRecordID
	case FieldDate:
		return FieldDate
	case FieldContentLength:
		return FieldContentLength
	case FieldContentType:
		return FieldContentType
	case FieldTargetURI:
		return FieldTargetURI
	case FieldRefersTo:
		return FieldRefersTo
	case FieldBlockDigest:
		return FieldBlockDigest
	case FieldPayloadDigest:
		return FieldPayloadDigest
	case FieldIdentifiedPayload:
		return FieldIdentifiedPayload
	case FieldWarcinfoID:
		return FieldWarcinfoID
	case FieldConcurrentTo:
		return FieldConcurrentTo
	case FieldIPAddress:
		return FieldIPAddress
	case FieldIdentifiedLanguage:
		return FieldIdentifiedLanguage
	case FieldTruncated:
		return FieldTruncated
	case FieldProfile:
		return FieldProfile
	case FieldFilename:
		return FieldFilename
	}
	return string(n)
}

// isLWS reports whether a header line is a continuation of the previous one
// (starts with a space or tab).
func isLWS(line []byte) bool {
	return len(line) > 0 && (line[0] == ' ' || line[0] == '\t')
}

// trimAngle strips one pair of surrounding angle brackets, as WARC 1.0
// writes WARC-Target-URI values.
func trimAngle(s string) string {
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	return s
}
