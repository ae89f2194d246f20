package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Options configure a Source.
type Options struct {
	// Stdin is what "-" reads (os.Stdin if nil).
	Stdin io.Reader
	// MaxBytes is the most bytes read of one page; a WARC payload is read
	// up to MaxBytes+1, so that loading sees it was cut (0:
	// load.DefaultMaxBytes). Give the cleaner's load.Options.MaxBytes
	// the same value (fiasco clean does): a page cut here at a smaller
	// limit than loading's is not reported truncated.
	MaxBytes int64
	// Exclude lists files and directories that are not read as input
	// (compared as files, so that symbolic links and other spellings
	// match): the run's own outputs. A directory walk skips them; named
	// as an argument or in a list, they are an error input.
	Exclude []string
	// AnyStatus cleans WARC responses of every HTTP status; by default
	// only 2xx responses are pages, and the rest are counted as skipped.
	AnyStatus bool
	// Resources indexes, in a first pass over each WARC file, the
	// response records that are not HTML (style sheets, images, fonts),
	// so that its pages come with Input.Resources for the renderer.
	Resources bool
}

// Source turns command-line arguments into a stream of pages: files,
// directories (walked in sorted order, following symbolic links, each
// directory once), standard input, lists of paths and WARC archives (one
// page per HTML response record). It counts what it skips in Stats. A
// Source is for one stream at a time.
type Source struct {
	opt      Options
	stats    Stats
	exclude  map[fileKey]bool
	read     map[fileKey]bool // the regular files read so far
	stdinUse bool
}

// NewSource returns a Source with the given options.
func NewSource(opt Options) *Source {
	if opt.Stdin == nil {
		opt.Stdin = os.Stdin
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = load.DefaultMaxBytes
	}
	return &Source{opt: opt}
}

// Stats counts what a Source read and skipped. Read it once the stream has
// ended.
type Stats struct {
	Files    int // files read as pages (plain or compressed)
	Archives int // WARC files read
	Records  int // WARC records read
	// Empty names the WARC files that held no record and no damage (an
	// empty file: an aborted download?), in the order read. Each has an
	// error record too (ErrNoRecord).
	Empty []string
	// Resyncs counts the damaged stretches of WARC files (corrupt gzip
	// or zstd data, a header that is no WARC header) read past to the
	// next record found: each has one error record, however many false
	// starts reading past it took.
	Resyncs int
	// Unindexed counts the WARC files whose pages, rendered, could not
	// take their style sheets and images from the file's records (read
	// from standard input, compressed as a whole, or with a damaged
	// first member or frame, where records cannot be looked up again): they
	// render with what they hold inline.
	Unindexed int
	// Skipped counts WARC records that are not pages, by reason
	// ("request", "revisit", "metadata", "warcinfo", "non-HTML", "HTTP
	// status not 2xx", ...).
	Skipped map[string]int
	// NotPages counts the files of directory walks skipped for a name
	// that says they are no page (style sheets, scripts, images, fonts,
	// media, documents, archives: notPageExt), by extension; a file
	// named as an argument or in a list is read whatever its name.
	NotPages map[string]int
	// OutputDirs counts the directories of walks skipped as the output
	// directories of earlier runs (they hold .fiasco-settings.json).
	OutputDirs int
	// OutputFiles counts the files of walks skipped as the JSONL or WET
	// outputs of earlier runs (they have .NAME.settings.json beside
	// them); their error logs are JSON Lines, which walks skip by name
	// (NotPages).
	OutputFiles int
	// OwnOutputs names the outputs of this run (Options.Exclude) that
	// walks met inside an input folder and skipped: a folder given to
	// -o inside an input folder, whose files are not read.
	OwnOutputs []string
	// Special counts the entries of walks that are no regular file nor
	// directory (named pipes, sockets, devices, a link to one), skipped:
	// a pipe would block the walk, a device never ends.
	Special int
	// Repeated names the files skipped because they were read already
	// in this run, as the same file by another path, argument or
	// directory walk (a.warc ./a.warc dir/ with dir/a.warc): reading
	// them again would give every page twice.
	Repeated []string
	// EmptyDirs names the directories given as arguments or listed
	// whose walk found no file to read (none, or only hidden files,
	// files skipped by name and earlier runs' outputs): a mistyped or
	// unmounted folder among others would otherwise pass unnoticed.
	EmptyDirs []string
}

// Stats returns the counts so far.
func (s *Source) Stats() Stats { return s.stats }

func (s *Source) skip(reason string) {
	if s.stats.Skipped == nil {
		s.stats.Skipped = map[string]int{}
	}
	s.stats.Skipped[reason]++
}

