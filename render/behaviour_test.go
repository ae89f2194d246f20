package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// requestLog records the Network domain events of one tab.
type requestLog struct {
	mu       sync.Mutex
	sent     map[network.RequestID]string // request id -> URL
	failed   map[network.RequestID]string // request id -> error text
	received map[network.RequestID]int64  // request id -> HTTP status
}

func (l *requestLog) hook(tab context.Context) {
	l.sent = map[network.RequestID]string{}
	l.failed = map[network.RequestID]string{}
	l.received = map[network.RequestID]int64{}
	if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
		panic(err)
	}
	// Listen sees every event in order, before the next message is read.
	err := chromedp.Listen(tab, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			l.sent[ev.RequestID] = ev.Request.URL
		case *network.EventLoadingFailed:
			l.failed[ev.RequestID] = ev.ErrorText
		case *network.EventResponseReceived:
			l.received[ev.RequestID] = ev.Response.Status
		}
	})
	if err != nil {
		panic(err)
	}
}

func TestNetworkBlocked(t *testing.T) {
	var hits, conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(20 * time.Second) // a request that got out would hang the page
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	doc := strings.ReplaceAll(string(readTestdata(t, "network.html")), "{{LOCAL}}", srv.URL)

	b := newBrowser(t, Options{Timeout: 15 * time.Second})
	var log requestLog
	b.tabHook = log.hook
	start := time.Now()
	res, err := b.Render(context.Background(), []byte(doc), testColors[:2], RenderOptions{Highlight: true})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Render after %v: %v", elapsed, err)
	}
	t.Logf("render %v, timings %+v", elapsed, res.Timings)
	// A request that got out would hold the page's load for the 20 s the
	// server sleeps (until the 15 s time-out); blocked ones fail at once,
	// and the load takes well under a second on an idle machine. 10 s
	// leaves room for a machine busy with other work.
	if res.Timings.Load > 10*time.Second {
		t.Errorf("load took %v: blocked requests must fail at once", res.Timings.Load)
	}
	if n, c := hits.Load(), conns.Load(); n != 0 || c != 0 {
		t.Errorf("%d requests on %d connections reached the local server", n, c)
	}
	checkBlocks(t, res, testColors[:2])

	log.mu.Lock()
	defer log.mu.Unlock()
	page, blocked := 0, 0
	for id, url := range log.sent {
		if strings.HasPrefix(url, "data:") {
			continue // inline data, e.g. Chromium's own media controls
		}
		if strings.HasPrefix(url, "file:") {
			if st, ok := log.received[id]; ok {
				t.Errorf("request %s got a response (status %d)", url, st)
			}
			continue // refused by Chromium: a web page may not read local files
		}
		if strings.HasPrefix(url, pageHost) && strings.HasSuffix(url, "/page.html") {
			page++
			if st := log.received[id]; st != 200 {
				t.Errorf("page %s: status %d", url, st)
			}
			continue
		}
		if st, ok := log.received[id]; ok {
			t.Errorf("request %s got a response (status %d)", url, st)
		}
		if e := log.failed[id]; !strings.HasPrefix(e, "net::ERR_BLOCKED_BY_CLIENT") {
			t.Errorf("request %s: error %q, want net::ERR_BLOCKED_BY_CLIENT", url, e)
		} else {
			blocked++
		}
	}
	t.Logf("request log: %d page load, %d blocked", page, blocked)
	if page != 1 {
		t.Errorf("page loaded %d times, want 1", page)
	}
	if blocked < 5 {
		t.Errorf("only %d requests seen blocked; the log misses requests", blocked)
	}
}

func TestScriptsDisabled(t *testing.T) {
	b := newBrowser(t, Options{})
	res, err := b.Render(context.Background(), readTestdata(t, "scripts.html"), testColors[:2], RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	// The injected script ran: block 0 was measured and painted.
	checkBlocks(t, res, testColors[:1])
	if !res.Boxes[1].Empty() {
		t.Errorf("block 1, added by page scripts, was rendered at %v", res.Boxes[1])
	}
	// "Original text." is one short line; the script's text would be long.
	if w, h := res.Boxes[0].Dx(), res.Boxes[0].Dy(); w > 200 || h > 25 {
		t.Errorf("block 0 is %dx%d px: its text was changed by a page script", w, h)
	}
}

func TestHighlightOffKeepsLayout(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	on, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	off, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: false})
	if err != nil {
		t.Fatal(err)
	}
	writeDump(t, "blocks-off.png", off.Image)
	for i := range testColors {
		if !near(on.Boxes[i], off.Boxes[i], 1) {
			t.Errorf("block %d: box %v highlighted, %v as is", i, on.Boxes[i], off.Boxes[i])
		}
	}
	// The page as is keeps its colours: the yellow box is there.
	_, counts := colorBoxes(off.Image)
	yellow := 0
	for c, n := range counts {
		if c.R > 240 && c.G > 240 && c.B < 160 { // yellow at opacity 0.5
			yellow += n
		}
	}
	if yellow < 400*50 {
		t.Errorf("the page rendered without highlighting lost its yellow box")
	}
}

