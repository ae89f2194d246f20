package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tolerance for the [lo, hi] ranges of testdata/scenes.json.
const slack = 1e-9

func checkRange(t *testing.T, what string, got float64, r *[2]float64) {
	t.Helper()
	if r != nil && (got < r[0]-slack || got > r[1]+slack) {
		t.Errorf("%s = %v, want in [%v, %v]", what, got, r[0], r[1])
	}
}

func TestScenes(t *testing.T) {
	for _, s := range loadScenes(t) {
		t.Run(s.Name, func(t *testing.T) {
			img, lh := s.render(t)
			fs, err := Measure(img, len(s.Blocks), Options{LineHeight: lh})
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != len(s.Blocks) {
				t.Fatalf("%d features for %d blocks", len(fs), len(s.Blocks))
			}
			for _, e := range s.Expect {
				f := fs[e.Block]
				t.Logf("block %d: %+v", e.Block, f)
				if f.Found != e.Found {
					t.Fatalf("block %d: Found = %v", e.Block, f.Found)
				}
				if !f.Found {
					if f != (Features{}) {
						t.Errorf("block %d not found but has features %+v", e.Block, f)
					}
					for _, fl := range Fields {
						if v := fl.Get(&f); v != 0 {
							t.Errorf("block %d not found but %s = %v", e.Block, fl.Name, v)
						}
					}
					continue
				}
				if e.Blobs != nil && f.Blobs != *e.Blobs {
					t.Errorf("block %d: Blobs = %d, want %d", e.Block, f.Blobs, *e.Blobs)
				}
				if e.Lines != nil && f.Lines != *e.Lines {
					t.Errorf("block %d: Lines = %d, want %d", e.Block, f.Lines, *e.Lines)
				}
				if e.Vertices != nil && (f.Vertices < e.Vertices[0] || f.Vertices > e.Vertices[1]) {
					t.Errorf("block %d: Vertices = %d, want in %v", e.Block, f.Vertices, *e.Vertices)
				}
				if e.Box != nil {
					if want := image.Rect(e.Box[0], e.Box[1], e.Box[2], e.Box[3]); f.Box != want {
						t.Errorf("block %d: Box = %v, want %v", e.Block, f.Box, want)
					}
				}
				checkRange(t, "LineHeight", f.LineHeight, e.LineHeight)
				checkRange(t, "SolidityI", f.SolidityI, e.SolidityI)
				checkRange(t, "SolidityII", f.SolidityII, e.SolidityII)
				checkRange(t, "SolidityIII", f.SolidityIII, e.SolidityIII)
				checkRange(t, "RelWidth", f.RelWidth, e.RelWidth)
				checkRange(t, "Headline", f.Headline, e.Headline)
				checkRange(t, "X", f.X, e.X)
				checkRange(t, "Y", f.Y, e.Y)
			}
		})
	}
}

// TestBlobGeometry checks definitions against the blobs themselves.
func TestBlobGeometry(t *testing.T) {
	for _, s := range loadScenes(t) {
		img, lh := s.render(t)
		fs, blobs, err := MeasureBlobs(img, len(s.Blocks), Options{LineHeight: lh})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fs {
			if len(blobs[i]) != f.Blobs {
				t.Fatalf("%s block %d: %d blobs, Blobs = %d", s.Name, i, len(blobs[i]), f.Blobs)
			}
			var box image.Rectangle
			v := 0
			for _, b := range blobs[i] {
				box = box.Union(b.Rect)
				v += len(b.Polygon)
				// Every vertex lies on the rectangle; the polygon area is at
				// most the rectangle's and at least the pixels' it encloses
				// less the DP tolerance along the perimeter.
				for _, p := range b.Polygon {
					if !p.In(b.Rect.Inset(-1)) {
						t.Errorf("%s block %d: vertex %v outside %v", s.Name, i, p, b.Rect)
					}
				}
				ra := float64(b.Rect.Dx() * b.Rect.Dy())
				if b.Area > ra+slack || b.Area <= 0 {
					t.Errorf("%s block %d: polygon area %v, rectangle %v", s.Name, i, b.Area, ra)
				}
			}
			if box != f.Box || v != f.Vertices {
				t.Errorf("%s block %d: union box %v vertices %d; features say %v, %d", s.Name, i, box, v, f.Box, f.Vertices)
			}
		}
	}
}

