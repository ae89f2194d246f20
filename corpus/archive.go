package corpus

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/warc"
)

// Reasons for skipping WARC records, as Stats.Skipped counts them.
const (
	SkipNotHTML   = "non-HTML responses"
	SkipStatus    = "responses with HTTP status not 2xx"
	SkipNotHTTP   = "responses not HTTP"
	SkipOtherType = "records of other types"
	// SkipEmpty counts HTML responses with an empty body (a redirect
	// with --any-status, a 200 a server sent empty): no page, and no
	// failure of the run's either.
	SkipEmpty = "HTML responses with an empty body"
)

// ErrNoRecord is the damage of a WARC file that holds no record at all
// (an empty file: an aborted download?). Its error record is a
// DamageError named by the file.
var ErrNoRecord = errors.New("no record in the file (empty: an aborted download?)")

// DamageError is the error of an error record that stands for damage in
// a WARC file rather than for a page: a damaged stretch (corrupt gzip or
// zstd data, a header that is no WARC header, a record cut short at the
// end of the file) whose records could not be read, so that it is not
// known whether they held pages, or a file that holds no record at all
// (ErrNoRecord). Where the damaged record is a page's own
// (its header was read), the page's error says so instead.
type DamageError struct {
	Err  error  // the damage, as warc.Reader reported it
	Then string // what reading did after it ("reading went on at ..."), or ""
}

func (e *DamageError) Error() string {
	if e.Then == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + "; " + e.Then
}

func (e *DamageError) Unwrap() error { return e.Err }

// Damaged reports whether an outcome is the error record of damage in a
// WARC file (a DamageError), not a page.
func Damaged(o pipeline.Outcome) bool { return IsDamage(o.Err) }

// IsDamage reports whether err is a DamageError, or wraps one.
func IsDamage(err error) bool {
	var d *DamageError
	return errors.As(err, &d)
}

