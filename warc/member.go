package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/zstd"
)

// member decodes the members of a compressed WARC file one at a time, so
// that the Reader knows where each starts and can move past a damaged
// one: gzip members (WARC 1.1, Annex D), or zstd frames (IIPC's
// "Zstandard Compression for WARC Files 1.0").
type member interface {
	// begin starts the member at br's position and returns how many bytes
	// it skipped before it (frames that hold no data). At the end of the
	// input it returns io.EOF; where no member starts it returns corrupt
	// data (ErrGzip, ErrZstd), leaving those bytes unread.
	begin(br *bufio.Reader) (skipped int64, err error)
	// Read gives the member's decompressed bytes, and io.EOF at its end;
	// its errors are ErrGzip, ErrZstd, ErrTruncated or the input's own.
	Read(p []byte) (int, error)
	// magic is how a member starts; plausible reports whether h, the
	// input's next bytes from a magic on, may start one.
	magic() []byte
	plausible(h []byte) bool
}

// corrupt reports corrupt compressed data: the errors Resync moves past.
func corrupt(err error) bool { return errors.Is(err, ErrGzip) || errors.Is(err, ErrZstd) }

type gzipMember struct{ gz gzip.Reader }

var gzipMagic = []byte{0x1f, 0x8b, 8}

func (g *gzipMember) begin(br *bufio.Reader) (int64, error) {
	if m, _ := br.Peek(3); len(m) == 3 && !bytes.Equal(m, gzipMagic) {
		return 0, fmt.Errorf("%w: %w", ErrGzip, gzip.ErrHeader)
	}
	if err := g.gz.Reset(br); err != nil {
		if err == io.EOF {
			return 0, io.EOF
		}
		return 0, gzipErr(err)
	}
	g.gz.Multistream(false)
	return 0, nil
}

func (g *gzipMember) Read(p []byte) (int, error) {
	n, err := g.gz.Read(p)
	if err != nil && err != io.EOF {
		err = gzipErr(err)
	}
	return n, err
}

func (g *gzipMember) magic() []byte { return gzipMagic }

// plausible: the magic, the method, flags without the reserved bits (as
// gzip.Reader checks), then mtime, xfl, os.
func (g *gzipMember) plausible(h []byte) bool { return len(h) >= 10 && h[3]&0xe0 == 0 }

func gzipErr(err error) error {
	var ce flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: gzip member ends early", ErrTruncated)
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &ce):
		return fmt.Errorf("%w: %w", ErrGzip, err)
	}
	return err
}

// The little-endian magic numbers of zstd frames.
const (
	zstdFrame     = 0xfd2fb528
	zstdSkippable = 0x184d2a50 // to 0x184d2a5f
	zstdDict      = 0x184d2a5d // the skippable frame of a .warc.zst's dictionary
)

var zstdMagic = binary.LittleEndian.AppendUint32(nil, zstdFrame)

// MaxZstdDict bounds the dictionary of a .warc.zst file, as stored and
// once decompressed: those of WARC files are some hundred kilobytes.
const MaxZstdDict = 16 << 20

// maxZstdWindow bounds the memory a zstd frame may ask for.
const maxZstdWindow = 64 << 20

// zstdMember reads a .warc.zst file frame by frame. A dictionary frame
// gives the dictionary of the frames after it; other skippable frames are
// passed over. It checks a frame's checksum itself, once the frame's data
// was read, as gzip does: the decoder would withhold the last block of a
// frame whose checksum fails (up to 128 KiB of records, in a file
// compressed as one frame).
type zstdMember struct {
	dec  *zstd.Decoder
	dict []byte
	fr   frameReader
	sum  xxhash.Digest // of the frame's data
}

