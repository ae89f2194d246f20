// Package shared locates the gold data sets that tests and benchmarks read:
// ../shared/data beside the module root (see the top-level README). They
// are not part of the repository, so every caller skips when they are
// absent. It also reads the machine's message catalogues
// (MoTranslations), text in many languages for tests.
package shared

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Path returns ../shared/data/rel relative to the module root (rel may be
// empty for the data directory itself), or skips tb with a message when it
// does not exist.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	p := filepath.Join(root, "..", "shared", "data", rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared data %s not available (%v)", p, err)
	}
	return p
}

// MoTranslations returns the translations of a GNU .mo message catalogue
// (plural forms each on their own, the header entry left out); nil for
// what is no catalogue. The machine's catalogues (/usr/share/locale) are
// text in every language Debian ships, which tests of charset guessing
// and of mojibake repair read.
func MoTranslations(data []byte) []string {
	if len(data) < 28 {
		return nil
	}
	var order binary.ByteOrder
	switch binary.LittleEndian.Uint32(data) {
	case 0x950412de:
		order = binary.LittleEndian
	case 0xde120495:
		order = binary.BigEndian
	default:
		return nil
	}
	n, table := int(order.Uint32(data[8:])), int(order.Uint32(data[16:]))
	var out []string
	for i := range n {
		at := table + 8*i
		if at+8 > len(data) {
			break
		}
		size, off := int(order.Uint32(data[at:])), int(order.Uint32(data[at+4:]))
		if off < 0 || size < 0 || off+size > len(data) {
			break
		}
		if i == 0 && size > 0 && strings.Contains(string(data[off:off+size]), "Content-Type:") {
			continue // the header entry
		}
		for _, s := range strings.Split(string(data[off:off+size]), "\x00") {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
