package pipeline

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestCleanerSmooth: the embedded text model smooths (classify.Model.Smooth),
// and Cleaner.Smooth replaces its switch cost for a run without changing
// the shared model. On testdata/walk.html the one-link line between two
// paragraphs of the walk, 0.12 below the threshold, goes with its
// neighbours when smoothed and is dropped when not.
func TestCleanerSmooth(t *testing.T) {
	data, err := os.ReadFile("../testdata/walk.html")
	if err != nil {
		t.Fatal(err)
	}
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Smooth != 0.25 {
		t.Errorf("the embedded text model smooths at %g, want 0.25", m.Smooth)
	}
	const line = "More walks by the weir"
	zero, small := 0.0, 0.1
	for _, c := range []struct {
		smooth *float64
		kept   bool
	}{{nil, true}, {&zero, false}, {&small, true}} {
		cl := &Cleaner{Model: m, Smooth: c.smooth}
		res, err := cl.Clean(context.Background(), "walk.html", data)
		if err != nil {
			t.Fatal(err)
		}
		want := m.Smooth
		if c.smooth != nil {
			want = *c.smooth
		}
		if res.Model.Smooth != want {
			t.Errorf("Smooth %v: the page was cleaned at %g", c.smooth, res.Model.Smooth)
		}
		if got := strings.Contains(res.Text(), line); got != c.kept {
			t.Errorf("Smooth %v: %q kept %v, want %v", c.smooth, line, got, c.kept)
		}
	}
	if m.Smooth != 0.25 {
		t.Errorf("Cleaner.Smooth changed the shared model's smoothing to %g", m.Smooth)
	}
}
