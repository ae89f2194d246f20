//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "golang.org/x/sys/unix"

// isTTY reports whether fd is a terminal: it answers a terminal's ioctl.
func isTTY(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}

// probeFlags open a device only to ask whether it is a terminal: it does
// not become the controlling terminal, and an open that would wait (a
// modem line) does not.
const probeFlags = unix.O_NOCTTY | unix.O_NONBLOCK
