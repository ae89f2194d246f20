package corpus

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// A .warc.zst file may start with its dictionary, in a skippable frame of
// this magic number (IIPC's "Zstandard Compression for WARC Files 1.0",
// as Archive Team's crawls are written): the frames of the records after
// it are compressed with that dictionary. The dictionary may itself be
// compressed as a zstd frame.
var zstdDictMagic = []byte{0x5d, 0x2a, 0x4d, 0x18}

// maxZstdDict bounds a dictionary frame's size, and its dictionary's
// once decompressed: those of WARC files are some hundred kilobytes.
const maxZstdDict = 16 << 20

// zstdFormattedDict starts a dictionary in zstd's format (zstd --train),
// which carries its ID; other bytes are a raw content dictionary.
var zstdFormattedDict = []byte{0x37, 0xa4, 0x30, 0xec}

// newZstd returns a decoder of the zstd stream r, with the dictionary of
// a dictionary frame at its start (see zstdDictMagic) loaded.
func newZstd(r io.Reader) (*zstd.Decoder, error) {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow)}
	head := make([]byte, 8)
	n, err := io.ReadFull(r, head)
	if n < len(head) || !bytes.HasPrefix(head, zstdDictMagic) {
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, err
		}
		return zstd.NewReader(io.MultiReader(bytes.NewReader(head[:n]), r), opts...)
	}
	dict, err := readZstdDict(r, binary.LittleEndian.Uint32(head[4:]))
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(dict, zstdFormattedDict) {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	} else {
		opts = append(opts, zstd.WithDecoderDictRaw(0, dict))
	}
	return zstd.NewReader(r, opts...)
}

// readZstdDict reads the dictionary of a dictionary frame of size bytes,
// decompressing it where it is a zstd frame.
func readZstdDict(r io.Reader, size uint32) ([]byte, error) {
	if size > maxZstdDict {
		return nil, fmt.Errorf("dictionary frame of %d bytes (more than %d)", size, maxZstdDict)
	}
	dict := make([]byte, size)
	if _, err := io.ReadFull(r, dict); err != nil {
		return nil, fmt.Errorf("dictionary frame cut short: %w", err)
	}
	if !bytes.HasPrefix(dict, zstdMagic) {
		return dict, nil
	}
	dec, err := zstd.NewReader(bytes.NewReader(dict), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	plain, err := io.ReadAll(io.LimitReader(dec, maxZstdDict+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("compressed dictionary: %w", err)
	case len(plain) > maxZstdDict:
		return nil, fmt.Errorf("dictionary of more than %d bytes", maxZstdDict)
	}
	return plain, nil
}
