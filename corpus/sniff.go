package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// kind is what a file holds, judged by its name and first bytes.
type kind int

const (
	kindPage kind = iota // an HTML page (or anything else: loading judges)
	kindGzipPage
	kindZstdPage
	kindWARC     // plain WARC, or gzip (per record or whole file)
	kindZstdWARC // a WARC compressed with zstd as a whole
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

// sniff judges the kind of the data br starts with, without consuming it.
// br should buffer sniffSize bytes. name is the file's name: one ending
// in .warc, .warc.gz or .warc.zst is read as a WARC archive whatever it
// starts with (a file split in the middle of a record, a first gzip
// member that is corrupt), so that reading finds the records that follow
// the damage; a WARC otherwise starts with "WARC/", after line ends at
// most, plain or decompressed.
func sniff(br *bufio.Reader, name string) kind {
	head, _ := br.Peek(4)
	named := warcName(name)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		// A .warc.gz, or a page compressed with gzip: look inside.
		zr, err := gzip.NewReader(bytes.NewReader(peekAll(br)))
		if err == nil && isWARC(zr) || named {
			return kindWARC
		}
		return kindGzipPage
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := newZstd(bytes.NewReader(peekAll(br)))
		if err == nil {
			defer zr.Close()
		}
		if err == nil && isWARC(zr) || named {
			return kindZstdWARC
		}
		return kindZstdPage
	}
	if named || startsWARC(peekAll(br)) {
		return kindWARC
	}
	return kindPage
}

// warcName reports a file name that says WARC.
func warcName(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".warc", ".warc.gz", ".warc.zst"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// startsWARC reports data that starts with "WARC/" after line ends.
func startsWARC(b []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(b, "\r\n"), warcMagic)
}

// isARC reports data, decompressed as kind k needs, that starts as an ARC
// file does.
func isARC(br *bufio.Reader, k kind) bool {
	var r io.Reader = bytes.NewReader(peekAll(br))
	switch k {
	case kindGzipPage:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return false
		}
		r = zr
	case kindZstdPage:
		zr, err := newZstd(r)
		if err != nil {
			return false
		}
		defer zr.Close()
		r = zr
	}
	b := make([]byte, len(arcMagic))
	n, _ := io.ReadFull(r, b)
	return bytes.Equal(b[:n], arcMagic)
}

// peekAll returns what br has buffered, filling its buffer first.
func peekAll(br *bufio.Reader) []byte {
	p, _ := br.Peek(br.Size())
	return p
}

// isWARC reports a decompressed stream that starts with "WARC/" after
// line ends.
func isWARC(r io.Reader) bool {
	var b [64]byte
	n, _ := io.ReadFull(r, b[:])
	return startsWARC(b[:n])
}

func newZstd(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
}

// decompress wraps r in the decoder its kind needs.
func decompress(k kind, r io.Reader) (io.ReadCloser, error) {
	switch k {
	case kindGzipPage:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	case kindZstdPage, kindZstdWARC:
		zr, err := newZstd(r)
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return zstdCloser{zr}, nil
	}
	return io.NopCloser(r), nil
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
	k, name := kindGzipPage, "gzip"
	switch {
	case bytes.HasPrefix(data, gzipMagic):
	case bytes.HasPrefix(data, zstdMagic):
		k, name = kindZstdPage, "zstd"
	default:
		return data, false, nil
	}
	dec, err := decompress(k, bytes.NewReader(data))
	if err != nil {
		return nil, true, err
	}
	defer dec.Close()
	page, err = io.ReadAll(io.LimitReader(dec, max+1))
	switch {
	case err != nil:
		return nil, true, fmt.Errorf("%s: %w", name, err)
	case int64(len(page)) > max:
		return nil, true, fmt.Errorf("%w of %d bytes", ErrTooLarge, max)
	case bytes.HasPrefix(page, warcMagic):
		return nil, true, errors.New("a compressed WARC archive, not a page")
	}
	return page, true, nil
}
