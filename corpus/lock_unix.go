//go:build unix && !solaris && !aix

package corpus

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// canLock says that lockFile locks: an output is then truncated once
// locked (where it cannot lock, at opening, as O_TRUNC does).
const canLock = true

// lockFile takes an exclusive advisory lock (flock) on a regular file f
// without waiting; it is released when f is closed, also when the process
// is killed. A device or a pipe is not locked.
func lockFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return fmt.Errorf("%s: %w", f.Name(), ErrLocked)
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		return nil // a file system without locks: the run goes on unguarded, as before locks
	}
	return fmt.Errorf("%s: locking: %w", f.Name(), err)
}
