package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
)

// kind is what a file holds, judged by its first bytes.
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
)

// maxZstdWindow bounds the memory a zstd frame may ask for.
const maxZstdWindow = 64 << 20

// sniff judges the kind of the data br starts with, without consuming it.
func sniff(br *bufio.Reader) kind {
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		// A .warc.gz, or a page compressed with gzip: look inside.
		zr, err := gzip.NewReader(bytes.NewReader(peekAll(br)))
		if err != nil {
			return kindGzipPage
		}
		if isWARC(zr) {
			return kindWARC
		}
		return kindGzipPage
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := newZstd(bytes.NewReader(peekAll(br)))
		if err != nil {
			return kindZstdPage
		}
		defer zr.Close()
		if isWARC(zr) {
			return kindZstdWARC
		}
		return kindZstdPage
	}
	if p, _ := br.Peek(len(warcMagic)); bytes.Equal(p, warcMagic) {
		return kindWARC
	}
	return kindPage
}

// peekAll returns what br has buffered, filling its buffer first.
func peekAll(br *bufio.Reader) []byte {
	p, _ := br.Peek(br.Size())
	return p
}

func isWARC(r io.Reader) bool {
	var b [5]byte
	n, _ := io.ReadFull(r, b[:])
	return bytes.Equal(b[:n], warcMagic)
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
