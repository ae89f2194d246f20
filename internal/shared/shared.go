// Package shared locates the gold data sets that tests and benchmarks read:
// ../shared/data beside the module root (see the top-level README). They
// are not part of the repository, so every caller skips when they are
// absent.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
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
