package gold

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
)

// bigPage returns a page of 2,000 blocks of 10 words (20,000 words), with
// navigation-like blocks repeating common words, and a gold text made of
// every third content block.
func bigPage() (string, *Gold) {
	var page, gold strings.Builder
	page.WriteString("<html><body>")
	gold.WriteString("URL: x\n")
	seed := uint32(1)
	word := func() string {
		seed = seed*1664525 + 1013904223
		if seed>>29 < 4 {
			return []string{"the", "of", "and", "a", "to", "in", "home", "news"}[seed>>24%8]
		}
		return fmt.Sprintf("w%d", seed>>20%5000)
	}
	for i := 0; i < 2000; i++ {
		ws := make([]string, 10)
		for j := range ws {
			ws[j] = word()
		}
		text := strings.Join(ws, " ")
		if i%2 == 0 {
			fmt.Fprintf(&page, "<div><a href=/%d>%s</a></div>\n", i, text)
			continue
		}
		fmt.Fprintf(&page, "<p>%s</p>\n", text)
		if i%3 == 0 {
			fmt.Fprintf(&gold, "<p>%s\n", text)
		}
	}
	page.WriteString("</body></html>")
	g, _ := Parse([]byte(gold.String()), CleanEval, Options{})
	return page.String(), g
}

// BenchmarkLabel20k aligns a 20,000-word page with DefaultAlign (which
// turns AutoJunk on for a page this size); BenchmarkFind20k (finding the
// blocks of the same page) is the reference to compare it with, and
// BenchmarkLabel20kExact shows the cost without AutoJunk.
func BenchmarkLabel20k(b *testing.B) {
	src, g := bigPage()
	doc, _ := html.Parse(strings.NewReader(src))
	bs := blocks.Find(doc)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Label(bs, g)
	}
}

func BenchmarkLabel20kExact(b *testing.B) {
	src, g := bigPage()
	doc, _ := html.Parse(strings.NewReader(src))
	bs := blocks.Find(doc)
	opt := DefaultAlign
	opt.AutoJunkAbove = 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		LabelOptions(bs, g, opt)
	}
}

func BenchmarkFind20k(b *testing.B) {
	src, _ := bigPage()
	doc, _ := html.Parse(strings.NewReader(src))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		blocks.Find(doc)
	}
}

func TestBigPageLabels(t *testing.T) {
	src, g := bigPage()
	doc, _ := html.Parse(strings.NewReader(src))
	bs := blocks.Find(doc)
	sc := Label(bs, g)
	wrong := 0
	for i, b := range bs {
		want := b.Node.Data == "p" && strings.Contains(g.CleanEval(), b.Text)
		if (sc[i] >= Threshold) != want {
			wrong++
		}
	}
	if len(bs) != 2000 || wrong > 10 {
		t.Fatalf("%d blocks, %d labelled wrongly", len(bs), wrong)
	}
}
