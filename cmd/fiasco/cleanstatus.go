package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// statusEvery is how often a run writes a progress line when stderr is
// not a terminal (a log file, a pipe).
var statusEvery = 10 * time.Second

// status reports a batch's progress on stderr: on a terminal, one line
// redrawn in place at most ten times a second; otherwise (logs) a line
// every statusEvery, with pages done, pages per second and failures. It
// is safe for concurrent use; failure messages take its lock so that they
// do not break into a line being drawn.
type status struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	term     bool
	off      bool
	start    time.Time
	last     time.Time
	pages    int
	failed   int
	drawn    bool // a terminal line is on screen
	interval time.Duration
}

// newStatus returns the progress report of a batch labelled label; quiet
// turns it off.
func newStatus(w io.Writer, label string, quiet bool) *status {
	now := time.Now()
	s := &status{w: w, label: label, off: quiet, start: now, last: now, term: isTerminal(w), interval: statusEvery}
	if s.term {
		s.interval = 100 * time.Millisecond
	}
	return s
}

// batchStatus is fiasco clean's progress report on stderr. Where the
// pages go to a terminal too (the standard output when out is "", or an
// -o that names a terminal: /dev/stdout, /dev/tty), a line redrawn in
// place would run into them: the report then comes as whole lines every
// statusEvery, as to a log.
func batchStatus(stdout, stderr io.Writer, out string, quiet bool) *status {
	s := newStatus(stderr, "fiasco clean", quiet)
	if s.term && (out == "" && isTerminal(stdout) || out != "" && namesTerminal(out)) {
		s.term, s.interval = false, statusEvery
	}
	return s
}

// namesTerminal reports whether path is a terminal (isTerminal), opening
// it only when it is a character device (probeFlags): a file, folder or
// FIFO is not.
func namesTerminal(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	f, err := os.OpenFile(path, os.O_WRONLY|probeFlags, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return isTerminal(f)
}

// isTerminal reports whether w (or the standard output a pipeWriter
// wraps) is a terminal: a character device other than /dev/null that
// answers a terminal's ioctl (isTTY; /dev/full does not).
func isTerminal(w io.Writer) bool {
	if p, ok := w.(*pipeWriter); ok {
		w = p.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return isTTY(f.Fd())
}

// add records one page done, failed or not.
func (s *status) add(failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages++
	if failed {
		s.failed++
	}
	if s.off {
		return
	}
	if now := time.Now(); now.Sub(s.last) >= s.interval {
		s.last = now
		s.draw()
	}
}

func (s *status) line() string {
	el := time.Since(s.start)
	rate := 0.0
	if sec := el.Seconds(); sec > 0 {
		rate = float64(s.pages) / sec
	}
	return fmt.Sprintf("%s: %s, %.1f pages/s, %d failed, %s", s.label, plural(s.pages, "page"), rate, s.failed, el.Round(time.Second))
}

func (s *status) draw() {
	if s.term {
		fmt.Fprintf(s.w, "\r%s   ", s.line())
		s.drawn = true
		return
	}
	fmt.Fprintln(s.w, s.line())
}

// message writes a line (a failure) on stderr, clearing a terminal line
// first.
func (s *status) message(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drawn {
		fmt.Fprint(s.w, "\r\x1b[K") // clear the line
	}
	fmt.Fprintln(s.w, line)
	if s.drawn {
		s.draw()
	}
}

// done ends the report: the terminal line is finished.
func (s *status) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drawn {
		s.draw()
		fmt.Fprintln(s.w)
		s.drawn = false
	}
}
