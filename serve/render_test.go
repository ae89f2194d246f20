package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// renderedCleaner starts Chromium; without it the test skips, except in
// CI (CI=true), where Chromium is installed and the test must run.
func renderedCleaner(t *testing.T) *pipeline.Cleaner {
	t.Helper()
	if _, err := render.FindChromium(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no Chromium: %v", err)
		}
		t.Skipf("no Chromium on this machine (%v): the rendered service is not tested", err)
	}
	c, err := pipeline.New(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRendered(t *testing.T) {
	rc := renderedCleaner(t)
	srv := start(t, Config{Rendered: rc})
	checkHealth(t, srv.url, 200)
	data := readFile(t, article)
	exp := want(t, rc, data, export.CleanEval)
	resp, got := post(t, srv.url+"/clean?render=on", data)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Render") != "on" {
		t.Fatalf("render=on: %d, X-Fiasco-Render %q: %s", resp.StatusCode, resp.Header.Get("X-Fiasco-Render"), got)
	}
	if !bytes.Equal(got, exp) {
		t.Errorf("render=on: answer differs from the rendered Cleaner's:\n got %q\nwant %q", trunc(got), trunc(exp))
	}
	// render=auto is fiasco clean's default (classify.RendersByDefault):
	// under the corpus policy, the rendered model.
	renderedCorpus := 1 // pages rendered under the corpus policy: on, then auto if it renders
	for _, mode := range []string{"off", "auto"} {
		rendered := mode == "auto" && classify.RendersByDefault("corpus")
		if rendered {
			renderedCorpus++
		}
		resp, got := post(t, srv.url+"/clean?render="+mode, data)
		if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Render") != onOff(rendered) {
			t.Errorf("render=%s: %d %q, want %s", mode, resp.StatusCode, resp.Header.Get("X-Fiasco-Render"), onOff(rendered))
		}
		exp := want(t, textCleaner(t), data, export.CleanEval)
		if rendered {
			exp = want(t, rc, data, export.CleanEval)
		}
		if !bytes.Equal(got, exp) {
			t.Errorf("render=%s on a rendering service differs from the answer of the model it names (rendered %v)", mode, rendered)
		}
	}
	// Under the article policy too auto follows classify.RendersByDefault;
	// on renders.
	am, err := classify.DefaultFor("article", true)
	if err != nil {
		t.Fatal(err)
	}
	ac := &pipeline.Cleaner{Model: am, Prepare: pipeline.PrepareOptions{Visual: rc.Prepare.Visual}}
	asrv := start(t, Config{Rendered: rc, ArticleRendered: ac})
	for mode, rendered := range map[string]bool{"auto": classify.RendersByDefault("article"), "on": true} {
		resp, got = post(t, asrv.url+"/clean?policy=article&render="+mode, data)
		if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Render") != onOff(rendered) {
			t.Errorf("policy=article&render=%s: %d, X-Fiasco-Render %q, want %s", mode, resp.StatusCode, resp.Header.Get("X-Fiasco-Render"), onOff(rendered))
		}
		if rendered {
			if exp := want(t, ac, data, export.CleanEval); !bytes.Equal(got, exp) {
				t.Errorf("policy=article&render=%s differs from the article rendered Cleaner's answer", mode)
			}
		}
	}
	m := metricsText(t, srv.url)
	for _, s := range []string{fmt.Sprintf(`fiasco_pages_total{render="on",outcome="ok"} %d`, renderedCorpus),
		fmt.Sprintf(`fiasco_stage_seconds_count{stage="render"} %d`, renderedCorpus),
		fmt.Sprintf(`fiasco_stage_seconds_count{stage="vision"} %d`, renderedCorpus), `fiasco_chromium_up 1`} {
		if !strings.Contains(m, s+"\n") {
			t.Errorf("metrics lack %s", s)
		}
	}
}

// chromiumPIDs returns the Chromium processes this process started.
func chromiumPIDs(t *testing.T) []int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var pids []int
	me := os.Getpid()
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || !strings.Contains(s[:i], "(chrom") {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(me) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestRenderedChromiumKilled(t *testing.T) {
	rc := renderedCleaner(t)
	srv := start(t, Config{Rendered: rc, Workers: 2, Timeout: 60 * time.Second})
	data := readFile(t, article)
	if resp, body := post(t, srv.url+"/clean?render=on", data); resp.StatusCode != 200 {
		t.Fatalf("before: %d %s", resp.StatusCode, body)
	}
	pids := chromiumPIDs(t)
	if len(pids) == 0 {
		t.Fatal("no Chromium process found among this process's children")
	}
	// Requests in flight while Chromium is killed: each gets an answer,
	// 200 or a clear 5xx, in bounded time.
	const n = 6
	var wg sync.WaitGroup
	codes := make(chan int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, body := post(t, srv.url+"/clean?render=on", data)
			if resp.StatusCode != 200 {
				t.Logf("in flight: %d %s", resp.StatusCode, bytes.TrimSpace(body))
			}
			codes <- resp.StatusCode
		}()
	}
	time.Sleep(300 * time.Millisecond)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Logf("killed Chromium %v", pids)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("requests in flight hang after Chromium was killed")
	}
	close(codes)
	counts := map[int]int{}
	for c := range codes {
		counts[c]++
		if c != 200 && c < 500 {
			t.Errorf("in flight: status %d, want 200 or 5xx", c)
		}
	}
	t.Logf("in flight when Chromium died: %v", counts)
	// Recovered: healthy, and rendering.
	time.Sleep(healthFresh)
	checkHealth(t, srv.url, 200)
	if resp, body := post(t, srv.url+"/clean?render=on", data); resp.StatusCode != 200 {
		t.Errorf("after: %d %s", resp.StatusCode, body)
	}
	if after := chromiumPIDs(t); len(after) == 0 || after[0] == pids[0] {
		t.Errorf("Chromium not restarted: %v", after)
	}
}

