package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/chromedp"
)

// Options configure a [Browser]. The zero value is usable: a zero field
// means its default, as each field says. [New] refuses negative values,
// a Scale that is not a finite number, and sizes whose largest screenshot
// would exceed [MaxImageBytes], naming the field; it never replaces a
// value it was given by another.
type Options struct {
	// ExecPath is the Chromium binary. Empty means [FindChromium].
	ExecPath string
	// RemoteURL is the DevTools address (ws://... or http://host:port) of a
	// browser that runs already, for example in a container. When set,
	// ExecPath is ignored and no process is started.
	RemoteURL string
	// Width is the viewport width in CSS px; 0 means DefaultWidth.
	Width int
	// Height is the initial viewport height in CSS px; 0 means DefaultHeight.
	// The screenshot is always of the full page.
	Height int
	// Timeout bounds one Render call; 0 means DefaultTimeout. A page
	// retried after the browser died gets it afresh.
	Timeout time.Duration
	// StartTimeout bounds starting the browser (or connecting to a remote
	// one) until it answers over DevTools, in New and in every restart
	// after the browser died; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Scale is the device scale factor: image px per CSS px. 0 means 1.
	// Values below 1 capture at reduced scale.
	Scale float64
	// MaxHeight caps the captured page height in CSS px; content below is
	// cropped (Result.Cropped is set) and its blocks are not found. 0 means
	// DefaultMaxHeight. The image costs 4 * Width * MaxHeight * Scale^2
	// bytes at most: 77 MB at the defaults and scale 0.5, 307 MB at scale 1.
	MaxHeight int
	// ReuseTabs loads a page into a tab whose last page rendered without
	// error, instead of a new tab per page. Opening a tab costs Chromium
	// about 250 ms of CPU (a new renderer process); a reused tab keeps no
	// state that matters (each page is a new document; the emulation
	// settings and the request interception are set again), but a page can
	// in principle affect the next one in the same renderer process. A
	// tab whose page was larger than ReuseMaxBytes is closed, not reused:
	// its renderer process would keep the memory the page took (over a GB
	// after a 10 MB page) while it waits for the next.
	ReuseTabs bool
	// TabPages is how many pages a reused tab renders before it is closed
	// and a new one takes its place, so that what a renderer process
	// accumulates over a long batch stays bounded; 0 means
	// DefaultTabPages. Only with ReuseTabs.
	TabPages int
	// TileHeight is the tallest strip captured at once, in image px; taller
	// pages are captured in strips stitched together. 0 means
	// DefaultTileHeight.
	TileHeight int
	// MaxInflightBytes bounds the bytes of the documents rendered at
	// once: a renderer process takes memory in proportion to its page
	// (about 1.4 GB for a 6.5 MB page of table rows), so two large pages
	// at once can exhaust a container's memory where one at a time would
	// not. A Render call waits (as long as its ctx allows) until its
	// document fits under the limit beside those in flight, in arrival
	// order; a document larger than the limit renders alone. 0 means
	// DefaultMaxInflightBytes, -1 no limit.
	MaxInflightBytes int64
	// OnRestart, if not nil, is called after the browser died and another
	// was started in its place, with the start's error (nil when it
	// started), from the goroutine that started it: a service logs it.
	OnRestart func(err error)
	// OnRetry, if not nil, is called before a page is rendered a second
	// time (see [Browser.Render]: its renderer crashed, or the browser
	// died under it), with the first render's error, from the goroutine
	// that renders it: a service logs it, as the crash is otherwise seen
	// only in Stats.Retries.
	OnRetry func(err error)
}

// Defaults of [Options].
const (
	DefaultWidth        = 1280
	DefaultHeight       = 800
	DefaultTimeout      = 30 * time.Second
	DefaultStartTimeout = 30 * time.Second
	DefaultMaxHeight    = 60000
	DefaultTileHeight   = 8192
	DefaultTabPages     = 100
	// DefaultMaxInflightBytes lets about twenty pages of a typical size
	// (100 to 200 KB) render at once, and a page of several MB alone.
	DefaultMaxInflightBytes = 4 << 20
)

// MaxImageBytes bounds the largest screenshot that Options allow: 4 bytes
// per pixel of Width×Scale by MaxHeight×Scale image px.
const MaxImageBytes = 4 << 30

