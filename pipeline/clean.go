package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/load"
	renderpkg "github.com/fiasco-project/fiasco/render"
)

// Cleaner classifies the blocks of pages with a model. Once its fields
// are set, a Cleaner may clean pages from several goroutines at once
// (Clean, CleanInput, Batch and Stream only read it), and several
// Cleaners may share a Model and a Visualizer (a classify.Model is not
// changed by classifying; ChromeVisualizer is safe for concurrent use).
type Cleaner struct {
	Model *classify.Model
	// Prepare configures loading and, through Prepare.Visual, rendering.
	// A model trained with visual features needs a Visualizer.
	Prepare PrepareOptions
	// Threshold, when not nil, replaces the model's decision threshold:
	// a block is kept when its decision value is at least the threshold
	// (with smoothing, classify.KeepSmooth, where its neighbours' values
	// do not outweigh its own). Higher values trade recall for precision.
	Threshold *float64
	// Floor, when not nil, replaces the Floor of the model that cleans a
	// page (classify.Model.Floor; the text model's too, where it cleans a
	// page that did not render).
	Floor *bool
	// FloorShare, when not nil, replaces the FloorShare of the model that
	// cleans a page (classify.Model.FloorShare; the text model's too,
	// where it cleans a page), as Floor does.
	FloorShare *float64
	// Smooth, when not nil, replaces the smoothing of the model that
	// cleans a page (classify.Model.Smooth; the text model's too, where
	// it cleans a page that did not render).
	Smooth *float64
	// TextFallback, with a visual Model, cleans a page whose rendering
	// failed (the browser crashed on it, or it ran out of the renderer's
	// own time limit: a *RenderError; not a page whose ctx ended, which
	// fails with ctx's error)
	// with the embedded text model of the Model's policy instead of
	// failing it; Result.RenderErr then says why. A threshold set above
	// moves the text model's own by as much as it moves the Model's.
	TextFallback bool

	closer io.Closer // the browser New started, if any
}

// New returns a Cleaner with the embedded default model. With render, it
// starts headless Chromium (package render) and uses the visual model;
// without, the text-and-structure model, which needs no browser. Close
// stops the browser.
func New(ctx context.Context, render bool) (*Cleaner, error) {
	m, err := classify.Default(render)
	if err != nil {
		return nil, err
	}
	c := &Cleaner{Model: m}
	if render {
		v, err := NewVisualizer(ctx, renderpkg.Options{Scale: DefaultRenderScale})
		if err != nil {
			return nil, err
		}
		c.Prepare.Visual = v
		c.closer = v
	}
	return c, nil
}

// Close stops the browser that New started, if any, and removes its
// profile. It is safe to call more than once.
func (c *Cleaner) Close() error {
	if c == nil || c.closer == nil { // nil: the Cleaner New did not make
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}

// Result is a cleaned page.
type Result struct {
	*Doc
	Keep  []bool          // per block: classified clean
	Score []float64       // per block: the SVM decision value (>= threshold: clean, but for smoothing, classify.KeepSmooth, the floor, and an advertisement's label, never kept whatever its value: Keep; see classify.Keep for a page where none is)
	Model *classify.Model // the model that classified the page
	// Threshold is the decision threshold Score was cut at: the
	// model's, or Cleaner.Threshold (moved to the text model's scale
	// where that model cleaned the page after its rendering failed).
	Threshold float64
	// Smoothed holds, per block, whether sequence smoothing gave it the
	// other label than its own value against the threshold would
	// (classify.KeepSmooth with Model.Smooth, against classify.Keep): its
	// label in Keep differs from the plain cut's. A block the smoothing
	// dropped and the floor kept again is not marked (Floor is). nil when
	// there is none.
	Smoothed []bool
	// Floor holds, per block, whether the prose floor kept it, which the
	// threshold or the smoothing dropped (classify.Model.Floor,
	// FloorShare); nil when it kept none (see Floored).
	Floor []bool
	// RenderErr is why the page was not rendered and the text model
	// cleaned it instead (Cleaner.TextFallback); nil otherwise.
	RenderErr *RenderError
}

// Clean runs one page through every stage. name is used in errors.
func (c *Cleaner) Clean(ctx context.Context, name string, data []byte) (*Result, error) {
	return c.clean(ctx, name, data, c.Prepare)
}

// CleanInput reads an input, at most Prepare.Load.MaxBytes of it (the page
// is cut there and reported truncated), and cleans it. What the input
// knows of the page goes with it through the stages: its HTTP
// Content-Type (whose charset joins the charset chain), and for the
// renderer its URL (when it is an absolute http or https URL) and the
// requisites of the archive it came from (Prepare.URL, Prepare.Resources).
// Reading the file Name stops when ctx is done: a named pipe can keep it
// waiting for good.
func (c *Cleaner) CleanInput(ctx context.Context, in Input) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	data, err := in.readCtx(ctx, c.Prepare.Load.MaxBytes)
	cutShort := in.CutShort || errors.Is(err, ErrCutShort) && len(data) > 0
	if err != nil && !cutShort {
		return nil, err
	}
	opt := c.Prepare
	if in.ContentType != "" {
		opt.Load.ContentType = in.ContentType
	}
	if httpURL(in.URL) {
		opt.URL = in.URL
	}
	if in.Resources != nil {
		opt.Resources = in.Resources
	}
	res, err := c.clean(ctx, in.Name, data, opt)
	if err != nil {
		return nil, err
	}
	if in.Truncated {
		res.Page.MarkCut(load.CutSource)
	}
	if cutShort {
		res.Page.MarkCut(load.CutFile)
	}
	if res.Page.URL == "" && in.URL != "" {
		res.Page.URL = in.URL // e.g. a WARC record's target URI, for every output format
	}
	return res, nil
}

