//go:build !linux

package render

import (
	"os"
	"os/exec"
)

// ownGroup leaves the browser's command as it is (see proc_linux.go).
func ownGroup(*exec.Cmd) {}

// processGroups finds nothing: no /proc to look in.
func processGroups(string) map[int]bool { return nil }

// killLeftovers does nothing: no /proc to look in.
func killLeftovers(string, map[int]bool) {}

// removeAll removes dir.
func removeAll(dir string) error { return os.RemoveAll(dir) }
