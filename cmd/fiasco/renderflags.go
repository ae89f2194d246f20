package main

import (
	"context"
	"flag"
	"time"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// renderFlags configure the browser that renders pages.
type renderFlags struct {
	chromium string
	remote   string
	width    int
	timeout  time.Duration
	reuse    bool
	scale    float64
}

func (r *renderFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&r.chromium, "chromium", "", "path of the Chromium binary (default: found in /usr/bin, /usr/lib/chromium or on PATH)")
	fs.StringVar(&r.remote, "remote", "", "DevTools URL of a running browser to use instead of starting one (e.g. a Chromium container)")
	fs.IntVar(&r.width, "width", render.DefaultWidth, "viewport width in CSS pixels")
	fs.DurationVar(&r.timeout, "render-timeout", render.DefaultTimeout, "time limit for rendering one page")
	fs.Float64Var(&r.scale, "scale", pipeline.DefaultRenderScale, "capture scale for the visual features, image px per CSS px (the default models were trained at this one)")
	fs.BoolVar(&r.reuse, "reuse-tabs", false, "render the next page in a tab whose page succeeded instead of a new tab per page (faster batches)")
}

func (r *renderFlags) options() render.Options {
	return render.Options{ExecPath: r.chromium, RemoteURL: r.remote, Width: r.width, Timeout: r.timeout, ReuseTabs: r.reuse, Scale: r.scale}
}

// browserPath reports the browser that would be used, or why there is none.
func (r *renderFlags) browserPath() (string, error) {
	if r.remote != "" {
		return r.remote, nil
	}
	if r.chromium != "" {
		return r.chromium, nil
	}
	return render.FindChromium()
}

// visualizer starts a browser and returns the Visualizer that renders
// pages in it, and a function that stops the browser.
func (r *renderFlags) visualizer(ctx context.Context) (pipeline.Visualizer, func(), error) {
	v, err := pipeline.NewVisualizer(ctx, r.options())
	if err != nil {
		return nil, nil, err
	}
	return v, func() { v.Close() }, nil
}
