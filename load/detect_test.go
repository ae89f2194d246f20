package load

import (
	"github.com/fiasco-project/fiasco/internal/shared"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

var metaRE = regexp.MustCompile(`(?i)<meta[^>]*charset[^>]*>|<\?xml[^>]*\?>`)

// TestDetectorOnRealPages re-encodes the UTF-8 pages of the shared data
// sets that windows-1252 can represent into windows-1252, removes their
// charset declarations and checks that the detector says windows-1252:
// the guess link must not mistake Western pages (English and German here)
// for another charset.
func TestDetectorOnRealPages(t *testing.T) {
	root := shared.Path(t, "")
	total, right := 0, 0
	wrong := map[string]int{}
	for _, set := range []string{"cleanportaleval", "krdwrd-canola", "l3s-gn1", "dragnet"} {
		files, _ := filepath.Glob(filepath.Join(root, set, "html", "*.html"))
		if testing.Short() && len(files) > 100 {
			files = files[:100]
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil || !utf8.Valid(data) {
				continue
			}
			_, body := unwrap(data)
			enc, err := charmap.Windows1252.NewEncoder().Bytes(body)
			if err != nil || !hasHigh(enc) {
				continue // not representable, or nothing to guess
			}
			enc = metaRE.ReplaceAll(enc, nil)
			if utf8.Valid(enc) || len(body) >= 3 && string(body[:3]) == "\xEF\xBB\xBF" {
				continue // source mojibake or a mark: the bytes say UTF-8
			}
			c := chooseCharset(enc, "", "")
			total++
			if c.name == "windows-1252" && c.source == SourceGuess {
				right++
			} else {
				wrong[c.name+"/"+c.source]++
				if testing.Verbose() {
					hi := []rune{}
					for _, r := range string(body) {
						if r >= 0x80 && len(hi) < 40 {
							hi = append(hi, r)
						}
					}
					t.Logf("%s: %s from %s: %q", filepath.Base(f), c.name, c.source, string(hi))
				}
			}
		}
	}
	t.Logf("windows-1252 pages guessed right: %d of %d; wrong: %v", right, total, wrong)
	if total == 0 {
		t.Skip("no pages to re-encode")
	}
	if float64(right) < 0.98*float64(total) {
		t.Errorf("only %d of %d right", right, total)
	}
}
