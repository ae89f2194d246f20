package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestCleanSmooth: --smooth reaches the model clean and inspect use. On
// testdata/walk.html the text model drops a line of one link between two
// paragraphs of the walk (0.23 below its threshold); smoothed, the line
// goes with its neighbours, as the embedded text model (which stores the
// switch cost 0.25) does by default. inspect's labels are
// classify.KeepSmooth of its values at every switch cost.
func TestCleanSmooth(t *testing.T) {
	const page, line = "../../testdata/walk.html", "More walks by the weir"
	for _, c := range []struct {
		args []string
		kept bool
	}{{[]string{"--smooth", "0"}, false}, {[]string{"--smooth", "0.24"}, true}, {nil, true}} {
		args := append(append([]string{"clean", "--no-render", "--format", "text"}, c.args...), page)
		code, out, errs := fiasco(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if got := strings.Contains(out, line); got != c.kept {
			t.Errorf("%v: %q kept %v, want %v:\n%s", c.args, line, got, c.kept, out)
		}
	}
	needChromium(t) // inspect draws the picture
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{0, 0.1, 1} {
		code, out, errs := fiasco(t, "inspect", "--no-render", "--json", "--smooth", strconv.FormatFloat(s, 'g', -1, 64), "-o", t.TempDir()+"/p.png", page)
		if code != 0 {
			t.Fatalf("inspect --smooth %g: exit %d: %s", s, code, errs)
		}
		var rows []struct {
			Label string  `json:"label"`
			Value float64 `json:"value"`
		}
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("inspect --smooth %g: %v", s, err)
		}
		var values []float64
		var labels []bool
		for _, r := range rows {
			values, labels = append(values, r.Value), append(labels, r.Label == "clean")
		}
		if want := classify.KeepSmooth(values, m.Threshold, s); !slices.Equal(labels, want) {
			t.Errorf("inspect --smooth %g: labels %v, want %v", s, labels, want)
		}
	}
}
