package render

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"iter"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

//go:embed highlight.js
var highlightJS string

// RenderOptions configure one [Browser.Render] call.
type RenderOptions struct {
	// Highlight paints each block's text as a solid bar in its colour and
	// blanks everything else. False renders the page as it looks (used to
	// draw outlines on the real page); Boxes and font metrics are measured
	// either way.
	Highlight bool
	// Timeout bounds this call; 0 means Options.Timeout. A negative
	// value is an error.
	Timeout time.Duration
	// URL is the page's own address, an absolute http or https URL, e.g.
	// the WARC-Target-URI of the record it came from. The page is then
	// served at that URL (its fragment dropped), so that its relative
	// URLs resolve as when it was crawled; nothing is fetched from it.
	// Empty serves the page at a made-up URL (see the package doc).
	URL string
	// Resources, when set, serves the page's requisites (style sheets,
	// images, fonts, frames) from an archive: a GET request for an http
	// or https URL for which it returns true is answered with that
	// Resource (status 200); every other request is blocked as without
	// it. It is called with the URL as Chromium requests it (absolute,
	// without fragment, in Chromium's canonical form), one call at a time
	// for one page, and may be called after Render returned; a function
	// shared by several Render calls must be safe for concurrent use.
	Resources func(url string) (Resource, bool)
}

// Resource is a page requisite served from an archive (see
// RenderOptions.Resources).
type Resource struct {
	// ContentType is the value of the Content-Type header, e.g.
	// "text/css"; empty sends none (Chromium then sniffs).
	ContentType string
	// Body is the payload as the server sent it, content coding removed.
	Body []byte
}

// Timings split the time of one Render call.
type Timings struct {
	Load       time.Duration // tab set-up and navigation until the load event
	Highlight  time.Duration // the injected script's DOM changes
	Measure    time.Duration // full-height viewport, layout and measuring
	Screenshot time.Duration // Chromium's capture (PNG encoding included)
	Decode     time.Duration // PNG decoding and tile stitching on our side
}

// Result is one rendered page. All lengths are in image pixels, that is CSS
// px times Options.Scale, with the origin at the top left of the page.
type Result struct {
	Image *image.RGBA
	// Boxes[i] is the union of the client rects of block i's text, clipped
	// to the image; empty when the block has no rendered text.
	Boxes []image.Rectangle
	// FontSize[i] and LineHeight[i] come from the computed style of the
	// element holding block i's longest text run, in image pixels (CSS
	// pixels times Options.Scale); 0 when not rendered.
	FontSize   []float64
	LineHeight []float64
	// Style[i] comes from the computed style of the same element, read
	// before the highlighting; zero when not rendered.
	Style []Style
	// Screen is the first screen's height (Options.Height) in image
	// pixels: what a reader sees before scrolling.
	Screen int
	// PageHeight is the document's full height; when it exceeds
	// Options.MaxHeight the image is cropped to MaxHeight and Cropped is set.
	PageHeight int
	Cropped    bool
	// Beyond[i] reports that block i's text starts at or below the
	// captured height of a cropped page: the block has no visual
	// measurement because it was not captured, not because it is hidden.
	Beyond  []bool
	Timings Timings
}

// pageHost is the made-up origin the page is served from (see doc.go).
const pageHost = "http://fiasco.invalid/"

var pageSeq atomic.Int64

