package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// TestGuessCJKLocales is TestGuessLocales for the multi-byte charsets:
// real Chinese, Japanese and Korean text from the message catalogues,
// encoded without a declaration, must decode right in at least 95% of
// the pages of 1,000 characters, and no single-byte model (Thai, Arabic
// and Hebrew read every byte pair as two letters) may take them.
func TestGuessCJKLocales(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if _, err := os.Stat(filepath.Join(localeDir, "ja")); err != nil {
		t.Skipf("no message catalogues here: %v", err)
	}
	for _, c := range []struct {
		lang string
		enc  encoding.Encoding
	}{
		{"zh_CN", simplifiedchinese.GBK},
		{"zh_TW", traditionalchinese.Big5},
		{"ja", japanese.ShiftJIS},
		{"ja", japanese.EUCJP},
		{"ko", korean.EUCKR},
	} {
		limit := 0
		if raceEnabled {
			limit = 4000
		}
		_, test := localeText(t, c.lang, limit)
		if len(test) < 100 {
			t.Logf("%s: %d translations, too few", c.lang, len(test))
			continue
		}
		var row []string
		sizes, pages := []int{200, 1000, 5000}, 200
		if raceEnabled {
			sizes, pages = []int{1000}, 40
		}
		encode := func(s string) []byte {
			data, _ := encoding.ReplaceUnsupported(c.enc.NewEncoder()).Bytes([]byte(s)) // fails never: it replaces
			return data
		}
		same := func(s string) string { return s }
		for _, size := range sizes {
			share := readRight(test, same, utf8.RuneCountInString, encode, c.enc, size, pages)
			row = append(row, fmt.Sprintf("%5.1f%%", share))
			if size == 1000 && share < 95 {
				t.Errorf("%s in %s: %.1f%% of 1,000-character pages read right", c.lang, c.enc, share)
			}
		}
		t.Logf("%-5s %-12s %v characters: %s", c.lang, c.enc, sizes, strings.Join(row, " "))
	}
}
