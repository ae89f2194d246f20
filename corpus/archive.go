package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/warc"
)

// Reasons for skipping WARC records, as Stats.Skipped counts them.
const (
	SkipNotHTML   = "non-HTML responses"
	SkipStatus    = "responses with HTTP status not 2xx"
	SkipNotHTTP   = "responses not HTTP"
	SkipOtherType = "records of other types"
)

// archive yields one page per HTML response record of the WARC file read
// from r (plain, gzip, or zstd-compressed as a whole when k says so).
// seekable says r is the file name itself, opened at its start, so that
// requisites can be read back by offset. Reading stops at the first error
// of the archive (a truncated last record, corrupt gzip data), which is
// yielded as an Input with Err set.
func (s *Source) archive(ctx context.Context, name, rel string, r io.Reader, k kind, seekable bool, yield func(pipeline.Input) bool) bool {
	s.stats.Archives++
	var res *Archive
	if s.opt.Resources && seekable && k == kindWARC {
		res = indexArchive(ctx, name)
	}
	if k == kindZstdWARC {
		dec, err := decompress(k, r)
		if err != nil {
			return yield(pipeline.Input{Name: name, Err: fmt.Errorf("%s: %w", name, err)})
		}
		defer dec.Close()
		r = dec
	}
	wr := warc.NewReader(r, warc.Options{Name: name, MaxPayload: s.opt.MaxBytes + 1})
	seq := 0
	// A page is yielded once the next record has been reached: an archive
	// that ends inside the page's record makes the page an error, not a
	// page and an error.
	var pending *pipeline.Input
	flush := func() bool {
		if pending == nil {
			return true
		}
		in := *pending
		pending = nil
		return yield(in)
	}
	for {
		if ctx.Err() != nil {
			// Not read further: the pages read are reported, the rest
			// is left for a resumed run.
			return flush()
		}
		rec, err := wr.Next()
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			var we *warc.Error
			errors.As(err, &we)
			if pending != nil && (we != nil && we.RecordID != "" && we.RecordID == pending.RecordID ||
				pending.Err != nil && errors.Is(pending.Err, err)) {
				if pending.Err == nil {
					pending.Err, pending.Data = err, nil
				}
				return flush()
			}
			if !flush() {
				return false
			}
			in := pipeline.Input{Name: name, Err: err}
			if we != nil {
				in.Name = fmt.Sprintf("%s#%d", name, we.Offset)
				in.RecordID = we.RecordID
			}
			return yield(in)
		}
		if !flush() {
			return false
		}
		s.stats.Records++
		if rec.Type != warc.TypeResponse {
			switch rec.Type {
			case warc.TypeWarcinfo, warc.TypeRequest, warc.TypeRevisit, warc.TypeMetadata, warc.TypeResource, warc.TypeConversion:
				s.skip(rec.Type + " records")
			default:
				s.skip(SkipOtherType)
			}
			continue
		}
		in := pipeline.Input{
			Name:      fmt.Sprintf("%s#%d", name, rec.Offset),
			URL:       rec.TargetURI,
			RecordID:  rec.ID,
			Date:      rec.Date,
			Truncated: rec.Header.Get(warc.FieldTruncated) != "",
		}
		resp, err := rec.HTTP()
		if err != nil {
			if errors.Is(err, warc.ErrNotHTTP) {
				s.skip(SkipNotHTTP)
				continue
			}
			// Malformed HTTP or a Content-Encoding we cannot decode: the
			// page is lost, and the output says so.
			seq++
			in.Rel, in.Err = fmt.Sprintf("%s#%06d", rel, seq), err
			pending = &in
			continue
		}
		if !s.opt.AnyStatus && (resp.StatusCode < 200 || resp.StatusCode > 299) {
			s.skip(SkipStatus)
			continue
		}
		if !resp.IsHTML() {
			s.skip(SkipNotHTML)
			continue
		}
		seq++
		in.Rel = fmt.Sprintf("%s#%06d", rel, seq)
		in.ContentType = resp.Header.Get("Content-Type")
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			in.Err = err
		} else {
			in.Data = data
			if data == nil {
				in.Data = []byte{}
			}
			res.attach(&in)
		}
		pending = &in
	}
}
