package load

import (
	"math/rand"
	"testing"
	"unicode"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// The byte tables must decode exactly as the charmap decoders do, and the
// detector must score a sample through them exactly as through the
// decoded string.

func randomBytes(r *rand.Rand) []byte {
	b := make([]byte, r.Intn(200))
	for i := range b {
		switch r.Intn(3) {
		case 0:
			b[i] = byte(r.Intn(256))
		case 1:
			b[i] = byte(0x80 + r.Intn(128))
		default:
			b[i] = "abc XYZ\n.,é"[r.Intn(11)]
		}
	}
	return b
}

func TestByteTableDecode(t *testing.T) {
	encs := append([]encoding.Encoding(nil), charmap.All...)
	for _, label := range []string{"windows-1252", "iso-8859-2", "koi8-r", "macintosh", "windows-874", "ibm866"} {
		e, err := htmlindex.Get(label)
		if err != nil {
			t.Fatal(err)
		}
		encs = append(encs, e)
	}
	r := rand.New(rand.NewSource(1))
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	used := 0
	for _, e := range encs {
		tab := byteTableOf(e)
		if tab == nil {
			continue
		}
		used++
		for k := range 300 {
			data := randomBytes(r)
			if k == 0 {
				data = all
			}
			want, err := decode(data, choice{enc: e})
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.NewDecoder().Bytes(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.decode(data); got != want || got != string(out) {
				t.Fatalf("%v: table decodes %q as %q, decoder %q", e, data, got, out)
			}
		}
	}
	if used < 10 {
		t.Errorf("only %d charmaps have a byte table", used)
	}
	if byteTableOf(nil) != nil || byteTableOf(encoding.Nop) != nil {
		t.Error("byte table for a non-charmap encoding")
	}
}

// evaluateRef is evaluate through the decoded string, as before the byte
// tables.
func (m *model) evaluateRef(s []byte) result {
	dec, err := m.enc.NewDecoder().Bytes(s)
	if err != nil {
		return result{mean: -8, faults: 1}
	}
	var res result
	n := 0
	seen := map[rune]bool{}
	rs := []rune(string(dec))
	for i, r := range rs {
		if r < 0x80 {
			continue
		}
		sc := m.score(r)
		if sc == -8 {
			res.faults++
		}
		if _, ok := m.common[unicode.ToLower(r)]; ok && !seen[unicode.ToLower(r)] {
			seen[unicode.ToLower(r)] = true
			res.distinct++
		}
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		switch {
		case isThai(r) && !thaiFits(prev, r, next):
			sc = -2
		case sc > 0 && unicode.Is(unicode.Mn, r) && !(prev >= 0x80 && (unicode.IsLetter(prev) || unicode.Is(unicode.Mn, prev))):
			sc = -2
		case neutral(r) || sc <= 0 || isHan(r) || isKana(r) || isHangul(r) || !unicode.IsLetter(r):
		case !unicode.IsLetter(prev) && !unicode.IsLetter(next):
			sc = -1
		case isLatin(r) && prev >= 0x80 && next >= 0x80 && unicode.IsLetter(prev) && unicode.IsLetter(next):
			sc = -1
		case (isCyrillic(r) || isGreek(r) || isArabic(r) || isHebrew(r) || isThai(r)) && (isASCIILetter(prev) || isASCIILetter(next)):
			sc = -2
		case unicode.IsUpper(r) && lowerEarlier(rs, i):
			sc = -1.5
		}
		res.sum += sc
		n++
	}
	res.runes = n
	if n > 0 {
		res.mean = res.sum / float64(n)
	}
	return res
}

// lowerEarlier reports whether the letters right before rs[i] (back to
// the first rune that is no letter) hold a lower-case one.
func lowerEarlier(rs []rune, i int) bool {
	for j := i - 1; j >= 0 && unicode.IsLetter(rs[j]); j-- {
		if unicode.IsLower(rs[j]) {
			return true
		}
	}
	return false
}

func TestEvaluateMatches(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	samples := [][]byte{nil, []byte("plain ascii"), []byte("caf\xe9 na\xefve \xc0 l'\xe9t\xe9"), []byte("\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0")}
	for range 500 {
		samples = append(samples, randomBytes(r))
	}
	for _, m := range models {
		for _, s := range samples {
			if got, want := m.evaluate(s), m.evaluateRef(s); got != want {
				t.Fatalf("%s: evaluate(%q) = %+v, want %+v", m.name, s, got, want)
			}
		}
	}
}
