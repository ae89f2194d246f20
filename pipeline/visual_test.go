package pipeline_test

import (
	"bytes"
	"context"
	"image"
	"strings"
	"sync"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// archivedPage links its style sheet through a <base> and a relative URL:
// the style sheet sets its two paragraphs side by side.
const archivedPage = `<!DOCTYPE html>
<html><head><title>Two columns</title>
<base href="http://example.org/site/">
<style>p { margin: 0 0 1em }</style>
<link rel="stylesheet" href="css/columns.css">
</head><body style="margin:0;font:16px/20px sans-serif">
<div class="col"><p>The left column holds the first half of the article, long enough to wrap onto several lines of its own in a narrow column.</p></div>
<div class="col"><p>The right column holds the second half of the article, long enough to wrap onto several lines of its own in a narrow column.</p></div>
</body></html>`

// TestVisualFromArchive: PrepareOptions.URL and Resources reach the
// renderer, with the page's linked style sheet kept through precleaning;
// without Resources the page renders as before, in one column, and its
// marked-up document has no link.
func TestVisualFromArchive(t *testing.T) {
	v := chromeVisualizer(t, render.Options{Scale: pipeline.DefaultRenderScale})
	ctx := context.Background()
	archive := map[string]render.Resource{
		"http://example.org/site/css/columns.css": {ContentType: "text/css", Body: []byte(`.col { float: left; width: 40%; margin: 0 5% }`)},
	}
	var mu sync.Mutex
	var asked []string
	resources := func(url string) (render.Resource, bool) {
		mu.Lock()
		asked = append(asked, url)
		mu.Unlock()
		r, ok := archive[url]
		return r, ok
	}
	prepare := func(opt pipeline.PrepareOptions) (*pipeline.Doc, []image.Rectangle) {
		t.Helper()
		opt.Visual = v
		d, err := pipeline.Prepare(ctx, "page.html", []byte(archivedPage), opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Blocks) != 2 || len(d.Visual) != 2 {
			t.Fatalf("%d blocks, %d measured; want 2", len(d.Blocks), len(d.Visual))
		}
		return d, []image.Rectangle{d.Visual[0].Box, d.Visual[1].Box}
	}

	_, boxes := prepare(pipeline.PrepareOptions{URL: "http://example.org/articles/2007/page.html", Resources: resources})
	mu.Lock()
	t.Logf("boxes %v; Resources asked for %q", boxes, asked)
	mu.Unlock()
	if a, b := boxes[0], boxes[1]; a.Empty() || b.Empty() || a.Max.X > b.Min.X || a.Min.Y >= b.Max.Y || b.Min.Y >= a.Max.Y {
		t.Errorf("with the archive: boxes %v and %v, want two columns", a, b)
	}

	d, boxes := prepare(pipeline.PrepareOptions{URL: "http://example.org/articles/2007/page.html"})
	if a, b := boxes[0], boxes[1]; a.Empty() || b.Empty() || a.Max.Y > b.Min.Y {
		t.Errorf("without the archive: boxes %v and %v, want one column", a, b)
	}
	doc, err := pipeline.Markup(d)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(doc, []byte("<link")) || bytes.Contains(doc, []byte("<base")) || !strings.Contains(string(doc), "<style>") {
		t.Errorf("without Resources the page keeps its links, or loses its style:\n%s", doc)
	}
}

// markupVisualizer records the marked-up document it is given.
type markupVisualizer struct{ doc []byte }

func (m *markupVisualizer) Visual(ctx context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	var err error
	m.doc, err = pipeline.Markup(d)
	return make([]vision.Features, len(d.Blocks)), err
}

// TestStyleLinksKept: with Resources, the style sheet links (in head or
// body, hidden or not) and the first base are in the rendered document's
// head, in document order among the kept <style> sheets; other links and
// a second base are not.
func TestStyleLinksKept(t *testing.T) {
	page := `<html><head><link rel="icon" href="i.ico"><style>a{}</style><base href="http://a.example/"><base href="http://b.example/">
<link rel="Alternate StyleSheet" href="1.css" title="x"><style>b{}</style></head>
<body><p>Text of the page.</p><div hidden><link rel=stylesheet href="2.css"></div><link rel=stylesheet href="3.css"><style>c{}</style></body></html>`
	var m markupVisualizer
	if _, err := pipeline.Prepare(context.Background(), "p.html", []byte(page), pipeline.PrepareOptions{
		Visual: &m, URL: "http://a.example/p.html", Resources: func(string) (render.Resource, bool) { return render.Resource{}, false },
	}); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(m.doc), "</head>")
	want := `<head><meta charset="utf-8"/><base href="http://a.example/"/><style>a{}</style><link rel="Alternate StyleSheet" href="1.css" title="x"/><style>b{}</style><link rel="stylesheet" href="2.css"/><link rel="stylesheet" href="3.css"/><style>c{}</style>`
	if !strings.HasSuffix(head, want) {
		t.Errorf("head:\n%s\nwant it to end with\n%s", head, want)
	}
}
