package vision

import (
	"image/color"
	"testing"
)

func TestPaletteRoundTrip(t *testing.T) {
	const n = 20000
	pal, err := Palette(n)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[color.RGBA]int, n)
	for i, c := range pal {
		if j, dup := seen[c]; dup {
			t.Fatalf("colours %d and %d are both %v", j, i, c)
		}
		seen[c] = i
		if c.A != 255 {
			t.Fatalf("colour %d not opaque: %v", i, c)
		}
		lo := min(c.R, c.G, c.B)
		hi := max(c.R, c.G, c.B)
		if lo >= 208 {
			t.Errorf("colour %d %v is near white", i, c)
		}
		if hi-lo <= 16 {
			t.Errorf("colour %d %v is grey-ish", i, c)
		}
		got, ok := Index(c)
		if !ok || got != i {
			t.Fatalf("Index(%v) = %d, %v; want %d", c, got, ok, i)
		}
		// Every channel may be off by up to Tolerance.
		for d := -Tolerance; d <= Tolerance; d++ {
			for ch := 0; ch < 3; ch++ {
				cc := c
				p := []*uint8{&cc.R, &cc.G, &cc.B}[ch]
				v := int(*p) + d
				if v < 0 || v > 255 {
					continue
				}
				*p = uint8(v)
				if got, ok := Index(cc); !ok || got != i {
					t.Fatalf("Index(%v) (colour %d off by %d) = %d, %v", cc, i, d, got, ok)
				}
			}
		}
	}
	// Prefix property.
	small, _ := Palette(10)
	for i := range small {
		if small[i] != pal[i] {
			t.Fatalf("Palette(10)[%d] != Palette(20000)[%d]", i, i)
		}
	}
	if MaxColors < n {
		t.Fatalf("MaxColors = %d < %d", MaxColors, n)
	}
	t.Logf("MaxColors %d, SafeColors %d", MaxColors, SafeColors)
}

func TestPaletteLimits(t *testing.T) {
	for _, n := range []int{-1, MaxColors + 1} {
		if _, err := Palette(n); err == nil {
			t.Errorf("Palette(%d): no error", n)
		}
	}
	if p, err := Palette(MaxColors); err != nil || len(p) != MaxColors {
		t.Errorf("Palette(MaxColors) = %d colours, %v", len(p), err)
	}
	for _, c := range []color.RGBA{{255, 255, 255, 255}, {252, 252, 252, 255}, {0, 0, 0, 255}, {128, 128, 128, 255}, {4, 60, 200, 255}, {3, 64, 200, 255}} {
		if i, ok := Index(c); ok {
			t.Errorf("Index(%v) = %d, want rejected", c, i)
		}
	}
}

// blend mixes c with white as a renderer does at an anti-aliased edge:
// coverage a/255 of c over white, rounded.
func blend(c color.RGBA, a int) color.RGBA {
	m := func(v uint8) uint8 { return uint8((int(v)*a + 255*(255-a) + 127) / 255) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), 255}
}

// TestBlendWithWhite checks the guarantee of the package doc: for the first
// SafeColors colours, any blend with white decodes to the same colour or is
// rejected. Beyond SafeColors it only counts wrong decodes.
func TestBlendWithWhite(t *testing.T) {
	pal, _ := Palette(MaxColors)
	wrong := 0
	for i, c := range pal {
		for a := 0; a <= 255; a++ {
			j, ok := Index(blend(c, a))
			if !ok || j == i {
				continue
			}
			if i < SafeColors && j < SafeColors {
				t.Fatalf("colour %d %v blended at %d/255 decodes as %d", i, c, a, j)
			}
			wrong++
		}
	}
	if SafeColors < 2000 {
		t.Errorf("SafeColors = %d, want >= 2000", SafeColors)
	}
	t.Logf("beyond SafeColors: %d of %d blends decode to another colour", wrong, len(pal)*256)
}

func BenchmarkIndex(b *testing.B) {
	pal, _ := Palette(20000)
	for i := 0; b.Loop(); i++ {
		Index(pal[i%len(pal)])
	}
}
