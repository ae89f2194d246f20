package vision

import (
	"errors"
	"fmt"
	"image"
	"math"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
)

// Options tune Measure. The zero value is ready to use.
// MaxLineHeight bounds a given line height, in device pixels: a page's
// CSS can set line-height to millions of pixels, and the blur that
// coalesces lines into blobs grows with it (no real line is this tall).
const MaxLineHeight = 4096

type Options struct {
	// LineHeight, if not nil, has one entry per block: its line height in
	// CSS pixels (e.g. the computed CSS line-height). Entries <= 0, and all
	// blocks when LineHeight is nil, are estimated from the block's mask.
	LineHeight []float64 // each at most MaxLineHeight device pixels once scaled
	// FontSize, if not nil, has one entry per block: its font size, in any
	// unit (e.g. render.Result's). It is not scaled. Found blocks carry it
	// in Features.FontSize, and FontSizeRel relates it to the page's median.
	FontSize []float64
	// Scale is device pixels per CSS pixel of the screenshot (LineHeight is
	// multiplied by it). 0 means 1.
	Scale float64
	// Workers is the number of goroutines measuring blocks; 0 means
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Beyond, if not nil, has one entry per block: true for a block that
	// lies below the captured part of a cropped page (render.Result's
	// Beyond). Such a block is not Found and carries Beyond, so that a
	// classifier can tell "not captured" from "not visible".
	Beyond []bool
	// Style, if not nil, has one entry per block: what the renderer read
	// from the computed style of the block's text (render.Result's
	// FontWeight, Contrast and Fixed). Found blocks carry it in Features.
	Style []Style
	// Screen is the height of the first screen (what shows before
	// scrolling) in image pixels; 0: unknown. Found blocks get
	// Features.Screens from it.
	Screen int
}

// Style is what the renderer read from the computed style of a block's
// text.
type Style struct {
	Weight   float64 // font weight, 100..900 (0: unknown)
	Contrast float64 // WCAG 2 contrast ratio with the background, 1..21 (0: unknown)
	Fixed    bool    // inside a fixed or sticky container
}

// Features are the visual features of one block. All lengths are in image
// pixels. See the package documentation for the exact definitions.
type Features struct {
	Found  bool            // the block has at least one blob
	Beyond bool            // not Found because it lies below a cropped capture (Options.Beyond)
	Blobs  int             // number of blobs
	Box    image.Rectangle // union of the blobs' bounding rectangles
	Pixels int             // decoded pixels of the block (before blurring)

	LineHeight float64 // line pitch used, px
	Lines      int     // sum over blobs of max(1, round(blob height / LineHeight))
	Vertices   int     // sum over blobs of polygon vertices

	SolidityI   float64
	SolidityII  float64
	SolidityIII float64
	RelWidth    float64
	Headline    float64

	X, Y float64 // centre of Box over the page width and height
	Area float64 // sum of polygon areas over the page area
	// Left, Top, Right, Bottom are Box's edges over the page width and
	// height (0..1).
	Left, Top, Right, Bottom float64

	FontSize    float64 // Options.FontSize of the block (0 without it)
	FontSizeRel float64 // FontSize over the page's median (0 without one)

	Style Style // Options.Style of the block (zero without it)
	// Screens is how many first screens (Options.Screen) down the page
	// the top of Box lies: below 1 a reader sees the block without
	// scrolling (0 without Options.Screen). FirstScreen: Screens < 1,
	// with Options.Screen given.
	Screens     float64
	FirstScreen bool
}

// Blob is one connected region of a block after blurring and thresholding.
type Blob struct {
	Rect     image.Rectangle // minimal axis-aligned bounding rectangle, page px
	Polygon  []image.Point   // simplified outer contour, clockwise, pixel corners
	Area     float64         // polygon (shoelace) area
	Pixels   int             // pixels of the thresholded region
	Lines    int             // max(1, round(Rect height / line height))
	MeanAbsX float64         // mean |x_vertex - x_centre| / (width/2)
}

// Measure computes the visual features of blocks 0..n-1 from a highlight
// screenshot (see the package doc). Blocks absent from the image get
// Found == false and zero features. It returns an error only for invalid
// arguments, and for a bug: a panic on one of its worker goroutines
// (Options.Workers above 1) is returned as an error; with one worker it
// measures on the caller's goroutine, and a panic is the caller's.
func Measure(img image.Image, n int, opt Options) ([]Features, error) {
	f, _, err := MeasureBlobs(img, n, opt)
	return f, err
}