// Check reports what [New] would refuse in o: a negative size, limit or
// duration, a scale that is not a positive number, or screenshots larger
// than [MaxImageBytes]. A command checks its flags with it before
// starting anything.
func (o Options) Check() error {
	_, err := o.withDefaults()
	return err
}

// withDefaults checks o and fills in the defaults of its zero fields.
func (o Options) withDefaults() (Options, error) {
	var errs []error
	positive := func(name string, v int, def string) {
		if v < 0 {
			errs = append(errs, fmt.Errorf("render: Options.%s is %d: want a positive number of CSS px, or 0 for %s", name, v, def))
		}
	}
	positive("Width", o.Width, fmt.Sprintf("DefaultWidth (%d)", DefaultWidth))
	positive("Height", o.Height, fmt.Sprintf("DefaultHeight (%d)", DefaultHeight))
	positive("MaxHeight", o.MaxHeight, fmt.Sprintf("DefaultMaxHeight (%d)", DefaultMaxHeight))
	if o.TileHeight < 0 {
		errs = append(errs, fmt.Errorf("render: Options.TileHeight is %d: want a positive number of image px, or 0 for DefaultTileHeight (%d)", o.TileHeight, DefaultTileHeight))
	}
	if o.TabPages < 0 {
		errs = append(errs, fmt.Errorf("render: Options.TabPages is %d: want a positive number of pages, or 0 for DefaultTabPages (%d)", o.TabPages, DefaultTabPages))
	}
	if o.MaxInflightBytes < -1 {
		errs = append(errs, fmt.Errorf("render: Options.MaxInflightBytes is %d: want a positive number of bytes, 0 for DefaultMaxInflightBytes (%d) or -1 for no limit", o.MaxInflightBytes, DefaultMaxInflightBytes))
	}
	if o.Timeout < 0 {
		errs = append(errs, fmt.Errorf("render: Options.Timeout is %v: want a positive duration, or 0 for DefaultTimeout (%v)", o.Timeout, DefaultTimeout))
	}
	if o.StartTimeout < 0 {
		errs = append(errs, fmt.Errorf("render: Options.StartTimeout is %v: want a positive duration, or 0 for DefaultStartTimeout (%v)", o.StartTimeout, DefaultStartTimeout))
	}
	if math.IsNaN(o.Scale) || math.IsInf(o.Scale, 0) || o.Scale < 0 {
		errs = append(errs, fmt.Errorf("render: Options.Scale is %v: want a positive scale factor, or 0 for 1", o.Scale))
	}
	if len(errs) > 0 {
		return o, errors.Join(errs...)
	}
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.Height == 0 {
		o.Height = DefaultHeight
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.Scale == 0 {
		o.Scale = 1
	}
	if o.MaxHeight == 0 {
		o.MaxHeight = DefaultMaxHeight
	}
	if o.TileHeight == 0 {
		o.TileHeight = DefaultTileHeight
	}
	if o.TabPages == 0 {
		o.TabPages = DefaultTabPages
	}
	if o.MaxInflightBytes == 0 {
		o.MaxInflightBytes = DefaultMaxInflightBytes
	}
	w := math.Ceil(float64(o.Width) * o.Scale)
	h := math.Ceil(float64(o.MaxHeight) * o.Scale)
	if 4*w*h > MaxImageBytes {
		return o, fmt.Errorf("render: Options.Width %d, MaxHeight %d and Scale %v make screenshots of up to %.0f x %.0f px, more than MaxImageBytes (%d GiB)",
			o.Width, o.MaxHeight, o.Scale, w, h, MaxImageBytes>>30)
	}
	return o, nil
}

// ErrNoChromium is returned by [FindChromium] and [New] when no Chromium
// binary is found.
var ErrNoChromium = errors.New("render: no Chromium binary found (install it, e.g. `apt-get install -y chromium`, or give the path of a binary or the URL of a running browser)")

// Flags are the command-line flags of a browser that [New] starts, besides
// --user-data-dir (a fresh temporary directory) and the DevTools pipe that
// chromedp adds.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
	// Reproducibility: the same glyph outlines on every machine.
	"--font-render-hinting=none",
	// No network where request interception does not reach: Chromium
	// preconnects to a page's origin as it navigates. Every host name and
	// address resolves to nothing, so no DNS query or connection leaves.
	"--host-resolver-rules=MAP * ~NOTFOUND",
	// A page served at its own http URL stays there, and its http images
	// keep their URLs: no upgrade to https.
	"--disable-features=HttpsUpgrades,AutoupgradeMixedContent",
}

