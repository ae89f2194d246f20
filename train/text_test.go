package train

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// stackVisualizer "renders" a page as one column: block i a full-width
// band of the page, one line of text per 80 characters; the last block
// lies below the capture (Beyond).
type stackVisualizer struct{}

func (stackVisualizer) Visual(_ context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	out := make([]vision.Features, len(d.Blocks))
	n := float64(len(d.Blocks))
	for i, b := range d.Blocks {
		lines := 1 + b.Chars/80
		out[i] = vision.Features{Found: true, Blobs: 1, Lines: lines, Vertices: 4,
			SolidityI: 1, SolidityII: 4 / float64(lines), RelWidth: 1, Headline: 1,
			Left: 0.1, Right: 0.9, Top: float64(i) / n, Bottom: float64(i+1) / n,
			X: 0.5, Y: (float64(i) + 0.5) / n, Area: 0.8 / n}
	}
	if len(out) > 0 {
		out[len(out)-1] = vision.Features{Beyond: true}
	}
	return out, nil
}

// TestTrainText: a visual model trained with TrainOptions.Text carries a
// text model trained on the same pages with the embedded text model's
// features, C, gamma, threshold and reduced set, which pipeline.Decide uses in its
// place; a text model gets none, and Rescue reaches the model.
func TestTrainText(t *testing.T) {
	ctx := context.Background()
	ex := synthPagesWith(t, "synth", 12, 1, pipeline.PrepareOptions{Visual: stackVisualizer{}})
	emb, err := classify.DefaultFor("corpus", false)
	if err != nil {
		t.Fatal(err)
	}
	base := TrainOptions{Features: slices.DeleteFunc(features.Names(features.Linguistic|features.Structural|features.Visual, true), features.IsStyle), Threshold: 0.3, Keywords: 20, KeywordMinCount: 2}
	text, err := TextOptions("corpus", base)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(text.Features, emb.English.FeatureNames) || text.Params.C != emb.Info.C || text.Params.Gamma != emb.Info.Gamma || text.Threshold != emb.Threshold || text.MaxSV != emb.Info.MaxSV || text.Keywords != 20 {
		t.Errorf("TextOptions: features %v, C %v, gamma %v, threshold %v, MaxSV %d, keywords %d; want the embedded text model's and base's keywords",
			text.Features, text.Params.C, text.Params.Gamma, text.Threshold, text.MaxSV, text.Keywords)
	}
	to := base
	to.Text = text
	m, err := Train(ctx, ex, to)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Visual || m.Text == nil || m.Text.Visual || m.Text.Threshold != emb.Threshold || m.Rescue {
		t.Fatalf("visual %v, text model %v, Rescue %v; want a visual model with a text model, Rescue off", m.Visual, m.Text != nil, m.Rescue)
	}
	if !slices.Equal(m.Text.English.FeatureNames, emb.English.FeatureNames) || m.Text.Info.Pages != len(ex) {
		t.Errorf("text model: features %v on %d pages; want the embedded text model's on %d", m.Text.English.FeatureNames, m.Text.Info.Pages, len(ex))
	}
	// The block below the capture takes the model's own text model's
	// value, shifted to its threshold, with the rescue off too.
	for _, e := range ex {
		s, ts := decideBoth(t, m, e)
		last := len(s) - 1
		if want := ts[last]; math.Abs(s[last]-want) > 1e-9 {
			t.Errorf("%s: the block below the capture has value %.4f, want its text model's %.4f", e.ID, s[last], want)
		}
	}
	// Decide takes the model's own text model, not the embedded one: with
	// the rescue on, a prose block's value is at least its text model's
	// shifted value less the margin.
	to.Rescue = true
	if m, err = Train(ctx, ex, to); err != nil {
		t.Fatal(err)
	}
	if !m.Rescue {
		t.Fatal("TrainOptions.Rescue did not reach the model")
	}
	tested, rescued := 0, 0
	for _, e := range ex {
		s, ts := decideBoth(t, m, e)
		for i := range s {
			if !e.Doc.Table.Prose(i) {
				continue
			}
			tested++
			floor := ts[i] - pipeline.RescueMargin
			if s[i] < floor-1e-9 {
				t.Errorf("%s block %d: value %.4f below its text model's floor %.4f", e.ID, i, s[i], floor)
			}
			if math.Abs(s[i]-floor) < 1e-9 {
				rescued++
			}
		}
	}
	if tested == 0 || rescued == 0 {
		t.Fatalf("%d prose blocks, %d of them at their text model's value; want some of each", tested, rescued)
	}
	to.Features = features.Names(features.Linguistic|features.Structural, true)
	if m, err = Train(ctx, ex, to); err != nil {
		t.Fatal(err)
	}
	if m.Visual || m.Text != nil {
		t.Errorf("text features: visual %v, text model %v; want neither", m.Visual, m.Text != nil)
	}
}

