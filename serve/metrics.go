package serve

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
)

// metrics are the service's counters and histograms, written in the
// Prometheus text exposition format (version 0.0.4) by hand: a handful
// of series do not need a client library.
type metrics struct {
	start time.Time

	mu         sync.Mutex
	requests   map[[2]string]uint64 // route, code
	pages      map[[2]string]uint64 // render, outcome
	errors     map[[2]string]uint64 // kind, code
	rejects    map[string]uint64    // reason
	retries    uint64
	fallbacks  uint64
	connEvents map[string]uint64 // evicted, dropped
	recycles   uint64
	pageTime   map[string]*histogram // render -> seconds per page
	stageTime  map[string]*histogram // stage -> seconds
	waitTime   *histogram
}

// Stages lists the stage label values of fiasco_stage_seconds, in the
// order of the pipeline; render_* split the render stage.
var Stages = []string{"load", "preclean", "blocks", "render", "vision", "features", "classify", "export",
	"render_load", "render_highlight", "render_measure", "render_screenshot", "render_decode"}

var buckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

func newHistogram() *histogram { return &histogram{counts: make([]uint64, len(buckets)+1)} }

func (h *histogram) observe(sec float64) {
	i := sort.SearchFloat64s(buckets, sec) // first bucket with bound >= sec
	h.counts[i]++
	h.sum += sec
	h.n++
}

func newMetrics() *metrics {
	m := &metrics{
		start:      time.Now(),
		requests:   map[[2]string]uint64{},
		pages:      map[[2]string]uint64{},
		errors:     map[[2]string]uint64{},
		rejects:    map[string]uint64{},
		connEvents: map[string]uint64{},
		pageTime:   map[string]*histogram{"on": newHistogram(), "off": newHistogram()},
		stageTime:  map[string]*histogram{},
		waitTime:   newHistogram(),
	}
	for _, s := range Stages {
		m.stageTime[s] = newHistogram()
	}
	return m
}

func (m *metrics) request(route string, code int) {
	m.mu.Lock()
	m.requests[[2]string{route, strconv.Itoa(code)}]++
	m.mu.Unlock()
}

func (m *metrics) error(e *Error) {
	kind := e.Kind
	if kind == "" {
		kind = "other"
	}
	m.mu.Lock()
	m.errors[[2]string{kind, strconv.Itoa(e.Status)}]++
	m.mu.Unlock()
}

func (m *metrics) rejected(reason string) {
	m.mu.Lock()
	m.rejects[reason]++
	m.mu.Unlock()
}

func (m *metrics) connEvent(what string) {
	m.mu.Lock()
	m.connEvents[what]++
	m.mu.Unlock()
}

func (m *metrics) retry() {
	m.mu.Lock()
	m.retries++
	m.mu.Unlock()
}

func (m *metrics) recycle() {
	m.mu.Lock()
	m.recycles++
	m.mu.Unlock()
}

func (m *metrics) fallback() {
	m.mu.Lock()
	m.fallbacks++
	m.mu.Unlock()
}

func (m *metrics) queueWait(d time.Duration) {
	m.mu.Lock()
	m.waitTime.observe(d.Seconds())
	m.mu.Unlock()
}

// stageTimes are a cleaned page's stage timings and its export.
type stageTimes struct {
	pipeline.Timings
	Export time.Duration
}

// page counts a page that was cleaned (st != nil) or failed (kind).
func (m *metrics) page(rendered bool, total time.Duration, st *stageTimes, kind string) {
	r := onOff(rendered)
	m.mu.Lock()
	defer m.mu.Unlock()
	if st == nil {
		m.pages[[2]string{r, "error"}]++
		return
	}
	m.pages[[2]string{r, "ok"}]++
	m.pageTime[r].observe(total.Seconds())
	obs := func(stage string, d time.Duration) { m.stageTime[stage].observe(d.Seconds()) }
	obs("load", st.Load)
	obs("preclean", st.Preclean)
	obs("blocks", st.Blocks)
	obs("features", st.Features)
	obs("classify", st.Classify)
	obs("export", st.Export)
	if rendered {
		obs("render", st.Render)
		obs("vision", st.Vision)
		rs := st.RenderSplit
		obs("render_load", rs.Load)
		obs("render_highlight", rs.Highlight)
		obs("render_measure", rs.Measure)
		obs("render_screenshot", rs.Screenshot)
		obs("render_decode", rs.Decode)
	}
}

// meanPageSeconds is the mean time of a cleaned page so far (1 s before
// the first).
func (m *metrics) meanPageSeconds() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var sum float64
	var n uint64
	for _, h := range m.pageTime {
		sum += h.sum
		n += h.n
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	bw := bufio.NewWriter(w)
	s.writeMetrics(bw)
	bw.Flush()
}