// FindChromium returns the Chromium binary New starts by default: the real
// binary /usr/lib/chromium/chromium when /usr/bin/chromium is Debian's
// launcher script for it (the script adds flags of its own), else
// /usr/bin/chromium, /usr/lib/chromium/chromium, or chromium,
// chromium-browser, google-chrome from PATH.
func FindChromium() (string, error) {
	const wrapper, real = "/usr/bin/chromium", "/usr/lib/chromium/chromium"
	if isFile(wrapper) {
		if isScript(wrapper) && isFile(real) {
			return real, nil
		}
		return wrapper, nil
	}
	if isFile(real) {
		return real, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isScript(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 2)
	n, _ := f.Read(buf)
	return bytes.Equal(buf[:n], []byte("#!"))
}

// Browser is one Chromium process (or one connection to a remote browser)
// that renders pages, each in a tab of its own. Render may be called from
// several goroutines at once; each call opens and closes its own tab. If the
// browser dies, the next Render starts a new one, and the pages it was
// rendering are retried once on the new one.
type Browser struct {
	opt  Options
	exec string
	gate *gate // Options.MaxInflightBytes

	// ctx is canceled by Close; it ends a start under way.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	closed   bool
	cur      *instance
	starting *startCall     // the restart under way, if any
	bg       sync.WaitGroup // restarts under way
	dead     []*instance    // browsers that died, being shut down
	starts   int            // how many browsers were started (Stats)
	retries  int            // pages rendered again after the browser died or their renderer crashed (Stats)

	// tabHook, when set (by tests), is called with each new tab before
	// the page loads.
	tabHook func(tab context.Context)
	// phaseHook, when set (by tests), is called at the end of each phase.
	phaseHook func(name string)
}

// startCall is a restart under way, which Render calls wait for.
type startCall struct {
	done chan struct{} // closed when the start ended; then err is set
	err  error
}

// ReuseMaxBytes is the largest document after which a tab is reused
// (Options.ReuseTabs): a renderer process keeps much of the memory a
// large page took while it waits for the next, so the tab of a larger
// page is closed, ending its process, at the cost of opening another
// (about 250 ms of CPU), small beside rendering such a page.
const ReuseMaxBytes = 512 << 10

// ErrBrowserDied is wrapped by the error of a Render call whose page was
// lost because the browser process died (it crashed or was killed), when
// the retry on a restarted browser failed too.
var ErrBrowserDied = errors.New("render: the browser died")

// ErrPageCrashed is wrapped by the error of a Render call whose page's
// renderer process crashed (the kernel ends the largest process when
// memory runs out) while the browser lived on, and crashed again, or
// failed, on its retry in a new tab. The crash ends the page's wait at
// once, not at its time limit.
var ErrPageCrashed = errors.New("render: Chromium's renderer process crashed on the page (out of memory?)")

// ErrPageTimeout is wrapped (with context.DeadlineExceeded) by a render
// that ran out of its time limit (Options.Timeout, RenderOptions.Timeout)
// while the page was drawn and measured in a browser that still runs:
// rendering it again would take about as long. The limit counts from the
// start of the render, so time spent waiting for a browser to restart or
// for a tab counts too; running out of it during those waits, or in a
// browser that died, is not this error.
var ErrPageTimeout = errors.New("render: the page took longer than its time limit")

// pageTimeoutError is ErrPageTimeout for one page: its limit and what the
// render was doing when the limit came.
type pageTimeoutError struct {
	limit time.Duration
	err   error
}

func (e *pageTimeoutError) Error() string {
	return fmt.Sprintf("render: the page took longer than %v (%v)", e.limit, e.err)
}

func (e *pageTimeoutError) Unwrap() []error {
	return []error{ErrPageTimeout, context.DeadlineExceeded}
}

var errClosed = errors.New("render: browser is closed")

// instance is one started browser.
type instance struct {
	allocCancel   context.CancelFunc
	ctx           context.Context    // the browser's root chromedp context
	cancel        context.CancelFunc // cancels ctx, waits for chromedp to stop
	cancelOnce    sync.Once          // cancel waits for the browser's end once: a second wait would never end
	stop          context.CancelFunc // cancels ctx, does not wait
	userDataDir   string
	owner         *os.File       // locked while the profile is in use (claimProfile)
	wg            sync.WaitGroup // Render calls using this instance
	once          sync.Once
	recycle       sync.Once // Browser.Recycle ends it once
	shutdownError error
	spare         chan *tab    // a tab opened ahead of need, see takeTab
	idle          chan *tab    // tabs to reuse (Options.ReuseTabs)
	groups        map[int]bool // process groups the browser leads, see noteGroups
}

// noteGroups notes the process groups that the local browser leads (see
// ownGroup), to kill what is left in them at shutdown. It looks at the
// running processes, so it must run before the browser is ended.
func (inst *instance) noteGroups() {
	if inst.userDataDir == "" {
		return
	}
	if inst.groups == nil {
		inst.groups = map[int]bool{}
	}
	for g := range processGroups(inst.userDataDir) {
		inst.groups[g] = true
	}
}

// tab is an open tab of a browser instance.
type tab struct {
	// ctx is the tab's chromedp context, ended with the cause
	// ErrPageCrashed when the tab's renderer process crashes (also while
	// the tab waits as a spare or idle one: such a tab is not used), which
	// ends the calls of a page under way at once.
	ctx   context.Context
	close context.CancelFunc
	pages int // pages rendered in it (Options.TabPages)
}

// crashed reports whether the tab's renderer process crashed.
func (t *tab) crashed() bool { return context.Cause(t.ctx) == ErrPageCrashed }

// openTab opens a new tab (a new target) in the browser.
func (inst *instance) openTab() (*tab, error) {
	target, closeTarget := chromedp.NewContext(inst.ctx)
	if err := chromedp.Do(target); err != nil {
		closeTarget()
		return nil, fmt.Errorf("render: new tab: %w", err)
	}
	ctx, crash := context.WithCancelCause(target)
	closeTab := func() { crash(nil); closeTarget() }
	if err := chromedp.Listen(target, func(ev any) {
		if _, ok := ev.(*inspector.EventTargetCrashed); ok {
			crash(ErrPageCrashed)
		}
	}); err != nil {
		closeTab()
		return nil, fmt.Errorf("render: new tab: %w", err)
	}
	return &tab{ctx: ctx, close: closeTab}, nil
}

// takeTab returns a new tab for one page: the spare tab opened in the
// background if there is one, else a tab opened now. Either way it then
// opens the next spare tab in the background, so that opening a tab (a
// new renderer process, 50 to 400 ms) overlaps with the work on the page.
// Each page still gets a tab of its own, closed after it.
func (inst *instance) takeTab(ctx context.Context, fresh bool) (*tab, error) {
	var t *tab
	if !fresh { // else a tab opened now
		select {
		case t = <-inst.spare:
		default:
		}
	}
	go inst.fillSpare()
	if t != nil && !t.crashed() {
		return t, nil
	}
	if t != nil {
		t.close() // its renderer crashed while it waited
	}
	// Open a tab now, bounded by ctx.
	type result struct {
		t   *tab
		err error
	}
	ch := make(chan result, 1)
	go func() {
		t, err := inst.openTab()
		ch <- result{t, err}
	}()
	select {
	case r := <-ch:
		return r.t, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.t != nil {
				r.t.close()
			}
		}()
		return nil, ctx.Err()
	}
}