func (c *Cleaner) clean(ctx context.Context, name string, data []byte, opt PrepareOptions) (*Result, error) {
	if c.Model == nil {
		return nil, errors.New("pipeline: Cleaner has no model")
	}
	if !c.Model.Visual {
		opt.Visual = nil
	} else if opt.Visual == nil {
		return nil, errors.New("pipeline: the model uses visual features but no renderer was given (use a model without them, such as classify.Default(false))")
	}
	if c.Smooth != nil {
		if err := classify.CheckSmooth(*c.Smooth); err != nil {
			return nil, fmt.Errorf("pipeline: Cleaner.Smooth: %w", err)
		}
	}
	if c.FloorShare != nil {
		if err := classify.CheckFloorShare(*c.FloorShare); err != nil {
			return nil, fmt.Errorf("pipeline: Cleaner.FloorShare: %w", err)
		}
	}
	m, th := c.Model, c.Model.Threshold
	if c.Threshold != nil {
		th = *c.Threshold
		if math.IsNaN(th) {
			return nil, errors.New("pipeline: Cleaner.Threshold is NaN: want a number (or nil for the model's)")
		}
	}
	d, err := Prepare(ctx, name, data, opt)
	var renderErr *RenderError
	if err != nil && c.TextFallback && opt.Visual != nil && errors.As(err, &renderErr) && ctx.Err() == nil {
		if m, err = textModel(c.Model.Info.Policy); err != nil {
			return nil, fmt.Errorf("%w (and no text model to fall back on: %v)", renderErr, err)
		}
		if c.Threshold == nil {
			th = m.Threshold
		} else {
			th += m.Threshold - c.Model.Threshold
		}
		// The time the failed rendering took is not in d.Timings: the
		// page is prepared again from its bytes.
		opt.Visual = nil
		d, err = Prepare(ctx, name, data, opt)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if c.Floor != nil && m.Floor != *c.Floor || c.Smooth != nil && m.Smooth != *c.Smooth || c.FloorShare != nil && m.FloorShare != *c.FloorShare {
		fm := *m // models are shared by every page; a copy with the floor and smoothing asked for
		if c.Floor != nil {
			fm.Floor = *c.Floor
		}
		if c.FloorShare != nil {
			fm.FloorShare = *c.FloorShare
		}
		if c.Smooth != nil {
			fm.Smooth = *c.Smooth
		}
		m = &fm
	}
	t0 := time.Now()
	score, err := Decide(m, d)
	if err != nil {
		return nil, err
	}
	d.Timings.Classify = time.Since(t0)
	keep, smoothed, floor := keepFloor(m, d, score, th)
	return &Result{Doc: d, Keep: keep, Smoothed: smoothed, Floor: floor, Score: score, Threshold: th, Model: m, RenderErr: renderErr}, nil
}

// Text returns the text of the kept blocks as plain paragraphs separated
// by blank lines, as "fiasco clean --format text" prints it.
func (r *Result) Text() string {
	var b strings.Builder
	// Writing to a strings.Builder fails only on a bug (Keep of the wrong
	// length), which Clean never produces.
	_ = export.Write(&b, export.Text, r.Page, r.Blocks, r.Keep, r.Score)
	return b.String()
}

// Unseen reports the blocks of r that its visual model could not see and
// the text model decided instead (see Decide): n blocks below the
// captured part of a page taller than the renderer's MaxHeight, or, with
// all set, every block of a page whose rendering shows less than
// MinVisibleShare of its text. It is 0, false for a page the text model
// cleaned as a whole (no visual model, or Result.RenderErr).
func (r *Result) Unseen() (n int, all bool) {
	if r.Model == nil || !r.Model.Visual || r.Visual == nil {
		return 0, false
	}
	if visibleShare(r.Doc) < MinVisibleShare {
		return len(r.Blocks), true
	}
	for i := range r.Blocks {
		if i < len(r.Visual) && r.Visual[i].Beyond {
			n++
		}
	}
	return n, false
}

// Floored reports that the model's prose floor kept blocks of prose the
// threshold dropped (Floor).
func (r *Result) Floored() bool { return r.Floor != nil }

// Fallback returns, per block, whether the fallback kept it: the one
// block a page that would keep nothing keeps, its best, being within
// classify.FallbackMargin of the threshold (kept below the threshold,
// neither by smoothing nor by the floor); nil when no block is.
func (r *Result) Fallback() []bool {
	var fb []bool
	for i, k := range r.Keep {
		if !k || i >= len(r.Score) || r.Score[i] >= r.Threshold ||
			r.Smoothed != nil && r.Smoothed[i] || r.Floor != nil && r.Floor[i] {
			continue
		}
		if fb == nil {
			fb = make([]bool, len(r.Keep))
		}
		fb[i] = true
	}
	return fb
}

// UnseenBlocks returns, per block, what Unseen counts: whether the
// rendering could not show the block and the text model decided it; nil
// when there is none.
func (r *Result) UnseenBlocks() []bool {
	n, all := r.Unseen()
	if n == 0 {
		return nil
	}
	u := make([]bool, len(r.Blocks))
	for i := range u {
		u[i] = all || (i < len(r.Visual) && r.Visual[i].Beyond)
	}
	return u
}

// Write writes the page's kept blocks in format f with its metadata, as
// export.WriteMeta does; the JSON format adds what the cleaning knows of
// its own decisions (export.Notes): that the page was cut, the
// rendering's error (RenderErrText), the unseen blocks (UnseenBlocks),
// the blocks smoothing relabelled (Smoothed), the blocks the prose
// floor kept (Floor) and why a rule dropped a block whatever its value
// (NeverKept). No format changes r: the HTML format prunes a copy of
// the document, so outputs of r may be written in any order.
func (r *Result) Write(w io.Writer, f export.Format) error {
	n := export.Notes{Truncated: r.Page.Truncated, RenderError: r.RenderErrText(), Unseen: r.UnseenBlocks(), Smoothed: r.Smoothed, Floor: r.Floor, Fallback: r.Fallback(), Charset: r.Page.Encoding, NeverKept: r.NeverKept(), Frames: r.Frames}
	if r.Score != nil {
		th := r.Threshold
		n.Threshold = &th
	}
	return export.WriteNotes(w, f, r.Page, r.Meta, r.Blocks, r.Keep, r.Score, n)
}

// NeverKept is NeverKept of the page's document where a model decided
// its blocks (Score), less the time stamps where that model is of the
// article policy (which leaves them to its values), for the outputs
// that say why a rule dropped a block; nil otherwise.
func (r *Result) NeverKept() []string {
	if r == nil || r.Score == nil {
		return nil
	}
	return neverFor(r.Model, r.Doc)
}

// RenderErrText is RenderErr's message on one line, every control
// character a space, as every output that carries it writes it; "" when
// the page was rendered or not meant to be.
func (r *Result) RenderErrText() string {
	if r == nil || r.RenderErr == nil {
		return ""
	}
	return strings.Map(func(c rune) rune {
		if c < ' ' || c == 0x7f {
			return ' '
		}
		return c
	}, r.RenderErr.Error())
}

// NoTextNote says why the page gave no text ("" where it gave some):
// its text is in the pages its frames load, it has no text a reader
// sees, or every block was classed boilerplate. fiasco clean writes it
// on standard error, the service in a header.
func (r *Result) NoTextNote() string {
	switch {
	case len(r.Blocks) == 0 && len(r.Frames) > 0:
		frames := strings.Join(r.Frames, ", ")
		if len(r.Frames) > 3 {
			frames = fmt.Sprintf("%s and %d more", strings.Join(r.Frames[:3], ", "), len(r.Frames)-3)
		}
		return "no text found: its text is in the pages its frames load (" + frames + "); clean those"
	case len(r.Blocks) == 0:
		return "no text found (nothing a reader sees, with scripts off)"
	case !slices.Contains(r.Keep, true):
		n := "1 text block"
		if len(r.Blocks) != 1 {
			n = fmt.Sprintf("%d text blocks", len(r.Blocks))
		}
		return "no text kept (" + n + ", every one classed boilerplate)"
	}
	return ""
}

// Kept returns the blocks classified clean.
func (r *Result) Kept() []*blocks.Block {
	var out []*blocks.Block
	for i, b := range r.Blocks {
		if r.Keep[i] {
			out = append(out, b)
		}
	}
	return out
}

// Decide returns the decision value of every block of d under m. For a
// visual model on a rendered page, the text model that goes with it
// (m.Text, or the embedded text model of m's policy) decides the blocks
// the rendering could not show (see MinVisibleShare), takes its share of
// every other block's value with m.Blend (classify.Model.Blend) and,
// with m.Rescue, rescues prose (see RescueMargin); the values it gives are shifted by
// the difference of the two models' thresholds, so that m's threshold
// cuts them as the text model's own would.
func Decide(m *classify.Model, d *Doc) ([]float64, error) {
	s, err := m.Decide(d.Table, d.English)
	if err != nil {
		return nil, fmt.Errorf("%s: classify: %w", d.Page.Name, err)
	}
	if err := decideText(m, d, s); err != nil {
		return nil, fmt.Errorf("%s: classify: %w", d.Page.Name, err)
	}
	return s, nil
}

// MinVisibleShare is the least share of a page's text (in characters, the
// blocks below the capture counted as seen) that its rendering must show
// for a visual model to decide the page. Below it the rendering shows
// next to nothing of the page (a body kept hidden or transparent until a
// script reveals it, and page scripts do not run), and every block is
// decided by the text model, as those below the capture are.
const MinVisibleShare = 0.25

// RescueMargin is how sure the text model must be of a block of prose
// for it to be kept whatever the visual model says, when the visual
// model's Rescue is on (it is off by default). A block of ten word
// tokens or more that ends like a sentence (features.Table.Prose) is
// kept at the model's threshold when the text model's decision value is
// at least its own threshold plus RescueMargin (a threshold set higher,
// Cleaner.Threshold, asks as much more of it): the visual model then
// decides what the text model doubts (it is more precise on the blocks
// both judge) but cannot drop an article the text model is sure of, as
// it did on pages laid out unlike any it was trained on (an unstyled
// page whose sidebar of short blocks draws the main column away from the
// text).
const RescueMargin = 0.5

// decideText re-decides, with the text model that goes with m, the
// blocks of d that a visual model could not see: those below the
// captured part of a page taller than the render's MaxHeight
// (vision.Features.Beyond), and all of them on a page whose rendering
// shows less than MinVisibleShare of its text. To the visual model they
// would look like hidden text, which is boilerplate; without visual
// features they are judged on their text and structure. With m.Blend,
// every other block's value becomes the blend of the two models' values
// (classify.Model.Blend); with m.Rescue, it then raises the value of
// every other prose block to the text model's less RescueMargin where
// that is higher.
func decideText(m *classify.Model, d *Doc, s []float64) error {
	if !m.Visual || d.Visual == nil {
		return nil
	}
	all := visibleShare(d) < MinVisibleShare
	// Only these rows go to the text model.
	var rows []int
	var beyond []bool
	sub := &features.Table{}
	for i := range s {
		if i >= len(d.Table.Values) {
			break
		}
		b := all || (i < len(d.Visual) && d.Visual[i].Beyond)
		if b || m.Blend > 0 || (m.Rescue && d.Table.Prose(i)) {
			rows = append(rows, i)
			beyond = append(beyond, b)
			sub.Values = append(sub.Values, d.Table.Values[i])
			sub.Tokens = append(sub.Tokens, d.Table.Tokens[i])
		}
	}
	if len(rows) == 0 {
		return nil
	}
	tm := m.Text
	if tm == nil {
		var err error
		if tm, err = textModel(m.Info.Policy); err != nil {
			return err
		}
	}
	ts, err := tm.Decide(sub, d.English)
	if err != nil {
		return err
	}
	for k, i := range rows {
		v := ts[k] - tm.Threshold + m.Threshold
		if beyond[k] {
			s[i] = v
			continue
		}
		if m.Blend > 0 {
			s[i] = (1-m.Blend)*s[i] + m.Blend*v
		}
		if m.Rescue && d.Table.Prose(i) {
			s[i] = math.Max(s[i], v-RescueMargin)
		}
	}
	return nil
}

// visibleShare is the share of d's text, in characters, in blocks that its
// rendering showed (vision.Features.Found) or that lie below the capture;
// 1 for a page without text.
func visibleShare(d *Doc) float64 {
	var seen, total int
	for i, b := range d.Blocks {
		total += b.Chars
		if i < len(d.Visual) && (d.Visual[i].Found || d.Visual[i].Beyond) {
			seen += b.Chars
		}
	}
	if total == 0 {
		return 1
	}
	return float64(seen) / float64(total)
}

// textModels holds the embedded text models by policy, read once.
var textModels sync.Map // policy -> func() (*classify.Model, error)

func textModel(policy string) (*classify.Model, error) {
	f, _ := textModels.LoadOrStore(policy, sync.OnceValues(func() (*classify.Model, error) {
		return classify.DefaultFor(policy, false)
	}))
	return f.(func() (*classify.Model, error))()
}

// httpURL reports whether s is an absolute http or https URL, which the
// renderer can serve a page at.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