// Inputs returns the pages that args and the lists of paths stand for, in
// order: each argument in turn, then the paths listed in each file of
// lists (one per line; blank lines and lines starting with # are
// ignored; "-" reads the list from standard input). A file argument is one
// page, or the pages of a WARC archive; gzip- and zstd-compressed pages
// are decompressed. A directory stands for every non-hidden file below it,
// in sorted order, but for those Stats.NotPages and Stats.OutputDirs
// count. A path that does not exist, a broken symbolic link or
// an unreadable directory yields an Input with Err set, naming it.
//
// Once ctx is cancelled, files are no longer opened: the stream goes on
// naming them (and the archives not yet read, one input each), so that a
// batch can report every page it did not clean, but the archive being
// read is not read further.
func (s *Source) Inputs(ctx context.Context, args, lists []string) iter.Seq[pipeline.Input] {
	return func(yield func(pipeline.Input) bool) {
		s.initExclude()
		for _, a := range args {
			if !s.arg(ctx, a, yield) {
				return
			}
		}
		for _, l := range lists {
			if !s.list(ctx, l, yield) {
				return
			}
		}
	}
}

func (s *Source) initExclude() {
	s.exclude = map[fileKey]bool{}
	for _, p := range s.opt.Exclude {
		if fi, err := os.Stat(p); err == nil {
			if k, ok := keyOf(fi); ok {
				s.exclude[k] = true
			}
		}
	}
}

func (s *Source) excluded(fi os.FileInfo) bool {
	k, ok := keyOf(fi)
	return ok && s.exclude[k]
}

// list reads a file of paths and expands each.
func (s *Source) list(ctx context.Context, name string, yield func(pipeline.Input) bool) bool {
	var r io.Reader
	stalls := true // a pipe's or a terminal's list may stall; a file's does not
	if name == "-" {
		if s.stdinUse {
			return yield(pipeline.Input{Name: "-", Err: errors.New("standard input is read more than once")})
		}
		s.stdinUse = true
		r = s.opt.Stdin
	} else {
		f, err := openCancel(ctx, name) // a named pipe's open waits for a writer
		if err != nil {
			return yield(pipeline.Input{Name: name, Err: fmt.Errorf("list of inputs: %w", err)})
		}
		defer f.Close()
		r = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			// A file's list is read whole, also after a signal: its
			// paths are the run's pages, each one interrupted or not,
			// and the list is none.
			stalls = false
		}
	}
	if stalls {
		// A list from a pipe may stall: a signal must still end the run.
		r = newCancelReader(ctx, name, r)
	}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff") // a byte-order mark (Notepad's UTF-8)
		}
		p := strings.TrimSpace(line)
		if p != "" && !strings.HasPrefix(p, "#") {
			if !s.arg(ctx, p, yield) {
				return false
			}
		}
		if err == io.EOF {
			return true
		}
		if err != nil && stalls && ctx.Err() != nil {
			// Stopped (a signal) while the pipe's list stalled: the
			// list is no page; a resumed run reads it again.
			return false
		}
		if err != nil {
			return yield(pipeline.Input{Name: name, Err: fmt.Errorf("list of inputs %s, line %d: %w", name, n, err)})
		}
	}
}

// arg expands one command-line argument (or listed path).
func (s *Source) arg(ctx context.Context, a string, yield func(pipeline.Input) bool) bool {
	if a == "-" {
		if s.stdinUse {
			return yield(pipeline.Input{Name: "-", Err: errors.New("standard input is read more than once")})
		}
		s.stdinUse = true
		if ctx.Err() != nil {
			return yield(pipeline.Input{Name: "-"})
		}
		return s.stream(ctx, "-", "", s.opt.Stdin, time.Now(), yield)
	}
	fi, err := os.Stat(a) // follows symbolic links, with or without a trailing slash
	if err != nil {
		return yield(pipeline.Input{Name: a, Err: statErr(a, err)})
	}
	if s.excluded(fi) {
		return yield(pipeline.Input{Name: a, Err: fmt.Errorf("%s is an output of this run: not read as input", a)})
	}
	if fi.IsDir() {
		found := 0
		counted := func(in pipeline.Input) bool {
			found++
			return yield(in)
		}
		read := s.stats.Files + s.stats.Archives + len(s.stats.Repeated)
		w := walker{s: s, ctx: ctx, yield: counted, seen: map[fileKey]bool{}}
		if k, ok := keyOf(fi); ok {
			w.seen[k] = true
		}
		more := w.dir(a, "")
		if more && found == 0 && s.stats.Files+s.stats.Archives+len(s.stats.Repeated) == read {
			s.stats.EmptyDirs = append(s.stats.EmptyDirs, a)
		}
		return more
	}
	return s.file(ctx, a, filepath.Base(a), fi, yield)
}

// statErr words the error of a path that cannot be found.
func statErr(p string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		if _, lerr := os.Lstat(p); lerr == nil {
			return fmt.Errorf("%s: broken symbolic link", p)
		}
		if u := strings.ToLower(p); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
			return fmt.Errorf("%s: no such file (fiasco reads files, not URLs: fetch the page first, e.g. curl -sL URL | fiasco clean -)", p)
		}
		if hostLike(p) {
			return fmt.Errorf("%s: no such file or directory (if it is a web address: fiasco reads files, not URLs; fetch the page first, e.g. curl -sL https://%s | fiasco clean -)", p, p)
		}
		return fmt.Errorf("%s: no such file or directory", p)
	}
	return err
}