// archive yields one page per HTML response record of the WARC file read
// from r (plain, gzip, or zstd-compressed when k says so).
// seekable says r is the file name itself, opened at its start, so that
// requisites can be read back by offset. An error of the archive is
// yielded as an Input with Err set: a truncated last record ends it; after
// damage within the file (corrupt gzip data, a header that is no WARC
// header) reading goes on at the next record found, and the error says
// where.
func (s *Source) archive(ctx context.Context, name, rel string, r io.Reader, k kind, seekable bool, yield func(pipeline.Input) bool) bool {
	s.stats.Archives++
	var res *Archive
	if s.opt.Resources {
		shared := true // read once, from a stream or through a decompressor
		if seekable && (k == kindWARC || k == kindZstdWARC) {
			res, shared = indexArchive(ctx, name, k == kindZstdWARC)
		}
		if shared {
			s.stats.Unindexed++
		}
	}
	wr := warc.NewReader(r, warc.Options{Name: name, MaxPayload: min(s.opt.MaxBytes, math.MaxInt64-1) + 1, Gzip: k == kindGzipWARC, Zstd: k == kindZstdWARC})
	seq := 0
	names := recordNamer{name: name}
	records := s.stats.Records
	// A page is yielded once the next record has been reached: an archive
	// that ends inside the page's record makes the page an error, not a
	// page and an error.
	var pending *pipeline.Input
	var pendingAt int64 // its record's offset: a crawl may repeat a record ID
	// hold makes in, a page read from the record at offset as data (or
	// failing with err), the page pending.
	hold := func(in *pipeline.Input, data []byte, err error, offset int64) {
		if err != nil {
			in.Err = err
		} else {
			in.Data = data
			if data == nil {
				in.Data = []byte{}
			}
			res.attach(in)
		}
		pending, pendingAt = in, offset
	}
	flush := func() bool {
		if pending == nil {
			return true
		}
		in := *pending
		pending = nil
		return yield(in)
	}
	// damage is the error record of a damaged stretch that reading moved
	// past (warc.Reader.Resync), yielded once the next record is read or
	// the input ends, with what became of the stretch.
	var damage *pipeline.Input
	var damageErr error
	var damagePage bool // the stretch's error record is a page's (its own record was damaged)
	var lastErr error   // the stretch's latest error
	var unchecked bool  // the stretch's member held records read before it (warc.Reader.MemberRecords)
	endDamage := func(next string) bool {
		if damage == nil {
			return true
		}
		in := *damage
		damage = nil
		if unchecked && !strings.Contains(next, "may hold damaged text") {
			next += "; the pages read before it from the same gzip member or zstd frame (a file compressed as one) may hold damaged text: its data is checked only at its end"
		}
		if errors.Is(lastErr, zstd.ErrUnknownDictionary) && !errors.Is(damageErr, zstd.ErrUnknownDictionary) {
			next += "; the frames after it need a dictionary the file does not hold (a part of a .warc.zst split after its dictionary frame?)"
		}
		if damagePage {
			in.Err = fmt.Errorf("%w; %s", damageErr, next)
		} else {
			in.Err = &DamageError{Err: damageErr, Then: next}
		}
		return yield(in)
	}
	for {
		if ctx.Err() != nil {
			// Not read further: the pages read are reported, the rest
			// is left for a resumed run.
			return flush() && endDamage("reading stopped there")
		}
		rec, err := wr.Next()
		if err == io.EOF && s.stats.Records == records && damage == nil && seq == 0 {
			// No record at all: an error record, so that an aborted
			// download is not lost among millions of files done.
			s.stats.Empty = append(s.stats.Empty, name)
			return yield(pipeline.Input{Name: name, Err: &DamageError{Err: fmt.Errorf("warc: %s: %w", name, ErrNoRecord)}})
		}
		if err == io.EOF {
			return flush() && endDamage("no record follows it: the rest of the file is lost")
		}
		if err != nil {
			lastErr = err
			inMember := wr.MemberRecords()
			var we *warc.Error
			errors.As(err, &we)
			resyncable := errors.Is(err, warc.ErrGzip) || errors.Is(err, warc.ErrZstd) || errors.Is(err, warc.ErrMalformed)
			// The error's record: the pending page's when warc names it
			// (also for a gzip member whose checksum fails once the page
			// was read), so that it yields an error, not a page and an
			// error; else a record of its own, unless a damaged stretch
			// is already open (a page is pending only after a record was
			// read, which closes any stretch).
			var hit *pipeline.Input
			hitPage := false
			if pending != nil && (we != nil && we.RecordID != "" && we.RecordID == pending.RecordID && we.Offset == pendingAt ||
				pending.Err != nil && errors.Is(pending.Err, err)) {
				own := *pending
				pending = nil
				own.Data = nil
				if own.Err == nil {
					own.Err = err
				}
				hit, hitPage = &own, true
			} else {
				if !flush() {
					return false
				}
				if damage == nil {
					in := pipeline.Input{Name: name, Err: err}
					if we != nil {
						in.Name = names.at(we.Offset)
						in.RecordID, in.URL = we.RecordID, escapeInvalid(we.URI)
					}
					hit = &in
				}
			}
			if !resyncable && errors.Is(err, warc.ErrTruncated) {
				// A gzip member cut short in the middle of a file
				// reads as truncated when its data ran on to the
				// file's end: Resync finds a member after it, or
				// returns the truncation (the input ends there).
				if _, rerr := wr.Resync(); rerr == nil {
					if hit != nil {
						damage, damageErr, damagePage = hit, hit.Err, hitPage
						unchecked = inMember > 1
					}
					continue
				}
			}
			if !resyncable {
				// The end of the input (a truncated last record) or an I/O
				// error: nothing to read on from.
				if hit != nil {
					if !hitPage {
						hit.Err = &DamageError{Err: hit.Err}
					}
					return yield(*hit)
				}
				return endDamage("the rest of the file could not be read: " + err.Error())
			}
			if hit != nil {
				damage, damageErr, damagePage = hit, hit.Err, hitPage // it says where reading went on
				unchecked = inMember > 1
			}
			// Damage within the file (corrupt gzip or zstd data, a header that is
			// no WARC header): read on from the next record start, so
			// that one bad record does not cost the rest of the file.
			if _, rerr := wr.Resync(); rerr != nil {
				if rerr == io.EOF && errors.Is(err, gzip.ErrChecksum) {
					// Found at the member's end: the records read from
					// it were decompressed before the checksum could
					// say they were damaged (in a file compressed as
					// one member, every record).
					return endDamage("no record follows it; a gzip member's checksum is checked at the member's end, so in a file compressed as one member the pages read from it before may hold damaged text")
				}
				if rerr == io.EOF && errors.Is(err, zstd.ErrCRCMismatch) {
					return endDamage("no record follows it; a zstd frame's checksum is checked at the frame's end, so in a file compressed as one frame the pages read from it before may hold damaged text")
				}
				if rerr == io.EOF {
					return endDamage("no record follows it: the rest of the file is lost")
				}
				return endDamage("the rest of the file could not be read: " + rerr.Error())
			}
			continue
		}
		if !flush() {
			return false
		}
		if damage != nil {
			s.stats.Resyncs++ // a stretch read past, one error record, however many false starts it took
		}
		if !endDamage(fmt.Sprintf("reading went on at the next record found, at offset %d", rec.Offset)) {
			return false
		}
		s.stats.Records++
		if rec.Type == warc.TypeResource && warc.IsHTML(rec.ContentType, nil) {
			// A page kept without its HTTP exchange (warcit's WARC of a
			// folder of files, a browser's capture): its block is the
			// page.
			seq++
			in := recordInput(rec, names.at(rec.Offset))
			in.Rel, in.ContentType = fmt.Sprintf("%s#%06d", rel, seq), rec.ContentType
			data, err := io.ReadAll(rec.Block())
			if err == nil && len(data) == 0 && !in.Truncated {
				s.skip(SkipEmpty)
				continue
			}
			hold(&in, data, err, rec.Offset)
			continue
		}
		if rec.Type != warc.TypeResponse {
			switch rec.Type {
			case warc.TypeWarcinfo, warc.TypeRequest, warc.TypeRevisit, warc.TypeMetadata, warc.TypeResource, warc.TypeConversion:
				s.skip(rec.Type + " records")
			default:
				s.skip(SkipOtherType)
			}
			continue
		}
		in := recordInput(rec, names.at(rec.Offset))
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
			pending, pendingAt = &in, rec.Offset
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
		in.HTTPStatus = resp.StatusCode
		data, err := io.ReadAll(resp.Body)
		if err == nil && len(data) == 0 && !resp.Short() && !in.Truncated {
			s.skip(SkipEmpty) // its number stays taken: the names after it are as before
			continue
		}
		// The body ends before its length (chunked: its last chunk), or
		// is a range of the page (206 Partial Content).
		in.Truncated = in.Truncated || resp.Short() || resp.StatusCode == 206
		hold(&in, data, err, rec.Offset)
	}
}

