package render

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// fakeChromium writes a shell script that stands in for Chromium: it logs
// its pid, the pids of the children it starts and its --user-data-dir to
// files in a test directory, then runs body. It returns the script's path
// and a function that reads the logged pids and profile directories.
func fakeChromium(t *testing.T, body string) (string, func() (pids []int, dirs []string)) {
	t.Helper()
	dir := t.TempDir()
	pidLog, dirLog := filepath.Join(dir, "pids"), filepath.Join(dir, "dirs")
	script := fmt.Sprintf(`#!/bin/sh
echo $$ >> %[1]s
for a in "$@"; do
	case "$a" in --user-data-dir=*) echo "${a#--user-data-dir=}" >> %[2]s;; esac
done
%[3]s
`, pidLog, dirLog, body)
	path := filepath.Join(dir, "chromium")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, func() ([]int, []string) {
		var pids []int
		b, _ := os.ReadFile(pidLog)
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		d, _ := os.ReadFile(dirLog)
		return pids, strings.Fields(string(d))
	}
}

// hangs is a fake browser's body that never answers: a child that sleeps,
// a shell that ignores polite signals and waits for it.
const hangs = `sleep 600 &
echo $! >> "$(dirname "$0")/pids"
trap '' TERM INT HUP
wait
sleep 600`

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// checkGone fails the test if any of pids lives or any of dirs exists,
// allowing a moment for the kernel to reap killed processes.
func checkGone(t *testing.T, pids []int, dirs []string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, p := range pids {
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(p) {
			t.Errorf("process %d of the browser still runs", p)
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
	for _, d := range dirs {
		for time.Now().Before(deadline) {
			if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("profile directory %s still exists (%v)", d, err)
		}
	}
}

// TestStartTimeout: a browser that never answers DevTools makes New fail
// after Options.StartTimeout, naming it, with no process and no profile
// directory left; one that exits at once without a word fails at once.
func TestStartTimeout(t *testing.T) {
	t.Run("hangs", func(t *testing.T) {
		exe, logged := fakeChromium(t, hangs)
		start := time.Now()
		b, err := New(context.Background(), Options{ExecPath: exe, StartTimeout: time.Second})
		elapsed := time.Since(start)
		if err == nil {
			b.Close()
			t.Fatal("New with a browser that never answers succeeded")
		}
		t.Logf("after %v: %v", elapsed.Round(time.Millisecond), err)
		if !strings.Contains(err.Error(), "StartTimeout") || !strings.Contains(err.Error(), exe) {
			t.Errorf("error %q does not name the binary and Options.StartTimeout", err)
		}
		if elapsed > 4*time.Second {
			t.Errorf("New took %v with a StartTimeout of 1s", elapsed)
		}
		pids, dirs := logged()
		if len(pids) != 2 || len(dirs) != 1 {
			t.Fatalf("the fake browser logged pids %v, dirs %v", pids, dirs)
		}
		checkGone(t, pids, dirs)
	})
	t.Run("ctx", func(t *testing.T) {
		// The caller's deadline, when sooner, ends the start with its error.
		exe, logged := fakeChromium(t, hangs)
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		_, err := New(ctx, Options{ExecPath: exe, StartTimeout: time.Minute})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("New with a 500ms ctx: %v, want context.DeadlineExceeded", err)
		}
		pids, dirs := logged()
		checkGone(t, pids, dirs)
	})
	t.Run("exits", func(t *testing.T) {
		exe, logged := fakeChromium(t, "exit 0")
		start := time.Now()
		_, err := New(context.Background(), Options{ExecPath: exe, StartTimeout: 20 * time.Second})
		if err == nil || !strings.Contains(err.Error(), exe) || !strings.Contains(err.Error(), "without printing a DevTools address") {
			t.Errorf("New with a browser that exits silently: %v", err)
		}
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("New took %v with a browser that exited at once", elapsed)
		}
		t.Logf("%v", err)
		pids, dirs := logged()
		checkGone(t, pids, dirs)
	})
	t.Run("complains", func(t *testing.T) {
		// What a browser printed before exiting is in the error.
		exe, logged := fakeChromium(t, "echo 'cannot open display' >&2; exit 1")
		_, err := New(context.Background(), Options{ExecPath: exe, StartTimeout: 20 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "cannot open display") {
			t.Errorf("New with a browser that complains and exits: %v", err)
		}
		pids, dirs := logged()
		checkGone(t, pids, dirs)
	})
}

// killBrowser kills the running browser's main process and waits until the
// Browser notices. It returns the browser's profile directory.
func killBrowser(b *Browser) (dir string, err error) {
	b.mu.Lock()
	inst := b.cur
	b.mu.Unlock()
	pid := b.pid()
	if pid == 0 || inst == nil {
		return "", errors.New("no browser process")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return "", err
	}
	select {
	case <-inst.ctx.Done():
	case <-time.After(10 * time.Second):
		return "", errors.New("the browser's death went unnoticed")
	}
	return inst.userDataDir, nil
}

// TestRestartStartTimeout: a restart after the browser died is bounded by
// Options.StartTimeout too; the failed restart leaves nothing behind, and
// the next Render starts a working browser.
func TestRestartStartTimeout(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	if _, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	// A short StartTimeout for the fake only: the real Chromium can take
	// more than 2s to start on a busy machine.
	real, startTimeout := b.exec, b.opt.StartTimeout
	var restarts []error // Options.OnRestart's calls
	var mu sync.Mutex
	b.opt.OnRestart = func(err error) {
		mu.Lock()
		defer mu.Unlock()
		restarts = append(restarts, err)
	}
	exe, logged := fakeChromium(t, hangs)
	b.exec, b.opt.StartTimeout = exe, 2*time.Second
	killed, err := killBrowser(b)
	if err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	_, err = b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	elapsed := time.Since(start)
	t.Logf("after %v: %v", elapsed.Round(time.Millisecond), err)
	if err == nil || !strings.Contains(err.Error(), "StartTimeout") || !strings.Contains(err.Error(), "restart") {
		t.Errorf("Render with a browser that does not restart: %v, want the restart's StartTimeout", err)
	}
	if elapsed > 6*time.Second {
		t.Errorf("Render took %v with a StartTimeout of 2s", elapsed)
	}
	pids, dirs := logged()
	checkGone(t, pids, append(dirs, killed))

	b.exec, b.opt.StartTimeout = real, startTimeout
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("Render with the real browser back: %v", err)
	}
	checkBlocks(t, res, testColors)
	if b.starts != 2 {
		t.Errorf("%d browsers started, want 2", b.starts)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(restarts) != 2 || restarts[0] == nil || restarts[1] != nil {
		t.Errorf("OnRestart called with %v; want the failed restart's error, then nil", restarts)
	}
}

// killBarrier kills the browser once n pages have loaded in it, so that
// all n are in flight when it dies.
type killBarrier struct {
	t       *testing.T
	b       *Browser
	n       int
	mu      sync.Mutex
	arrived int
	killed  chan struct{}
	dir     string
	armed   atomic.Bool
}

func newKillBarrier(t *testing.T, b *Browser, n int) *killBarrier {
	k := &killBarrier{t: t, b: b, n: n, killed: make(chan struct{})}
	k.armed.Store(true)
	return k
}

func (k *killBarrier) hook(phase string) {
	if phase != "load" || !k.armed.Load() {
		return
	}
	k.mu.Lock()
	k.arrived++
	if k.arrived == k.n {
		k.armed.Store(false) // the retries pass
		var err error
		if k.dir, err = killBrowser(k.b); err != nil {
			k.t.Error(err)
		}
		close(k.killed)
	}
	k.mu.Unlock()
	select {
	case <-k.killed:
	case <-time.After(20 * time.Second):
	}
}

// renderAll renders doc n times at once and returns the results and errors.
func renderAll(b *Browser, doc []byte, n int) ([]*Result, []error) {
	res := make([]*Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res[i], errs[i] = b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
		})
	}
	wg.Wait()
	return res, errs
}