// fillSpare opens a spare tab unless there is one.
func (inst *instance) fillSpare() {
	if len(inst.spare) > 0 || inst.ctx.Err() != nil {
		return
	}
	t, err := inst.openTab()
	if err != nil {
		return
	}
	select {
	case inst.spare <- t:
	default:
		t.close()
	}
}

// New starts a browser. It fails when opt holds a bad value (see
// [Options]), when no Chromium binary is found, or when the browser does
// not answer within opt.StartTimeout; ctx bounds the start only.
func New(ctx context.Context, opt Options) (*Browser, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &Browser{opt: opt, gate: newGate(opt.MaxInflightBytes)}
	if opt.RemoteURL == "" {
		b.exec = opt.ExecPath
		if b.exec == "" {
			p, err := FindChromium()
			if err != nil {
				return nil, err
			}
			b.exec = p
		} else if _, err := os.Stat(b.exec); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoChromium, err)
		}
	}
	inst, err := b.start(ctx)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	b.cur = inst
	b.starts = 1
	go inst.fillSpare()
	return b, nil
}

// ExecPath returns the binary the browser runs ("" for a remote browser).
func (b *Browser) ExecPath() string { return b.exec }

// Options returns the options in effect, defaults filled in.
func (b *Browser) Options() Options { return b.opt }

