//go:build !unix || solaris || aix

package corpus

import "os"

// canLock says that lockFile does not lock: an output is truncated as it
// is opened (O_TRUNC; on Windows, a file opened to append without it
// cannot be truncated).
const canLock = false

// lockFile does nothing where flock is not available: two runs writing
// the same output are not prevented there.
func lockFile(*os.File) error { return nil }