// TestRetryAfterBrowserDies kills Chromium while four pages render at once:
// each is retried once on the restarted browser and succeeds. Then it kills
// it again with a binary that cannot start in its place: each page gets an
// error that says so, and the browser recovers once the binary is back.
func TestRetryAfterBrowserDies(t *testing.T) {
	const n = 4
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")

	k := newKillBarrier(t, b, n)
	b.phaseHook = k.hook
	res, errs := renderAll(b, doc, n)
	for i := range n {
		if errs[i] != nil {
			t.Errorf("page %d: %v", i, errs[i])
			continue
		}
		t.Run(fmt.Sprint("page", i), func(t *testing.T) { checkBlocks(t, res[i], testColors) })
	}
	if b.starts != 2 || b.retries != n {
		t.Errorf("%d browsers started, %d pages retried; want 2 and %d", b.starts, b.retries, n)
	}
	checkGone(t, nil, []string{k.dir})

	// A restart that fails: every page in flight gets a clear error.
	real := b.exec
	exe, logged := fakeChromium(t, "echo 'no DevTools here' >&2; exit 1")
	b.exec = exe
	k = newKillBarrier(t, b, n)
	b.phaseHook = k.hook
	_, errs = renderAll(b, doc, n)
	for i, err := range errs {
		if !errors.Is(err, ErrBrowserDied) || !strings.Contains(err.Error(), "its retry on a restarted browser failed") || !strings.Contains(err.Error(), exe) {
			t.Errorf("page %d: error %v, want ErrBrowserDied after a retry naming the binary", i, err)
		}
	}
	t.Logf("page 0: %v", errs[0])
	pids, dirs := logged()
	checkGone(t, pids, append(dirs, k.dir))

	b.phaseHook = nil
	b.exec = real
	r, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("Render with the real browser back: %v", err)
	}
	checkBlocks(t, r, testColors)
}

