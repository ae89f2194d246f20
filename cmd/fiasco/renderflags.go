package main

import (
	"context"
	"errors"
	"flag"

	"github.com/fiasco-project/fiasco/pipeline"
)

// renderFlags configure the browser that renders pages.
type renderFlags struct {
	chromium string
	remote   string
	width    int
}

func (r *renderFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&r.chromium, "chromium", "", "path of the Chromium binary (default: /usr/bin/chromium or found on PATH)")
	fs.StringVar(&r.remote, "remote", "", "DevTools URL of a running browser to use instead of starting one")
	fs.IntVar(&r.width, "width", 1280, "viewport width in CSS pixels")
}

func (r *renderFlags) browserPath() (string, error) {
	return "", errors.New("rendering is not available yet")
}

// visualizer starts a browser and returns the Visualizer that renders
// pages in it, and a function that stops the browser.
func (r *renderFlags) visualizer(ctx context.Context) (pipeline.Visualizer, func(), error) {
	return nil, nil, errors.New("rendering is not available yet")
}
