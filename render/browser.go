package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Options configure a [Browser]. The zero value is usable.
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
	// Timeout bounds one Render call; 0 means DefaultTimeout.
	Timeout time.Duration
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
	// in principle affect the next one in the same renderer process.
	ReuseTabs bool
	// TileHeight is the tallest strip captured at once, in image px; taller
	// pages are captured in strips stitched together. 0 means
	// DefaultTileHeight.
	TileHeight int
}

// Defaults of [Options].
const (
	DefaultWidth      = 1280
	DefaultHeight     = 800
	DefaultTimeout    = 30 * time.Second
	DefaultMaxHeight  = 60000
	DefaultTileHeight = 8192
)

// ErrNoChromium is returned by [FindChromium] and [New] when no Chromium
// binary is found.
var ErrNoChromium = errors.New("render: no Chromium binary found (install it, e.g. `apt-get install -y chromium`, or set Options.ExecPath / Options.RemoteURL)")

// Flags are the command-line flags of a browser that [New] starts, besides
// --user-data-dir (a fresh temporary directory) and the DevTools pipe that
// chromedp adds.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
	// Reproducibility: the same glyph outlines on every machine.
	"--font-render-hinting=none",
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
// browser dies, the next Render starts a new one.
type Browser struct {
	opt  Options
	exec string

	mu     sync.Mutex
	closed bool
	cur    *instance
	dead   []*instance // browsers that died, being shut down
	starts int         // how many browsers were started, for tests

	// tabHook, when set (by tests), is called with each new tab before
	// the page loads.
	tabHook func(tab context.Context)
	// phaseHook, when set (by tests), is called at the end of each phase.
	phaseHook func(name string)
}

// instance is one started browser.
type instance struct {
	allocCancel   context.CancelFunc
	ctx           context.Context // the browser's root chromedp context
	cancel        context.CancelFunc
	userDataDir   string
	wg            sync.WaitGroup // Render calls using this instance
	once          sync.Once
	shutdownError error
	spare         chan *tab // a tab opened ahead of need, see takeTab
	idle          chan *tab // tabs to reuse (Options.ReuseTabs)
}

// tab is an open tab of a browser instance.
type tab struct {
	ctx   context.Context
	close context.CancelFunc
}

// openTab opens a new tab (a new target) in the browser.
func (inst *instance) openTab() (*tab, error) {
	ctx, cancel := chromedp.NewContext(inst.ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("render: new tab: %w", err)
	}
	return &tab{ctx, cancel}, nil
}

// takeTab returns a new tab for one page: the spare tab opened in the
// background if there is one, else a tab opened now. Either way it then
// opens the next spare tab in the background, so that opening a tab (a
// new renderer process, 50 to 400 ms) overlaps with the work on the page.
// Each page still gets a tab of its own, closed after it.
func (inst *instance) takeTab(ctx context.Context) (context.Context, context.CancelFunc, error) {
	var t *tab
	select {
	case t = <-inst.spare:
	default:
	}
	go inst.fillSpare()
	if t != nil {
		return t.ctx, t.close, nil
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
		if r.err != nil {
			return nil, nil, r.err
		}
		return r.t.ctx, r.t.close, nil
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.t != nil {
				r.t.close()
			}
		}()
		return nil, nil, ctx.Err()
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

// New starts a browser. It fails when no Chromium binary is found or the
// browser does not start; ctx bounds the start only.
func New(ctx context.Context, opt Options) (*Browser, error) {
	if opt.Width <= 0 {
		opt.Width = DefaultWidth
	}
	if opt.Height <= 0 {
		opt.Height = DefaultHeight
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Scale <= 0 {
		opt.Scale = 1
	}
	if opt.MaxHeight <= 0 {
		opt.MaxHeight = DefaultMaxHeight
	}
	if opt.TileHeight <= 0 {
		opt.TileHeight = DefaultTileHeight
	}
	b := &Browser{opt: opt}
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
	inst, err := b.instance(ctx)
	if err != nil {
		return nil, err
	}
	inst.wg.Done()
	go inst.fillSpare()
	return b, nil
}

// ExecPath returns the binary the browser runs ("" for a remote browser).
func (b *Browser) ExecPath() string { return b.exec }

// Options returns the options in effect, defaults filled in.
func (b *Browser) Options() Options { return b.opt }

// instance returns the running browser, starting one when there is none or
// the last one died. The caller must call inst.wg.Done when finished.
func (b *Browser) instance(ctx context.Context) (*instance, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errors.New("render: browser is closed")
	}
	if b.cur != nil && b.cur.ctx.Err() == nil {
		b.cur.wg.Add(1)
		return b.cur, nil
	}
	if b.cur != nil {
		old := b.cur
		b.cur = nil
		b.dead = append(b.dead, old)
		go old.shutdown() // waits for the tabs of the dead browser
	}
	inst, err := b.start(ctx)
	if err != nil {
		return nil, err
	}
	b.starts++
	b.cur = inst
	inst.wg.Add(1)
	return inst, nil
}

func (b *Browser) start(ctx context.Context) (*instance, error) {
	inst := &instance{spare: make(chan *tab, 1), idle: make(chan *tab, 64)}
	var allocCtx context.Context
	if b.opt.RemoteURL != "" {
		allocCtx, inst.allocCancel = remote.NewAllocator(context.Background(), b.opt.RemoteURL)
	} else {
		dir, err := os.MkdirTemp("", "fiasco-chromium-")
		if err != nil {
			return nil, fmt.Errorf("render: user data dir: %w", err)
		}
		inst.userDataDir = dir
		opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(b.exec), chromedp.UserDataDir(dir)}
		for _, f := range Flags {
			name, val, hasVal := cut(f[2:], '=')
			if hasVal {
				opts = append(opts, chromedp.Flag(name, val))
			} else {
				opts = append(opts, chromedp.Flag(name, true))
			}
		}
		allocCtx, inst.allocCancel = chromedp.NewExecAllocator(context.Background(), opts...)
	}
	inst.ctx, inst.cancel = chromedp.NewContext(allocCtx)
	// Start the browser now, bounded by ctx (Do on a root context starts it).
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(inst.ctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		inst.shutdown()
		if b.opt.RemoteURL != "" {
			return nil, fmt.Errorf("render: connect to %s: %w", b.opt.RemoteURL, err)
		}
		return nil, fmt.Errorf("render: start %s: %w", b.exec, err)
	}
	return inst, nil
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// shutdown ends the instance once all its Render calls finished.
func (inst *instance) shutdown() error {
	inst.once.Do(func() {
		inst.wg.Wait()
		for {
			select {
			case t := <-inst.spare:
				t.close()
				continue
			case t := <-inst.idle:
				t.close()
				continue
			default:
			}
			break
		}
		inst.cancel()
		inst.allocCancel() // waits for the process to exit
		if inst.userDataDir != "" {
			inst.shutdownError = os.RemoveAll(inst.userDataDir)
		}
	})
	return inst.shutdownError
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

// Close waits for running Render calls, ends the browser and removes its
// temporary user data directory. A remote browser is disconnected, not
// closed.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	inst := b.cur
	b.cur = nil
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