// hostLike reports whether p, a path that names no file, reads as a web
// address without its scheme: www.example.org, example.com/news (a first
// element of labels parted by dots, the last a common top-level domain).
func hostLike(p string) bool {
	host, _, _ := strings.Cut(strings.ToLower(p), "/")
	if strings.HasPrefix(host, "www.") && len(host) > 4 {
		return true
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	switch labels[len(labels)-1] {
	case "com", "org", "net", "edu", "gov", "info", "io", "uk", "de", "fr", "nl", "ru", "jp", "cn", "it", "es", "ca", "au", "eu", "ch", "at", "be", "se", "no", "pl", "br", "in", "us":
		return true
	}
	return false
}

// file yields the page or pages of one file: a page, a compressed page or
// a WARC archive. Regular files are opened again when the page is read;
// devices and pipes are read once, here.
func (s *Source) file(ctx context.Context, path, rel string, fi os.FileInfo, yield func(pipeline.Input) bool) bool {
	if k, ok := keyOf(fi); ok && fi.Mode().IsRegular() {
		if s.read[k] {
			s.stats.Repeated = append(s.stats.Repeated, path)
			return true
		}
		if s.read == nil {
			s.read = map[fileKey]bool{}
		}
		s.read[k] = true
	}
	if ctx.Err() != nil {
		return yield(pipeline.Input{Name: path, Rel: rel})
	}
	if !fi.Mode().IsRegular() {
		f, err := openCancel(ctx, path) // a named pipe's open waits for a writer
		if err != nil {
			return yield(pipeline.Input{Name: path, Err: err})
		}
		defer f.Close()
		return s.stream(ctx, path, rel, f, fi.ModTime(), yield)
	}
	f, err := os.Open(path)
	if err != nil {
		return yield(pipeline.Input{Name: path, Err: err})
	}
	k, err := sniffFile(f, path, fi.Size())
	if err == nil && isArchive(k) {
		defer f.Close()
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return yield(pipeline.Input{Name: path, Err: err})
		}
		return s.archive(ctx, path, rel, f, k, true, yield)
	}
	f.Close()
	if err != nil {
		return yield(pipeline.Input{Name: path, Rel: rel, Err: err})
	}
	s.stats.Files++
	return yield(pipeline.Input{Name: path, Rel: rel, Date: fi.ModTime(), Open: openPage(path, k)})
}

// sniffFile judges the kind of the file f, opened at its start, named
// path and size bytes long (see sniff): an ARC file is an error. It
// leaves f anywhere.
func sniffFile(f *os.File, path string, size int64) (kind, error) {
	br := bufio.NewReader(f)
	if head, _ := br.Peek(len(zstdMagic)); bytes.HasPrefix(head, zstdMagic) {
		// A zstd frame's first block must be whole to decode.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return kindPage, fmt.Errorf("%s: %w", path, err)
		}
		br = bufio.NewReaderSize(f, int(min(size, sniffSize)))
	}
	k, arc := sniff(br, path)
	if arc {
		return k, fmt.Errorf("%s: %w", path, errARC)
	}
	return k, nil
}

// stream yields the page or pages of a reader that can be read once
// (standard input, a pipe, a device).
func (s *Source) stream(ctx context.Context, name, rel string, r io.Reader, date time.Time, yield func(pipeline.Input) bool) bool {
	// Such a reader may block for good (a stalled pipe): a signal must
	// still end the run.
	br := bufio.NewReaderSize(newCancelReader(ctx, name, r), sniffSize)
	k, arc := sniff(br, name)
	if arc {
		return yield(pipeline.Input{Name: name, Rel: rel, Err: fmt.Errorf("%s: %w", name, errARC)})
	}
	if isArchive(k) {
		return s.archive(ctx, name, rel, br, k, false, yield)
	}
	s.stats.Files++
	used := false
	open := func() (io.ReadCloser, error) {
		if used {
			return nil, fmt.Errorf("%s: read twice", name)
		}
		used = true
		return decompress(k, br)
	}
	// Read it here: the reader is gone once this function returns.
	in := pipeline.Input{Name: name, Rel: rel, Date: date, Open: open}
	data, err := in.ReadMax(s.opt.MaxBytes)
	if errors.Is(err, pipeline.ErrCutShort) && len(data) > 0 {
		// Cleaned from the bytes up to the cut, as a file's are.
		return yield(pipeline.Input{Name: name, Rel: rel, Date: date, Data: data, CutShort: true})
	}
	return yield(pipeline.Input{Name: name, Rel: rel, Date: date, Data: data, Err: err})
}
