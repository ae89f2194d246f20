package vision

import (
	"encoding/json"
	"image"
	"image/color"
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