// TestOptionsChecked: New refuses bad option values, naming the option,
// and fills in the documented defaults of zero values.
func TestOptionsChecked(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Width: -1}, "Options.Width is -1"},
		{Options{Height: -800}, "Options.Height is -800"},
		{Options{MaxHeight: -1}, "Options.MaxHeight"},
		{Options{TileHeight: -1}, "Options.TileHeight"},
		{Options{TabPages: -1}, "Options.TabPages"},
		{Options{MaxInflightBytes: -2}, "Options.MaxInflightBytes"},
		{Options{Timeout: -time.Second}, "Options.Timeout is -1s"},
		{Options{StartTimeout: -1}, "Options.StartTimeout"},
		{Options{Scale: -0.5}, "Options.Scale is -0.5"},
		{Options{Scale: math.NaN()}, "Options.Scale is NaN"},
		{Options{Scale: math.Inf(1)}, "Options.Scale is +Inf"},
		{Options{Scale: math.Inf(-1)}, "Options.Scale is -Inf"},
		{Options{Width: 100000, Scale: 2}, "MaxImageBytes"},
		{Options{Width: -1, Scale: math.NaN()}, "Options.Scale is NaN"}, // all are named
	} {
		_, err := New(context.Background(), c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want an error with %q", c.opt, err, c.want)
		}
	}
	o, err := Options{}.withDefaults()
	want := Options{Width: DefaultWidth, Height: DefaultHeight, Timeout: DefaultTimeout, StartTimeout: DefaultStartTimeout,
		Scale: 1, MaxHeight: DefaultMaxHeight, TileHeight: DefaultTileHeight, TabPages: DefaultTabPages, MaxInflightBytes: DefaultMaxInflightBytes}
	if err != nil || !reflect.DeepEqual(o, want) {
		t.Errorf("zero Options: %+v, %v; want %+v", o, err, want)
	}
	keep := Options{Width: 800, Height: 600, Timeout: time.Second, StartTimeout: time.Second, Scale: 0.25, MaxHeight: 1000, TileHeight: 100, TabPages: 7, MaxInflightBytes: -1}
	if o, err := keep.withDefaults(); err != nil || !reflect.DeepEqual(o, keep) {
		t.Errorf("%+v became %+v, %v", keep, o, err)
	}

	var b Browser // RenderOptions are checked before the browser is used
	for _, c := range []struct {
		opt  RenderOptions
		want string
	}{
		{RenderOptions{Timeout: -1}, "RenderOptions.Timeout"},
		{RenderOptions{URL: "file:///etc/hostname"}, "RenderOptions.URL"},
		{RenderOptions{URL: "/relative/page.html"}, "RenderOptions.URL"},
		{RenderOptions{URL: "ftp://example.org/"}, "RenderOptions.URL"},
		{RenderOptions{URL: "http://"}, "RenderOptions.URL"},
		{RenderOptions{URL: "http://exa mple.org/"}, "RenderOptions.URL"},
	} {
		if _, err := b.Render(context.Background(), nil, nil, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Render(%+v): %v, want an error with %q", c.opt, err, c.want)
		}
	}
}

