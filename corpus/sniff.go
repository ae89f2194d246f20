package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/fiasco-project/fiasco/pipeline"
)

// kind is what a file holds, judged by its name and first bytes.
type kind int

const (
	kindPage kind = iota // an HTML page (or anything else: loading judges)
	kindGzipPage
	kindZstdPage
	kindWARC     // plain WARC, or gzip (per record or whole file)
	kindGzipWARC // named .warc.gz but not starting with a gzip member
	kindZstdWARC // a WARC compressed with zstd (a dictionary frame first, maybe)
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	warcMagic = []byte("WARC/")
	arcMagic  = []byte("filedesc://")
)

// maxZstdWindow bounds the memory a zstd frame may ask for.
const maxZstdWindow = 64 << 20

// sniffSize is the buffer sniff needs: a zstd frame decodes nothing
// before its first block is whole, and a block holds up to 128 KiB.
const sniffSize = 256 << 10

// errARC is the error of an ARC file (the Internet Archive's format
// before WARC), which fiasco does not read.
var errARC = errors.New("an ARC file (filedesc:// header), not WARC: convert it to WARC first (e.g. with warcio or JWAT)")

// sniff judges the kind of the data br starts with, without consuming it,
// and whether it is an ARC file. br should buffer sniffSize bytes for
// zstd data. name is the file's name: one ending in .warc, .warc.gz or
// .warc.zst is read as a WARC archive whatever it starts with (a file
// split in the middle of a record, a first gzip member that is corrupt),
// so that reading finds the records that follow the damage, with the
// compression its name says (kindGzipWARC: gzip members are looked for
// when the file does not start with one); a WARC otherwise starts with
// "WARC/", after line ends at most, plain or decompressed.
func sniff(br *bufio.Reader, name string) (k kind, arc bool) {
	magic, _ := br.Peek(4)
	lower := strings.ToLower(name)
	named := warcName(lower)
	var start []byte // the first bytes, decompressed
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		// A .warc.gz, or a page compressed with gzip: look inside.
		if zr, err := gzip.NewReader(bytes.NewReader(peekAll(br))); err == nil {
			start = readStart(zr)
		}
		k = kindGzipPage
		if named || startsWARC(start) {
			k = kindWARC
		}
	case bytes.HasPrefix(magic, zstdDictMagic):
		k = kindZstdWARC // only a .warc.zst starts with a dictionary frame
	case bytes.HasPrefix(magic, zstdMagic) || strings.HasSuffix(lower, ".warc.zst"):
		if zr, err := newZstd(bytes.NewReader(peekAll(br))); err == nil {
			start = readStart(zr)
			zr.Close()
		}
		k = kindZstdPage
		if named || startsWARC(start) {
			k = kindZstdWARC
		}
	default:
		start, _ = br.Peek(startSize)
		switch {
		case startsWARC(start):
			k = kindWARC // a plain WARC, whatever its name
		case strings.HasSuffix(lower, ".warc.gz"):
			k = kindGzipWARC
		case named:
			k = kindWARC
		}
	}
	return k, bytes.HasPrefix(start, arcMagic)
}

// startSize is how much of a file's start sniff reads: "WARC/" may follow
// line ends.
const startSize = 512

// readStart returns the first startSize bytes r gives, fewer where it
// ends or fails first.
func readStart(r io.Reader) []byte {
	b := make([]byte, startSize)
	n, _ := io.ReadFull(r, b)
	return b[:n]
}

// isArchive reports the kinds read as WARC archives.
func isArchive(k kind) bool {
	return k == kindWARC || k == kindGzipWARC || k == kindZstdWARC
}

