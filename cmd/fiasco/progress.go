package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws a progress bar on a terminal stream (stderr), redrawn at
// most ten times a second. On anything else (a log file, a pipe) it writes
// a whole line at most every logEvery and one at the end, so that logs get
// lines, not one endless line of carriage returns. It is safe for
// concurrent use.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	unit  string // what is counted, e.g. "pages"
	total int
	done  int
	start time.Time
	last  time.Time
	drawn int // done at the last draw
	off   bool
	quiet bool
	term  bool // w is a terminal
}

// logEvery is how often a progress line goes to a stream that is not a
// terminal.
const logEvery = 10 * time.Second

// newProgress returns a bar for total steps of unit; quiet or total < 2
// turn it off.
func newProgress(w io.Writer, label, unit string, total int, quiet bool) *progress {
	return &progress{w: w, label: label, unit: unit, total: total, start: time.Now(), off: quiet || total < 2, quiet: quiet, term: isTerminal(w)}
}

// Set records that done steps are complete; a smaller count than one
// already seen (callbacks from several goroutines) is ignored.
func (p *progress) Set(done int) {
	if p == nil || p.off {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done < p.done {
		return
	}
	p.done = done
	every := 100 * time.Millisecond
	if !p.term {
		every = logEvery
		if p.last.IsZero() {
			p.last = p.start // the first line after logEvery, not at once
		}
	}
	if now := time.Now(); done < p.total && now.Sub(p.last) < every {
		return
	}
	p.last = time.Now()
	p.draw()
}

// Update records done of total steps, for callers that learn the total
// only as they go.
func (p *progress) Update(done, total int) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	p.total = total
	p.off = total < 2
	p.mu.Unlock()
	p.Set(done)
}

// Add records one more completed step.
func (p *progress) Add() {
	if p == nil || p.off {
		return
	}
	p.mu.Lock()
	d := p.done + 1
	p.mu.Unlock()
	p.Set(d)
}

// Done ends the bar's line.
func (p *progress) Done() {
	if p == nil || p.off {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn != p.done || p.last.IsZero() {
		p.draw()
	}
	if p.term {
		fmt.Fprintln(p.w)
	}
}

func (p *progress) draw() {
	p.drawn = p.done
	const width = 30
	frac := 0.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	n := int(frac * width)
	el := time.Since(p.start)
	eta := ""
	if p.done > 0 && p.done < p.total {
		rem := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		eta = " eta " + rem.Round(time.Second).String()
	}
	if !p.term {
		fmt.Fprintf(p.w, "%s: %d/%d %s %3.0f%% %s%s\n", p.label, p.done, p.total, p.unit, 100*frac, el.Round(time.Second), eta)
		return
	}
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d %s %3.0f%% %s%s   ", p.label,
		strings.Repeat("=", n), strings.Repeat(" ", width-n), p.done, p.total, p.unit, 100*frac,
		el.Round(time.Second), eta)
}
