package serve

// Tests of a running service, from outside: the Docker image behind its
// load balancer (docker/test.sh runs them), or any `fiasco serve`. They
// skip unless FIASCO_SERVICE_URL gives its address:
//
//	FIASCO_SERVICE_URL  http://127.0.0.1:8080
//	FIASCO_CLI          the local fiasco binary whose answers the
//	                    service's must equal (TestServiceSameAnswers)
//	FIASCO_LOAD_SECONDS seconds per load level (TestServiceLoad; default 8)
//	FIASCO_MEMORY_REQUESTS requests of TestServiceMemory (default 10000)
//	FIASCO_SIGTERM_PAGES   pages of TestServiceBatchSIGTERM's batch (default 20)
//
// Everything goes to loopback only, and every run is bounded in time.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/internal/difflib"
	"github.com/fiasco-project/fiasco/internal/shared"
)

func serviceURL(t *testing.T) string {
	u := os.Getenv("FIASCO_SERVICE_URL")
	if u == "" {
		t.Skip("FIASCO_SERVICE_URL not set: no running service to test (docker/test.sh sets it)")
	}
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(pu.Hostname()); pu.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		t.Fatalf("FIASCO_SERVICE_URL %s: the service tests run against loopback only", u)
	}
	return strings.TrimRight(u, "/")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// devPages returns the CleanEval dev pages, sorted.
func devPages(t *testing.T) []string {
	dir := shared.Path(t, "cleaneval-en-dev/html")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in %s: %v", dir, err)
	}
	sort.Strings(files)
	return files
}

var client = &http.Client{Timeout: 5 * time.Minute}

func call(t *testing.T, method, u string, body io.Reader) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, u, err)
	}
	return resp.StatusCode, resp.Header, b
}

// cli runs the local fiasco clean on dir into a new directory.
func cli(t *testing.T, exe, dir string, args ...string) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(exe, append(append([]string{"clean", "-q", "-o", out}, args...), dir)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return out
}

func cliOutput(t *testing.T, dir, page, ext string) []byte {
	b := filepath.Base(page)
	return readFile(t, filepath.Join(dir, strings.TrimSuffix(b, filepath.Ext(b))+ext))
}

// agreement counts the words of a and b that a word alignment (difflib)
// matches: 2 × matched / (|a| + |b|) is their word-level agreement.
func agreement(a, b []byte) (matched, total int) {
	wa, wb := strings.Fields(string(a)), strings.Fields(string(b))
	for _, m := range (difflib.Matcher{}).Blocks(wa, wb) {
		matched += m.Size
	}
	return 2 * matched, len(wa) + len(wb)
}

func TestServiceSameAnswers(t *testing.T) {
	base := serviceURL(t)
	exe := os.Getenv("FIASCO_CLI")
	if exe == "" {
		t.Skip("FIASCO_CLI not set: no local fiasco to compare with")
	}
	pages := devPages(t)
	dir := filepath.Dir(pages[0])

	// render=off: every format byte-identical to `fiasco clean --no-render`.
	// The page's name is the CLI's (its path), which json prints.
	for _, f := range []struct{ format, ext string }{{"cleaneval", ".txt"}, {"text", ".txt"}, {"html", ".html"}, {"json", ".json"}} {
		out := cli(t, exe, dir, "--no-render", "--format", f.format)
		same := 0
		for _, p := range pages {
			code, _, got := call(t, "POST", base+"/clean?render=off&format="+f.format+"&name="+url.QueryEscape(p), bytes.NewReader(readFile(t, p)))
			if code != 200 {
				t.Errorf("%s: %d %s", p, code, got)
				continue
			}
			if bytes.Equal(got, cliOutput(t, out, p, f.ext)) {
				same++
			} else {
				t.Errorf("render=off, %s, %s: the service's answer differs from the CLI's", f.format, filepath.Base(p))
			}
		}
		t.Logf("render=off, format %s: %d of %d pages byte-identical to fiasco clean --no-render", f.format, same, len(pages))
	}

	// render=on: the page rendered in the container's Chromium against the
	// host's; word-level agreement of the cleaneval answers.
	out := cli(t, exe, dir, "--render")
	var m, n, same int
	var diffs []string
	for _, p := range pages {
		code, _, got := call(t, "POST", base+"/clean?render=on", bytes.NewReader(readFile(t, p)))
		if code != 200 {
			t.Errorf("%s: %d %s", p, code, got)
			continue
		}
		exp := cliOutput(t, out, p, ".txt")
		pm, pn := agreement(got, exp)
		m, n = m+pm, n+pn
		if bytes.Equal(got, exp) {
			same++
		} else {
			diffs = append(diffs, fmt.Sprintf("%s %.2f%%", filepath.Base(p), 100*float64(pm)/float64(pn)))
		}
	}
	agree := float64(m) / float64(max(n, 1))
	t.Logf("render=on: %d of %d pages byte-identical to the host's fiasco clean --render; word-level agreement %.3f%%; differing: %s",
		same, len(pages), 100*agree, strings.Join(diffs, ", "))
	if agree < 0.99 {
		t.Errorf("render=on: word-level agreement %.3f%%, want at least 99%%", 100*agree)
	}
}