func TestScale(t *testing.T) {
	b := newBrowser(t, Options{Scale: 0.5})
	res, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	writeDump(t, "blocks-half.png", res.Image)
	if got := res.Image.Bounds().Dx(); got != DefaultWidth/2 {
		t.Errorf("image width %d, want %d", got, DefaultWidth/2)
	}
	// Edges at half pixels blend with white, so compare boxes only.
	boxes, _ := colorBoxes(res.Image)
	for i, c := range testColors {
		if got := boxes[c]; !near(got, res.Boxes[i], 2) {
			t.Errorf("block %d: pixels at %v, box %v", i, got, res.Boxes[i])
		}
	}
	if res.FontSize[0] != 14 || res.LineHeight[0] != 17 {
		t.Errorf("block 0 at scale 0.5: font %v line %v, want 14 and 17", res.FontSize[0], res.LineHeight[0])
	}
}

// TestRecycleHung: a browser that hangs (stopped, not dead) is ended by
// Recycle: its process goes, and the next Render starts another that
// renders.
func TestRecycleHung(t *testing.T) {
	b, doc, pid := rendering(t)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true, Timeout: time.Second}); err == nil {
		t.Fatal("a stopped browser rendered")
	}
	if !b.Recycle() {
		t.Fatal("Recycle: no running browser")
	}
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("Render after Recycle: %v", err)
	}
	checkBlocks(t, res, testColors)
	if p := b.pid(); p == pid || p == 0 || b.starts != 2 {
		t.Errorf("after Recycle: browser pid %d (was %d), %d started", p, pid, b.starts)
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the hung browser %d lives on after Recycle", pid)
	}
}

// TestRecycleConcurrent: Recycle called twice at once and beside Close
// (as a failed health probe may be when the service shuts down) ends the
// browser once, without a data race (go test -race).
func TestRecycleConcurrent(t *testing.T) {
	b := newBrowser(t, Options{}) // its cleanup closes it again: a no-op
	if _, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); b.Recycle() }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); b.Close() }()
	wg.Wait()
	if b.Recycle() {
		t.Error("Recycle after Close found a browser to end")
	}
}

// rendering returns a browser that has rendered testdata/blocks.html,
// the page, and the browser's process id.
func rendering(t *testing.T) (*Browser, []byte, int) {
	t.Helper()
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	if _, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err)
	}
	pid := b.pid()
	if pid == 0 {
		t.Fatal("no browser process")
	}
	return b, doc, pid
}

func TestRestartAfterKill(t *testing.T) {
	b, doc, pid := rendering(t)
	dir := b.cur.userDataDir
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Wait until chromedp notices the death.
	deadline := time.Now().Add(10 * time.Second)
	for b.cur.ctx.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("Render after kill: %v", err)
	}
	checkBlocks(t, res, testColors)
	if b.starts != 2 {
		t.Errorf("%d browsers started, want 2", b.starts)
	}
	if p := b.pid(); p == pid || p == 0 {
		t.Errorf("browser pid %d after restart, was %d", p, pid)
	}
	// The dead browser's profile directory goes away.
	for time.Now().Before(deadline) {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("user data dir %s of the killed browser still exists", dir)
	}
	dir = b.cur.userDataDir
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("user data dir %s exists after Close", dir)
	}
	if _, err := b.Render(context.Background(), doc, testColors, RenderOptions{}); err == nil {
		t.Error("Render after Close succeeded")
	}
}

// TestNoTempLeft: a browser, one killed and restarted included, leaves
// nothing in the temporary directory once closed: neither its profile
// nor the directory Chromium makes there for its singleton socket.
func TestNoTempLeft(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the profile and Chromium's own temporary files go here
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	render := func() {
		t.Helper()
		if _, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true}); err != nil {
			t.Fatal(err)
		}
	}
	render()
	if pid := b.pid(); pid == 0 {
		t.Fatal("no browser process")
	} else if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); b.cur.ctx.Err() == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	render() // a second browser
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var sock bool
	for _, e := range entries {
		sock = sock || strings.HasPrefix(e.Name(), "org.chromium.")
	}
	if !sock {
		t.Logf("Chromium made no singleton directory in TMPDIR (%d entries): nothing to check there", len(entries))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err = os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left in the temporary directory after Close: %s", e.Name())
	}
}