func (s *Server) writeMetrics(w io.Writer) {
	var bs render.Stats // before m.mu: the browser has a lock of its own
	if s.cfg.BrowserStats != nil {
		bs = s.cfg.BrowserStats()
	}
	m := s.met
	m.mu.Lock()
	defer m.mu.Unlock()
	counter2(w, "fiasco_http_requests_total", "HTTP requests answered, by route and status code.", "route", "code", m.requests)
	counter2(w, "fiasco_pages_total", "Pages cleaned (outcome ok) or failed (error), by render mode.", "render", "outcome", m.pages)
	counter2(w, "fiasco_errors_total", "Answers other than 200 (batch lines included), by kind and status code.", "kind", "code", m.errors)
	header(w, "fiasco_rejected_total", "counter", "Requests refused with 503: queue full, shutting down, or connections over --max-conns with none idle (answered once their headers are read).")
	for _, k := range sortedKeys(m.rejects) {
		fmt.Fprintf(w, "fiasco_rejected_total{reason=%q} %d\n", k, m.rejects[k])
	}
	header(w, "fiasco_render_retries_total", "counter", "Renders repeated after Chromium failed on a page (the browser's own retry after it died or the page's renderer crashed, and the service's once more: a page can count twice).")
	fmt.Fprintf(w, "fiasco_render_retries_total %d\n", m.retries+uint64(bs.Retries))
	header(w, "fiasco_browser_restarts_total", "counter", "Browsers started in place of one that died or was recycled.")
	fmt.Fprintf(w, "fiasco_browser_restarts_total %d\n", bs.Restarts)
	header(w, "fiasco_browser_recycles_total", "counter", "Browsers ended because health probes in a row could not render (a browser that hangs).")
	fmt.Fprintf(w, "fiasco_browser_recycles_total %d\n", m.recycles)
	header(w, "fiasco_render_fallbacks_total", "counter", "Pages of render=auto that the browser failed on (twice, or once by running out of --render-timeout), cleaned by the text model.")
	fmt.Fprintf(w, "fiasco_render_fallbacks_total %d\n", m.fallbacks)

	header(w, "fiasco_page_seconds", "histogram", "Time per cleaned page: waiting for a worker, cleaning, export.")
	for _, r := range []string{"off", "on"} {
		writeHistogram(w, "fiasco_page_seconds", fmt.Sprintf("render=%q", r), m.pageTime[r])
	}
	header(w, "fiasco_stage_seconds", "histogram", "Time per cleaned page in each stage (render_* split the render stage).")
	for _, st := range Stages {
		writeHistogram(w, "fiasco_stage_seconds", fmt.Sprintf("stage=%q", st), m.stageTime[st])
	}
	header(w, "fiasco_queue_wait_seconds", "histogram", "Time a page waited for a worker (pages that waited).")
	writeHistogram(w, "fiasco_queue_wait_seconds", "", m.waitTime)

	gauge(w, "fiasco_workers", "Pages cleaned at once at most.", float64(s.cfg.Workers))
	gauge(w, "fiasco_workers_busy", "Pages being cleaned.", float64(len(s.work)))
	gauge(w, "fiasco_queue_capacity", "Requests admitted at most (workers plus queue); more get 503.", float64(cap(s.admit)))
	gauge(w, "fiasco_requests_admitted", "Requests admitted: being cleaned or waiting for a worker.", float64(len(s.admit)))
	if ll := s.conns.Load(); ll != nil {
		gauge(w, "fiasco_connections_max", "Connections served at once at most (--max-conns): one more closes an idle one, or gets 503 when none is idle.", float64(ll.max))
		gauge(w, "fiasco_connections", "Connections served now, idle keep-alive ones included.", float64(ll.served()))
		header(w, "fiasco_connections_closed_total", "counter", "Connections closed by --max-conns: evicted (idle, to make room for a new one), dropped (refused without an answer: no request within 2 s, or as many refusals under way as --max-conns).")
		for _, k := range []string{"dropped", "evicted"} {
			fmt.Fprintf(w, "fiasco_connections_closed_total{reason=%q} %d\n", k, m.connEvents[k])
		}
	}
	if s.cfg.Rendered != nil {
		gauge(w, "fiasco_chromium_up", "1 when the last render or health probe of Chromium succeeded.", b2f(s.health.up()))
	}

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gauge(w, "go_goroutines", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	gauge(w, "go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and still in use.", float64(ms.HeapAlloc))
	gauge(w, "go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use.", float64(ms.HeapInuse))
	gauge(w, "go_memstats_sys_bytes", "Number of bytes obtained from system.", float64(ms.Sys))
	header(w, "go_gc_cycles_total", "counter", "Completed GC cycles.")
	fmt.Fprintf(w, "go_gc_cycles_total %d\n", ms.NumGC)
	if rss, ok := residentBytes(); ok {
		gauge(w, "process_resident_memory_bytes", "Resident memory size in bytes (the fiasco process, without Chromium).", float64(rss))
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		gauge(w, "process_open_fds", "Number of open file descriptors.", float64(len(fds)))
	}
	gauge(w, "process_start_time_seconds", "Start time of the process since unix epoch in seconds.", float64(m.start.UnixNano())/1e9)
}

func header(w io.Writer, name, typ, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

func gauge(w io.Writer, name, help string, v float64) {
	header(w, name, "gauge", help)
	fmt.Fprintf(w, "%s %s\n", name, fmtFloat(v))
}

func counter2(w io.Writer, name, help, l1, l2 string, m map[[2]string]uint64) {
	header(w, name, "counter", help)
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		fmt.Fprintf(w, "%s{%s=%q,%s=%q} %d\n", name, l1, k[0], l2, k[1], m[k])
	}
}

func writeHistogram(w io.Writer, name, labels string, h *histogram) {
	sep := ""
	if labels != "" {
		sep = ","
	}
	var cum uint64
	for i, b := range buckets {
		cum += h.counts[i]
		fmt.Fprintf(w, "%s_bucket{%s%sle=%q} %d\n", name, labels, sep, fmtFloat(b), cum)
	}
	cum += h.counts[len(buckets)]
	fmt.Fprintf(w, "%s_bucket{%s%sle=\"+Inf\"} %d\n", name, labels, sep, cum)
	if labels != "" {
		labels = "{" + labels + "}"
	}
	fmt.Fprintf(w, "%s_sum%s %s\n%s_count%s %d\n", name, labels, fmtFloat(h.sum), name, labels, h.n)
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func sortedKeys(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// residentBytes reads the process's resident set size on Linux.
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
