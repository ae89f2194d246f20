package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// DefaultRenderScale is the capture scale (image px per CSS px) that the
// default visual model was trained at. Half scale leaves the visual
// features unchanged within their noise (10-fold CV on CleanEval dev and
// CleanPortalEval, measured before the layout features were added: node
// accuracy 92.69% at 0.5 against 92.59% at 1, word F 94.68 both) and
// halves what rendering costs us (screenshot, decoding, vision).
const DefaultRenderScale = 0.5

// ChromeVisualizer renders pages in headless Chromium (package render) and
// measures their blocks' blob geometry (package vision). It is safe for
// concurrent use: every page gets its own tab.
type ChromeVisualizer struct {
	Browser *render.Browser
}

// NewVisualizer starts a browser with the given options.
func NewVisualizer(ctx context.Context, opt render.Options) (*ChromeVisualizer, error) {
	b, err := render.New(ctx, opt)
	if err != nil {
		return nil, err
	}
	return &ChromeVisualizer{Browser: b}, nil
}

// Close stops the browser.
func (v *ChromeVisualizer) Close() error { return v.Browser.Close() }

// Markup returns d's document as HTML with every block's element marked
// (blocks.Attr), as the renderer expects it. The document itself is left
// unmarked.
func Markup(d *Doc) ([]byte, error) {
	blocks.Mark(d.Blocks)
	defer unmark(d.Blocks)
	var buf bytes.Buffer
	if err := html.Render(&buf, d.Page.Doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unmark(bs []*blocks.Block) {
	for _, b := range bs {
		a := b.Node.Attr[:0]
		for _, at := range b.Node.Attr {
			if at.Key != blocks.Attr {
				a = append(a, at)
			}
		}
		b.Node.Attr = a
	}
}

// Visual renders d with its blocks highlighted and measures them: the
// measurements go to features.Extract as they are (render's font sizes
// pass through vision.Options). The page is served at d.URL with its
// requisites from d.Resources when set (PrepareOptions.URL and
// Resources). It also records the time split in d.Timings.
func (v *ChromeVisualizer) Visual(ctx context.Context, d *Doc) ([]vision.Features, error) {
	doc, err := Markup(d)
	if err != nil {
		return nil, err
	}
	colors, err := vision.Palette(len(d.Blocks))
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	pageURL := d.URL
	if !render.UsableURL(pageURL) {
		pageURL = "" // a URL Chromium would not navigate to: the page renders at the made-up one
	}
	res, err := v.Browser.Render(ctx, doc, colors, render.RenderOptions{Highlight: true, URL: pageURL, Resources: d.Resources})
	if err != nil {
		return nil, err
	}
	d.Timings.Render = time.Since(t0)
	d.Timings.RenderSplit = res.Timings
	t1 := time.Now()
	// render's line heights are image pixels already (CSS px times the
	// capture scale): vision must not scale them again.
	vf, err := vision.Measure(res.Image, len(d.Blocks), vision.Options{LineHeight: res.LineHeight, FontSize: res.FontSize, Beyond: res.Beyond, Scale: 1, Workers: 1,
		Style: styles(res), Screen: res.Screen})
	if err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	d.Timings.Vision = time.Since(t1)
	return vf, nil
}

// styles collects the renderer's per-block style readings for vision.
func styles(res *render.Result) []vision.Style {
	n := len(res.Boxes)
	if len(res.Style) != n {
		return nil
	}
	out := make([]vision.Style, n)
	for i, s := range res.Style {
		out[i] = vision.Style(s)
	}
	return out
}
