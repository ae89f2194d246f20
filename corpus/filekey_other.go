//go:build !unix

package corpus

import "os"

// fileKey would identify a file; without device and inode numbers nothing
// is identified: outputs are not excluded by identity, and the walk's
// depth limit ends symbolic-link cycles.
type fileKey struct{}

func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