// TestAntialiasedEdges draws every bar with a one-pixel fringe blended with
// white at seeded random coverage (a bar at fractional coordinates), and
// between vertically touching blocks a row mixing both colours. Blocks use
// palette indices from the end of a 20000-colour palette, where blends can
// decode to a third colour. The features must match the clean rendering:
// same Found, Blobs, Lines, Vertices (within the scene's aa_vertex_slack:
// where blocks touch, a blended boundary row can cut one corner); Box within
// 1 px; Solidity I and III within 0.03, Solidity II within 0.03 after
// allowing for the vertex slack.
func TestAntialiasedEdges(t *testing.T) {
	const n = 20000
	pal, _ := Palette(n)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range loadScenes(t) {
		t.Run(s.Name, func(t *testing.T) {
			// Map block i to palette index base+i.
			base := n - len(s.Blocks)
			draw := func(aa bool) *image.RGBA {
				img := image.NewRGBA(image.Rect(0, 0, s.Width, s.Height))
				owner := make([]int, s.Width*s.Height) // block+1 of bar pixels
				for i, b := range s.Blocks {
					for _, r := range b.Bars {
						for y := r[1]; y < r[1]+r[3]; y++ {
							for x := r[0]; x < r[0]+r[2]; x++ {
								owner[y*s.Width+x] = i + 1
							}
						}
					}
				}
				fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
				if aa {
					for i, b := range s.Blocks {
						for _, r := range b.Bars {
							rect := image.Rect(r[0], r[1], r[0]+r[2], r[1]+r[3])
							fringe(img, rect, pal[base+i], rng)
						}
					}
				}
				for i, b := range s.Blocks {
					for _, r := range b.Bars {
						fill(img, image.Rect(r[0], r[1], r[0]+r[2], r[1]+r[3]), pal[base+i])
					}
				}
				if aa {
					// Rows where a bar sits directly on another block's bar.
					for i, b := range s.Blocks {
						for _, r := range b.Bars {
							y := r[1] + r[3]
							for x := r[0]; x < r[0]+r[2]; x++ {
								if y >= s.Height {
									break
								}
								if o := owner[y*s.Width+x]; o != 0 && o != i+1 {
									img.SetRGBA(x, y-1, mix(pal[base+i], img.RGBAAt(x, y), rng.IntN(256)))
								}
							}
						}
					}
				}
				return img
			}
			_, lh := s.render(t)
			var lhAll []float64
			if lh != nil {
				lhAll = make([]float64, n)
				copy(lhAll[base:], lh)
			}
			clean, err := Measure(draw(false), n, Options{LineHeight: lhAll})
			if err != nil {
				t.Fatal(err)
			}
			aa, aaBlobs, err := MeasureBlobs(draw(true), n, Options{LineHeight: lhAll})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < base; i++ {
				if aa[i].Found {
					t.Fatalf("block %d (not drawn) found: %+v", i, aa[i])
				}
			}
			for i := range s.Blocks {
				c, a := clean[base+i], aa[base+i]
				dv := a.Vertices - c.Vertices
				if c.Found != a.Found || c.Blobs != a.Blobs || c.Lines != a.Lines || dv < -s.AAVertexSlack || dv > s.AAVertexSlack {
					t.Errorf("block %d: clean %+v\nanti-aliased %+v\nblobs %+v", i, c, a, aaBlobs[base+i])
					continue
				}
				for _, d := range []int{a.Box.Min.X - c.Box.Min.X, a.Box.Min.Y - c.Box.Min.Y, a.Box.Max.X - c.Box.Max.X, a.Box.Max.Y - c.Box.Max.Y} {
					if d < -1 || d > 1 {
						t.Errorf("block %d: box %v vs %v", i, a.Box, c.Box)
					}
				}
				d2 := a.SolidityII - c.SolidityII - float64(dv)/float64(c.Lines)
				for _, d := range []float64{a.SolidityI - c.SolidityI, a.SolidityIII - c.SolidityIII, d2} {
					if d < -0.03 || d > 0.03 {
						t.Errorf("block %d: solidities %v %v %v vs %v %v %v", i, a.SolidityI, a.SolidityII, a.SolidityIII, c.SolidityI, c.SolidityII, c.SolidityIII)
					}
				}
			}
		})
	}
}

