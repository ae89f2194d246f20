package render

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
)

// decodePNGInto decodes the PNG in data into dst with its top-left corner at
// (0, y0). The PNG must be exactly dst's width wide and fit below y0.
//
// Chromium's screenshots (8-bit RGB without alpha, non-interlaced, filter Up on every row
// when optimizeForSpeed is set) take a fast path written for them: the zlib
// stream is inflated without its checksum, the filters are undone eight bytes
// at a time, a row whose filtered bytes are all zero (the same as the row
// above, most rows of a highlighted page) is copied, and pixels are written
// straight into dst. Any other PNG goes through image/png.
func decodePNGInto(data []byte, dst *image.RGBA, y0 int) error {
	w, h, ctype, ok := pngHeader(data)
	if !ok || ctype != 2 {
		return decodeSlow(data, dst, y0)
	}
	if w != dst.Rect.Dx() || y0 >= dst.Rect.Dy() {
		return decodeSlow(data, dst, y0)
	}
	// Rows beyond dst (a strip rounded up at a fractional scale) are dropped.
	h = min(h, dst.Rect.Dy()-y0)
	// The IDAT chunks, concatenated (no copy when there is one).
	var chunks [][]byte
	for p := data[8:]; len(p) >= 12; {
		n := int(binary.BigEndian.Uint32(p))
		if n < 0 || 12+n > len(p) {
			return errors.New("truncated PNG chunk")
		}
		if string(p[4:8]) == "IDAT" {
			chunks = append(chunks, p[8:8+n])
		}
		p = p[12+n:]
	}
	var idat []byte
	if len(chunks) == 1 {
		idat = chunks[0]
	} else {
		idat = bytes.Join(chunks, nil)
	}
	if len(idat) < 2 {
		return errors.New("PNG without image data")
	}
	fr := flate.NewReader(bytes.NewReader(idat[2:])) // skip the zlib header
	defer fr.Close()
	br := bufio.NewReaderSize(fr, 1<<16)
	const bpp = 3
	rowLen := w * bpp
	cur := make([]byte, 1+rowLen)
	prev := make([]byte, 1+rowLen) // prev[0] unused; starts all zero
	for y := 0; y < h; y++ {
		if _, err := io.ReadFull(br, cur); err != nil {
			return fmt.Errorf("PNG row %d: %w", y, err)
		}
		out := dst.Pix[(y0+y)*dst.Stride : (y0+y)*dst.Stride+4*w]
		f, cd, pd := cur[0], cur[1:], prev[1:]
		if f == 2 && y > 0 && allZero(cd) {
			// Same row as above: cd = pd, and out = the row above.
			copy(cd, pd)
			copy(out, dst.Pix[(y0+y-1)*dst.Stride:])
			cur, prev = prev, cur
			continue
		}
		if err := unfilter(f, cd, pd, bpp); err != nil {
			return fmt.Errorf("PNG row %d: %w", y, err)
		}
		expandRGB(out, cd, w)
		cur, prev = prev, cur
	}
	return nil
}

// pngHeader reads the IHDR of an 8-bit, non-interlaced PNG.
func pngHeader(d []byte) (w, h int, ctype byte, ok bool) {
	if len(d) < 33 || string(d[:8]) != "\x89PNG\r\n\x1a\n" || string(d[12:16]) != "IHDR" {
		return 0, 0, 0, false
	}
	w = int(binary.BigEndian.Uint32(d[16:]))
	h = int(binary.BigEndian.Uint32(d[20:]))
	depth, interlace := d[24], d[28]
	return w, h, d[25], depth == 8 && interlace == 0 && w > 0 && h > 0 && w < 1<<20 && h < 1<<20
}

func decodeSlow(data []byte, dst *image.RGBA, y0 int) error {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return err
	}
	b := img.Bounds()
	if d := b.Dx() - dst.Rect.Dx(); d < -2 || d > 2 {
		return fmt.Errorf("screenshot strip at y=%d is %d px wide, want %d", y0, b.Dx(), dst.Rect.Dx())
	}
	// Clipped to dst: strips may be a pixel off at a fractional scale.
	draw.Draw(dst, image.Rect(0, y0, b.Dx(), y0+b.Dy()), img, b.Min, draw.Src)
	return nil
}

func allZero(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:]) != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] != 0 {
			return false
		}
	}
	return true
}

const lo7 = 0x7f7f7f7f7f7f7f7f

// unfilter undoes PNG filter f on row cd given the previous row pd.
func unfilter(f byte, cd, pd []byte, bpp int) error {
	switch f {
	case 0:
	case 1: // Sub
		for i := bpp; i < len(cd); i++ {
			cd[i] += cd[i-bpp]
		}
	case 2: // Up: bytewise addition, 8 bytes at a time without carries
		i := 0
		for ; i+8 <= len(cd); i += 8 {
			a, b := binary.LittleEndian.Uint64(cd[i:]), binary.LittleEndian.Uint64(pd[i:])
			binary.LittleEndian.PutUint64(cd[i:], ((a&lo7)+(b&lo7))^((a^b)&^lo7))
		}
		for ; i < len(cd); i++ {
			cd[i] += pd[i]
		}
	case 3: // Average
		for i := 0; i < bpp; i++ {
			cd[i] += pd[i] / 2
		}
		for i := bpp; i < len(cd); i++ {
			cd[i] += uint8((int(cd[i-bpp]) + int(pd[i])) / 2)
		}
	case 4: // Paeth
		for i := 0; i < len(cd); i++ {
			var a, c int
			if i >= bpp {
				a, c = int(cd[i-bpp]), int(pd[i-bpp])
			}
			b := int(pd[i])
			p := a + b - c
			pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
			switch {
			case pa <= pb && pa <= pc:
				cd[i] += uint8(a)
			case pb <= pc:
				cd[i] += uint8(b)
			default:
				cd[i] += uint8(c)
			}
		}
	default:
		return fmt.Errorf("bad filter type %d", f)
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// expandRGB writes w RGB pixels of src as opaque RGBA into out.
func expandRGB(out, src []byte, w int) {
	x := 0
	// Read four bytes at a time (the fourth is the next pixel's red).
	for ; x < w-1; x++ {
		v := binary.LittleEndian.Uint32(src[3*x:]) | 0xff000000
		binary.LittleEndian.PutUint32(out[4*x:], v)
	}
	for ; x < w; x++ {
		out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = src[3*x], src[3*x+1], src[3*x+2], 0xff
	}
}