// decideBoth returns pipeline.Decide's values for e's blocks under the
// visual model m and its text model's values shifted to m's threshold.
func decideBoth(t *testing.T, m *classify.Model, e *Example) (s, text []float64) {
	t.Helper()
	s, err := pipeline.Decide(m, e.Doc)
	if err != nil {
		t.Fatal(err)
	}
	text, err = m.Text.Decide(e.Doc.Table, e.Doc.English)
	if err != nil {
		t.Fatal(err)
	}
	for i := range text {
		text[i] += m.Threshold - m.Text.Threshold
	}
	return s, text
}

// TestTrainBlend: TrainOptions.Blend reaches a visual model, whose
// decision on a block the rendering showed is then the blend of its own
// value and its text model's (shifted to its threshold); a text model
// gets none; a weight outside 0 to 1 is refused.
func TestTrainBlend(t *testing.T) {
	ctx := context.Background()
	ex := synthPagesWith(t, "synth", 12, 1, pipeline.PrepareOptions{Visual: stackVisualizer{}})
	base := TrainOptions{Features: slices.DeleteFunc(features.Names(features.Linguistic|features.Structural|features.Visual, true), features.IsStyle), Threshold: 0.3, Keywords: 20, KeywordMinCount: 2}
	text, err := TextOptions("corpus", base)
	if err != nil {
		t.Fatal(err)
	}
	to := base
	to.Text = text
	plain, err := Train(ctx, ex, to)
	if err != nil {
		t.Fatal(err)
	}
	to.Blend = 0.5
	m, err := Train(ctx, ex, to)
	if err != nil {
		t.Fatal(err)
	}
	if m.Blend != 0.5 || m.Text == nil || m.Text.Blend != 0 {
		t.Fatalf("blend %v, text model %v; want 0.5 and a text model without one", m.Blend, m.Text != nil)
	}
	checked, moved, beyond := 0, 0, 0
	for _, e := range ex {
		s, ts := decideBoth(t, m, e)
		p, err := pipeline.Decide(plain, e.Doc)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s {
			want := 0.5*p[i] + 0.5*ts[i]
			if e.Doc.Visual[i].Beyond {
				want = ts[i] // the text model's alone, blend or not
				beyond++
			} else {
				checked++
			}
			if math.Abs(s[i]-want) > 1e-9 {
				t.Errorf("%s block %d: value %.4f, want %.4f (visual %.4f, text %.4f)", e.ID, i, s[i], want, p[i], ts[i])
			}
			if math.Abs(s[i]-p[i]) > 1e-6 {
				moved++
			}
		}
	}
	if checked == 0 || beyond == 0 || moved == 0 {
		t.Fatalf("%d blocks above the capture, %d below, %d values moved by the blend; want some of each", checked, beyond, moved)
	}
	to.Features = features.Names(features.Linguistic|features.Structural, true)
	if m, err = Train(ctx, ex, to); err != nil {
		t.Fatal(err)
	}
	if m.Blend != 0 {
		t.Errorf("a text model took blend %v", m.Blend)
	}
	to.Blend = 1.5
	if _, err := Train(ctx, ex, to); err == nil || !strings.Contains(err.Error(), "blend") {
		t.Errorf("blend 1.5: error %v, want one naming the blend", err)
	}
}