// Render renders doc, an HTML document whose target nodes carry
// data-fiasco-block="N" (N = 0..len(colors)-1), in a new tab that it
// closes after (or a reused one, see Options.ReuseTabs). colors[N] is
// block N's highlight colour (alpha ignored). A page that fails or times
// out gives an error; the browser stays usable. A page lost because the
// browser process died is retried once, on a restarted browser, with its
// timeout afresh; if that fails too, the error wraps [ErrBrowserDied].
// A page whose renderer process crashed ([ErrPageCrashed]: killed for
// memory, say, while the browser lives on) is retried once in a new tab.
// A document over 64 KB may first wait, as long as ctx allows and outside
// the page's timeout, until it fits beside those rendering
// (Options.MaxInflightBytes).
func (b *Browser) Render(ctx context.Context, doc []byte, colors []color.RGBA, opt RenderOptions) (*Result, error) {
	if opt.Timeout < 0 {
		return nil, fmt.Errorf("render: RenderOptions.Timeout is %v: want a positive duration, or 0 for Options.Timeout", opt.Timeout)
	}
	if _, err := pageURL(opt.URL); err != nil {
		return nil, err
	}
	if err := b.gate.acquire(ctx, int64(len(doc))); err != nil {
		return nil, fmt.Errorf("render: the context ended while the page waited to render beside others (Options.MaxInflightBytes): %w", err)
	}
	defer b.gate.release(int64(len(doc)))
	res, err := b.renderOnce(ctx, doc, colors, opt, false)
	var died *diedError
	if (errors.As(err, &died) || errors.Is(err, ErrPageCrashed)) && ctx.Err() == nil {
		b.mu.Lock()
		b.retries++
		b.mu.Unlock()
		if f := b.opt.OnRetry; f != nil {
			f(err)
		}
		// In a tab opened for it: the renderers of the spare and idle
		// tabs may have been killed with the page's, their crash not
		// reported yet.
		res, err = b.renderOnce(ctx, doc, colors, opt, true)
		switch {
		case err == nil:
		case died != nil:
			err = &retryError{err}
		case errors.Is(err, ErrPageCrashed):
			err = fmt.Errorf("%w, on its retry in a new tab too", err)
		case errors.As(err, new(*diedError)):
			// The browser died under the retry: not the page's crash
			// again, and the caller may try on the restarted browser.
		default:
			err = fmt.Errorf("%w; its retry in a new tab failed: %w", ErrPageCrashed, err)
		}
	}
	return res, err
}

