package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
)

// synthPages makes n pages of data set set: navigation links, a headline,
// paragraphs of running text and a footer; the gold standard (CleanEval
// format) holds the headline and the paragraphs. Seeded, so every call
// gives the same pages.
func synthPages(t testing.TB, set string, n int, seed uint64) []*Example {
	t.Helper()
	return synthPagesWith(t, set, n, seed, pipeline.PrepareOptions{})
}

// synthPagesWith is synthPages prepared with opt (e.g. a Visualizer).
func synthPagesWith(t testing.TB, set string, n int, seed uint64, opt pipeline.PrepareOptions) []*Example {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	vocab := make([]string, 300)
	for i := range vocab {
		var b strings.Builder
		for k := 0; k < 3+r.IntN(6); k++ {
			b.WriteByte(byte('a' + r.IntN(26)))
		}
		vocab[i] = b.String()
	}
	stop := []string{"the", "of", "and", "to", "in", "is", "that", "with", "was", "for"}
	sentence := func() string {
		w := make([]string, 8+r.IntN(12))
		for i := range w {
			if i%3 == 1 { // English function words, so that the page reads as English
				w[i] = stop[r.IntN(len(stop))]
			} else {
				w[i] = vocab[r.IntN(len(vocab))]
			}
		}
		s := strings.Join(w, " ")
		return strings.ToUpper(s[:1]) + s[1:] + "."
	}
	nav := []string{"Home", "News", "Sport", "Weather", "Contact us", "Login", "Archive", "Jobs"}
	var out []*Example
	for p := 0; p < n; p++ {
		var page, gs strings.Builder
		page.WriteString("<html><body><ul>")
		for _, k := range r.Perm(len(nav))[:5] {
			fmt.Fprintf(&page, `<li><a href="/%d">%s</a></li>`, k, nav[k])
		}
		page.WriteString("</ul>")
		head := sentence()
		fmt.Fprintf(&page, "<h1>%s</h1>", head)
		fmt.Fprintf(&gs, "URL: http://example.org/%s/%d\n<h> %s\n", set, p, head)
		for k := 0; k < 3+r.IntN(4); k++ {
			text := sentence() + " " + sentence() + " " + sentence()
			fmt.Fprintf(&page, "<p>%s</p>", text)
			fmt.Fprintf(&gs, "<p> %s\n", text)
			if r.IntN(3) == 0 {
				fmt.Fprintf(&page, `<div><a href="/ad">Advertisement</a> <a href="/more">Read more</a></div>`)
			}
		}
		page.WriteString(`<div class="footer">Copyright 2008 Example Media | <a href="/privacy">Privacy</a></div></body></html>`)
		name := fmt.Sprintf("%s/%d.html", set, p)
		d, err := pipeline.Prepare(context.Background(), name, []byte(page.String()), opt)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gold.Parse([]byte(gs.String()), gold.CleanEval, gold.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &Example{Set: set, ID: fmt.Sprint(p), Doc: d, Gold: g, Share: gold.Label(d.Blocks, g)})
	}
	return out
}
