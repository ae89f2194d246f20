package main

import (
	"fmt"
	"io"
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

// renderUnused checks the render flags given with --no-render, which
// renders nothing: --chromium or --remote asks for a browser, which
// contradicts it (a usage error, as --cache-dir there is); --width,
// --scale, --render-timeout and --reuse-tabs would go unused, which a
// note on stderr says (a script or a service's unit may set them for
// both modes). Not inspect's: it draws the page with Chromium whatever
// model decides.
func renderUnused(fs *flagSet, noRender bool, stderr io.Writer) error {
	if !noRender {
		return nil
	}
	if f := fs.given("chromium", "remote"); f != "" {
		return usagef(fs.cmd, "--%s asks for a browser, and --no-render renders nothing: give one or the other", f)
	}
	if f := fs.given("width", "render-timeout", "scale", "reuse-tabs"); f != "" {
		fmt.Fprintf(stderr, "fiasco %s: note: --%s sets how pages render, and --no-render renders none: it is not used\n", fs.cmd, f)
	}
	return nil
}
