package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
)

// modelFlags are the options shared by the commands that classify pages
// (clean, eval, inspect): which model, whether to render, the threshold.
type modelFlags struct {
	model     string
	noRender  bool
	doRender  bool // --render: the rendered model where the policy's default is the text one
	threshold float64
	thSet     bool
	rescue    bool    // --rescue: classify.Model.Rescue
	blend     float64 // --blend: classify.Model.Blend
	blendSet  bool
	smooth    float64 // --smooth: classify.Model.Smooth
	smoothSet bool
	floor     setBool // --floor, --floor=false: classify.Model.Floor (unset: the model's own)
	// --floor-share: classify.Model.FloorShare (unset: the model's own)
	floorShare    float64
	floorShareSet bool
	policy        *gold.Policy // --policy: picks the embedded model
	// scoring (eval): --policy maps the gold labels; a model of another
	// policy may be scored under it.
	scoring bool
	// policySet: --policy was given (otherwise a --model's own policy
	// stands, and in eval maps the gold too).
	policySet *bool
	render    renderFlags
	// withoutRender is how to do without Chromium, for the message when
	// there is none ("": the command cannot).
	withoutRender string
	// strict: no falling back on the text model where the policy's
	// default is the rendered one and no browser runs (eval: its figures
	// must be those of the model the command names).
	strict bool
	// fellBack is why load or cleaner took the text model where the
	// policy's default is the rendered one: no Chromium was found, or it
	// did not start (see note).
	fellBack string
	cmd      string // the command, for usage errors
}

func addModelFlags(fs *flag.FlagSet) *modelFlags {
	m := &modelFlags{withoutRender: noRenderHint, cmd: strings.TrimPrefix(fs.Name(), "fiasco ")}
	fs.StringVar(&m.model, "model", "", "model file (default: the embedded default model)")
	fs.BoolVar(&m.noRender, "no-render", false, "do not render pages: use the policy's text and structure model (the default under --policy article; fiasco clean also takes it where Chromium is not found or does not start, unless --chromium, --remote, --render or --model asks for a browser)")
	fs.Var(renderFlag{m}, "render", "render pages in Chromium and use the policy's model with visual features (the default under --policy corpus when Chromium is found; with --render, a missing Chromium is an error; --render=false is --no-render)")
	fs.Func("threshold", "keep blocks whose decision value is at least this (with smoothing, --smooth, which the corpus policy's text model has: where the neighbours' values do not outweigh it; default: the model's; higher = more precision; the prose floor is then off unless --floor is given; a page that would keep nothing keeps its best block if that is within 1 of the threshold, classify.FallbackMargin)", func(s string) error {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		m.threshold, m.thSet = v, true
		return nil
	})
	// eval registers --policy with its data flags first (dataFlags.add
	// must run before addModelFlags there); the model flags then read it.
	if f := fs.Lookup("policy"); f != nil {
		v := f.Value.(*policyValue)
		m.policy, m.policySet = v.p, v.set
		m.scoring = true
	} else {
		p := gold.Corpus
		m.policy, m.policySet = &p, new(bool)
		fs.Var(&policyValue{p: m.policy, set: m.policySet}, "policy", policyHelp)
	}
	fs.BoolVar(&m.rescue, "rescue", false, "with a rendered model, keep every block of prose that the text model is sure of, whatever the visual model says (pipeline.RescueMargin): more recall on pages laid out unlike the training pages, at some precision (RESULTS.md: The prose rescue)")
	fs.Func("blend", "with a rendered model, decide each block by `W` times the text model's value (shifted by the difference of the two models' thresholds) plus 1-W times the visual model's; blocks below the capture stay the text model's alone (0 to 1; default: the model's own, 0 for the embedded one; RESULTS.md: The rendered model blended with the text model)", func(s string) (err error) {
		m.blend, err = parseBlend(s)
		m.blendSet = err == nil
		return err
	})
	fs.Func("smooth", smoothHelp+" (default: the model's own: 0.25 for the corpus policy's text model, 0 for the other embedded ones; 0 for the models --cv, --nested and --by-set train)", func(s string) (err error) {
		m.smooth, err = parseSmooth(s)
		m.smoothSet = err == nil
		return err
	})
	fs.Var(&m.floor, "floor", "keep every block of prose (ten words or more, ending like a sentence) of a page the model all but empties: one whose prose holds 50 words or more, of which its kept prose blocks hold less than the model's floor share (--floor-share), or any prose at all where nothing else is kept; --floor=false: never (default: as the model says, the corpus policy's embedded models do, the others do not; off with --threshold)")
	fs.Func("floor-share", "the floor's share: the floor keeps a page's prose where its kept prose blocks hold less than this share of its words (above 0 and below 1; default: the model's own: a tenth for the corpus policy's rendered model, a quarter, pipeline.FloorShare, for the text model; also for the text model a page falls back on, and for the models eval trains, which need --floor)", func(s string) error {
		v, err := parseFloorShare(s)
		m.floorShare, m.floorShareSet = v, err == nil
		return err
	})
	m.render.add(fs)
	return m
}

