package load

import (
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
