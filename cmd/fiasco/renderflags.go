package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
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
	// onRestart is render.Options.OnRestart (the service logs restarts),
	// onRetry render.Options.OnRetry (and pages rendered again).
	onRestart, onRetry func(error)
}

func (r *renderFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&r.chromium, "chromium", "", "path of the Chromium binary (default: found in /usr/bin, /usr/lib/chromium or on PATH)")
	fs.StringVar(&r.remote, "remote", "", "DevTools URL of a running browser to use instead of starting one (e.g. a Chromium container)")
	fs.IntVar(&r.width, "width", render.DefaultWidth, "viewport width in CSS pixels")
	fs.DurationVar(&r.timeout, "render-timeout", render.DefaultTimeout, "time limit for rendering one page")
	fs.Float64Var(&r.scale, "scale", pipeline.DefaultRenderScale, "capture scale for the visual features, image px per CSS px (the default models were trained at this one)")
	fs.BoolVar(&r.reuse, "reuse-tabs", true, fmt.Sprintf("render the next page in a tab whose page succeeded, up to %d pages a tab, instead of a new tab per page: the same results at about half Chromium's CPU (--reuse-tabs=false: a new tab, and renderer process, for every page)", render.DefaultTabPages))
}

func (r *renderFlags) options() render.Options {
	return render.Options{ExecPath: r.chromium, RemoteURL: r.remote, Width: r.width, Timeout: r.timeout, ReuseTabs: r.reuse, Scale: r.scale}
}

// browserPath reports the browser that would be used, or why there is none
// (see noChromium).
func (r *renderFlags) browserPath(withoutRender string) (string, error) {
	if r.remote != "" {
		return r.remote, nil
	}
	if r.chromium != "" {
		return r.chromium, nil
	}
	p, err := findChromium()
	if err != nil {
		return "", r.noChromium(err, withoutRender)
	}
	return p, nil
}

// visualizer starts a browser and returns the Visualizer that renders
// pages in it, and a function that stops the browser and removes its
// profile. withoutRender tells how to do without Chromium, for the message
// when there is none ("" if the command cannot).
func (r *renderFlags) visualizer(ctx context.Context, withoutRender string) (*pipeline.ChromeVisualizer, func(), error) {
	opt := r.options()
	opt.OnRestart = r.onRestart
	opt.OnRetry = r.onRetry
	v, err := r.start(ctx, opt, withoutRender)
	if err != nil {
		return nil, nil, err
	}
	return v, func() { v.Close() }, nil
}

// start starts a browser with opt (r's options, possibly changed).
func (r *renderFlags) start(ctx context.Context, opt render.Options, withoutRender string) (*pipeline.ChromeVisualizer, error) {
	if opt.ExecPath == "" && opt.RemoteURL == "" {
		// The browser browserPath found (render.New would find the same).
		p, err := findChromium()
		if err != nil {
			return nil, r.noChromium(err, withoutRender)
		}
		opt.ExecPath = p
	}
	v, err := pipeline.NewVisualizer(ctx, opt)
	if err != nil {
		return nil, r.noChromium(err, withoutRender)
	}
	return v, nil
}

// noRenderHint is what commands that have --no-render suggest.
const noRenderHint = "pass --no-render to use the text-only model"

// findChromium is render.FindChromium (a variable for the tests of a
// machine without Chromium, or with a broken one).
var findChromium = render.FindChromium

// noChromium turns render's "no Chromium" error, which names the Go
// options, into one that names the flags; other errors pass unchanged.
func (r *renderFlags) noChromium(err error, withoutRender string) error {
	if !errors.Is(err, render.ErrNoChromium) {
		return err
	}
	if r.chromium != "" {
		detail := strings.TrimPrefix(err.Error(), render.ErrNoChromium.Error()+": ")
		return fmt.Errorf("--chromium %s: %s", r.chromium, detail)
	}
	msg := "no Chromium binary found: install it (Debian: apt-get install -y chromium), give its path with --chromium PATH or a running browser's DevTools URL with --remote URL"
	if withoutRender != "" {
		msg += ", or " + withoutRender
	}
	return errors.New(msg)
}
