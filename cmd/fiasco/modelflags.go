package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/fiasco-project/fiasco/pipeline"
)

// modelFlags are the options shared by the commands that classify pages
// (clean, eval, inspect): which model, whether to render, the threshold.
type modelFlags struct {
	model     string
	noRender  bool
	threshold float64
	thSet     bool
	render    renderFlags
}

func addModelFlags(fs *flag.FlagSet) *modelFlags {
	m := &modelFlags{}
	fs.StringVar(&m.model, "model", "", "model file (default: the embedded default model)")
	fs.BoolVar(&m.noRender, "no-render", false, "do not render pages: use text and structure features only")
	fs.Func("threshold", "keep blocks whose decision value is at least this (default: the model's; higher = more precision)", func(s string) error {
		_, err := fmt.Sscan(s, &m.threshold)
		m.thSet = err == nil
		return err
	})
	m.render.add(fs)
	return m
}

// load returns the model the flags name.
func (m *modelFlags) load() (*pipeline.Model, error) {
	if m.model != "" {
		mod, err := pipeline.LoadModel(m.model)
		if err != nil {
			return nil, err
		}
		if mod.Visual && m.noRender {
			return nil, fmt.Errorf("%s uses visual features: it cannot run with --no-render", m.model)
		}
		return mod, nil
	}
	if m.noRender {
		return pipeline.DefaultModel(false)
	}
	if _, err := m.render.browserPath(); err != nil {
		return nil, fmt.Errorf("%v\nInstall Chromium (Debian: apt-get install chromium), give its path with --chromium, or pass --no-render to use the text-only model", err)
	}
	return pipeline.DefaultModel(true)
}

// cleaner builds a Cleaner, starting a browser when the model needs one.
// The returned function releases the browser.
func (m *modelFlags) cleaner(ctx context.Context, stderr io.Writer) (*pipeline.Cleaner, func(), error) {
	mod, err := m.load()
	if err != nil {
		return nil, nil, err
	}
	c := &pipeline.Cleaner{Model: mod}
	if m.thSet {
		th := m.threshold
		c.Threshold = &th
	}
	closeFn := func() {}
	if mod.Visual {
		v, stop, err := m.render.visualizer(ctx)
		if err != nil {
			return nil, nil, err
		}
		c.Prepare.Visual = v
		closeFn = stop
	}
	return c, closeFn, nil
}
