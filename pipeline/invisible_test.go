package pipeline_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// TestInvisibleRendering: a page whose rendering shows none of its text (a
// body kept hidden or transparent until a script reveals it, and page
// scripts do not run) is decided by the text model, block for block, not
// taken for hidden text; the same page visible is decided by the visual
// model from what its rendering shows.
func TestInvisibleRendering(t *testing.T) {
	v := chromeVisualizer(t, render.Options{Scale: pipeline.DefaultRenderScale})
	ctx := context.Background()
	m := mustVisual(t)
	const body = `<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/contact">Contact</a></li></ul>
<h1>The council approves the new bridge</h1>
<p>The city council met on Tuesday evening and approved the plan for a new bridge over the river, after three years of debate about its cost and its place in the old town.</p>
<p>Work will begin in the spring if the budget allows it, the mayor said, and the old bridge will stay open for walkers and cyclists until the new one is finished.</p>
<p>Residents who spoke at the meeting welcomed the decision, although some asked for more parking near the market square and a safer crossing for the primary school.</p>`
	page := func(head, htmlAttr, bodyAttr string) []byte {
		return []byte(`<html` + htmlAttr + `><head><title>Council news</title>` + head + `</head><body` + bodyAttr + `>` + body + `</body></html>`)
	}
	text := &pipeline.Cleaner{Model: mustText(t)}
	c := &pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}
	for name, p := range map[string][]byte{
		"anti-flicker class": page(`<style>.async-hide { opacity: 0 !important }</style>`, ` class="async-hide"`, ""),
		"transparent body":   page("", "", ` style="opacity:0"`),
		"style sheet hides":  page(`<style>body { visibility: hidden }</style>`, "", ""),
	} {
		res, err := c.Clean(ctx, name, p)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(res.Visual, func(f vision.Features) bool { return f.Found }) {
			t.Errorf("%s: the rendering shows blocks; the test page is not invisible", name)
		}
		want, err := text.Clean(ctx, name, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Keep, want.Keep) || !strings.Contains(res.Text(), "approved the plan for a new bridge") {
			t.Errorf("%s: keeps %v, the text model %v:\n%s", name, res.Keep, want.Keep, res.Text())
		}
	}
	res, err := c.Clean(ctx, "visible", page("", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range res.Visual {
		if f.Found {
			found++
		}
	}
	if found < len(res.Blocks)-1 || !strings.Contains(res.Text(), "approved the plan for a new bridge") {
		t.Errorf("visible page: %d of %d blocks found; kept:\n%s", found, len(res.Blocks), res.Text())
	}
}
