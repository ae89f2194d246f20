package train

import (
	"bytes"
	"context"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestTrainMaxSV: MaxSV cuts the SVMs to a reduced set of that many
// vectors, says so in the model's Info, keeps the full model's decisions
// on its own training pages for all but a few blocks, and survives a
// model file.
func TestTrainMaxSV(t *testing.T) {
	ctx := context.Background()
	ex := synthPages(t, "a", 40, 3)
	opt := TrainOptions{Seed: 1}
	full, err := Train(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	n := len(full.English.SV)
	if n < 20 {
		t.Fatalf("the full model has %d support vectors: too few to cut", n)
	}
	opt.MaxSV = n / 2
	red, err := Train(ctx, ex, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(red.English.SV); got > n/2 {
		t.Errorf("English: %d vectors, want at most %d", got, n/2)
	}
	if red.Other != nil && len(red.Other.SV) > n/2 {
		t.Errorf("Other: %d vectors, want at most %d", len(red.Other.SV), n/2)
	}
	if red.Info.MaxSV != n/2 || full.Info.MaxSV != 0 {
		t.Errorf("Info.MaxSV %d and %d, want %d and 0", red.Info.MaxSV, full.Info.MaxSV, n/2)
	}
	var buf bytes.Buffer
	if err := red.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := classify.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Info.MaxSV != n/2 {
		t.Errorf("after a model file: Info.MaxSV %d", back.Info.MaxSV)
	}
	blocks, changed := 0, 0
	for _, e := range ex {
		a, err := full.Decide(e.Doc.Table, e.Doc.English)
		if err != nil {
			t.Fatal(err)
		}
		b, err := back.Decide(e.Doc.Table, e.Doc.English)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			blocks++
			if (a[i] >= full.Threshold) != (b[i] >= back.Threshold) {
				changed++
			}
		}
	}
	t.Logf("%d of %d blocks change side with %d of %d vectors", changed, blocks, len(red.English.SV), n)
	if changed > blocks/20 {
		t.Errorf("%d of %d blocks change side", changed, blocks)
	}
}
