package corpus

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// TestRenderFromArchive renders a page of a WARC in Chromium: the style
// sheet it links is asked for by URL and served from the archive's own
// record, and nothing the archive lacks is served.
func TestRenderFromArchive(t *testing.T) {
	if _, err := render.FindChromium(); err != nil {
		t.Skipf("no Chromium: %v", err)
	}
	w := newTestWARC(true)
	w.response("https://news.example/2024/festival.html", "200 OK", "Content-Type: text/html; charset=utf-8\r\n",
		`<html><head><title>Festival</title><link rel="stylesheet" href="../style.css"></head><body>`+
			`<h1>River festival draws record crowds</h1><p>More than forty thousand people came to the banks of the river on Saturday.</p></body></html>`)
	w.response("https://news.example/style.css", "200 OK", "Content-Type: text/css\r\n", "body { font-size: 20px }")
	path := writeFile(t, "crawl.warc.gz", w.buf.Bytes())

	ctx := context.Background()
	c, err := pipeline.New(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ins := inputsOf(t, NewSource(Options{Resources: true}), path)
	if len(ins) != 1 || ins[0].Resources == nil {
		t.Fatalf("inputs %+v", ins)
	}
	var mu sync.Mutex
	served := map[string]bool{}
	res := ins[0].Resources
	ins[0].Resources = func(u string) (render.Resource, bool) {
		r, ok := res(u)
		mu.Lock()
		served[u] = ok
		mu.Unlock()
		return r, ok
	}
	if _, err := c.CleanInput(ctx, ins[0]); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !served["https://news.example/style.css"] {
		t.Errorf("the style sheet was not served from the archive: %v", served)
	}
	for u, ok := range served {
		if ok && !slices.Contains([]string{"https://news.example/style.css"}, u) || strings.Contains(u, "festival.html") {
			t.Errorf("%s asked for (served %v)", u, ok)
		}
	}
}
