package pipeline

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
)

// TestFrames: a page without text names the pages its frames load; its
// inline frames too where it has no script (on a page a script fills,
// an inline frame is more likely an advertisement); relative ones
// resolved against an absolute <base href>; a page with text names none.
func TestFrames(t *testing.T) {
	for _, c := range []struct {
		name, page string
		want       []string
	}{
		{"frameset", `<html><frameset cols="20%,80%"><frame src="nav.html"><frame src="about:blank"><frame src="main.html"></frameset></html>`,
			[]string{"nav.html", "main.html"}},
		{"inline frame", `<html><body><iframe src="/content.html"></iframe></body></html>`, []string{"/content.html"}},
		{"inline frame beside a script", `<html><body><script>load()</script><iframe src="https://ads.example/slot"></iframe></body></html>`, nil},
		{"base", `<html><head><base href="https://old.example/site/"></head><frameset><frame src="main.html"></frameset></html>`,
			[]string{"https://old.example/site/main.html"}},
		{"text", `<html><body><p>A page of its own, with a paragraph of running text.</p><iframe src="x.html"></iframe></body></html>`, nil},
	} {
		d, err := Prepare(context.Background(), "p.html", []byte(c.page), PrepareOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(d.Frames, c.want) {
			t.Errorf("%s: frames %q, want %q", c.name, d.Frames, c.want)
		}
	}
}

// TestFramesJSON: the JSON output of a page without text names its
// frames, as JSON Lines does.
func TestFramesJSON(t *testing.T) {
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cleaner{Model: m}
	r, err := c.Clean(context.Background(), "f.html", []byte(`<html><frameset cols="20%,80%"><frame src="nav.html"><frame src="main.html"></frameset></html>`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.Write(&b, export.JSON); err != nil {
		t.Fatal(err)
	}
	var out struct{ Frames []string }
	if err := json.Unmarshal([]byte(b.String()), &out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Frames, []string{"nav.html", "main.html"}) {
		t.Errorf("frames %q in\n%s", out.Frames, b.String())
	}
}