// MeasureBlobs is Measure that also returns every block's blobs.
func MeasureBlobs(img image.Image, n int, opt Options) ([]Features, [][]Blob, error) {
	if img == nil {
		return nil, nil, errors.New("vision: nil image")
	}
	if n < 0 || n > MaxColors {
		return nil, nil, fmt.Errorf("vision: %d blocks, supported 0..%d", n, MaxColors)
	}
	if opt.LineHeight != nil && len(opt.LineHeight) != n {
		return nil, nil, fmt.Errorf("vision: %d line heights for %d blocks", len(opt.LineHeight), n)
	}
	if opt.FontSize != nil && len(opt.FontSize) != n {
		return nil, nil, fmt.Errorf("vision: %d font sizes for %d blocks", len(opt.FontSize), n)
	}
	if opt.Beyond != nil && len(opt.Beyond) != n {
		return nil, nil, fmt.Errorf("vision: %d beyond flags for %d blocks", len(opt.Beyond), n)
	}
	if opt.Style != nil && len(opt.Style) != n {
		return nil, nil, fmt.Errorf("vision: %d styles for %d blocks", len(opt.Style), n)
	}
	if opt.Screen < 0 {
		return nil, nil, fmt.Errorf("vision: first screen of %d px", opt.Screen)
	}
	scale := opt.Scale
	if scale == 0 {
		scale = 1
	}
	if scale < 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return nil, nil, fmt.Errorf("vision: invalid scale %v", opt.Scale)
	}
	runs, bounds := decodeRuns(img, n)

	// Bucket runs by block, keeping raster order (counting sort).
	start := make([]int, n+1)
	for _, r := range runs {
		start[r.block+1]++
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	byBlock := make([]run, len(runs))
	pos := append([]int(nil), start[:n]...)
	for _, r := range runs {
		byBlock[pos[r.block]] = r
		pos[r.block]++
	}

	feats := make([]Features, n)
	blobs := make([][]Blob, n)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	measure := func(i int, s *scratch) {
		lh := 0.0
		if opt.LineHeight != nil && opt.LineHeight[i] > 0 && !math.IsInf(opt.LineHeight[i], 0) {
			// At most MaxLineHeight: the blur's radii follow the
			// line height, and a page's CSS can ask for any.
			lh = min(opt.LineHeight[i]*scale, MaxLineHeight)
		}
		feats[i], blobs[i] = measureOne(byBlock[start[i]:start[i+1]], lh, s)
	}
	if workers == 1 {
		// On the caller's goroutine, where its recovery sees a panic.
		var s scratch
		for i := 0; i < n; i++ {
			if start[i+1] > start[i] {
				measure(i, &s)
			}
		}
	} else if err := measureAll(workers, n, start, measure); err != nil {
		return nil, nil, err
	}
	pageFeatures(feats, bounds, opt.FontSize)
	for i := range feats {
		f := &feats[i]
		if !f.Found {
			continue
		}
		if opt.Style != nil {
			f.Style = opt.Style[i]
		}
		if opt.Screen > 0 {
			f.Screens = float64(f.Box.Min.Y-bounds.Min.Y) / float64(opt.Screen)
			f.FirstScreen = f.Screens < 1
		}
	}
	for i, b := range opt.Beyond {
		if b && !feats[i].Found {
			feats[i].Beyond = true
		}
	}
	return feats, blobs, nil
}

// measureOne is measureBlock; tests replace it.
var measureOne = measureBlock