// pageURL checks RenderOptions.URL and returns it without its fragment.
func pageURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || !validPort(u.Port()) {
		return "", fmt.Errorf("render: RenderOptions.URL %q: not an absolute http or https URL", s)
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// validPort reports a URL's port that Chromium navigates to: none, or
// 1 to 65535 (url.Parse takes any digits: http://[::1]:99999/).
func validPort(p string) bool {
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// UsableURL reports whether RenderOptions.URL may be s: an absolute
// http or https URL that Chromium navigates to. A caller with another
// (a WARC record's odd WARC-Target-URI) renders the page at the made-up
// URL instead (URL "").
func UsableURL(s string) bool {
	_, err := pageURL(s)
	return err == nil
}

// retryError is the error of a page whose retry after the browser died
// failed too.
type retryError struct{ err error }

func (e *retryError) Error() string {
	return "render: the browser died while rendering the page, and its retry on a restarted browser failed: " +
		strings.TrimPrefix(e.err.Error(), "render: ")
}
func (e *retryError) Unwrap() []error { return []error{ErrBrowserDied, e.err} }

// diedError is the error of a page lost because the browser died.
type diedError struct{ err error }

func (e *diedError) Error() string {
	return "render: the browser died: " + strings.TrimPrefix(e.err.Error(), "render: ")
}
func (e *diedError) Unwrap() error { return e.err }

// diedGrace is how long a failed page waits for the browser's death to be
// noticed before its error is taken as the page's own.
const diedGrace = 200 * time.Millisecond

// died reports whether the instance died (at once, or within diedGrace).
func (inst *instance) died() bool {
	if inst.ctx.Err() != nil {
		return true
	}
	t := time.NewTimer(diedGrace)
	defer t.Stop()
	select {
	case <-inst.ctx.Done():
		return true
	case <-t.C:
		return false
	}
}

// renderOnce is one attempt of Render.
// With fresh, the page gets a tab opened for it, not a spare or idle one.
func (b *Browser) renderOnce(parent context.Context, doc []byte, colors []color.RGBA, opt RenderOptions, fresh bool) (*Result, error) {
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = b.opt.Timeout
	}
	t0 := time.Now()
	// cut says when ctx ended the render: its own limit, or an earlier
	// end of parent's (a health probe's shorter deadline, say).
	cut := func() time.Duration { return min(time.Since(t0), timeout).Round(time.Millisecond) }
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	inst, err := b.instance(ctx)
	if err != nil {
		return nil, err
	}
	defer inst.wg.Done()

	var t *tab
	if b.opt.ReuseTabs && !fresh {
		select {
		case t = <-inst.idle:
			if t.crashed() { // its renderer crashed while it waited
				t.close()
				t = nil
			}
		default:
		}
	}
	if t == nil {
		t, err = inst.takeTab(ctx, fresh)
		if err != nil {
			switch {
			case parent.Err() != nil:
				// The caller's own context ended first (a first tab of a
				// cold browser takes about half a second).
				return nil, fmt.Errorf("render: the caller's context ended after %v, while the browser opened a tab: %w", cut(), parent.Err())
			case ctx.Err() != nil:
				// The page had not started: the browser gave no tab in
				// time (busy, or hung).
				return nil, fmt.Errorf("render: timed out or canceled after %v waiting for the browser to open a tab (a browser that does not answer?): %w", cut(), ctx.Err())
			case inst.died():
				return nil, &diedError{err}
			}
			return nil, err
		}
	}
	// Tie the tab to ctx: chromedp contexts must derive from the browser's.
	stop := context.AfterFunc(ctx, t.close)

	// A renderer process that dies under the page (killed for memory,
	// say) leaves the browser running: the crash, which the tab reports,
	// ends the tab's context and the page's calls with it (openTab).
	res, err := b.render(t.ctx, doc, colors, opt)
	if t.crashed() {
		stop()
		t.close()
		return nil, fmt.Errorf("%w (after %v)", ErrPageCrashed, cut())
	}
	if stopped := stop(); stopped && err == nil && b.opt.ReuseTabs && t.pages+1 < b.opt.TabPages && len(doc) <= ReuseMaxBytes {
		t.pages++
		select {
		case inst.idle <- t:
		default:
			t.close()
		}
	} else {
		t.close()
	}
	if err != nil {
		switch {
		case parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !inst.died():
			// The page itself took too long, in a browser that was there.
			return nil, &pageTimeoutError{limit: timeout, err: err}
		case ctx.Err() != nil:
			return nil, fmt.Errorf("render: page timed out or canceled after %v: %w (%v)", cut(), ctx.Err(), err)
		case inst.died():
			return nil, &diedError{err}
		}
		return nil, err
	}
	return res, nil
}

// call runs one protocol command on the tab, naming it in errors.
func call[P, R any](ctx context.Context, cmd cdp.Command[P, R], params P) (R, error) {
	r, err := chromedp.Call(ctx, cmd, params)
	if err != nil {
		err = fmt.Errorf("render: %s: %w", cmd.Method, err)
	}
	return r, err
}

func (b *Browser) render(tab context.Context, doc []byte, colors []color.RGBA, opt RenderOptions) (*Result, error) {
	var res Result
	b.phase("start")
	t0 := time.Now()
	url, err := pageURL(opt.URL)
	if err != nil {
		return nil, err
	}
	own := url != ""
	if !own {
		url = pageHost + strconv.FormatInt(pageSeq.Add(1), 10) + "/page.html"
	}

	// chromedp enables these domains on every tab; we need none of them,
	// and DOM and CSS make Chromium report every change our script makes.
	// (A reused tab has them disabled already and answers with an error.)
	for _, cmd := range []cdp.Command[cdp.Empty, cdp.Empty]{dom.Disable, css.Disable, network.Disable, log.Disable} {
		call(tab, cmd, cdp.Empty{})
	}
	if b.tabHook != nil {
		b.tabHook(tab)
	}
	// Serve the page and fail every other request at once (see doc.go).
	// The subscription ends with this call, also when the tab lives on.
	sub, unsubscribe := context.WithCancel(tab)
	defer unsubscribe()
	paused := chromedp.Events(sub, fetch.RequestPaused)
	go serve(tab, paused, served{url: url, doc: doc, resources: opt.Resources, anyURL: own})
	scale := b.opt.Scale
	steps := []func() error{
		func() error {
			_, err := call(tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		},
		func() error {
			_, err := call(tab, emulation.SetScrollbarsHidden, emulation.SetScrollbarsHiddenParams{Hidden: true})
			return err
		},
		func() error { return b.setViewport(tab, b.opt.Height) },
		func() error {
			_, err := call(tab, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}})
			return err
		},
		func() error {
			if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
				return fmt.Errorf("render: load: %w", err)
			}
			return nil
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	res.Timings.Load = time.Since(t0)
	b.phase("load")

	t0 = time.Now()
	css := make([]string, len(colors))
	for i, c := range colors {
		css[i] = fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B)
	}
	arg, _ := json.Marshal(css)
	expr := highlightJS + ";\n__fiasco.highlight(" + string(arg) + "," + strconv.FormatBool(opt.Highlight) + ")"
	if _, err := chromedp.Run(tab, chromedp.Evaluate[int](expr)); err != nil {
		return nil, fmt.Errorf("render: highlight script: %w", err)
	}
	res.Timings.Highlight = time.Since(t0)
	b.phase("highlight")

	t0 = time.Now()
	m, err := b.measure(tab)
	if err != nil {
		return nil, err
	}
	res.Timings.Measure = time.Since(t0)
	b.phase("measure")

	res.PageHeight = int(math.Ceil(m.Height * scale))
	h := min(m.Height, float64(b.opt.MaxHeight))
	res.Cropped = m.Height > float64(b.opt.MaxHeight)
	img, shot, dec, err := b.capture(tab, b.opt.Width, int(h))
	if err != nil {
		return nil, err
	}
	res.Image = img
	res.Timings.Screenshot, res.Timings.Decode = shot, dec
	b.phase("capture")

	bounds := img.Bounds()
	n := len(colors)
	res.Boxes = make([]image.Rectangle, n)
	res.FontSize = make([]float64, n)
	res.LineHeight = make([]float64, n)
	res.Style = make([]Style, n)
	res.Screen = int(math.Round(float64(b.opt.Height) * scale))
	res.Beyond = make([]bool, n)
	for i := 0; i < n && i < len(m.Boxes); i++ {
		if bx := m.Boxes[i]; len(bx) == 4 {
			res.Beyond[i] = res.Cropped && bx[1] >= h
			r := image.Rect(int(math.Floor(bx[0]*scale)), int(math.Floor(bx[1]*scale)),
				int(math.Ceil(bx[2]*scale)), int(math.Ceil(bx[3]*scale))).Intersect(bounds)
			if !r.Empty() {
				res.Boxes[i] = r
			}
		}
		res.FontSize[i] = m.Font[i] * scale
		res.LineHeight[i] = m.Line[i] * scale
		if i < len(m.Weight) && i < len(m.Contrast) && i < len(m.Fixed) {
			res.Style[i] = Style{Weight: m.Weight[i], Contrast: m.Contrast[i], Fixed: m.Fixed[i] != 0}
		}
	}
	return &res, nil
}