// TestRetryAfterPageCrash crashes the page's renderer process (as the
// kernel ends one that runs out of memory) while the browser lives on:
// the crash ends the page's wait at once, not at its time limit, and the
// page is rendered again in a new tab; a page that crashes every time
// gets an error wrapping ErrPageCrashed, also long before its limit.
func TestRetryAfterPageCrash(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	const limit = 40 * time.Second
	var mu sync.Mutex
	var tab context.Context
	crashes := 0 // how many pages to crash yet
	b.tabHook = func(c context.Context) { mu.Lock(); tab = c; mu.Unlock() }
	b.phaseHook = func(name string) {
		mu.Lock()
		c, crash := tab, name == "load" && crashes > 0
		if crash {
			crashes--
		}
		mu.Unlock()
		if crash {
			chromedp.Call(c, page.Crash, cdp.Empty{}) // no answer: the renderer is gone
		}
	}

	var retried []error // Options.OnRetry's calls
	b.opt.OnRetry = func(err error) { mu.Lock(); retried = append(retried, err); mu.Unlock() }
	crashes = 1
	t0 := time.Now()
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true, Timeout: limit})
	if err != nil {
		t.Fatalf("a page whose renderer crashed once: %v", err)
	}
	checkBlocks(t, res, testColors)
	if el := time.Since(t0); el > limit/2 || b.Stats() != (Stats{Retries: 1}) {
		t.Errorf("%v, stats %+v; want well under %v, 1 retry in the one browser", el, b.Stats(), limit)
	}
	mu.Lock()
	if len(retried) != 1 || !errors.Is(retried[0], ErrPageCrashed) {
		t.Errorf("OnRetry called with %v; want once, with the crash", retried)
	}
	mu.Unlock()

	mu.Lock()
	crashes = 2
	mu.Unlock()
	t0 = time.Now()
	_, err = b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true, Timeout: limit})
	if !errors.Is(err, ErrPageCrashed) || errors.Is(err, ErrPageTimeout) {
		t.Fatalf("a page whose renderer crashes twice: %v, want ErrPageCrashed", err)
	}
	t.Logf("crashed twice: %v", err)
	if el := time.Since(t0); el > limit/2 {
		t.Errorf("crashed twice: the error came after %v, want well under the limit %v", el, limit)
	}

	// The browser renders the next page as before.
	b.phaseHook = nil
	res, err = b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("after the crashes: %v", err)
	}
	checkBlocks(t, res, testColors)
}

// TestNewContextDone: New with a context that is done, or ends within a
// millisecond, returns its error at once, every time, and leaves no
// profile directory (a start abandoned so once waited for chromedp twice,
// and the second wait never ended).
func TestNewContextDone(t *testing.T) {
	if _, err := FindChromium(); err != nil {
		t.Skipf("skipping: no Chromium binary found (apt-get install -y chromium): %v", err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for i := range 8 {
		var ctx context.Context
		var cancel context.CancelFunc
		if i%2 == 0 {
			ctx, cancel = context.WithCancel(context.Background())
			cancel()
		} else {
			ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
		}
		done := make(chan error, 1)
		go func() {
			b, err := New(ctx, Options{})
			if err == nil {
				b.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil && ctx.Err() != nil && i%2 == 0 {
				t.Errorf("run %d: New with a done context: no error", i)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("run %d: New with a done context has not returned after 30 s", i)
		}
		cancel()
	}
	left, _ := filepath.Glob(filepath.Join(tmp, profilePrefix+"*"))
	if len(left) > 0 {
		t.Errorf("profiles left: %v", left)
	}
}

// crashWaiting crashes the renderer of a tab that waits (idle or spare),
// taken from pool, waits for the crash to be noticed, puts the tab back,
// and checks that the next page renders at once, not after its time
// limit, and without a retry: the crashed tab is not taken.
func crashWaiting(t *testing.T, b *Browser, pool chan *tab, what string) {
	t.Helper()
	var tb *tab
	select {
	case tb = <-pool: // a spare is opened in the background after a page takes its tab
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s tab after 10 s", what)
	}
	crashCtx, cancel := context.WithTimeout(tb.ctx, 2*time.Second)
	chromedp.Call(crashCtx, page.Crash, cdp.Empty{}) // no answer: the renderer is gone
	cancel()
	for deadline := time.Now().Add(10 * time.Second); !tb.crashed(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the %s tab's crash was not noticed in 10 s", what)
		}
	}
	pool <- tb
	const limit = 40 * time.Second
	t0 := time.Now()
	res, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true, Timeout: limit})
	if err != nil {
		t.Fatalf("the page after the %s tab crashed: %v", what, err)
	}
	checkBlocks(t, res, testColors)
	if el := time.Since(t0); el > limit/2 || b.Stats().Retries != 0 {
		t.Errorf("%v and %+v, want well under %v and no retry (the crashed %s tab is not taken)", el, b.Stats(), limit, what)
	}
}

// TestIdleTabCrash: a reused tab whose renderer crashes while it waits for
// the next page is not used: the next page gets a new tab.
func TestIdleTabCrash(t *testing.T) {
	b := newBrowser(t, Options{ReuseTabs: true})
	if _, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	crashWaiting(t, b, b.cur.idle, "idle")
}

// TestSpareTabCrash: the spare tab, opened ahead of the next page, whose
// renderer crashes while it waits is not used either.
func TestSpareTabCrash(t *testing.T) {
	b := newBrowser(t, Options{})
	if _, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	crashWaiting(t, b, b.cur.spare, "spare")
}