// instance returns the running browser, starting one when the last one
// died. A start runs in the background, one at a time, bounded by
// Options.StartTimeout; every caller waits for it as long as its own ctx
// allows. The caller must call inst.wg.Done when finished.
func (b *Browser) instance(ctx context.Context) (*instance, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, errClosed
	}
	if cur := b.cur; cur != nil && cur.ctx.Err() == nil {
		cur.wg.Add(1)
		b.mu.Unlock() // Close may take b.cur from now on: cur is ours
		return cur, nil
	}
	if b.cur != nil {
		old := b.cur
		b.cur = nil
		b.dead = append(b.dead, old)
		go old.shutdown() // waits for the tabs of the dead browser
	}
	sc := b.starting
	if sc == nil {
		sc = &startCall{done: make(chan struct{})}
		b.starting = sc
		b.bg.Add(1)
		go b.restart(sc)
	}
	b.mu.Unlock()
	select {
	case <-sc.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("render: waiting for the browser to restart: %w", ctx.Err())
	}
	if sc.err != nil {
		return nil, sc.err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed
	}
	if b.cur == nil || b.cur.ctx.Err() != nil {
		return nil, errors.New("render: the restarted browser died at once")
	}
	b.cur.wg.Add(1)
	return b.cur, nil
}

// restart starts a browser in place of the one that died and ends sc.
func (b *Browser) restart(sc *startCall) {
	defer b.bg.Done()
	inst, err := b.start(b.ctx)
	b.mu.Lock()
	closed := b.closed
	b.starting = nil
	switch {
	case err != nil:
		sc.err = fmt.Errorf("render: restarting the browser after it died: %w", err)
	case b.closed:
		b.bg.Add(1) // Close waits for the shutdown
		go func() { defer b.bg.Done(); inst.shutdown() }()
		sc.err = errClosed
	default:
		b.cur = inst
		b.starts++
		go inst.fillSpare()
	}
	b.mu.Unlock()
	if f := b.opt.OnRestart; f != nil && !closed {
		f(err) // a restart under way when Close came is not reported
	}
	close(sc.done) // the Render calls waiting go on after the report
}

// Recycle ends the running browser, so that the next Render starts
// another (connects again, for a remote one): for a browser that hangs
// rather than dies, which Render notices by itself. Renders under way in
// it fail as in a browser that died (and are tried again in the new one).
// It reports whether there was a running browser to end.
func (b *Browser) Recycle() bool {
	b.mu.Lock()
	inst := b.cur
	if inst == nil || inst.ctx.Err() != nil {
		b.mu.Unlock()
		return false
	}
	inst.wg.Add(1) // its shutdown, which reads its groups, waits
	b.mu.Unlock()
	defer inst.wg.Done()
	inst.recycle.Do(func() {
		inst.noteGroups() // before its death orphans its children
		inst.stop()       // chromedp kills its process; its shutdown (instance) what is left
	})
	return true
}

// pid returns the process id of the running local browser, or 0.
func (b *Browser) pid() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cur == nil {
		return 0
	}
	c := chromedp.FromContext(b.cur.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	return c.Browser.Process().Pid
}

// Stats counts what a Browser did to keep rendering.
type Stats struct {
	// Restarts counts browsers started in place of one that died (or
	// was recycled).
	Restarts int
	// Retries counts pages rendered a second time: after the browser
	// died under them, or their renderer process crashed.
	Retries int
}

// Stats returns the counts so far. It is safe for concurrent use.
func (b *Browser) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Restarts: b.starts - 1, Retries: b.retries}
}

// Close waits for running Render calls, ends the browser (and a restart
// under way) and removes its temporary user data directory. A remote
// browser is disconnected, not closed.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	inst := b.cur
	b.cur = nil
	b.mu.Unlock()
	b.cancel()  // ends a restart under way
	b.bg.Wait() // restarts end, and shut down what they started
	b.mu.Lock()
	dead := b.dead
	b.mu.Unlock()
	var err error
	for _, d := range dead {
		err = errors.Join(err, d.shutdown()) // waits if already under way
	}
	if inst != nil {
		err = errors.Join(err, inst.shutdown())
	}
	return err
}