func (z *zstdMember) begin(br *bufio.Reader) (int64, error) {
	var skipped int64
	for {
		h, err := br.Peek(18) // the longest frame header
		switch {
		case len(h) == 0 && err == io.EOF:
			return skipped, io.EOF
		case len(h) < 8 && err != nil && err != io.EOF:
			return skipped, err
		}
		if len(h) < 4 {
			return skipped, fmt.Errorf("%w: zstd frame ends early", ErrTruncated)
		}
		m := binary.LittleEndian.Uint32(h)
		switch {
		case m&^0xf == zstdSkippable:
			if len(h) < 8 {
				return skipped, fmt.Errorf("%w: zstd frame ends early", ErrTruncated)
			}
			size := int64(binary.LittleEndian.Uint32(h[4:]))
			if m == zstdDict {
				if err := z.readDict(br, size); err != nil {
					return skipped, err
				}
			} else {
				br.Discard(8)
				if n, err := discardN(br, size); n < size {
					return skipped, readErr(err, "zstd frame ends early")
				}
			}
			skipped += 8 + size
		case m == zstdFrame:
			n, sum, err := zstdHeaderLen(h)
			if err != nil {
				return skipped, err
			}
			z.fr = frameReader{br: br, left: n, sum: sum}
			z.sum.Reset()
			if z.dec == nil {
				if z.dec, err = newZstdDecoder(z.dict); err != nil {
					br.Discard(1) // Options.ZstdDict that does not load: move on
					return skipped, fmt.Errorf("%w: dictionary: %w", ErrZstd, err)
				}
			}
			return skipped, z.err(z.dec.Reset(&z.fr))
		default:
			return skipped, fmt.Errorf("%w: no zstd frame header", ErrZstd)
		}
	}
}

// zstdFormattedDict starts a dictionary in zstd's format (zstd --train),
// which carries its ID; other bytes are a raw content dictionary.
var zstdFormattedDict = []byte{0x37, 0xa4, 0x30, 0xec}

// readDict reads a dictionary frame whose content is size bytes,
// decompressing the dictionary where it is a zstd frame itself.
func (z *zstdMember) readDict(br *bufio.Reader, size int64) error {
	if size > MaxZstdDict {
		return fmt.Errorf("%w: a dictionary frame of %d bytes (more than %d)", ErrZstd, size, MaxZstdDict)
	}
	br.Discard(8)
	dict := make([]byte, size)
	if _, err := io.ReadFull(br, dict); err != nil {
		return readErr(err, "the dictionary frame ends early")
	}
	if bytes.HasPrefix(dict, zstdMagic) {
		dec, err := zstd.NewReader(bytes.NewReader(dict), zstdOptions()...)
		if err != nil {
			return err
		}
		defer dec.Close()
		plain, err := io.ReadAll(io.LimitReader(dec, MaxZstdDict+1))
		switch {
		case err != nil:
			return fmt.Errorf("%w: the compressed dictionary: %w", ErrZstd, err)
		case len(plain) > MaxZstdDict:
			return fmt.Errorf("%w: a dictionary of more than %d bytes", ErrZstd, MaxZstdDict)
		}
		dict = plain
	}
	if z.dec != nil {
		z.dec.Close()
		z.dec = nil // made again with the dictionary
	}
	z.dict = nil
	// Load it now: a dictionary that does not load is this frame's error
	// (the frame is read), not one of every frame after it.
	dec, err := newZstdDecoder(dict)
	if err != nil {
		return fmt.Errorf("%w: dictionary: %w", ErrZstd, err)
	}
	z.dict, z.dec = dict, dec
	return nil
}

// zstdOptions are the options of every zstd decoder the Reader makes:
// one goroutine, and memory bounded by maxZstdWindow.
func zstdOptions() []zstd.DOption {
	return []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxZstdWindow)}
}

// newZstdDecoder returns a decoder of frames with dict (none if nil); it
// leaves the checksum to zstdMember.Read.
func newZstdDecoder(dict []byte) (*zstd.Decoder, error) {
	opts := append(zstdOptions(), zstd.IgnoreChecksum(true))
	switch {
	case dict == nil:
	case bytes.HasPrefix(dict, zstdFormattedDict):
		opts = append(opts, zstd.WithDecoderDicts(dict))
	default:
		opts = append(opts, zstd.WithDecoderDictRaw(0, dict))
	}
	return zstd.NewReader(nil, opts...)
}

// readErr is the error of input that ends early (ErrTruncated) or fails.
func readErr(err error, what string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF || err == nil {
		return fmt.Errorf("%w: %s", ErrTruncated, what)
	}
	return err
}

func (z *zstdMember) Read(p []byte) (int, error) {
	n, err := z.dec.Read(p)
	z.sum.Write(p[:n])
	if err == io.EOF && z.fr.sum && uint32(z.sum.Sum64()) != binary.LittleEndian.Uint32(z.fr.check[:]) {
		return n, fmt.Errorf("%w: %w", ErrZstd, zstd.ErrCRCMismatch)
	}
	return n, z.err(err)
}

