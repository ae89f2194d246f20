package gold

import (
	"bytes"
	"testing"

	"github.com/fiasco-project/fiasco/internal/shared"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/preclean"
	"github.com/fiasco-project/fiasco/score"
)

// dataDir returns ../shared/data/<set> relative to the module root, or
// skips the test.
func dataDir(t *testing.T, set string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real data in -short mode")
	}
	return shared.Path(t, set)
}

// oracle returns the micro-averaged scores (without segment markers) of
// the oracle output and of keeping every block, on every step-th page.
func oracle(t *testing.T, dir string, step int) (orc, all score.Result) {
	pairs, err := Pairs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ro, ra []score.Result
	for i := 0; i < len(pairs); i += step {
		p := pairs[i]
		page, err := load.File(p.HTML, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := preclean.Clean(page.Doc); err != nil {
			t.Fatal(err)
		}
		bs := blocks.Find(page.Doc)
		g, err := Read(p.Gold, p.Format)
		if err != nil {
			t.Fatal(err)
		}
		goldText := g.Reference()
		score := func(keep []bool) score.Result {
			var buf bytes.Buffer
			if err := export.Write(&buf, export.CleanEval, page, bs, keep, nil); err != nil {
				t.Fatal(err)
			}
			return score.Score(buf.String(), goldText, score.Options{})
		}
		ro = append(ro, score(Labels(Label(bs, g), Threshold)))
		ra = append(ra, score(nil))
	}
	return score.Micro(ro), score.Micro(ra)
}

// TestOracleCleanEval guards the oracle F on CleanEval dev (98.5 when
// written; the issue asks for at least 98).
func TestOracleCleanEval(t *testing.T) {
	orc, all := oracle(t, dataDir(t, "cleaneval-en-dev"), 1)
	t.Logf("oracle P %.2f R %.2f F %.2f; keep-all P %.2f R %.2f F %.2f",
		100*orc.P, 100*orc.R, 100*orc.F, 100*all.P, 100*all.R, 100*all.F)
	if orc.Pages != 58 {
		t.Errorf("%d pages, want 58", orc.Pages)
	}
	if orc.F < 0.98 {
		t.Errorf("oracle F %.4f < 0.98", orc.F)
	}
	if orc.P <= all.P {
		t.Errorf("oracle precision %.4f not above keep-all %.4f", orc.P, all.P)
	}
}

// TestOracleOtherSets checks L3S-GN1, KrdWrd and Dragnet on samples of pages.
func TestOracleOtherSets(t *testing.T) {
	for _, c := range []struct {
		set  string
		step int
		min  float64
	}{{"l3s-gn1", 20, 0.95}, {"krdwrd-canola", 10, 0.97}, {"dragnet", 50, 0.97}} {
		orc, all := oracle(t, dataDir(t, c.set), c.step)
		t.Logf("%s (%d pages): oracle F %.2f, keep-all F %.2f", c.set, orc.Pages, 100*orc.F, 100*all.F)
		if orc.F < c.min || orc.F <= all.F {
			t.Errorf("%s: oracle F %.4f (keep-all %.4f), want >= %.2f", c.set, orc.F, all.F, c.min)
		}
	}
}
