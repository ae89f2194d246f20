package corpus

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
)

// A Sink writes the outcomes of a batch: one output per cleaned page, and
// for a failed page what the format records of it. Encode runs on the
// batch's workers (pipeline.BatchOptions.Post); Put, Skip and Close on one
// goroutine, Put and Skip in input order.
type Sink interface {
	// Encode prepares o's output: it sets o.Value to an *Encoded and drops
	// o.Result. An encoding failure becomes o.Err.
	Encode(o *pipeline.Outcome)
	// Put writes the output of o, cleaned or failed, and returns where it
	// went ("" when it went into a stream, or nowhere). An error means
	// the output cannot be written: the run must stop; but a *PageError,
	// the page could not be, and is recorded as failed with it. Put
	// encodes an o that Encode was not given; an encoding failure then
	// is such a *PageError.
	Put(o pipeline.Outcome) (string, error)
	// Skip is told of an input that a resumed run skips (done before).
	Skip(in pipeline.Input)
	// Close ends the output.
	Close() error
}

// entryWriter writes whole entries (see appendFile).
type entryWriter interface {
	write(p []byte) error
	close() error
}

// streamWriter writes entries to a stream (standard output).
type streamWriter struct{ w io.Writer }

func (s streamWriter) write(p []byte) error {
	_, err := s.w.Write(p)
	return err
}

func (s streamWriter) close() error { return nil }

// jsonlSink writes one JSON object per input and line.
type jsonlSink struct {
	out    entryWriter
	blocks bool
}

func (s *jsonlSink) Encode(o *pipeline.Outcome) {
	e := summary(*o)
	data, err := JSONLine(o, s.blocks)
	if err != nil {
		o.Err, o.Result = err, nil
		data, _ = JSONLine(o, false)
		e = Encoded{Truncated: e.Truncated, RenderError: e.RenderError} // a failed page: no text
	}
	e.Data = data
	o.Result, o.Value = nil, &e
}

func (s *jsonlSink) Put(o pipeline.Outcome) (string, error) {
	e, ok := o.Value.(*Encoded)
	failed := o.Err != nil
	if !ok {
		s.Encode(&o)
		e = o.Value.(*Encoded)
	}
	if err := s.out.write(e.Data); err != nil {
		return "", err
	}
	if o.Err != nil && !failed {
		// Encode was not called first, and failed here: the line is
		// the page's error, and only Put can tell (o is its own copy).
		return "", &PageError{o.Err}
	}
	return "", nil
}

func (s *jsonlSink) Skip(pipeline.Input) {}

func (s *jsonlSink) Close() error { return s.out.close() }

// jsonlID reads the identity of a JSONL (or manifest, or error log) line.
func jsonlID(line []byte) (string, bool, error) {
	var l struct {
		Input        string `json:"input"`
		WARCRecordID string `json:"warc_record_id"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return "", false, err
	}
	if l.WARCRecordID != "" {
		return l.WARCRecordID, true, nil
	}
	return l.Input, true, nil
}

// readFailures returns the lines with an error (a failed input's, in jsonl
// or a manifest) in the first size bytes of the file at path, as error
// log records: on resume the log gets those it lacks (openErrorLog). They
// are held in memory, a few hundred bytes each.
func readFailures(path string, size int64, gz bool) ([]ErrorRecord, error) {
	var out []ErrorRecord
	next, stop := readLineIDs(path, size, gz, func(line []byte) (string, bool, error) {
		var r ErrorRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return "", false, err
		}
		if r.Error == "" {
			return "", false, nil
		}
		r.Interrupted = false
		out = append(out, r)
		return "", true, nil
	})
	defer stop()
	for {
		_, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
	}
}

// openJSONL opens a JSONL output file; with resume, its partial last line
// is cut and its lines are the log of inputs done. A name ending in .gz
// makes it gzip-compressed, a member per line, so that it is whole
// members at any moment and resumes as a plain one does.
func openJSONL(path string, resume, blocks bool) (*jsonlSink, *doneLog, error) {
	gz := strings.HasSuffix(strings.ToLower(path), ".gz") // "x.JSONL.GZ" too
	good := goodLines
	if gz {
		good = goodMembers
	}
	a, err := openAppend(path, resume, true, good)
	if err != nil {
		return nil, nil, err
	}
	var log *doneLog
	if resume {
		log = &doneLog{name: path}
		log.next, log.stop = readLineIDs(path, a.size, gz, jsonlID)
		if log.failures, err = readFailures(path, a.size, gz); err != nil {
			a.close()
			return nil, nil, err
		}
	}
	var out entryWriter = a
	if gz {
		out = newGzipEntries(a)
	}
	return &jsonlSink{out: out, blocks: blocks}, log, nil
}

// stat reports whether path exists as a regular file.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