// recordNamer names the records (and damaged stretches) of a WARC file
// NAME#OFFSET, OFFSET being where the record's gzip member or zstd frame
// starts (warc.Record.Offset; its first byte in a plain file). Where
// several share an offset (a file compressed as a whole, or members
// that split records), the ones after the first are NAME#OFFSET+K, the
// K-th after it, so that no two of a file share a name.
type recordNamer struct {
	name string
	last int64 // the offset named last
	k    int   // how many were named at it before
	used bool
}

func (n *recordNamer) at(offset int64) string {
	if n.used && offset == n.last {
		n.k++
		return fmt.Sprintf("%s#%d+%d", n.name, offset, n.k)
	}
	n.used, n.last, n.k = true, offset, 0
	return fmt.Sprintf("%s#%d", n.name, offset)
}

// recordInput is the page of the WARC record rec, named name, before its
// data is read: its URL, record ID, date and WARC-Truncated.
func recordInput(rec *warc.Record, name string) pipeline.Input {
	return pipeline.Input{
		Name:         name,
		URL:          escapeInvalid(rec.TargetURI), // a raw byte of a Latin-1 URL as %XX, as a URL has it
		RecordID:     rec.ID,
		Date:         rec.Date,
		Truncated:    rec.Header.Get(warc.FieldTruncated) != "",
		TruncatedWhy: rec.Header.Get(warc.FieldTruncated),
	}
}
