package train

import (
	"errors"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
)

// TestEvaluateFailed: pages that could not be prepared count as empty
// output, and the report tells a failed rendering from a failed load.
func TestEvaluateFailed(t *testing.T) {
	ex := synthPages(t, "synth", 3, 5)
	var res []PageResult
	for i, e := range ex {
		pr := PageResult{Example: e}
		switch i {
		case 1:
			pr.Example = &Example{Set: e.Set, ID: e.ID, Gold: e.Gold, Err: errors.New("synth/1.html: not HTML")}
		case 2:
			pr.Example = &Example{Set: e.Set, ID: e.ID, Gold: e.Gold, Err: &pipeline.RenderError{Page: "synth/2.html", Err: errors.New("tab crashed")}}
		default:
			pr.Keep = make([]bool, len(e.Doc.Blocks))
			for j, y := range e.Labels() {
				pr.Keep[j] = y > 0
			}
		}
		res = append(res, pr)
	}
	rep, err := Evaluate(res)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 3 || rep.Failed != 2 || rep.RenderFailed != 1 {
		t.Errorf("pages %d, failed %d, render failed %d; want 3, 2, 1", rep.Pages, rep.Failed, rep.RenderFailed)
	}
	// The one page kept exactly by its labels is perfect; the two failed
	// pages' gold words are all missed.
	if m := rep.Model.MicroNoTags; m.P < 0.99 || m.R > 0.5 {
		t.Errorf("micro P %.3f, R %.3f: want P about 1 and R at most a half (two of three pages empty)", m.P, m.R)
	}
	var b strings.Builder
	rep.Print(&b)
	if want := "pages: 3 (1 failed to load and 1 to render, those scored as empty output)"; !strings.Contains(b.String(), want) {
		t.Errorf("report does not say %q:\n%s", want, b.String())
	}
}