// load returns the model the flags name.
func (m *modelFlags) load() (*classify.Model, error) {
	mod, err := m.loadModel()
	if err != nil {
		return nil, err
	}
	if fl, ok := m.floorValue(); ok {
		if fl && mod.Info.Policy == gold.Article.String() {
			return nil, usagef(m.cmd, "--floor keeps every block of prose of a page the model all but empties, and the article policy keeps the main article only (the floor was measured under --policy corpus)")
		}
		mod.Floor = fl
	}
	if m.floorShareSet {
		if !mod.Floor {
			why := "the floor is off for this run (give --floor)"
			switch {
			case mod.Info.Policy == gold.Article.String():
				why = "the article policy has no prose floor"
			case m.floor.set:
				why = "--floor=false turns the floor off"
			case m.thSet:
				why = "a --threshold set by hand turns the floor off (give --floor too)"
			}
			return nil, usagef(m.cmd, "--floor-share %g sets the prose floor's share, and %s", m.floorShare, why)
		}
		mod.FloorShare = m.floorShare
	}
	if m.smoothSet {
		mod.Smooth = m.smooth // --smooth 0 too: each block on its own value
	}
	if m.blendSet && mod.Visual {
		mod.Blend = m.blend // --blend 0 too: the visual model alone
	}
	if !m.rescue && m.blend == 0 {
		return mod, nil
	}
	if !mod.Visual {
		if m.fellBack != "" {
			return mod, nil
		}
		if m.model != "" {
			return nil, usagef(m.cmd, "%s; --model %s is a text model, with no visual features to weigh or to rescue from: give a rendered model, or drop the flag", m.visualFlag(), m.model)
		}
		return nil, usagef(m.cmd, "%s; the text model renders nothing (use --render, or --policy corpus with Chromium)", m.visualFlag())
	}
	mod.Rescue = m.rescue
	return mod, nil
}

// parseBlend parses a --blend weight: a number from 0 to 1.
func parseBlend(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v >= 0 && v <= 1) {
		return 0, fmt.Errorf("%q: want a weight from 0 to 1", s)
	}
	return v, nil
}

// smoothHelp says what --smooth does, for train, clean, eval and inspect.
const smoothHelp = "sequence smoothing: keep or drop each block with its neighbours in document order where their values outweigh its own distance from the threshold; an isolated block changes side when that distance is at most twice the switch cost `S`, and large values decide long runs together (0 to 4; classify.KeepSmooth; RESULTS.md: Sequence smoothing)"

// parseSmooth parses a --smooth switch cost: a number from 0 to
// classify.MaxSmooth.
func parseSmooth(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || classify.CheckSmooth(v) != nil {
		return 0, fmt.Errorf("%q: want a switch cost from 0 to %d", s, classify.MaxSmooth)
	}
	return v, nil
}

// visualOnly refuses --rescue and --blend where the models a command
// trains have no visual features (why says so): both act on a visual
// model only, and would be ignored.
func (m *modelFlags) visualOnly(visual bool, why string) error {
	if visual || !m.rescue && m.blend == 0 {
		return nil
	}
	return usagef(m.cmd, "%s, and %s", m.visualFlag(), why)
}

