package classify

// SetMaxModelBytes lowers the size limit of Read for a test and returns
// the function that restores it.
func SetMaxModelBytes(n int64) (restore func()) {
	old := maxModelBytes
	maxModelBytes = n
	return func() { maxModelBytes = old }
}