// fringe blends c with the pixels of the one-pixel ring around r.
func fringe(img *image.RGBA, r image.Rectangle, c color.RGBA, rng *rand.Rand) {
	out := r.Inset(-1)
	for y := out.Min.Y; y < out.Max.Y; y++ {
		for x := out.Min.X; x < out.Max.X; x++ {
			if image.Pt(x, y).In(r) || !image.Pt(x, y).In(img.Rect) {
				continue
			}
			img.SetRGBA(x, y, mix(c, img.RGBAAt(x, y), rng.IntN(256)))
		}
	}
}

// mix is a/255 of c over d, rounded.
func mix(c, d color.RGBA, a int) color.RGBA {
	m := func(u, v uint8) uint8 { return uint8((int(u)*a + int(v)*(255-a) + 127) / 255) }
	return color.RGBA{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B), 255}
}

func TestMeasureErrors(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for _, c := range []struct {
		name string
		img  image.Image
		n    int
		opt  Options
	}{
		{"nil image", nil, 1, Options{}},
		{"negative n", img, -1, Options{}},
		{"n too large", img, MaxColors + 1, Options{}},
		{"line heights", img, 3, Options{LineHeight: []float64{1}}},
		{"font sizes", img, 3, Options{FontSize: []float64{1, 2, 3, 4}}},
		{"scale", img, 3, Options{Scale: -1}},
		{"styles", img, 3, Options{Style: make([]Style, 2)}},
		{"screen", img, 3, Options{Screen: -5}},
	} {
		if _, err := Measure(c.img, c.n, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	fs, err := Measure(img, 0, Options{})
	if err != nil || len(fs) != 0 {
		t.Errorf("empty: %v %v", fs, err)
	}
}

// TestImageTypes: NRGBA, a sub-image with non-zero origin and a paletted
// image give the same features as RGBA (coordinates follow the image's).
func TestImageTypes(t *testing.T) {
	s := loadScenes(t)[3]
	img, lh := s.render(t)
	want, _ := Measure(img, len(s.Blocks), Options{LineHeight: lh})
	nrgba := image.NewNRGBA(img.Rect)
	copy(nrgba.Pix, img.Pix)
	got, _ := Measure(nrgba, len(s.Blocks), Options{LineHeight: lh})
	if got[0] != want[0] {
		t.Errorf("NRGBA: %+v\nwant %+v", got[0], want[0])
	}
	gray := image.NewRGBA64(img.Rect)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			gray.Set(x, y, img.At(x, y))
		}
	}
	got, _ = Measure(gray, len(s.Blocks), Options{LineHeight: lh})
	if got[0] != want[0] {
		t.Errorf("RGBA64: %+v\nwant %+v", got[0], want[0])
	}
	sub := img.SubImage(image.Rect(50, 50, 1000, 300)).(*image.RGBA)
	got, _ = Measure(sub, len(s.Blocks), Options{LineHeight: lh})
	if got[0].Box != want[0].Box || got[0].Vertices != want[0].Vertices || got[0].SolidityI != want[0].SolidityI {
		t.Errorf("sub-image: %+v\nwant %+v", got[0], want[0])
	}
}