// visualFlag says what the flag given that needs a visual model does:
// --rescue, or else --blend.
func (m *modelFlags) visualFlag() string {
	if m.rescue {
		return "--rescue keeps prose that a rendered model drops"
	}
	return "--blend weighs a rendered model's values against the text model's"
}

// floorValue is the prose floor the flags ask for, if they ask: --floor or
// --floor=false, and without either, none with a --threshold set by hand,
// so that a higher threshold never keeps more (the floor would bring back
// the prose it cuts).
func (m *modelFlags) floorValue() (floor, given bool) {
	switch {
	case m.floor.set:
		return m.floor.v, true
	case m.thSet:
		return false, true
	}
	return false, false
}

func (m *modelFlags) loadModel() (*classify.Model, error) {
	if m.model != "" {
		mod, err := classify.Load(m.model)
		if errors.Is(err, os.ErrNotExist) && (m.model == "text" || m.model == "rendered") {
			return nil, usagef(m.cmd, "--model %s: no such file (the embedded models need no --model: --no-render takes the text one, --render the rendered one)", m.model)
		}
		if err != nil {
			return nil, fmt.Errorf("--model: %w", err)
		}
		if mod.Visual && m.noRender {
			return nil, usagef(m.cmd, "--model %s uses visual features: it cannot run with --no-render", m.model)
		}
		if p := mod.Info.Policy; p != "" && p != m.policy.String() {
			switch {
			case !*m.policySet:
				if pp, err := gold.ParsePolicy(p); err == nil {
					*m.policy = pp // the model's own policy (in eval, also the gold's)
				}
			case !m.scoring:
				return nil, usagef(m.cmd, "--model %s was trained for --policy %s, not %s (leave --policy out to clean under the model's own)", m.model, p, m.policy)
			}
		}
		return mod, nil
	}
	policy := m.policy.String()
	if !m.mayRender() { // m.model is "" here
		return classify.DefaultFor(policy, false)
	}
	if _, err := m.render.browserPath(m.withoutRender); err != nil {
		// The rendered model is the default where Chromium is; without
		// one, a command that can do without it takes the text model,
		// unless rendering was asked for or a browser named.
		if !m.mayFallBack() {
			return nil, err
		}
		m.fellBack = noChromium
		return classify.DefaultFor(policy, false)
	}
	return classify.DefaultFor(policy, true)
}

// mayFallBack reports whether the command may take the text model when
// the rendered one, the policy's default, finds no browser to run in: not
// when rendering was asked for (--render), a browser named (--chromium,
// --remote), a model named (--model), or the command cannot do without
// (inspect) or must not (eval).
func (m *modelFlags) mayFallBack() bool {
	return !m.doRender && !m.strict && m.model == "" && m.withoutRender != "" && m.render.chromium == "" && m.render.remote == ""
}

// mayRender reports whether the model this command will load may render
// pages: not with --no-render, nor where the policy's default is the text
// model and neither --render nor --model asks otherwise. (It may still
// fall back to the text model where Chromium is missing.)
func (m *modelFlags) mayRender() bool {
	return !m.noRender && (m.doRender || m.model != "" || classify.RendersByDefault(m.policy.String()))
}

// textFallback reports whether a page whose rendering fails is cleaned by
// the text model (pipeline.Cleaner.TextFallback): where mod is the
// rendered model by default, not asked for by --render or --model.
func (m *modelFlags) textFallback(mod *classify.Model) bool {
	return mod.Visual && m.model == "" && !m.doRender
}

// note is what to tell the user about the model load chose ("" for
// nothing): that it fell back to the text model for want of Chromium.
func (m *modelFlags) note(cmd string) string {
	if m.fellBack == "" {
		return ""
	}
	advice := "Install Chromium (Debian: apt-get install -y chromium)"
	if m.fellBack != noChromium {
		advice = "Mend what stops it (its own words are quoted here; --chromium names another browser)"
	}
	return fmt.Sprintf("fiasco %s: %s, so the text model cleans the pages (--no-render); the rendered model, the default with Chromium, measured better (RESULTS.md). %s or pass --no-render to silence this", cmd, m.fellBack, advice)
}

// noChromium is modelFlags.fellBack where no browser was found.
const noChromium = "no Chromium found"

