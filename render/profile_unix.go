//go:build unix && !solaris && !aix

package render

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// A local browser's profile directory holds ownerFile, which the process
// that made the directory keeps locked (flock) while the browser runs. A
// process killed outright (SIGKILL) cannot remove its profile; the lock
// goes with it, and the next Browser to start in the same temporary
// directory removes the profile (sweepProfiles). The lock is held by an
// open file description, not a process ID, so it means the same across
// PID namespaces (containers sharing a temporary directory).
const ownerFile = ".fiasco-owner"

// abandonedAge is how old an unlocked owner file must be before its
// profile counts as abandoned: the maker locks it right after creating it.
const abandonedAge = time.Minute

// claimProfile creates dir's owner file and locks it; closing the file
// releases the claim.
func claimProfile(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err // names the file
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		// Without the lock the owner file would read as abandoned: no
		// owner file, no sweep (a file system without locks).
		if rerr := os.Remove(f.Name()); rerr != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), rerr)
		}
		if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) {
			return nil, nil
		}
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return f, nil
}

var sweepOnce sync.Once

// sweepProfiles removes, once per process, the profiles of browsers whose
// owner is gone: directories fiasco-chromium-* in the temporary directory
// whose owner file is a minute old or more and not locked. A profile
// without an owner file (made by a fiasco from before owner files, or by
// hand) is left alone.
func sweepProfiles() {
	sweepOnce.Do(func() {
		dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
		for _, dir := range dirs {
			sweepProfile(dir, time.Now())
		}
	})
}

// sweepProfile removes dir if its owner is gone (see sweepProfiles),
// reporting whether it did.
func sweepProfile(dir string, now time.Time) bool {
	f, err := os.Open(filepath.Join(dir, ownerFile))
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || now.Sub(fi.ModTime()) < abandonedAge {
		return false
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false // its owner runs
	}
	return removeProfile(dir) == nil
}