// streamOf is an io.Reader of n bytes of a repeated page.
type streamOf struct {
	chunk []byte
	n, i  int64
}

func (s *streamOf) Read(p []byte) (int, error) {
	if s.i >= s.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && s.i < s.n {
		c := copy(p[k:], s.chunk[s.i%int64(len(s.chunk)):])
		if rest := s.n - s.i; int64(c) > rest {
			c = int(rest)
		}
		k += c
		s.i += int64(c)
	}
	return k, nil
}

func TestServiceBadRequests(t *testing.T) {
	base := serviceURL(t)
	page := readFile(t, article)
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 1, 2, 3, 0xff}, 2000)...)
	check := func(what string, code int, body []byte, want int) {
		t.Helper()
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if code != want || e.Error == "" {
			t.Errorf("%s: %d %q, want %d and a JSON error", what, code, trunc(body), want)
			return
		}
		t.Logf("%-22s %d %s", what+":", code, e.Error)
	}
	code, _, b := call(t, "POST", base+"/clean", nil)
	check("empty body", code, b, 400)
	code, _, b = call(t, "POST", base+"/clean", bytes.NewReader(png))
	check("binary (PNG)", code, b, 415)
	code, _, b = call(t, "POST", base+"/clean?format=pdf", bytes.NewReader(page))
	check("unknown format", code, b, 400)

	// 100 MB, with and without Content-Length.
	for _, chunked := range []bool{false, true} {
		req, _ := http.NewRequest("POST", base+"/clean", &streamOf{chunk: page, n: 100 << 20})
		what := "100 MB"
		if chunked {
			what += ", chunked"
		} else {
			req.ContentLength = 100 << 20
		}
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		check(what, resp.StatusCode, b, 413)
		t.Logf("%s: answered in %v", what, time.Since(t0).Round(time.Millisecond))
	}

	// Malformed JSON Lines: an error answer for the bad line, the others
	// cleaned.
	html, _ := json.Marshal(string(page))
	in := fmt.Sprintf("{\"id\":1,\"html\":%s}\n{\"id\":2,\"html\":\n[1,2]\n\x00\x01binary\n{\"id\":5,\"html\":%s}\n", html, html)
	resp, err := client.Post(base+"/clean/batch?format=text", "application/x-ndjson", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[int]int{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Errorf("batch answer %q: %v", sc.Bytes(), err)
		}
		statuses[l.Line] = l.Status
		if l.Status != 200 {
			t.Logf("malformed JSONL, line %d: %d %s", l.Line, l.Status, l.Error)
		}
	}
	resp.Body.Close()
	if statuses[1] != 200 || statuses[5] != 200 || statuses[2] != 400 || statuses[3] != 400 || statuses[4] != 400 || len(statuses) != 5 {
		t.Errorf("malformed JSONL: statuses by line %v, want 1 and 5: 200, 2-4: 400", statuses)
	}

	// A slowloris: headers that never end. The connection is answered 408
	// and closed within the service's header time limit (10 s).
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t0 := time.Now()
	fmt.Fprintf(conn, "POST /clean HTTP/1.1\r\nHost: x\r\n")
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(conn)
		got <- b
	}()
	var answer []byte
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
loop:
	for i := 0; time.Since(t0) < 40*time.Second; i++ {
		select {
		case answer = <-got:
			break loop
		case <-tick.C:
			fmt.Fprintf(conn, "X-Slow-%d: y\r\n", i)
		}
	}
	if !bytes.HasPrefix(answer, []byte("HTTP/1.1 408 ")) {
		t.Errorf("slowloris: after %v: %q, want a 408 answer", time.Since(t0).Round(time.Millisecond), answer)
	} else {
		t.Logf("slowloris:             408 after %v, connection closed", time.Since(t0).Round(time.Millisecond))
	}

	// A slow body.
	conn2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	t0 = time.Now()
	fmt.Fprintf(conn2, "POST /clean HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n<html><body>")
	conn2.SetReadDeadline(time.Now().Add(90 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(conn2), nil); err != nil {
		t.Errorf("slow body: %v", err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		check(fmt.Sprintf("slow body (%v)", time.Since(t0).Round(time.Second)), resp.StatusCode, b, 408)
	}

	code, _, b = call(t, "GET", base+"/healthz", nil)
	if code != 200 {
		t.Errorf("healthz after the bad requests: %d %s", code, b)
	}
	code, _, b = call(t, "POST", base+"/clean", bytes.NewReader(page))
	if code != 200 {
		t.Errorf("a page after the bad requests: %d %s", code, b)
	}
}

// loadResult is one load level's outcome.
type loadResult struct {
	clients  int
	render   string
	elapsed  time.Duration
	codes    map[int]int
	lat      []time.Duration // of the 200 answers
	neterrs  int
	firstErr string
}

func (r loadResult) String() string {
	ok := r.codes[200]
	p := func(q float64) time.Duration {
		if len(r.lat) == 0 {
			return 0
		}
		return r.lat[min(len(r.lat)-1, int(q*float64(len(r.lat))))]
	}
	var other []string
	for c, n := range r.codes {
		if c != 200 {
			other = append(other, fmt.Sprintf("%d×%d", n, c))
		}
	}
	sort.Strings(other)
	return fmt.Sprintf("render=%-3s clients=%-2d %5d ok in %4.1fs: %6.1f pages/s  p50 %6.0f ms  p99 %6.0f ms  other: %s",
		r.render, r.clients, ok, r.elapsed.Seconds(), float64(ok)/r.elapsed.Seconds(),
		float64(p(0.50).Microseconds())/1000, float64(p(0.99).Microseconds())/1000, strings.Join(other, " "))
}

// runLoad runs clients that POST pages back to back for d.
func runLoad(base, render string, pages [][]byte, clients int, d time.Duration) loadResult {
	r := loadResult{clients: clients, render: render, codes: map[int]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	t0 := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			tr := &http.Transport{MaxIdleConnsPerHost: 1}
			defer tr.CloseIdleConnections()
			hc := &http.Client{Transport: tr, Timeout: 2 * time.Minute}
			rng := rand.New(rand.NewSource(int64(c)))
			for ctx.Err() == nil {
				page := pages[rng.Intn(len(pages))]
				t1 := time.Now()
				resp, err := hc.Post(base+"/clean?format=text&render="+render, "application/octet-stream", bytes.NewReader(page))
				if err != nil {
					mu.Lock()
					r.neterrs++
					if r.firstErr == "" {
						r.firstErr = err.Error()
					}
					mu.Unlock()
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat := time.Since(t1)
				mu.Lock()
				r.codes[resp.StatusCode]++
				if resp.StatusCode == 200 {
					r.lat = append(r.lat, lat)
				}
				mu.Unlock()
				if resp.StatusCode == 503 {
					// As a client should: wait a little (not the whole
					// Retry-After, to keep the pressure on).
					time.Sleep(50 * time.Millisecond)
				}
			}
		}(c)
	}
	wg.Wait()
	r.elapsed = time.Since(t0)
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	return r
}

func TestServiceLoad(t *testing.T) {
	base := serviceURL(t)
	var pages [][]byte
	for _, p := range devPages(t) {
		pages = append(pages, readFile(t, p))
	}
	secs := envInt("FIASCO_LOAD_SECONDS", 8)
	for _, render := range []string{"off", "on"} {
		runLoad(base, render, pages, 2, 2*time.Second) // warm up
		for _, clients := range []int{1, 4, 16} {
			r := runLoad(base, render, pages, clients, time.Duration(secs)*time.Second)
			t.Log(r)
			if r.neterrs > 0 {
				t.Errorf("render=%s, %d clients: %d requests failed without an answer (first: %s)", render, clients, r.neterrs, r.firstErr)
			}
			for c, n := range r.codes {
				if c != 200 && c != 503 {
					t.Errorf("render=%s, %d clients: %d answers %d; under load the only errors may be 503", render, clients, n, c)
				}
			}
		}
	}
}

var metricLine = regexp.MustCompile(`(?m)^(process_resident_memory_bytes|go_memstats_heap_inuse_bytes|go_goroutines|process_open_fds) (\S+)$`)

func serviceMemory(t *testing.T, base string) map[string]float64 {
	_, _, b := call(t, "GET", base+"/metrics", nil)
	out := map[string]float64{}
	for _, m := range metricLine.FindAllStringSubmatch(string(b), -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		out[m[1]] = v
	}
	return out
}

func TestServiceMemory(t *testing.T) {
	base := serviceURL(t)
	var pages [][]byte
	for _, p := range devPages(t) {
		pages = append(pages, readFile(t, p))
	}
	total := envInt("FIASCO_MEMORY_REQUESTS", 10000)
	const clients = 8 // within the default queue: no 503
	var next, done int64
	var mu sync.Mutex
	codes := map[int]int{}
	samples := []string{}
	var first, last map[string]float64
	sample := func(n int64) {
		m := serviceMemory(t, base)
		if first == nil && n >= int64(total/10) {
			first = m
		}
		last = m
		samples = append(samples, fmt.Sprintf("%d: RSS %.0f MB heap %.0f MB goroutines %.0f fds %.0f", n,
			m["process_resident_memory_bytes"]/1e6, m["go_memstats_heap_inuse_bytes"]/1e6, m["go_goroutines"], m["process_open_fds"]))
	}
	sample(0)
	t0 := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Timeout: time.Minute}
			for {
				mu.Lock()
				if next >= int64(total) {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				resp, err := hc.Post(base+"/clean?render=off&format=text", "application/octet-stream", bytes.NewReader(pages[i%int64(len(pages))]))
				code := -1
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				codes[code]++
				done++
				if done%int64(total/10) == 0 {
					sample(done)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	for _, s := range samples {
		t.Log(s)
	}
	t.Logf("%d requests in %v (%.0f/s), answers %v", total, el.Round(time.Second), float64(total)/el.Seconds(), codes)
	if codes[200] != total {
		t.Errorf("answers %v, want %d × 200", codes, total)
	}
	// Flat: from the first tenth to the end, resident memory grows by
	// less than a quarter (heap and GC noise), and nothing piles up.
	r0, r1 := first["process_resident_memory_bytes"], last["process_resident_memory_bytes"]
	if r0 > 0 && r1 > 1.25*r0+16e6 {
		t.Errorf("RSS grew from %.0f MB to %.0f MB over %d requests", r0/1e6, r1/1e6, total)
	}
	if g0, g1 := first["go_goroutines"], last["go_goroutines"]; g1 > g0+20 {
		t.Errorf("goroutines grew from %.0f to %.0f", g0, g1)
	}
}

// runCmd runs a shell command of the test's environment (docker/test.sh
// gives the ones that act on the container).
func runCmd(t *testing.T, cmd string) {
	t.Helper()
	out, err := exec.Command("bash", "-c", cmd).CombinedOutput()
	t.Logf("$ %s: %s", cmd, bytes.ReplaceAll(bytes.TrimSpace(out), []byte("\n"), []byte("; ")))
	if err != nil {
		t.Errorf("%s: %v", cmd, err)
	}
}

// TestServiceChromiumKilled kills the service's Chromium while rendered
// pages are under way (FIASCO_KILL_CHROMIUM_CMD): every request gets an
// answer, 200 or a clear 5xx, in bounded time, and the service recovers.
func TestServiceChromiumKilled(t *testing.T) {
	base := serviceURL(t)
	kill := os.Getenv("FIASCO_KILL_CHROMIUM_CMD")
	if kill == "" {
		t.Skip("FIASCO_KILL_CHROMIUM_CMD not set")
	}
	pages := devPages(t)
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	t0 := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			hc := &http.Client{Timeout: 3 * time.Minute}
			resp, err := hc.Post(base+"/clean?render=on", "text/html", bytes.NewReader(readFile(t, pages[i%len(pages)])))
			code := -1
			msg := ""
			if err != nil {
				msg = err.Error()
			} else {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				code, msg = resp.StatusCode, string(bytes.TrimSpace(b))
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
			if code != 200 {
				t.Logf("in flight: %d %s (after %v)", code, trunc([]byte(msg)), time.Since(t0).Round(time.Millisecond))
			}
			if code != 200 && code < 500 {
				t.Errorf("in flight when Chromium died: %d %s; want 200 or a 5xx", code, msg)
			}
		}(i)
	}
	time.Sleep(700 * time.Millisecond)
	runCmd(t, kill)
	wg.Wait()
	t.Logf("%d requests in flight when Chromium was killed: answers %v, all within %v", n, codes, time.Since(t0).Round(time.Millisecond))
	// Recovered: healthy, rendering.
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, _, b := call(t, "GET", base+"/healthz", nil)
		if code == 200 {
			t.Logf("healthy again %v after the kill: %s", time.Since(t0).Round(time.Millisecond), bytes.TrimSpace(b))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not healthy 60 s after Chromium was killed: %d %s", code, b)
		}
		time.Sleep(time.Second)
	}
	code, h, b := call(t, "POST", base+"/clean?render=on", bytes.NewReader(readFile(t, pages[0])))
	if code != 200 || h.Get("X-Fiasco-Render") != "on" {
		t.Errorf("rendering after recovery: %d %s", code, trunc(b))
	}
}

// TestServiceBatchSIGTERM sends SIGTERM to the service
// (FIASCO_SIGTERM_CMD) while a rendered batch of CleanEval dev pages is
// under way: every line of the batch is answered 200, the batch completes
// (within the service's --shutdown-timeout; past it, the pages not done are
// answered 503, which TestBatchShutdownDeadline checks).
func TestServiceBatchSIGTERM(t *testing.T) {
	base := serviceURL(t)
	term := os.Getenv("FIASCO_SIGTERM_CMD")
	if term == "" {
		t.Skip("FIASCO_SIGTERM_CMD not set")
	}
	pages := devPages(t)
	pages = pages[:min(len(pages), envInt("FIASCO_SIGTERM_PAGES", 20))]
	var in bytes.Buffer
	for i, p := range pages {
		b, _ := json.Marshal(map[string]any{"id": i, "name": filepath.Base(p), "html": string(readFile(t, p))})
		in.Write(append(b, '\n'))
	}
	t0 := time.Now()
	resp, err := client.Post(base+"/clean/batch?render=on&format=text", "application/x-ndjson", &in)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 64<<20)
	got := map[int]int{}
	sent := false
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("answer %q: %v", trunc(sc.Bytes()), err)
		}
		got[l.Line] = l.Status
		if l.Status != 200 {
			t.Errorf("line %d (%s): %d %s", l.Line, l.Name, l.Status, l.Error)
		}
		if !sent && len(got) >= 3 {
			sent = true
			t.Logf("%d of %d pages answered after %v: SIGTERM", len(got), len(pages), time.Since(t0).Round(time.Millisecond))
			runCmd(t, term)
		}
	}
	if err := sc.Err(); err != nil {
		t.Errorf("reading the batch: %v", err)
	}
	tr := resp.Trailer.Get("Fiasco-Batch")
	t.Logf("batch: %d of %d lines answered in %v, trailer Fiasco-Batch: %q", len(got), len(pages), time.Since(t0).Round(time.Millisecond), tr)
	if !sent {
		t.Error("the batch ended before SIGTERM could be sent")
	}
	if len(got) != len(pages) || tr != "complete" {
		t.Errorf("%d of %d lines answered, trailer %q: accepted pages were lost", len(got), len(pages), tr)
	}
}
