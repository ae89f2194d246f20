package main

import (
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// needChromium skips t, saying so, on a machine without Chromium; in CI
// (CI=true), where setup.sh installs it, a missing Chromium fails t.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := render.FindChromium(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Chromium in CI (%v): setup.sh installs it", err)
		}
		t.Skipf("no Chromium on this machine (%v); rendering not tested", err)
	}
}

// TestCleanRendered cleans the test page with the corpus policy's visual
// model (--render): Chromium renders it and the visual features join the
// others.
func TestCleanRendered(t *testing.T) {
	needChromium(t)
	code, out, errs := fiasco(t, "clean", "--render", "--format", "text", "../../testdata/article.html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"More than forty thousand people", "Police closed two streets"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"Log in", "Copyright"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("output keeps %q:\n%s", unwanted, out)
		}
	}
}

// TestInspect draws the test page with its blocks outlined.
func TestInspect(t *testing.T) {
	needChromium(t)
	png1 := filepath.Join(t.TempDir(), "article.png")
	code, out, errs := fiasco(t, "inspect", "../../testdata/article.html", "-o", png1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 10 || !strings.HasPrefix(lines[0], "id\tlabel\tvalue") {
		t.Fatalf("feature table:\n%s", out)
	}
	f, err := os.Open(png1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != render.DefaultWidth {
		t.Errorf("picture is %d px wide, want the viewport's %d", w, render.DefaultWidth)
	}
	// Both outline colours occur: the article is clean, the menu dirty.
	var green, red bool
	clean, dirty := vision.ClassColor(1), vision.ClassColor(0)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			green = green || c == clean
			red = red || c == dirty
		}
	}
	if !green || !red {
		t.Errorf("outlines: clean (green) %v, dirty (red) %v; want both", green, red)
	}
}
