package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressInLogs: on a stream that is not a terminal the bar writes
// whole lines, no carriage returns, and a last line with the total.
func TestProgressInLogs(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "load", "pages", 500, false)
	for i := 1; i <= 500; i++ {
		p.Set(i)
	}
	p.Done()
	out := b.String()
	if strings.Contains(out, "\r") {
		t.Errorf("carriage return in a log: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "load: 500/500 pages 100%") {
		t.Errorf("log lines %q, want one line for the end (the run took less than %v)", lines, logEvery)
	}
	b.Reset()
	q := newProgress(&b, "load", "pages", 500, true)
	q.Set(10)
	q.Done()
	if b.Len() != 0 {
		t.Errorf("quiet bar wrote %q", b.String())
	}
}