// Style is what the renderer reads from the computed style of a block's
// text (the fields of vision.Style, which takes it by conversion).
type Style struct {
	Weight   float64 // font weight, 100..900
	Contrast float64 // WCAG 2 contrast ratio of the text colour against the first opaque background below it, 1..21; 0 when unknown (a background image)
	Fixed    bool    // inside a fixed or sticky container
}

// measurement is what __fiasco.measure returns.
type measurement struct {
	Boxes    [][]float64 `json:"boxes"`
	Font     []float64   `json:"font"`
	Line     []float64   `json:"line"`
	Weight   []float64   `json:"weight"`
	Contrast []float64   `json:"contrast"`
	Fixed    []float64   `json:"fixed"`
	Height   float64     `json:"height"`
}

// measure sets the viewport to the page's full height and measures. When the
// layout depends on the viewport height (100vh, min-height: 100%) the
// height can change once more; a second round settles it.
func (b *Browser) measure(tab context.Context) (measurement, error) {
	var m measurement
	h, err := chromedp.Run(tab, chromedp.Evaluate[float64]("__fiasco.height()"))
	if err != nil {
		return m, fmt.Errorf("render: page height: %w", err)
	}
	for round := 0; round < 2; round++ {
		vh := int(min(max(h, 1), float64(b.opt.MaxHeight)))
		if err := b.setViewport(tab, vh); err != nil {
			return m, err
		}
		m, err = chromedp.Run(tab, chromedp.Evaluate[measurement]("__fiasco.measure()"))
		if err != nil {
			return m, fmt.Errorf("render: measure script: %w", err)
		}
		if m.Height == h || int(min(m.Height, float64(b.opt.MaxHeight))) == vh {
			break
		}
		h = m.Height
	}
	return m, nil
}

