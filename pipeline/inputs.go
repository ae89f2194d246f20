package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/render"
)

// Input is one page to process: bytes already read, a reader to open, or a
// file on disk. Package corpus finds inputs in files, directories, lists
// and WARC archives; a batch reads each one, bounded, when a worker takes
// it up.
type Input struct {
	// Name names the page in errors and outputs: a file path, "-" for
	// standard input, or "ARCHIVE#OFFSET" for a WARC record (OFFSET: where
	// its gzip member or zstd frame starts, its first byte in a plain
	// file; "ARCHIVE#OFFSET+K" for the K-th record after the first at that
	// offset, in a file compressed as a whole).
	Name string
	// Data holds the page's bytes when they were read already.
	Data []byte
	// Open, when Data is nil, opens the page's bytes (decompressed); nil
	// means: read the file Name.
	Open func() (io.ReadCloser, error)
	// Err, when set, says the input could not be found or read; a batch
	// reports it as the page's error without cleaning anything.
	Err error

	// Rel names the page relative to the command-line argument it was
	// found under, slash-separated: the path below a directory argument,
	// the base name of a file argument, or for a WARC record its
	// archive's Rel, "#" and its page number in the archive ("" for
	// standard input). Outputs that mirror the input folders use it.
	Rel string
	// URL is the page's original URL (WARC-Target-URI), if known.
	URL string
	// ContentType is the page's HTTP Content-Type, if known; its charset
	// joins the charset chain (load.Options.ContentType).
	ContentType string
	// RecordID is the WARC-Record-ID of the response record the page
	// comes from, if any; Date is its WARC-Date, or a file's modification
	// time.
	RecordID string
	Date     time.Time
	// HTTPStatus is the HTTP status code of the WARC response record the
	// page comes from (not 2xx only with corpus.Options.AnyStatus), 0 for
	// other inputs.
	HTTPStatus int
	// Truncated says the bytes were cut before fiasco saw them (a WARC
	// record marked WARC-Truncated, or an HTTP body shorter than its
	// Content-Length); the result reports the page as truncated.
	// TruncatedWhy is the record's WARC-Truncated value (length, time,
	// disconnect, unspecified), "" where the record did not give one.
	Truncated    bool
	TruncatedWhy string
	// CutShort says that Data ends where a compressed page was cut short
	// (ErrCutShort: read once, from standard input or a pipe); the result
	// reports the page truncated (load.CutFile).
	CutShort bool
	// Resources, when set, serves the page's requisites (style sheets,
	// images, fonts) to the renderer by URL, from the archive that holds
	// the page; it is safe for concurrent use.
	Resources func(url string) (render.Resource, bool)
}

// ErrCutShort is the error, wrapped, of an Input's Open reader whose
// source ends before its data does: a compressed page file cut short.
// ReadMax returns the bytes read up to it with the error; CleanInput
// cleans them and reports the page truncated (load.CutFile), as it does
// a WARC record's body cut by its crawler.
var ErrCutShort = errors.New("the compressed data is cut short")

// Read returns the page's bytes, at most load.DefaultMaxBytes+1 of them
// (see ReadMax).
func (in Input) Read() ([]byte, error) {
	return in.ReadMax(load.DefaultMaxBytes)
}

// ReadMax returns the page's bytes: Data as it is, or at most max+1 bytes
// read from Open or the file Name, so that loading sees that a longer
// page was cut. max <= 0 means load.DefaultMaxBytes. Nothing is read
// unbounded: /dev/zero gives max+1 zero bytes. A file Name that is a
// named pipe is waited for as long as its writer takes (Cleaner.CleanInput
// waits only as long as its context allows).
func (in Input) ReadMax(max int64) ([]byte, error) {
	if in.Err != nil {
		return nil, in.Err
	}
	if in.Data != nil {
		return in.Data, nil
	}
	if max <= 0 {
		max = load.DefaultMaxBytes
	}
	var rc io.ReadCloser
	var err error
	if in.Open != nil {
		rc, err = in.Open()
	} else {
		rc, err = os.Open(in.Name)
	}
	if err != nil {
		return nil, err
	}
	if rc == nil {
		return nil, fmt.Errorf("%s: Input.Open gave no reader", in.Name)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, min(max, math.MaxInt64-1)+1))
	if errors.Is(err, ErrCutShort) && len(data) > 0 {
		return data, fmt.Errorf("%s: %w", in.Name, err) // the bytes up to the cut, for CleanInput
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// readCtx is ReadMax that gives up reading the file Name when ctx is done
// first, with an error wrapping ctx.Err(): a named pipe's open waits for
// a writer, and its reads for the writer's bytes. The read goes on in a
// goroutine of its own, which closes the file once it is done, and its
// bytes are dropped. What Open gives is read as ReadMax reads it: it may
// be shared (the stream an archive's records come from), and a read left
// going on would race with the next reader's.
func (in Input) readCtx(ctx context.Context, max int64) ([]byte, error) {
	if in.Err != nil || in.Data != nil || in.Open != nil || ctx.Done() == nil {
		return in.ReadMax(max)
	}
	type read struct {
		data []byte
		err  error
	}
	ch := make(chan read, 1)
	go func() {
		data, err := in.ReadMax(max)
		ch <- read{data, err}
	}()
	select {
	case r := <-ch:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: reading stopped: %w", in.Name, ctx.Err())
	}
}
