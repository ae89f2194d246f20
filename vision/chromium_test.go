package vision_test

import (
	"context"
	"encoding/json"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/page.golden.json from this run")
	dump   = flag.String("dump", "", "write the golden test's screenshot and outlines as PNG to this directory")
)

// goldenBlock is the stored answer for one block of testdata/page.html.
type goldenBlock struct {
	Found       bool    `json:"found"`
	Blobs       int     `json:"blobs"`
	Lines       int     `json:"lines"`
	Box         [4]int  `json:"box"`
	LineHeight  float64 `json:"line_height"`
	SolidityI   float64 `json:"solidity1"`
	SolidityII  float64 `json:"solidity2"`
	SolidityIII float64 `json:"solidity3"`
	RelWidth    float64 `json:"relwidth"`
	Headline    float64 `json:"headline"`
}

// Tolerances of the golden comparison: fonts and Chromium versions move
// text by a few pixels.
const (
	tolBox      = 4    // px, each side
	tolSolidity = 0.06 // Solidity I and III
	tolSolII    = 0.6  // Solidity II (vertices per line)
	tolRelWidth = 0.04
	tolHeadline = 0.2
	tolLineH    = 1.0 // px
)

// TestChromiumGolden renders testdata/page.html in real Chromium (viewport
// 1280 px, scale 1) with the vision palette, measures it with the CSS line
// heights the renderer reports, and compares with testdata/page.golden.json
// within the tolerances above. It also checks facts that hold whatever the
// fonts: the heading is one line, the two-paragraph block has two blobs,
// the justified paragraph is more solid and has fewer vertices per line
// than the ragged one.
func TestChromiumGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping Chromium in -short mode")
	}
	if _, err := render.FindChromium(); err != nil {
		t.Skipf("skipping: no Chromium (apt-get install -y chromium): %v", err)
	}
	doc, err := os.ReadFile("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	const n = 9
	pal, err := vision.Palette(n)
	if err != nil {
		t.Fatal(err)
	}
	// Chromium runs in a goroutine with a watchdog so that a hung browser
	// fails this test instead of the whole package's run.
	type outcome struct {
		res *render.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		b, err := render.New(ctx, render.Options{Width: 1280})
		if err != nil {
			done <- outcome{nil, err}
			return
		}
		res, err := b.Render(ctx, doc, pal, render.RenderOptions{Highlight: true})
		if cerr := b.Close(); err == nil && cerr != nil {
			err = cerr
		}
		done <- outcome{res, err}
	}()
	var res *render.Result
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		res = o.res
	case <-time.After(90 * time.Second):
		t.Fatal("Chromium did not render testdata/page.html within 90 s")
	}
	fs, err := vision.Measure(res.Image, n, vision.Options{LineHeight: res.LineHeight})
	if err != nil {
		t.Fatal(err)
	}
	if *dump != "" {
		labels := make([]string, n)
		boxes := make([]image.Rectangle, n)
		for i, f := range fs {
			labels[i] = string(rune('0' + i))
			boxes[i] = f.Box
		}
		writePNG(t, filepath.Join(*dump, "page.png"), res.Image)
		writePNG(t, filepath.Join(*dump, "page-outlined.png"), vision.Outline(res.Image, boxes, nil, labels))
	}
	got := make([]goldenBlock, n)
	for i, f := range fs {
		t.Logf("block %d: %+v (CSS line height %v)", i, f, res.LineHeight[i])
		got[i] = goldenBlock{f.Found, f.Blobs, f.Lines,
			[4]int{f.Box.Min.X, f.Box.Min.Y, f.Box.Max.X, f.Box.Max.Y},
			round3(f.LineHeight), round3(f.SolidityI), round3(f.SolidityII), round3(f.SolidityIII),
			round3(f.RelWidth), round3(f.Headline)}
	}

	// Facts independent of the golden file.
	for i, f := range fs {
		if !f.Found {
			t.Errorf("block %d not found", i)
		}
	}
	if fs[0].Lines != 1 || fs[0].Blobs != 1 {
		t.Errorf("heading: %d lines, %d blobs", fs[0].Lines, fs[0].Blobs)
	}
	if fs[7].Blobs != 2 {
		t.Errorf("two paragraphs: %d blobs", fs[7].Blobs)
	}
	if fs[5].SolidityI <= fs[6].SolidityI || fs[5].SolidityII >= fs[6].SolidityII {
		t.Errorf("justified (I %.3f, II %.3f) vs ragged (I %.3f, II %.3f)", fs[5].SolidityI, fs[5].SolidityII, fs[6].SolidityI, fs[6].SolidityII)
	}
	if fs[5].Lines < 4 || fs[6].Lines != 6 {
		t.Errorf("lines: justified %d, ragged %d (want >= 4, 6)", fs[5].Lines, fs[6].Lines)
	}

	// Without the CSS line heights, the estimate from the bars is within
	// 2 px of them and gives the same line counts.
	est, err := vision.Measure(res.Image, n, vision.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range est {
		if d := est[i].LineHeight - res.LineHeight[i]; fs[i].Lines > 1 && (d < -2 || d > 2) {
			t.Errorf("block %d: estimated line height %v, CSS %v", i, est[i].LineHeight, res.LineHeight[i])
		}
		if est[i].Lines != fs[i].Lines || est[i].Blobs != fs[i].Blobs {
			t.Errorf("block %d: estimated: %d lines %d blobs; with CSS line height: %d, %d", i, est[i].Lines, est[i].Blobs, fs[i].Lines, fs[i].Blobs)
		}
	}

	const golden = "testdata/page.golden.json"
	if *update {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var want []goldenBlock
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != n {
		t.Fatalf("golden has %d blocks", len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		ok := g.Found == w.Found && g.Blobs == w.Blobs && g.Lines == w.Lines
		for k := range 4 {
			ok = ok && abs(float64(g.Box[k]-w.Box[k])) <= tolBox
		}
		ok = ok && abs(g.LineHeight-w.LineHeight) <= tolLineH &&
			abs(g.SolidityI-w.SolidityI) <= tolSolidity &&
			abs(g.SolidityII-w.SolidityII) <= tolSolII &&
			abs(g.SolidityIII-w.SolidityIII) <= tolSolidity &&
			abs(g.RelWidth-w.RelWidth) <= tolRelWidth &&
			abs(g.Headline-w.Headline) <= tolHeadline
		if !ok {
			t.Errorf("block %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func abs(v float64) float64 { return math.Abs(v) }

func writePNG(t *testing.T, name string, img image.Image) {
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