func (b *Browser) setViewport(tab context.Context, height int) error {
	_, err := call(tab, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(b.opt.Width), Height: int64(height), DeviceScaleFactor: b.opt.Scale,
		ScreenWidth: int64(b.opt.Width), ScreenHeight: int64(height),
	})
	return err
}

// served is what serve serves to a tab.
type served struct {
	url string // the page's URL, without fragment
	doc []byte
	// anyURL: the page's request may come with url in Chromium's
	// canonical form, which can differ (a caller's URL); it is then
	// recognised as the first document request of the tab's main frame.
	anyURL    bool
	resources func(string) (Resource, bool)
}

// serve answers the paused requests of a tab: the page URL gets doc; a
// later navigation of the page's own frame (meta refresh, a form) gets "204
// No Content", which leaves the page in place; a GET of an http(s) URL that
// p.resources knows gets that resource; every other request fails at once
// with BlockedByClient.
func serve(tab context.Context, paused iter.Seq2[fetch.EventRequestPaused, error], p served) {
	var mainFrame, target string
	if c := chromedp.FromContext(tab); p.anyURL && c != nil && c.Target != nil {
		target = string(c.Target.TargetID) // the id of the tab's main frame
	}
	for ev, err := range paused {
		if err != nil {
			return
		}
		switch {
		case ev.Request != nil && mainFrame == "" && (ev.Request.URL == p.url ||
			target != "" && ev.ResourceType == network.ResourceTypeDocument && string(ev.FrameID) == target):
			mainFrame = string(ev.FrameID)
			_, err = chromedp.Call(tab, fetch.FulfillRequest, fetch.FulfillRequestParams{
				RequestID:    ev.RequestID,
				ResponseCode: 200,
				ResponseHeaders: []*fetch.HeaderEntry{
					{Name: "Content-Type", Value: "text/html; charset=utf-8"},
					{Name: "Cache-Control", Value: "no-store"},
				},
				Body: p.doc,
			})
		case ev.ResourceType == network.ResourceTypeDocument && string(ev.FrameID) == mainFrame:
			_, err = chromedp.Call(tab, fetch.FulfillRequest, fetch.FulfillRequestParams{
				RequestID: ev.RequestID, ResponseCode: 204,
			})
		default:
			if r, ok := p.resource(ev.Request); ok {
				h := []*fetch.HeaderEntry{
					{Name: "Cache-Control", Value: "no-store"},
					{Name: "Access-Control-Allow-Origin", Value: "*"},
				}
				if r.ContentType != "" {
					h = append(h, &fetch.HeaderEntry{Name: "Content-Type", Value: r.ContentType})
				}
				_, err = chromedp.Call(tab, fetch.FulfillRequest, fetch.FulfillRequestParams{
					RequestID: ev.RequestID, ResponseCode: 200, ResponseHeaders: h, Body: r.Body,
				})
				break
			}
			_, err = chromedp.Call(tab, fetch.FailRequest, fetch.FailRequestParams{
				RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient,
			})
		}
		if err != nil && errors.Is(err, context.Canceled) {
			return
		}
	}
}

// resource returns the archived resource for req, if p has resources, req
// is a GET of an http or https URL and the archive holds it.
func (p served) resource(req *network.Request) (Resource, bool) {
	if p.resources == nil || req == nil || req.Method != "GET" ||
		!strings.HasPrefix(req.URL, "http://") && !strings.HasPrefix(req.URL, "https://") {
		return Resource{}, false
	}
	return p.resources(req.URL)
}

// phase calls the test hook phaseHook, if set, at the end of each phase.
func (b *Browser) phase(name string) {
	if b.phaseHook != nil {
		b.phaseHook(name)
	}
}