// joinLines is s on one line: its non-blank lines, trimmed, joined by
// " / " (a browser's start error quotes what it printed on lines after
// the first), cut to at most limit bytes with "…" (at a rune boundary).
func joinLines(s string, limit int) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	out := strings.Join(parts, " / ")
	if len(out) <= limit {
		return out
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return out[:cut] + "…"
}

// cleaner builds a Cleaner, starting a browser when the model needs one.
// The returned function closes the browser (and removes its profile); it
// must be called also when the run is interrupted.
func (m *modelFlags) cleaner(ctx context.Context) (*pipeline.Cleaner, func(), error) {
	c, err := m.prepared()
	if err != nil {
		return nil, nil, err
	}
	closeFn, err := m.start(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	return c, closeFn, nil
}

// prepared loads the model the flags name (the rendered one only where a
// browser is found) into a Cleaner with the flags' settings, without
// starting the browser.
func (m *modelFlags) prepared() (*pipeline.Cleaner, error) {
	mod, err := m.load()
	if err != nil {
		return nil, err
	}
	c := &pipeline.Cleaner{Model: mod}
	if m.thSet {
		th := m.threshold
		c.Threshold = &th
	}
	if fl, ok := m.floorValue(); ok {
		c.Floor = &fl
	}
	if m.floorShareSet { // also for the text model a page falls back on
		fs := m.floorShare
		c.FloorShare = &fs
	}
	if m.smoothSet { // also for the text model a page falls back on
		s := m.smooth
		c.Smooth = &s
	}
	return c, nil
}

// start starts the browser a prepared Cleaner's rendered model needs; where
// one was found but does not start, the policy's text model takes the
// model's place (if the flags allow it). closeFn closes the browser.
func (m *modelFlags) start(ctx context.Context, c *pipeline.Cleaner) (closeFn func(), err error) {
	closeFn = func() {}
	if !c.Model.Visual {
		return closeFn, nil
	}
	hint := m.withoutRender
	if m.model != "" && hint != "" {
		hint = "use a model without visual features"
	}
	v, stop, err := m.render.visualizer(ctx, hint)
	if err != nil && ctx.Err() == nil && m.mayFallBack() {
		// A browser was found but does not start (a stub, missing
		// libraries, a refused sandbox): as without one.
		tm, terr := classify.DefaultFor(m.policy.String(), false)
		if terr != nil {
			return nil, terr
		}
		c.Model = tm
		m.fellBack = "Chromium did not start (" + joinLines(err.Error(), 300) + ")"
		return closeFn, nil
	}
	if err != nil {
		return nil, err
	}
	c.Prepare.Visual = v
	return stop, nil
}

// renderFlag is --render: --render=false asks what --no-render does, not
// the default (which renders under the corpus policy), as serve's
// render=off does.
type renderFlag struct{ m *modelFlags }

func (f renderFlag) String() string {
	if f.m == nil { // the flag package's zero value, for the help
		return "false"
	}
	return strconv.FormatBool(f.m.doRender)
}
func (f renderFlag) IsBoolFlag() bool { return true }
func (f renderFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	if v {
		f.m.doRender = true
	} else {
		f.m.noRender = true
	}
	return nil
}

// setBool is a boolean flag that knows whether it was given.
type setBool struct{ v, set bool }

func (b *setBool) String() string   { return strconv.FormatBool(b.v) }
func (b *setBool) IsBoolFlag() bool { return true }
func (b *setBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	b.v, b.set = v, true
	return nil
}

// checkFoldFloorShare refuses --floor-share for the models eval trains
// (--cv, --nested, --by-set) without --floor: they have no floor then.
func (m *modelFlags) checkFoldFloorShare() error {
	if m.floorShareSet && !m.floor.v {
		return usagef(m.cmd, "--floor-share %g sets the prose floor's share: give --floor too (the models eval trains have no floor without it)", m.floorShare)
	}
	return nil
}

// parseFloorShare parses a --floor-share: a share above 0 and below 1 (a
// model file's 0 means the default; on the command line it would read as
// "never", which --floor=false says).
func parseFloorShare(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if !(v > 0 && v < 1) {
		return 0, fmt.Errorf("%v: want a share above 0 and below 1 (--floor=false turns the floor off)", v)
	}
	return v, nil
}
