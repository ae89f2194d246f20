package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// TestBeyondCapture: a page taller than the render's MaxHeight. The
// blocks below the captured part are marked Beyond and decided by the
// embedded text model (as with --no-render), not taken for hidden text:
// the article's paragraphs there are kept, as the text model keeps them.
func TestBeyondCapture(t *testing.T) {
	v := chromeVisualizer(t, render.Options{Scale: pipeline.DefaultRenderScale, MaxHeight: 3000})
	ctx := context.Background()
	m := mustVisual(t)
	var b strings.Builder
	b.WriteString(`<html><head><title>The long report</title></head><body style="margin:0;font:16px/20px sans-serif">
<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About us</a></li></ul>
<h1>The long report</h1>`)
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d near the top. The council met on Tuesday to discuss the new bridge over the river, and the mayor said that the work would start in the spring if the budget allows it.</p>\n", i)
	}
	b.WriteString(`<div style="height:5000px"></div>`)
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d far below. The engineers explained that the old bridge could carry no more than ten tonnes, and that the lorries which now cross it every morning have to take the long road through the villages instead.</p>\n", i)
	}
	b.WriteString(`</body></html>`)
	c := &pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}
	res, err := c.Clean(ctx, "tall.html", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	text := &pipeline.Cleaner{Model: mustText(t)}
	tres, err := text.Clean(ctx, "tall.html", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	below := 0
	for i, blk := range res.Blocks {
		if !strings.Contains(blk.Text, "far below") {
			if res.Visual[i].Beyond {
				t.Errorf("block %d (%.30q): Beyond, but it was captured", i, blk.Text)
			}
			continue
		}
		below++
		if !res.Visual[i].Beyond || res.Visual[i].Found {
			t.Errorf("block %d (%.30q): Beyond %v, Found %v; want beyond the capture", i, blk.Text, res.Visual[i].Beyond, res.Visual[i].Found)
		}
		if want := tres.Score[i] - text.Model.Threshold + m.Threshold; res.Score[i] != want {
			t.Errorf("block %d: value %v, want the text model's %v shifted to %v", i, res.Score[i], tres.Score[i], want)
		}
		if res.Keep[i] != tres.Keep[i] || !res.Keep[i] {
			t.Errorf("block %d (%.30q): kept %v (text model: %v), want kept", i, blk.Text, res.Keep[i], tres.Keep[i])
		}
	}
	if below != 4 {
		t.Fatalf("%d blocks below the capture, want 4", below)
	}
	if n, all := res.Unseen(); n != 4 || all {
		t.Errorf("Unseen() = %d, %v; want 4, false", n, all)
	}
	if n, all := tres.Unseen(); n != 0 || all {
		t.Errorf("text model: Unseen() = %d, %v; want 0, false", n, all)
	}
}

func mustText(t *testing.T) *classify.Model {
	t.Helper()
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustVisual(t *testing.T) *classify.Model {
	t.Helper()
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// chromeVisualizer starts Chromium with opt for t, which it skips on a
// machine without Chromium; the browser stops when t ends.
func chromeVisualizer(t *testing.T, opt render.Options) *pipeline.ChromeVisualizer {
	t.Helper()
	if _, err := render.FindChromium(); err != nil {
		t.Skipf("skipping: no Chromium binary found: %v", err)
	}
	v, err := pipeline.NewVisualizer(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}
