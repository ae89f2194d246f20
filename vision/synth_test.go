package vision

import (
	"encoding/json"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"testing"
)

// scene is a synthetic highlight screenshot: white page, each block drawn
// as solid bars of its palette colour.
type scene struct {
	Name   string       `json:"name"`
	Width  int          `json:"width"`
	Height int          `json:"height"`
	Blocks []sceneBlock `json:"blocks"`
	Expect []expect     `json:"expect"`
	// AAVertexSlack is the vertex count change allowed by TestAntialiasedEdges.
	AAVertexSlack int `json:"aa_vertex_slack"`
}

type sceneBlock struct {
	Bars       [][4]int `json:"bars"` // x, y, w, h
	LineHeight float64  `json:"line_height"`
}

// expect holds the known answers for one block; ranges are inclusive
// [lo, hi]; nil fields are not checked.
type expect struct {
	Block       int         `json:"block"`
	Found       bool        `json:"found"`
	Blobs       *int        `json:"blobs"`
	Lines       *int        `json:"lines"`
	Vertices    *[2]int     `json:"vertices"`
	Box         *[4]int     `json:"box"`
	LineHeight  *[2]float64 `json:"line_height"`
	SolidityI   *[2]float64 `json:"solidity1"`
	SolidityII  *[2]float64 `json:"solidity2"`
	SolidityIII *[2]float64 `json:"solidity3"`
	RelWidth    *[2]float64 `json:"relwidth"`
	Headline    *[2]float64 `json:"headline"`
	X           *[2]float64 `json:"x"`
	Y           *[2]float64 `json:"y"`
}

func loadScenes(t testing.TB) []scene {
	t.Helper()
	b, err := os.ReadFile("testdata/scenes.json")
	if err != nil {
		t.Fatal(err)
	}
	var s []scene
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s scene) render(t testing.TB) (*image.RGBA, []float64) {
	t.Helper()
	pal, err := Palette(len(s.Blocks))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, s.Width, s.Height))
	fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
	var lh []float64
	for i, b := range s.Blocks {
		for _, r := range b.Bars {
			fill(img, image.Rect(r[0], r[1], r[0]+r[2], r[1]+r[3]), pal[i])
		}
		if b.LineHeight > 0 {
			if lh == nil {
				lh = make([]float64, len(s.Blocks))
			}
			lh[i] = b.LineHeight
		}
	}
	return img, lh
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// syntheticPage builds a seeded page of width w and height h laid out like
// a news site: a left navigation column of one-line links, a main column of
// headings and ragged paragraphs, and a right column of short teasers.
// It returns the image and the number of blocks.
func syntheticPage(t testing.TB, w, h int, seed uint64) (*image.RGBA, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var blocks [][]image.Rectangle
	para := func(x, y, width, lines, barH, pitch int) []image.Rectangle {
		var rs []image.Rectangle
		for l := 0; l < lines; l++ {
			lw := width - rng.IntN(width/6+1)
			if l == lines-1 {
				lw = width/5 + rng.IntN(width*4/5)
			}
			rs = append(rs, image.Rect(x, y+l*pitch, x+lw, y+l*pitch+barH))
		}
		return rs
	}
	// Navigation: one-line links, 26 px apart.
	for y := 120; y+20 < h && len(blocks) < 60; y += 26 {
		blocks = append(blocks, para(20, y, 120+rng.IntN(80), 1, 16, 20))
	}
	// Main column.
	for y := 100; y < h-200; {
		if rng.IntN(4) == 0 {
			blocks = append(blocks, para(260, y, 400+rng.IntN(300), 1, 30, 36))
			y += 50
		}
		lines := 2 + rng.IntN(8)
		blocks = append(blocks, para(260, y, 740, lines, 18, 22))
		y += lines*22 + 18
	}
	// Right column teasers.
	for y := 150; y < h-100; {
		lines := 1 + rng.IntN(3)
		blocks = append(blocks, para(1040, y, 200, lines, 14, 17))
		y += lines*17 + 40
	}
	pal, err := Palette(len(blocks))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
	for i, rs := range blocks {
		for _, r := range rs {
			fill(img, r, pal[i])
		}
	}
	return img, len(blocks)
}
