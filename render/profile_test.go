//go:build unix && !solaris && !aix

package render

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepProfile: a profile whose owner file is old and unlocked (its
// process was killed) is removed; one whose owner holds the lock, one
// just made, and one without an owner file stay.
func TestSweepProfile(t *testing.T) {
	base := t.TempDir()
	old := time.Now().Add(-2 * abandonedAge)
	mk := func(name string, claim bool) (string, *os.File) {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "Preferences"), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if !claim {
			return dir, nil
		}
		f, err := claimProfile(dir)
		if err != nil {
			t.Fatal(err)
		}
		return dir, f
	}
	abandoned, f := mk("abandoned", true)
	f.Close() // as a SIGKILL would
	running, g := mk("running", true)
	defer g.Close()
	fresh, h := mk("fresh", true)
	h.Close()
	ownerless, _ := mk("ownerless", false)
	for _, dir := range []string{abandoned, running, ownerless} {
		os.Chtimes(filepath.Join(dir, ownerFile), old, old)
	}
	now := time.Now()
	for dir, want := range map[string]bool{abandoned: true, running: false, fresh: false, ownerless: false} {
		if got := sweepProfile(dir, now); got != want {
			t.Errorf("%s: swept %v, want %v", filepath.Base(dir), got, want)
		}
		_, err := os.Stat(dir)
		if gone := os.IsNotExist(err); gone != want {
			t.Errorf("%s: removed %v, want %v (%v)", filepath.Base(dir), gone, want, err)
		}
	}
}
