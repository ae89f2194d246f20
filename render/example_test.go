package render_test

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"testing"

	"github.com/fiasco-project/fiasco/render"
)

// Render a page with two blocks and report where they landed. It needs
// Chromium (setup.sh installs it).
func Example() {
	ctx := context.Background()
	b, err := render.New(ctx, render.Options{Width: 1024})
	if errors.Is(err, render.ErrNoChromium) {
		fmt.Println("install chromium, or run without rendering")
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	doc := []byte(`<h1 data-fiasco-block="0">Title</h1><p data-fiasco-block="1">Body text.</p>`)
	colors := []color.RGBA{{230, 25, 75, 255}, {60, 180, 75, 255}}
	res, err := b.Render(ctx, doc, colors, render.RenderOptions{Highlight: true})
	if err != nil {
		fmt.Println("this page failed:", err)
		return
	}
	title, body := res.Boxes[0], res.Boxes[1]
	fmt.Println("blocks found:", len(res.Boxes))
	fmt.Println("title above the body:", title.Max.Y <= body.Min.Y)
	fmt.Println("title in a larger font:", res.FontSize[0] > res.FontSize[1])
	// Output:
	// blocks found: 2
	// title above the body: true
	// title in a larger font: true
}

func TestNoChromium(t *testing.T) {
	_, err := render.New(context.Background(), render.Options{ExecPath: "/nonexistent/chromium"})
	if !errors.Is(err, render.ErrNoChromium) {
		t.Errorf("New with a missing binary: %v, want ErrNoChromium", err)
	}
}
