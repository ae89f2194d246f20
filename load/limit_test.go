package load

import (
	"math"
	"strings"
	"testing"
)

// TestMaxBytesUnbounded: a MaxBytes of math.MaxInt64 means no limit, not
// an overflow that reads nothing.
func TestMaxBytesUnbounded(t *testing.T) {
	p, err := Reader("p.html", strings.NewReader("<p>Some text of a page.</p>"), Options{MaxBytes: math.MaxInt64})
	if err != nil || p.Truncated {
		t.Fatalf("MaxBytes math.MaxInt64: %v", err)
	}
}
