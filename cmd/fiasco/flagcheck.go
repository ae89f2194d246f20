package main

import (
	"math"
)

// validateModelFlags checks the values of the model and render flags of
// command cmd: a bad value is a usage error naming the flag, never
// silently replaced by a default.
func validateModelFlags(cmd string, m *modelFlags) error {
	if m.thSet && (math.IsNaN(m.threshold) || math.IsInf(m.threshold, 0)) {
		return usagef(cmd, "--threshold %v: want a finite decision value", m.threshold)
	}
	if m.doRender && m.noRender {
		return usagef(cmd, "--render and --no-render contradict each other (--render=false is --no-render)")
	}
	if m.doRender && m.model != "" {
		return usagef(cmd, "--render picks an embedded model; --model %s renders if it has visual features", m.model)
	}
	return validateRenderFlags(cmd, &m.render)
}

// validateRenderFlags checks the render flags' values (train, and through
// validateModelFlags clean, eval, inspect, serve).
func validateRenderFlags(cmd string, r *renderFlags) error {
	switch {
	case r.width <= 0:
		return usagef(cmd, "--width %d: want a positive viewport width in CSS pixels", r.width)
	case r.scale <= 0 || math.IsNaN(r.scale) || math.IsInf(r.scale, 0):
		return usagef(cmd, "--scale %v: want a positive capture scale (image px per CSS px)", r.scale)
	case r.timeout <= 0:
		return usagef(cmd, "--render-timeout %v: want a positive duration", r.timeout)
	}
	if err := r.options().Check(); err != nil {
		// Screenshots too large for the width and scale: a flag's
		// mistake, not a browser that would not start.
		return usagef(cmd, "--width %d and --scale %v: %v", r.width, r.scale, err)
	}
	return nil
}

// renderFlagNames are the flags that set how pages render (renderFlags).
var renderFlagNames = []string{"chromium", "remote", "width", "render-timeout", "scale", "reuse-tabs"}

// renderUnused refuses a render flag given with --no-render, which
// renders nothing: --remote with --no-render contradict each other, and
// a --width or --scale there would go unused without a word (as
// --cache-dir is refused there). Not inspect's: it draws the page with
// Chromium whatever model decides.
func renderUnused(fs *flagSet, noRender bool) error {
	if !noRender {
		return nil
	}
	if f := fs.given(renderFlagNames...); f != "" {
		return usagef(fs.cmd, "--%s sets how pages render: it has no use with --no-render", f)
	}
	return nil
}
