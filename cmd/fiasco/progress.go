package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws a progress bar on a terminal stream (stderr). It redraws
// at most ten times a second and is safe for concurrent use.
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
}

// newProgress returns a bar for total steps of unit; quiet or total < 2
// turn it off.
func newProgress(w io.Writer, label, unit string, total int, quiet bool) *progress {
	return &progress{w: w, label: label, unit: unit, total: total, start: time.Now(), off: quiet || total < 2, quiet: quiet}
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
	if now := time.Now(); done < p.total && now.Sub(p.last) < 100*time.Millisecond {
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
	fmt.Fprintln(p.w)
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
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d %s %3.0f%% %s%s   ", p.label,
		strings.Repeat("=", n), strings.Repeat(" ", width-n), p.done, p.total, p.unit, 100*frac,
		el.Round(time.Second), eta)
}
