package load

import (
	"github.com/fiasco-project/fiasco/internal/shared"
	"path/filepath"
	"strings"
	"testing"
)

// mojibake are traces of UTF-8 decoded as windows-1252, or of undecodable
// bytes.
var mojibake = []string{"Ã©", "Ã¨", "Ã¼", "Ã¶", "Ã¤", "â€™", "â€œ", "â€", "Â ", "\uFFFD"}

// TestRealDataDecoding loads the CleanEval dev and CleanPortalEval pages:
// all load, and their decoded text shows no mojibake beyond pages whose own
// markup spells it with character references.
func TestRealDataDecoding(t *testing.T) {
	root := shared.Path(t, "")
	for _, set := range []string{"cleaneval-en-dev", "cleanportaleval"} {
		files, _ := filepath.Glob(filepath.Join(root, set, "html", "*.html"))
		if len(files) == 0 {
			t.Errorf("%s: no pages", set)
		}
		sources := map[string]int{}
		for _, f := range files {
			p, err := File(f, Options{})
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			sources[p.EncodingSource]++
			txt := docText(p.Doc)
			for _, m := range mojibake {
				if strings.Contains(txt, m) {
					t.Errorf("%s (%s from %s): decoded text holds %q", f, p.Encoding, p.EncodingSource, m)
				}
			}
		}
		t.Logf("%s: %d pages, sources %v", set, len(files), sources)
	}
}