// TestRenderedNoNetwork: the service fetches neither the url it is given
// nor anything the page references, rendered or not.
func TestRenderedNoNetwork(t *testing.T) {
	rc := renderedCleaner(t)
	var hits atomic.Int64
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("<p>fetched</p>"))
	}))
	defer local.Close()
	srv := start(t, Config{Rendered: rc})
	page := fmt.Sprintf(`<html><head><link rel="stylesheet" href="%[1]s/style.css"><script src="%[1]s/app.js"></script></head>
<body><img src="%[1]s/image.png"><iframe src="%[1]s/frame.html"></iframe>
<p style="background: url(%[1]s/bg.png)">A paragraph of text long enough to be a block of the page, with a few more words in it.</p>
<a href="%[1]s/next.html">next</a></body></html>`, local.URL)
	for _, mode := range []string{"on", "off"} {
		resp, body := post(t, srv.url+"/clean?render="+mode+"&url="+url.QueryEscape(local.URL+"/page.html"), []byte(page))
		if resp.StatusCode != 200 {
			t.Fatalf("render=%s: %d %s", mode, resp.StatusCode, body)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the page's server", n)
	}
}

// TestRescueParam: rescue=on is fiasco clean --rescue. On the sidebar
// blog page, cut at 0.5, the rendered model alone drops the post and the
// rescue keeps it; a request the text model cleans is refused, and so is
// an unknown mode. The shared model stays as it was.
func TestRescueParam(t *testing.T) {
	rc := renderedCleaner(t)
	srv := start(t, Config{Rendered: rc, Text: textCleaner(t)})
	data := readFile(t, filepath.Join("..", "testdata", "sidebar-blog.html"))
	const postText = "When a story breaks"
	for _, c := range []struct {
		query string
		kept  bool
	}{{"render=on&threshold=0.5&format=text", false}, {"render=on&threshold=0.5&format=text&rescue=on", true}, {"render=on&threshold=0.5&format=text&rescue=off", false}} {
		resp, got := post(t, srv.url+"/clean?"+c.query, data)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.query, resp.StatusCode, got)
		}
		if bytes.Contains(got, []byte(postText)) != c.kept {
			t.Errorf("%s: the post kept %v, want %v:\n%s", c.query, !c.kept, c.kept, got)
		}
	}
	for _, q := range []string{"render=off&rescue=on", "policy=article&rescue=on", "render=on&rescue=yes"} {
		if resp, got := post(t, srv.url+"/clean?"+q, data); resp.StatusCode != 400 || !bytes.Contains(got, []byte("rescue")) {
			t.Errorf("%s: %d %s, want 400 naming rescue", q, resp.StatusCode, got)
		}
	}
	if rc.Model.Rescue {
		t.Error("rescue=on changed the service's shared model")
	}
}

// TestUnseenHeader: a page taller than the renderer's capture is answered
// with X-Fiasco-Unseen-Blocks (a batch line with unseen_blocks), the
// number of its blocks below the capture, which the text model decided; a
// page captured whole has none.
func TestUnseenHeader(t *testing.T) {
	rc := renderedCleaner(t)
	srv := start(t, Config{Rendered: rc})
	var b strings.Builder
	b.WriteString(`<html><body style="margin:0;font:16px/20px sans-serif"><h1>The long report</h1>`)
	for i := range 2 {
		fmt.Fprintf(&b, "<p>Paragraph %d. The council met on Tuesday to discuss the new bridge over the river, and the mayor said that the work would start in the spring.</p>\n", i)
	}
	fmt.Fprintf(&b, `<div style="height:%dpx"></div>`, render.DefaultMaxHeight)
	for i := range 2 {
		fmt.Fprintf(&b, "<p>Paragraph %d below. The engineers explained that the old bridge could carry no more than ten tonnes, and that the lorries take the long road.</p>\n", i)
	}
	b.WriteString(`</body></html>`)
	tall := []byte(b.String())
	resp, got := post(t, srv.url+"/clean?render=on&format=text", tall)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Unseen-Blocks") != "2" || !strings.Contains(string(got), "Paragraph 1 below") {
		t.Errorf("tall page: %d, X-Fiasco-Unseen-Blocks %q, want 200 and 2 with the paragraphs below kept: %s",
			resp.StatusCode, resp.Header.Get("X-Fiasco-Unseen-Blocks"), trunc(got))
	}
	resp, _ = post(t, srv.url+"/clean?render=on", readFile(t, article))
	if resp.StatusCode != 200 || resp.Header.Values("X-Fiasco-Unseen-Blocks") != nil {
		t.Errorf("article: %d, X-Fiasco-Unseen-Blocks %q, want 200 and none", resp.StatusCode, resp.Header.Values("X-Fiasco-Unseen-Blocks"))
	}
	line, _ := json.Marshal(map[string]string{"html": string(tall)})
	resp, out := postBatch(t, srv.url+"/clean/batch?render=on", bytes.NewReader(line))
	if resp.StatusCode != 200 || len(out) != 1 || out[0].UnseenBlocks != 2 {
		t.Errorf("batch: %d, %+v; want one line with unseen_blocks 2", resp.StatusCode, out)
	}
}
