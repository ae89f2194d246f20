package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// failingVisualizer fails every page, as a crashed or hung browser does.
type failingVisualizer struct{ err error }

func (v failingVisualizer) Visual(context.Context, *pipeline.Doc) ([]vision.Features, error) {
	return nil, v.err
}

// cancellingVisualizer cancels the run while a page renders, as a signal
// does, and fails with the context's error.
type cancellingVisualizer struct{ cancel context.CancelFunc }

func (v cancellingVisualizer) Visual(ctx context.Context, _ *pipeline.Doc) ([]vision.Features, error) {
	v.cancel()
	return nil, ctx.Err()
}

// TestTextFallback: a page whose rendering fails is an error naming the
// page (a *RenderError), unless TextFallback is set: then the text model
// of the same policy cleans it, as a Cleaner with that model would, with
// a threshold moved as much as the visual model's, and RenderErr says why.
func TestTextFallback(t *testing.T) {
	page, err := os.ReadFile("../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, policy := range classify.Policies {
		vm, err := classify.DefaultFor(policy, true)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := classify.DefaultFor(policy, false)
		if err != nil {
			t.Fatal(err)
		}
		crash := errors.New("chromium: target crashed")
		c := &pipeline.Cleaner{Model: vm, Prepare: pipeline.PrepareOptions{Visual: failingVisualizer{crash}}}
		_, err = c.Clean(ctx, "article.html", page)
		var re *pipeline.RenderError
		if !errors.As(err, &re) || re.Page != "article.html" || !errors.Is(err, crash) {
			t.Fatalf("%s: without TextFallback: err %v, want a *RenderError for article.html wrapping the crash", policy, err)
		}

		c.TextFallback = true
		for _, shift := range []float64{0, 0.5} {
			c.Threshold = nil
			tc := &pipeline.Cleaner{Model: tm}
			if shift != 0 {
				th, tth := vm.Threshold+shift, tm.Threshold+shift
				c.Threshold, tc.Threshold = &th, &tth
			}
			res, err := c.Clean(ctx, "article.html", page)
			if err != nil {
				t.Fatalf("%s, shift %v: with TextFallback: %v", policy, shift, err)
			}
			want, err := tc.Clean(ctx, "article.html", page)
			if err != nil {
				t.Fatal(err)
			}
			if res.RenderErr == nil || !errors.Is(res.RenderErr, crash) || res.Model.Visual || res.Model.Info.Policy != policy || res.Visual != nil {
				t.Errorf("%s, shift %v: RenderErr %v, visual model %v of policy %q, visual features %v", policy, shift, res.RenderErr, res.Model.Visual, res.Model.Info.Policy, res.Visual != nil)
			}
			if !slices.Equal(res.Keep, want.Keep) || !bytes.Equal([]byte(res.Text()), []byte(want.Text())) {
				t.Errorf("%s, shift %v: the fallback keeps %v, the text model %v", policy, shift, res.Keep, want.Keep)
			}
			if !slices.Contains(res.Keep, true) {
				t.Errorf("%s, shift %v: nothing kept of the article", policy, shift)
			}
		}

		// A run cancelled while the page renders is not a rendering to
		// fall back from.
		cctx, cancel := context.WithCancel(ctx)
		c.Prepare.Visual = cancellingVisualizer{cancel}
		if res, err := c.Clean(cctx, "article.html", page); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled while rendering: err %v (RenderErr %v), want context.Canceled", policy, err, res != nil && res.RenderErr != nil)
		}
	}
}
