package pipeline_test

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// TestBlend: with a visual model's Blend w, every block the rendering
// showed takes (1-w) times the visual model's value plus w times the text
// model's (shifted to the visual model's threshold); with w 1 the text
// model alone decides, with rescue on top the rescue still applies.
func TestBlend(t *testing.T) {
	v := chromeVisualizer(t, render.Options{Scale: pipeline.DefaultRenderScale})
	ctx := context.Background()
	page, err := os.ReadFile("../testdata/sidebar-blog.html")
	if err != nil {
		t.Fatal(err)
	}
	clean := func(blend float64, rescue bool) *pipeline.Result {
		t.Helper()
		m := mustVisual(t)
		m.Blend, m.Rescue = blend, rescue
		r, err := (&pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}).Clean(ctx, "blog.html", page)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain := clean(0, false)
	tm, vm := mustText(t), mustVisual(t)
	text, err := (&pipeline.Cleaner{Model: tm}).Clean(ctx, "blog.html", page)
	if err != nil {
		t.Fatal(err)
	}
	shifted := func(i int) float64 { return text.Score[i] - tm.Threshold + vm.Threshold }
	for _, c := range []struct {
		w      float64
		rescue bool
	}{{0.5, false}, {1, false}, {0.25, true}} {
		res := clean(c.w, c.rescue)
		if len(res.Blocks) != len(plain.Blocks) || len(res.Blocks) != len(text.Blocks) {
			t.Fatalf("blend %v: %d, %d and %d blocks", c.w, len(res.Blocks), len(plain.Blocks), len(text.Blocks))
		}
		moved := 0
		for i, b := range res.Blocks {
			want := (1-c.w)*plain.Score[i] + c.w*shifted(i)
			if res.Visual[i].Beyond {
				want = shifted(i)
			}
			if c.rescue && res.Table.Prose(i) {
				want = math.Max(want, shifted(i)-pipeline.RescueMargin)
			}
			if math.Abs(res.Score[i]-want) > 1e-9 {
				t.Errorf("blend %v, rescue %v, block %d (%.30q): value %.4f, want %.4f (visual %.4f, text %.4f)", c.w, c.rescue, i, b.Text, res.Score[i], want, plain.Score[i], text.Score[i])
			}
			if math.Abs(res.Score[i]-plain.Score[i]) > 1e-6 {
				moved++
			}
		}
		if moved == 0 {
			t.Errorf("blend %v: no block's value moved: the page no longer tests the blend", c.w)
		}
	}
}