// err gives the decoder's error as the Reader's: the input's own errors
// stay as they are.
func (z *zstdMember) err(err error) error {
	switch {
	case err == nil, err == io.EOF, errors.Is(err, ErrZstd), errors.Is(err, ErrTruncated):
		return err
	case z.fr.ioErr != nil && errors.Is(err, z.fr.ioErr):
		return err
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: zstd frame ends early", ErrTruncated)
	case errors.Is(err, zstd.ErrUnknownDictionary):
		return fmt.Errorf("%w: %w (the frame needs the dictionary of a dictionary frame this file lacks at its start, or has damaged)", ErrZstd, err)
	}
	return fmt.Errorf("%w: %w", ErrZstd, err)
}

func (z *zstdMember) magic() []byte { return zstdMagic }

func (z *zstdMember) plausible(h []byte) bool { _, _, err := zstdHeaderLen(h); return err == nil }

// zstdHeaderLen returns the length of the frame header h starts with
// (from the magic number on), and whether the frame ends in a checksum.
func zstdHeaderLen(h []byte) (n int, sum bool, err error) {
	if len(h) < 5 {
		return 0, false, fmt.Errorf("%w: zstd frame ends early", ErrTruncated)
	}
	d := h[4]
	if d&0x08 != 0 {
		return 0, false, fmt.Errorf("%w: a frame header's reserved bit is set", ErrZstd)
	}
	single := d&0x20 != 0
	n = 5 + [4]int{0, 1, 2, 4}[d&3] + [4]int{0, 2, 4, 8}[d>>6]
	if !single {
		n++ // the window descriptor
	} else if d>>6 == 0 {
		n++ // a one-byte content size
	}
	return n, d&0x04 != 0, nil
}

// frameReader gives the bytes of one zstd frame from br, and io.EOF at
// its end, found from the frame's block headers without decoding it: so
// the decoder stops there, and the Reader knows where the next starts.
type frameReader struct {
	br    *bufio.Reader
	left  int     // bytes left of the current part (header, block, checksum)
	next  int     // the part after it
	sum   bool    // the frame ends in a checksum
	check [4]byte // the checksum, as read
	ioErr error   // the input's own error
}

// The parts of a frame after its header.
const (
	partBlock = iota
	partChecksum
	partEnd
)

// maxZstdBlock is the most a zstd block holds.
const maxZstdBlock = 128 << 10

func (f *frameReader) Read(p []byte) (int, error) {
	for f.left == 0 {
		switch f.next {
		case partEnd:
			return 0, io.EOF
		case partChecksum:
			f.left, f.next = 4, partEnd
		case partBlock:
			h, err := f.br.Peek(3)
			if len(h) < 3 {
				if err == io.EOF {
					return 0, io.ErrUnexpectedEOF
				}
				f.ioErr = err
				return 0, err
			}
			v := uint32(h[0]) | uint32(h[1])<<8 | uint32(h[2])<<16
			size := int(v >> 3)
			switch {
			case v>>1&3 == 3:
				return 0, fmt.Errorf("%w: a block of the reserved type", ErrZstd)
			case size > maxZstdBlock:
				return 0, fmt.Errorf("%w: a block of %d bytes", ErrZstd, size)
			case v>>1&3 == 1:
				size = 1 // RLE: one byte, repeated
			}
			f.left = 3 + size
			if v&1 != 0 { // the last block
				f.next = partEnd
				if f.sum {
					f.next = partChecksum
				}
			}
		}
	}
	n, err := f.br.Read(p[:min(len(p), f.left)])
	if f.next == partEnd && f.sum && f.left <= 4 {
		copy(f.check[4-f.left:], p[:n]) // the checksum part
	}
	f.left -= n
	switch {
	case err == io.EOF && n == 0:
		return 0, io.ErrUnexpectedEOF
	case err == io.EOF:
		err = nil
	case err != nil:
		f.ioErr = err
	}
	return n, err
}

// discardN skips n bytes of br and returns how many it skipped, and why
// not all.
func discardN(br *bufio.Reader, n int64) (int64, error) {
	var done int64
	for done < n {
		d, err := br.Discard(int(min(n-done, 1<<30)))
		done += int64(d)
		if err != nil {
			return done, err
		}
	}
	return done, nil
}
