//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package main

// isTTY reports whether fd is a terminal; where no terminal ioctl is
// known, every character device but the null device counts as one
// (isTerminal checks that first).
func isTTY(uintptr) bool { return true }

// probeFlags are the extra flags of an open that asks whether a device is
// a terminal: none known here.
const probeFlags = 0
