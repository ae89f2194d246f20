package load

import (
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// byteTable is a single-byte charset's decoder taken apart: what it
// writes for each byte. Decoding with the table gives the decoder's
// output byte for byte (a charmap decodes every byte on its own) without
// its buffer growing and copying, and the statistical detector reads the
// runes of a sample without decoding it into a new string first.
type byteTable struct {
	text [256]string // the UTF-8 the decoder writes for the byte
	r    [256]rune   // the rune it encodes
	// asciiSame reports that bytes below 0x80 decode to themselves.
	asciiSame bool
}

var byteTables sync.Map // *charmap.Charmap -> *byteTable, or nil if unusable

// byteTableOf returns the table of enc, or nil if enc is not a charmap or
// its decoder does not write one valid rune for every byte (then callers
// use the decoder).
func byteTableOf(enc encoding.Encoding) *byteTable {
	cm, ok := enc.(*charmap.Charmap)
	if !ok || cm == nil {
		return nil
	}
	if t, ok := byteTables.Load(cm); ok {
		return t.(*byteTable)
	}
	t := newByteTable(cm)
	byteTables.Store(cm, t)
	return t
}

func newByteTable(cm *charmap.Charmap) *byteTable {
	t := &byteTable{asciiSame: true}
	dec := cm.NewDecoder()
	for b := range 256 {
		out, err := dec.Bytes([]byte{byte(b)})
		if err != nil || len(out) == 0 {
			return nil
		}
		r, size := utf8.DecodeRune(out)
		if size != len(out) || r == utf8.RuneError && size <= 1 {
			return nil
		}
		t.text[b], t.r[b] = string(out), r
		if b < utf8.RuneSelf && (size != 1 || out[0] != byte(b)) {
			t.asciiSame = false
		}
	}
	return t
}

// decode is string(dec.Bytes(data)) for the table's decoder dec.
func (t *byteTable) decode(data []byte) string {
	n := 0
	for _, b := range data {
		n += len(t.text[b])
	}
	var sb strings.Builder
	sb.Grow(n)
	for i := 0; i < len(data); {
		if t.asciiSame && data[i] < utf8.RuneSelf {
			j := i + 1
			for j < len(data) && data[j] < utf8.RuneSelf {
				j++
			}
			sb.Write(data[i:j])
			i = j
			continue
		}
		sb.WriteString(t.text[data[i]])
		i++
	}
	return sb.String()
}