// warcName reports a (lower-case) file name that says WARC.
func warcName(lower string) bool {
	for _, ext := range []string{".warc", ".warc.gz", ".warc.zst"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// startsWARC reports data that starts with "WARC/" after line ends.
// ErrWARC is DecompressPage's error for data that decompresses to a WARC
// file.
var ErrWARC = errors.New("a compressed WARC archive, not a page")

// IsWARC reports whether b starts as a WARC file does (its first
// record's version line, after any line ends).
func IsWARC(b []byte) bool { return startsWARC(b) }

func startsWARC(b []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(b, "\r\n"), warcMagic)
}

// A .warc.zst file may start with its dictionary, in a skippable frame of
// this magic number (IIPC's "Zstandard Compression for WARC Files 1.0",
// as Archive Team's crawls are written); warc.Reader reads it.
var zstdDictMagic = []byte{0x5d, 0x2a, 0x4d, 0x18}

// peekAll returns what br has buffered, filling its buffer first.
func peekAll(br *bufio.Reader) []byte {
	p, _ := br.Peek(br.Size())
	return p
}

func newZstd(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
}

// decompress wraps r in the decoder its kind needs.
func decompress(k kind, r io.Reader) (io.ReadCloser, error) {
	switch k {
	case kindGzipPage:
		src := &srcErr{r: r}
		zr, err := gzip.NewReader(src)
		if errors.Is(err, io.ErrUnexpectedEOF) && src.err == nil {
			return nil, errors.New("gzip: the header is cut short or corrupt")
		}
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return namedErrs{zr, "gzip", src}, nil
	case kindZstdPage, kindZstdWARC:
		src := &srcErr{r: r}
		zr, err := newZstd(src)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return namedErrs{zstdCloser{zr}, "zstd", src}, nil
	}
	return io.NopCloser(r), nil
}

// namedErrs says which decompression a read error comes from: a file
// cut short reads as "unexpected EOF", which names no cause. Errors of
// the source (src: I/O, a cancelled read) are left as they are.
type namedErrs struct {
	io.ReadCloser
	what string
	src  *srcErr
}

func (n namedErrs) Read(p []byte) (int, error) {
	k, err := n.ReadCloser.Read(p)
	switch {
	case err == nil || err == io.EOF || n.src.err != nil && errors.Is(err, n.src.err) || strings.HasPrefix(err.Error(), n.what+":"):
	case errors.Is(err, io.ErrUnexpectedEOF):
		// pipeline.ErrCutShort: a page file's bytes up to the cut are
		// cleaned, the page reported truncated.
		err = fmt.Errorf("%s: %w: %w", n.what, pipeline.ErrCutShort, err)
	default:
		err = fmt.Errorf("%s: %w", n.what, err)
	}
	return k, err
}

// srcErr reads r and keeps its last error other than io.EOF.
type srcErr struct {
	r   io.Reader
	err error
}

func (s *srcErr) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}

type zstdCloser struct{ *zstd.Decoder }

func (z zstdCloser) Close() error { z.Decoder.Close(); return nil }

// readCloser joins a reader and what closes its source.
type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// openPage returns a function that opens the file at path and gives its
// bytes, decompressed as its kind needs.
func openPage(path string, k kind) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		if k == kindPage {
			return f, nil
		}
		dec, err := decompress(k, bufio.NewReader(f))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return readCloser{dec, func() error { dec.Close(); return f.Close() }}, nil
	}
}

// ErrTooLarge is DecompressPage's error for a page that decompresses to
// more than its limit.
var ErrTooLarge = errors.New("decompressed page larger than the limit")

// DecompressPage returns the bytes of a page as fiasco clean reads a page
// file: gzip- or zstd-compressed data decompressed (compressed reports
// it), anything else as it is. A compressed WARC archive is an error (its
// pages are for Source), as is a page that decompresses to more than max
// bytes (ErrTooLarge) or a corrupt stream.
func DecompressPage(data []byte, max int64) (page []byte, compressed bool, err error) {
	k := kindGzipPage
	switch {
	case bytes.HasPrefix(data, gzipMagic):
	case bytes.HasPrefix(data, zstdMagic):
		k = kindZstdPage
	default:
		return data, false, nil
	}
	dec, err := decompress(k, bytes.NewReader(data))
	if err != nil {
		return nil, true, err
	}
	defer dec.Close()
	page, err = io.ReadAll(io.LimitReader(dec, min(max, math.MaxInt64-1)+1))
	switch {
	case err != nil:
		return nil, true, err // named by namedErrs
	case int64(len(page)) > max:
		return nil, true, fmt.Errorf("%w of %d bytes", ErrTooLarge, max)
	case startsWARC(page):
		return nil, true, ErrWARC
	}
	return page, true, nil
}