func TestConcurrent(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for g := 0; g < 2; g++ {
		// Each goroutine its own palette, so that a mix-up shows.
		colors := make([]color.RGBA, 3)
		for i := range colors {
			colors[i] = color.RGBA{uint8(50 + 100*g), uint8(60 * i), 255 - uint8(40*i), 255}
		}
		wg.Go(func() {
			for k := 0; k < 3; k++ {
				res, err := b.Render(context.Background(), doc, colors, RenderOptions{Highlight: true})
				if err != nil {
					errs <- err
					return
				}
				t.Run(fmt.Sprintf("g%d-%d", g, k), func(t *testing.T) { checkBlocks(t, res, colors) })
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if b.starts != 1 {
		t.Errorf("%d browsers started, want 1", b.starts)
	}
}

func TestTimeoutAndRecovery(t *testing.T) {
	b := newBrowser(t, Options{})
	doc := readTestdata(t, "blocks.html")
	_, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true, Timeout: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("Render with a 1ms timeout: error %v, want a time-out", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Render(ctx, doc, testColors, RenderOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Render with a canceled context: error %v", err)
	}
	// Not HTML at all, and a block index out of range: still a page.
	res, err := b.Render(context.Background(), []byte("\x00\x01binary<p data-fiasco-block=7>x"), testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Errorf("Render of garbage: %v", err)
	} else if !res.Boxes[0].Empty() {
		t.Errorf("garbage page: block 0 at %v", res.Boxes[0])
	}
	res, err = b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatalf("Render after failures: %v", err)
	}
	checkBlocks(t, res, testColors)
	if b.starts != 1 {
		t.Errorf("%d browsers started, want 1", b.starts)
	}
}

// TestPageTimeout: a page that takes longer than the render's time limit
// in a running browser's tab is ErrPageTimeout (rendering it again would
// take as long), and a context.DeadlineExceeded too; a render that its
// caller cancels is not.
func TestPageTimeout(t *testing.T) {
	b := newBrowser(t, Options{ReuseTabs: true})
	small := readTestdata(t, "blocks.html")
	if _, err := b.Render(context.Background(), small, testColors, RenderOptions{Highlight: true}); err != nil {
		t.Fatal(err) // the tab is then idle, ready for the next page
	}
	var big bytes.Buffer
	big.WriteString("<!DOCTYPE html><html><body>")
	for i := range 20000 {
		fmt.Fprintf(&big, "<p data-fiasco-block=%d>Paragraph %d of a long page, with words enough to wrap a line or two in the viewport.</p>", i%len(testColors), i)
	}
	big.WriteString("</body></html>")
	_, err := b.Render(context.Background(), big.Bytes(), testColors, RenderOptions{Highlight: true, Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrPageTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a page over its 50ms: error %v, want ErrPageTimeout and DeadlineExceeded", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := b.Render(ctx, big.Bytes(), testColors, RenderOptions{Highlight: true}); errors.Is(err, ErrPageTimeout) || err == nil {
		t.Errorf("a render its caller cancelled: error %v, want one that is not ErrPageTimeout", err)
	}
	if _, err := b.Render(context.Background(), small, testColors, RenderOptions{Highlight: true}); err != nil {
		t.Errorf("Render after the time-outs: %v", err)
	}
}

func TestReuseTabs(t *testing.T) {
	fresh := newBrowser(t, Options{})
	b := newBrowser(t, Options{ReuseTabs: true})
	blocksDoc := readTestdata(t, "blocks.html")
	want, err := fresh.Render(context.Background(), blocksDoc, testColors, RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	// blocks, scripts, blocks, scripts ... in the same tab.
	for k := 0; k < 4; k++ {
		res, err := b.Render(context.Background(), blocksDoc, testColors, RenderOptions{Highlight: true})
		if err != nil {
			t.Fatalf("round %d: %v", k, err)
		}
		if !bytes.Equal(res.Image.Pix, want.Image.Pix) || res.Image.Rect != want.Image.Rect {
			t.Errorf("round %d: the page rendered in a reused tab differs from a fresh tab's", k)
		}
		res, err = b.Render(context.Background(), readTestdata(t, "scripts.html"), testColors[:2], RenderOptions{Highlight: true})
		if err != nil {
			t.Fatalf("round %d: %v", k, err)
		}
		if !res.Boxes[1].Empty() {
			t.Errorf("round %d: page scripts ran in a reused tab", k)
		}
	}
	if n := len(b.cur.idle); n != 1 {
		t.Errorf("%d idle tabs after sequential renders, want 1", n)
	}
}

// TestTabPages: a reused tab is closed after Options.TabPages pages, and
// the page after it gets a new tab.
func TestTabPages(t *testing.T) {
	b := newBrowser(t, Options{ReuseTabs: true, TabPages: 2})
	doc := readTestdata(t, "blocks.html")
	for k := 1; k <= 5; k++ {
		res, err := b.Render(context.Background(), doc, testColors, RenderOptions{Highlight: true})
		if err != nil {
			t.Fatalf("page %d: %v", k, err)
		}
		checkBlocks(t, res, testColors)
		// Odd pages open a tab and leave it idle with one page rendered;
		// even pages are its second, after which it is closed.
		idle := b.cur.idle
		switch {
		case k%2 == 0 && len(idle) != 0:
			t.Errorf("after page %d: %d idle tabs, want the tab closed after its second page", k, len(idle))
		case k%2 == 1 && len(idle) != 1:
			t.Errorf("after page %d: %d idle tabs, want 1", k, len(idle))
		case k%2 == 1:
			tb := <-idle
			if tb.pages != 1 {
				t.Errorf("after page %d: the idle tab rendered %d pages, want 1 (a new tab)", k, tb.pages)
			}
			idle <- tb
		}
	}
}

// TestReuseMaxBytes: the tab of a page larger than ReuseMaxBytes is
// closed, not kept idle with its renderer's memory, and the next page
// gets a new tab.
func TestReuseMaxBytes(t *testing.T) {
	b := newBrowser(t, Options{ReuseTabs: true})
	doc := readTestdata(t, "blocks.html")
	// The same page padded past the limit by a comment after its end.
	big := append(append(append([]byte(nil), doc...), "<!--"...), bytes.Repeat([]byte("padding "), ReuseMaxBytes/8)...)
	big = append(big, "-->"...)
	for k, d := range [][]byte{doc, big, doc} {
		res, err := b.Render(context.Background(), d, testColors, RenderOptions{Highlight: true})
		if err != nil {
			t.Fatalf("page %d: %v", k, err)
		}
		checkBlocks(t, res, testColors)
		want := 1
		if len(d) > ReuseMaxBytes {
			want = 0
		}
		if n := len(b.cur.idle); n != want {
			t.Errorf("after page %d (%d bytes): %d idle tabs, want %d", k, len(d), n, want)
		}
	}
}

func TestMetaRefreshStays(t *testing.T) {
	b := newBrowser(t, Options{})
	for i := 0; i < 3; i++ {
		res, err := b.Render(context.Background(), readTestdata(t, "refresh.html"), testColors[:1], RenderOptions{Highlight: true})
		if err != nil {
			t.Fatal(err)
		}
		checkBlocks(t, res, testColors[:1])
	}
}

// A marquee scrolls its content even with scripts off, so at screenshot
// time its text is clipped away or anywhere; the renderer freezes it as a
// plain block, so that all its text is painted, in place.
func TestMarqueeFrozen(t *testing.T) {
	b := newBrowser(t, Options{})
	para := strings.Repeat("Words that a marquee would scroll out of sight. ", 40)
	doc := []byte(`<html><body style="margin:0;font:16px/20px sans-serif">` +
		`<p data-fiasco-block="0">Above.</p>` +
		`<marquee direction="up" height="40" scrollamount="3" data-fiasco-block="1" style="width:600px">` + para + `</marquee>` +
		`</body></html>`)
	res, err := b.Render(context.Background(), doc, testColors[:2], RenderOptions{Highlight: true})
	if err != nil {
		t.Fatal(err)
	}
	writeDump(t, "marquee.png", res.Image)
	bx := res.Boxes[1]
	// 40 × 49 characters at 16px in 600px: about 30 lines of 20px.
	if bx.Dy() < 400 || bx.Min.Y < res.Boxes[0].Max.Y {
		t.Errorf("marquee text box %v (above: %v), want all its lines below the paragraph", bx, res.Boxes[0])
	}
	// Painted: the block's colour covers most of its box (bars of text).
	boxes, counts := colorBoxes(res.Image)
	if got := counts[testColors[1]]; got < bx.Dx()*bx.Dy()/2 {
		t.Errorf("marquee text painted in %d px (at %v), want at least half of its %v box", got, boxes[testColors[1]], bx)
	}
}
