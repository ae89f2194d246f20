package load

import (
	"math/rand"
	"testing"
	"unicode/utf8"
)

// utf8StatsRef is utf8Stats byte by byte, as before the ASCII skip.
func utf8StatsRef(data []byte) u8stats {
	var s u8stats
	for i := 0; i < len(data); {
		b := data[i]
		if b < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			if len(data)-i < 4 && !utf8.FullRune(data[i:]) {
				break
			}
			s.invalid++
			i++
			continue
		}
		s.valid++
		i += size
	}
	return s
}

func controlsRef(data []byte) int {
	ctl := 0
	for _, c := range data {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1B || c == 0x7F {
			ctl++
		}
	}
	return ctl
}

func TestScansMatch(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	pieces := []string{"a", "plain ascii text ", "é", "\xe2\x80\x99", "\xff", "\xc3", "\xe2\x80", "\x00", "\x7f", "\x1b", "\t\n", "日本"}
	for range 20000 {
		var b []byte
		for k := r.Intn(30); k > 0; k-- {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		if got, want := utf8Stats(b), utf8StatsRef(b); got != want {
			t.Fatalf("utf8Stats(%q) = %+v, want %+v", b, got, want)
		}
		n := 0
		for _, c := range b {
			n += int(isControl[c])
		}
		if want := controlsRef(b); n != want {
			t.Fatalf("controls of %q: %d, want %d", b, n, want)
		}
	}
}
