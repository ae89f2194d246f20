package main

import "golang.org/x/sys/unix"

// isTTY reports whether fd is a terminal: it answers a terminal's ioctl.
func isTTY(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
