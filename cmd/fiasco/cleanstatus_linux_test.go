package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal's two ends: what a program writes to
// the second, a terminal, can be read from the first.
func openPTY(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestBatchStatusOnTerminal: on a terminal, fiasco clean's progress is a
// line redrawn in place, unless the pages go to a terminal too (the
// standard output, or an -o naming one): then the line would run into
// them, and the report comes as whole lines, as to a log.
func TestBatchStatusOnTerminal(t *testing.T) {
	_, term := openPTY(t)
	if !isTerminal(term) {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	var buf bytes.Buffer
	file := filepath.Join(t.TempDir(), "out.jsonl")
	for _, c := range []struct {
		name   string
		stdout *os.File
		out    string
		want   bool
	}{
		{"pages to the terminal", term, "", false},
		{"pages to -o the terminal", nil, term.Name(), false},
		{"pages to -o a file", term, file, true},
		{"pages to -o /dev/null", term, os.DevNull, true},
		{"pages to a pipe or file", nil, "", true},
	} {
		var st *status
		if c.stdout != nil {
			st = batchStatus(c.stdout, term, c.out, false)
		} else {
			st = batchStatus(&buf, term, c.out, false)
		}
		if st.term != c.want || (st.term && st.interval != 100*time.Millisecond) || (!st.term && st.interval != statusEvery) {
			t.Errorf("%s: redrawn in place %v (every %v), want %v", c.name, st.term, st.interval, c.want)
		}
	}
	if st := batchStatus(&buf, &buf, "", false); st.term {
		t.Errorf("stderr no terminal: redrawn in place")
	}
}
