package load

import (
	"errors"
	"strings"
	"testing"
)

// TestTruncatedUTF8 checks that a UTF-8 page cut inside its last character
// loses that character only.
func TestTruncatedUTF8(t *testing.T) {
	p, err := File("testdata/charset/utf8-truncated.html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	txt := docText(p.Doc)
	if !strings.HasSuffix(txt, "xxxxxxxxxx ") {
		t.Errorf("text ends %q", txt[max(0, len(txt)-20):])
	}
}

// TestCutEnds: a page cut inside a character of a multi-byte charset, or
// inside a tag, ends with what came before the cut: no U+FFFD for the
// character, no "<" or "</" as text.
func TestCutEnds(t *testing.T) {
	gbk := "<html><head><meta charset=gbk></head><body><p>\xb1\xb1\xbe\xa9\xca\xd0\xd5\xfe\xb8\xae</p></body></html>" // 北京市政府
	utf16 := "<\x00p\x00>\x00\x17S\xacN\x02^\x3fe\x9c^"                                                               // <p>北京市政府, UTF-16LE
	for _, c := range []struct {
		name, data, ctype string
		max               int64
		want              string
	}{
		{"gbk cut in a character", gbk, "", int64(strings.Index(gbk, "\xb8\xae") + 1), "北京市政"},
		{"gbk whole", gbk, "", 0, "北京市政府"},
		{"utf-16 cut in a unit", utf16, "text/html; charset=utf-16le", int64(len(utf16) - 1), "北京市政"},
		{"cut after <", "<p>One sentence.</p><p>Two.<", "", 0, "Two."},
		{"cut after </", "<p>One sentence.</p><p>Two.</", "", 0, "Two."},
		{"a < b at the end", "<p>if a < b", "", 0, "if a < b"},
	} {
		p, err := Bytes(c.name, []byte(c.data), Options{MaxBytes: c.max, ContentType: c.ctype})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if txt := strings.TrimSpace(docText(p.Doc)); !strings.HasSuffix(txt, c.want) {
			t.Errorf("%s: text ends %q, want %q", c.name, txt[max(0, len(txt)-24):], c.want)
		}
	}
}

// TestUnsupportedCharsetNamed: a page refused as binary that declares a
// charset this package cannot decode says so, naming the charset.
func TestUnsupportedCharsetNamed(t *testing.T) {
	body := strings.Repeat("\x0e\x3e\x48\x3a\x3e\x0f ", 200) // ISO-2022-KR: SO, two KS X 1001 pairs, SI
	for _, c := range []struct{ data, ctype, want string }{
		{`<html><head><meta charset="iso-2022-kr"></head><body><p>` + body, "", `"iso-2022-kr"`},
		{"<\x00\x00\x00p\x00\x00\x00>\x00\x00\x00" + strings.Repeat("\x17S\x00\x00", 300), "text/html; charset=utf-32", `"utf-32"`},
	} {
		_, err := Bytes("p.html", []byte(c.data), Options{ContentType: c.ctype})
		if err == nil || !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "p.html") {
			t.Errorf("%v, want ErrBinary naming p.html and %s", err, c.want)
		}
	}
}
