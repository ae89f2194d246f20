package pipeline_test

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// TestRescue: with a visual model's Rescue on, a block of prose takes the text
// model's decision value (shifted to the visual model's threshold) less
// RescueMargin where that is higher than its own; every other block keeps
// the visual model's value. On this page the text model is sure of the
// post and the visual model less so: cut at 0.5, the post is dropped
// without the rescue and kept with it.
func TestRescue(t *testing.T) {
	v := chromeVisualizer(t, render.Options{Scale: pipeline.DefaultRenderScale})
	ctx := context.Background()
	// An unstyled blog page of our own: the post in a wide table cell
	// (its paragraphs one block, split by single line breaks) beside a
	// narrow column of many short category links, the kind of layout
	// whose sidebar draws the visual model's main column away from the
	// text.
	page, err := os.ReadFile("../testdata/sidebar-blog.html")
	if err != nil {
		t.Fatal(err)
	}
	m := mustVisual(t)
	m.Rescue = true
	res, err := (&pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}).Clean(ctx, "blog.html", page)
	if err != nil {
		t.Fatal(err)
	}
	off := mustVisual(t) // Rescue off, the default
	plain, err := (&pipeline.Cleaner{Model: off, Prepare: pipeline.PrepareOptions{Visual: v}}).Clean(ctx, "blog.html", page)
	if err != nil {
		t.Fatal(err)
	}
	tm := mustText(t)
	text, err := (&pipeline.Cleaner{Model: tm}).Clean(ctx, "blog.html", page)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Blocks) != len(text.Blocks) || len(res.Blocks) != len(plain.Blocks) {
		t.Fatalf("%d, %d and %d blocks", len(res.Blocks), len(plain.Blocks), len(text.Blocks))
	}
	raised, post := 0, -1
	for i, b := range res.Blocks {
		want := plain.Score[i]
		if res.Table.Prose(i) {
			want = math.Max(want, text.Score[i]-tm.Threshold+m.Threshold-pipeline.RescueMargin)
		}
		if math.Abs(res.Score[i]-want) > 1e-9 {
			t.Errorf("block %d (%.30q, prose %v): value %.4f, want %.4f (visual %.4f, text %.4f)", i, b.Text, res.Table.Prose(i), res.Score[i], want, plain.Score[i], text.Score[i])
		}
		if res.Score[i] > plain.Score[i] {
			raised++
		}
		if strings.Contains(b.Text, "When a story breaks") {
			post = i
		}
	}
	if raised == 0 {
		t.Error("no block rescued: the page no longer tests the rescue")
	}
	if post < 0 {
		t.Fatal("no block holds the post")
	}
	const cut = 0.5
	if plain.Score[post] >= cut || res.Score[post] < cut {
		t.Errorf("the post's value: %.4f without the rescue, %.4f with it; want below and at or above %v", plain.Score[post], res.Score[post], cut)
	}
}