// measureAll runs measure for every block that has runs on workers
// goroutines. A panic there would end the process, out of reach of the
// caller's recovery: it is returned as an error, with its stack, and the
// blocks after it are measured still.
func measureAll(workers, n int, start []int, measure func(i int, s *scratch)) error {
	jobs := make(chan int, 64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s scratch
			for i := range jobs {
				func() {
					defer func() {
						if r := recover(); r != nil {
							s = scratch{} // as the panic left it: not to be trusted
							mu.Lock()
							if first == nil {
								first = fmt.Errorf("vision: block %d: internal error (please report): %v\n%s", i, r, debug.Stack())
							}
							mu.Unlock()
						}
					}()
					measure(i, &s)
				}()
			}
		}()
	}
	for i := 0; i < n; i++ {
		if start[i+1] > start[i] {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	return first
}

// scratch holds per-worker buffers.
type scratch struct {
	mask   []uint8
	hb     []float32
	rowRep []int32
	colRep []int32
	chg    []int32
	colA   []float32
	colB   []float32
	res    []uint8
	x0, x1 []int32
}

// measureBlock computes the per-block geometry from the block's runs (page
// coordinates, raster order). Page-relative features are filled later.
func measureBlock(rs []run, lh float64, s *scratch) (Features, []Blob) {
	var f Features
	bx0, by0, bx1, by1 := rs[0].x0, rs[0].y, rs[0].x1, rs[len(rs)-1].y+1
	for _, r := range rs {
		bx0, bx1 = min(bx0, r.x0), max(bx1, r.x1)
		f.Pixels += int(r.x1 - r.x0)
	}
	w, h := int(bx1-bx0), int(by1-by0)
	if cap(s.mask) < w*h {
		s.mask = make([]uint8, w*h)
	}
	m := s.mask[:w*h]
	clear(m)
	if cap(s.x0) < h {
		s.x0, s.x1 = make([]int32, h), make([]int32, h)
	}
	ex0, ex1 := s.x0[:h], s.x1[:h]
	clear(ex0)
	clear(ex1)
	for _, r := range rs {
		y := int(r.y - by0)
		a, b := int(r.x0-bx0), int(r.x1-bx0)
		row := m[y*w : (y+1)*w]
		for x := a; x < b; x++ {
			row[x] = 1
		}
		if ex0[y] == ex1[y] {
			ex0[y], ex1[y] = int32(a), int32(b)
		} else {
			ex1[y] = int32(b) // runs of a row arrive left to right
		}
	}
	if lh <= 0 {
		lh = estimateLineHeight(ex0, ex1)
	}
	f.LineHeight = lh

	rx, ry := blurRadii(lh)
	blurThreshold(m, w, h, rs, bx0, by0, rx, ry, s)
	eps := max(minEps, lh/epsDivisor)
	var out []Blob
	var areaSum, rectSum, s1Num, s3Num float64
	for _, c := range components(m, w, h) {
		if c.x1-c.x0 < minBlobSide || c.y1-c.y0 < minBlobSide {
			continue
		}
		poly := simplify(traceOuter(m, w, h, c.startX, c.startY), eps)
		// The rectangle is the polygon's: bumps DP dropped do not widen it.
		px0, py0, px1, py1 := poly[0].x, poly[0].y, poly[0].x, poly[0].y
		for _, p := range poly {
			px0, px1 = min(px0, p.x), max(px1, p.x)
			py0, py1 = min(py0, p.y), max(py1, p.y)
		}
		cw, ch := px1-px0, py1-py0
		if cw < minBlobSide || ch < minBlobSide {
			continue
		}
		b := Blob{
			Rect:   image.Rect(px0, py0, px1, py1).Add(image.Pt(int(bx0), int(by0))),
			Area:   polyArea(poly),
			Pixels: c.pixels,
			Lines:  max(1, int(math.Round(float64(ch)/lh))),
		}
		xc := float64(px0+px1) / 2
		var dx float64
		b.Polygon = make([]image.Point, len(poly))
		for i, p := range poly {
			b.Polygon[i] = image.Pt(p.x+int(bx0), p.y+int(by0))
			dx += math.Abs(float64(p.x) - xc)
		}
		b.MeanAbsX = dx / float64(len(poly)) / (float64(cw) / 2)
		ra := float64(cw * ch)
		areaSum += b.Area
		rectSum += ra
		s1Num += math.Min(b.Area, ra)
		s3Num += ra * b.MeanAbsX
		f.Vertices += len(poly)
		f.Lines += b.Lines
		if len(out) == 0 {
			f.Box = b.Rect
		} else {
			f.Box = f.Box.Union(b.Rect)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return f, nil
	}
	f.Found = true
	f.Blobs = len(out)
	f.SolidityI = s1Num / rectSum
	f.SolidityII = float64(f.Vertices) / float64(f.Lines)
	f.SolidityIII = s3Num / rectSum
	f.Area = areaSum // made relative in pageFeatures
	return f, out
}

// Douglas-Peucker tolerance: max(minEps, line height / epsDivisor) px.
const (
	minEps     = 1.5
	epsDivisor = 8
)

// minBlobSide: blobs narrower or lower than this (px) are dropped; they are
// stray edge pixels (blends that decode to another block), not text.
const minBlobSide = 3

// pageFeatures fills the features relative to the page: RelWidth, Headline,
// X, Y, Left, Top, Right, Bottom, Area, and FontSize and FontSizeRel from
// font (nil: none).
func pageFeatures(fs []Features, page image.Rectangle, font []float64) {
	widest := 0
	var oneSum float64
	var oneN int
	var lhSum float64
	var found int
	for _, f := range fs {
		if !f.Found {
			continue
		}
		found++
		widest = max(widest, f.Box.Dx())
		lhSum += f.LineHeight
		if f.Lines == 1 {
			oneSum += float64(f.Box.Dy())
			oneN++
		}
	}
	if found == 0 {
		return
	}
	head := lhSum / float64(found)
	if oneN > 0 {
		head = oneSum / float64(oneN)
	}
	pw, ph := float64(page.Dx()), float64(page.Dy())
	for i := range fs {
		f := &fs[i]
		if !f.Found {
			continue
		}
		f.RelWidth = float64(f.Box.Dx()) / float64(widest)
		f.Headline = (float64(f.Box.Dy()) - head) / head
		f.X = (float64(f.Box.Min.X+f.Box.Max.X)/2 - float64(page.Min.X)) / pw
		f.Y = (float64(f.Box.Min.Y+f.Box.Max.Y)/2 - float64(page.Min.Y)) / ph
		f.Left = float64(f.Box.Min.X-page.Min.X) / pw
		f.Top = float64(f.Box.Min.Y-page.Min.Y) / ph
		f.Right = float64(f.Box.Max.X-page.Min.X) / pw
		f.Bottom = float64(f.Box.Max.Y-page.Min.Y) / ph
		f.Area /= pw * ph
	}
	if font == nil {
		return
	}
	var sizes []float64
	for i := range fs {
		f := &fs[i]
		if !f.Found {
			continue
		}
		f.FontSize = font[i]
		if f.FontSize > 0 {
			sizes = append(sizes, f.FontSize)
		}
	}
	if len(sizes) == 0 {
		return
	}
	sort.Float64s(sizes)
	median := sizes[len(sizes)/2]
	for i := range fs {
		if f := &fs[i]; f.Found {
			f.FontSizeRel = f.FontSize / median
		}
	}
}
