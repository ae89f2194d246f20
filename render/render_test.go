package render

import (
	"context"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var dump = flag.String("dump", "", "write the screenshots of the tests as PNG files to this directory")

// newBrowser starts a browser for one test, or skips the test when no
// Chromium binary is installed.
func newBrowser(t testing.TB, opt Options) *Browser {
	t.Helper()
	if opt.ExecPath == "" && opt.RemoteURL == "" {
		if _, err := FindChromium(); err != nil {
			t.Skipf("skipping: no Chromium binary found (apt-get install -y chromium): %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := New(ctx, opt)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeDump(t testing.TB, name string, img image.Image) {
	if *dump == "" {
		return
	}
	f, err := os.Create(filepath.Join(*dump, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

var testColors = []color.RGBA{
	{230, 25, 75, 255},
	{60, 180, 75, 255},
	{0, 130, 200, 255},
}

var white = color.RGBA{255, 255, 255, 255}

// colorBoxes returns the bounding box of every colour of img, with the
// number of pixels of each.
func colorBoxes(img *image.RGBA) (map[color.RGBA]image.Rectangle, map[color.RGBA]int) {
	boxes := map[color.RGBA]image.Rectangle{}
	counts := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		// Runs of one colour: one map update per run.
		for x0 := 0; x0 < len(row)/4; {
			p := row[4*x0 : 4*x0+4]
			x1 := x0 + 1
			for x1 < len(row)/4 && row[4*x1] == p[0] && row[4*x1+1] == p[1] && row[4*x1+2] == p[2] && row[4*x1+3] == p[3] {
				x1++
			}
			c := color.RGBA{p[0], p[1], p[2], p[3]}
			counts[c] += x1 - x0
			run := image.Rect(b.Min.X+x0, y, b.Min.X+x1, y+1)
			if r, ok := boxes[c]; ok {
				boxes[c] = r.Union(run)
			} else {
				boxes[c] = run
			}
			x0 = x1
		}
	}
	return boxes, counts
}

func near(a, b image.Rectangle, tol int) bool {
	d := func(x, y int) bool { return x-y <= tol && y-x <= tol }
	return d(a.Min.X, b.Min.X) && d(a.Min.Y, b.Min.Y) && d(a.Max.X, b.Max.X) && d(a.Max.Y, b.Max.Y)
}

// checkBlocks asserts that the image holds white and the block colours only,
// and that each colour's pixels span the block's box within 2 px.
func checkBlocks(t *testing.T, res *Result, colors []color.RGBA) {
	t.Helper()
	boxes, counts := colorBoxes(res.Image)
	for c, n := range counts {
		known := c == white
		for _, k := range colors {
			known = known || c == k
		}
		if !known {
			t.Errorf("unexpected colour %v in %d pixels, at %v", c, n, boxes[c])
		}
	}
	for i, c := range colors {
		got, ok := boxes[c]
		if !ok {
			t.Errorf("block %d: colour %v not in the image; box %v", i, c, res.Boxes[i])
			continue
		}
		if !near(got, res.Boxes[i], 2) {
			t.Errorf("block %d: pixels of %v span %v, Boxes[%d] = %v", i, c, got, i, res.Boxes[i])
		}
	}
}

func TestRenderBlocks(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	writeDump(t, "blocks.png", res.Image)
	t.Logf("image %v, boxes %v, font %v, line %v, timings %+v", res.Image.Bounds(), res.Boxes, res.FontSize, res.LineHeight, res.Timings)
	if got := res.Image.Bounds().Dx(); got != DefaultWidth {
		t.Errorf("image width %d, want %d", got, DefaultWidth)
	}
	checkBlocks(t, res, testColors)
	// The heading: 28px font, 34px lines, one line.
	if res.FontSize[0] != 28 || res.LineHeight[0] != 34 {
		t.Errorf("block 0: font %v line %v, want 28 and 34", res.FontSize[0], res.LineHeight[0])
	}
	if res.FontSize[1] != 16 || res.LineHeight[1] != 20 {
		t.Errorf("block 1: font %v line %v, want 16 and 20", res.FontSize[1], res.LineHeight[1])
	}
	// The box is 400px wide with 10px padding: its text wraps onto several lines.
	if h := res.Boxes[1].Dy(); h < 3*20 {
		t.Errorf("block 1 is %d px high, want at least 3 lines of 20 px", h)
	}
	if w := res.Boxes[1].Dx(); w > 400 || w < 300 {
		t.Errorf("block 1 is %d px wide, want 300..400", w)
	}
}

// The computed styles read for each block: font weight, contrast with the
// first opaque background below the text (an alpha colour composited over
// it), fixed or sticky containers; and the first screen's height.
func TestRenderStyles(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "style.html")
	colors := append(append([]color.RGBA(nil), testColors...), color.RGBA{245, 130, 48, 255}, color.RGBA{145, 30, 180, 255}, color.RGBA{70, 240, 240, 255})
	res, err := b.Render(context.Background(), doc, colors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("styles %+v, screen %d, boxes %v", res.Style, res.Screen, res.Boxes)
	want := []struct {
		weight, contrast float64
		fixed            bool
	}{
		{700, 21, false},
		{300, 4.48, false},
		{400, 21, true},
		{400, 21, true},
		{400, 3.98, false}, // #000 at alpha 0.5 over white: grey 127.5
		{400, 21, false},   // colours in oklch(), read through a canvas
	}
	for i, w := range want {
		st := res.Style[i]
		if st.Weight != w.weight || math.Abs(st.Contrast-w.contrast) > 0.01 || st.Fixed != w.fixed {
			t.Errorf("block %d: weight %v contrast %.3f fixed %v, want %v %.2f %v", i, st.Weight, st.Contrast, st.Fixed, w.weight, w.contrast, w.fixed)
		}
	}
	if res.Screen != DefaultHeight {
		t.Errorf("first screen %d px, want %d", res.Screen, DefaultHeight)
	}
	if top := res.Boxes[4].Min.Y; top < 3*res.Screen {
		t.Errorf("block 4 starts at %d px, want 3 screens down", top)
	}
}

// An <object> or <applet> that package preclean keeps holds fallback
// content only (what it embedded is gone): the browser draws that
// content, and each of its blocks shows in its colour.
func TestRenderObjectFallback(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "object.html")
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	writeDump(t, "object.png", res.Image)
	checkBlocks(t, res, testColors)
	_, counts := colorBoxes(res.Image)
	for i, c := range testColors {
		if counts[c] < 500 {
			t.Errorf("block %d: %d pixels of its colour, want a line of text's worth (box %v)", i, counts[c], res.Boxes[i])
		}
	}
}