// TestMeasurePanic: a panic measuring a block is returned as an error,
// with its stack, from worker goroutines, where it would end the process;
// with one worker it is the caller's, on its own goroutine.
func TestMeasurePanic(t *testing.T) {
	img, n := syntheticPage(t, 1280, 2000, 5)
	defer func() { measureOne = measureBlock }()
	measureOne = func(rs []run, lh float64, s *scratch) (Features, []Blob) {
		if rs[0].block == 2 {
			panic("block two")
		}
		return measureBlock(rs, lh, s)
	}
	_, err := Measure(img, n, Options{Workers: 3})
	if err == nil || !strings.Contains(err.Error(), "block two") || !strings.Contains(err.Error(), "measureAll") {
		t.Errorf("3 workers: error %v, want the panic with its stack", err)
	}
	recovered := func() (r any) {
		defer func() { r = recover() }()
		Measure(img, n, Options{Workers: 1})
		return nil
	}()
	if recovered != "block two" {
		t.Errorf("1 worker: the caller recovered %v, want the panic", recovered)
	}
}

// TestWorkersAndScale: results do not depend on Workers; Scale multiplies
// the given line heights.
func TestWorkersAndScale(t *testing.T) {
	img, n := syntheticPage(t, 1280, 2000, 5)
	one, err := Measure(img, n, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, _ := Measure(img, n, Options{Workers: 3})
	found := 0
	for i := range one {
		if one[i] != many[i] {
			t.Fatalf("block %d: workers=1 %+v, workers=3 %+v", i, one[i], many[i])
		}
		if one[i].Found {
			found++
		}
	}
	if found != n {
		t.Errorf("%d of %d blocks found", found, n)
	}
	lh := make([]float64, n)
	for i := range lh {
		lh[i] = 11
	}
	scaled, _ := Measure(img, n, Options{LineHeight: lh, Scale: 2})
	for i := range scaled {
		if scaled[i].LineHeight != 22 {
			t.Fatalf("block %d: line height %v, want 22", i, scaled[i].LineHeight)
		}
	}
}

// TestStyleAndScreen: found blocks carry their Options.Style and how many
// first screens down they start; blocks not found carry neither; the
// style columns of Fields read them.
func TestStyleAndScreen(t *testing.T) {
	pal, err := Palette(3)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 400, 2000))
	fill(img, img.Rect, color.RGBA{255, 255, 255, 255})
	fill(img, image.Rect(20, 100, 300, 160), pal[0])   // first screen
	fill(img, image.Rect(20, 1700, 300, 1760), pal[1]) // four screens of 400 down
	st := []Style{{Weight: 700, Contrast: 21}, {Weight: 400, Contrast: 2, Fixed: true}, {Weight: 900, Contrast: 21, Fixed: true}}
	fs, err := Measure(img, 3, Options{Style: st, Screen: 400})
	if err != nil {
		t.Fatal(err)
	}
	if !fs[0].Found || !fs[1].Found || fs[2].Found {
		t.Fatalf("found: %v %v %v", fs[0].Found, fs[1].Found, fs[2].Found)
	}
	if fs[0].Style != st[0] || fs[1].Style != st[1] || fs[2].Style != (Style{}) {
		t.Errorf("styles %+v %+v %+v", fs[0].Style, fs[1].Style, fs[2].Style)
	}
	if math.Abs(fs[0].Screens-0.25) > 0.01 || math.Abs(fs[1].Screens-4.25) > 0.01 || fs[2].Screens != 0 {
		t.Errorf("screens %v %v %v, want 0.25, 4.25, 0", fs[0].Screens, fs[1].Screens, fs[2].Screens)
	}
	get := map[string]func(*Features) float64{}
	for _, f := range Fields {
		get[f.Name] = f.Get
	}
	for _, c := range []struct {
		name string
		b    int
		want float64
	}{
		{"vis_bold", 0, 1}, {"vis_bold", 1, 0}, {"vis_contrast", 0, 1}, {"vis_contrast", 1, math.Log(2) / math.Log(21)},
		{"vis_fixed", 0, 0}, {"vis_fixed", 1, 1}, {"vis_first_screen", 0, 1}, {"vis_first_screen", 1, 0},
		{"vis_screens", 1, math.Log1p(4.25)},
	} {
		if got := get[c.name](&fs[c.b]); math.Abs(got-c.want) > 0.01 {
			t.Errorf("%s of block %d: %v, want %v", c.name, c.b, got, c.want)
		}
	}
}
