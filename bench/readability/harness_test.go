// Package readability measures the speed of fiasco's text-only cleaning
// against readeck's go-readability (codeberg.org/readeck/go-readability/v2)
// on the same pages in the same process. It is a module of its own so that
// go-readability stays out of fiasco's go.mod and binary, and it holds
// test files only, so that fiasco's architecture test (internal/arch, which
// walks every directory for non-test Go files) has no package to place.
//
// Both tools start from the bytes of a page file and end with its text:
//
//   - fiasco: pipeline.Cleaner.Clean with the embedded text model
//     (classify.Default(false)), then Result.Text(), which is what
//     "fiasco clean --no-render --format text" does for a page;
//   - go-readability: FromReader over the same raw bytes (a CleanEval file
//     keeps its <text id=URL ...> wrapper, which the HTML parser takes for
//     an unknown element), with the URL from the wrapper's id attribute,
//     then Article.RenderText.
//
// A round runs one tool over every page with a given number of workers
// (goroutines taking pages in turn) and ends with a garbage collection
// inside its own timing, so that each tool pays for its own garbage.
// Compare runs rounds of the two tools in the order A B B A A B ..., which
// cancels a linear drift in the speed of a shared machine, and reports
// wall time and the process's CPU time (getrusage), the latter being less
// sensitive to other jobs on the machine. go-readability's charset
// detection (gogs/chardet) runs its recognisers on goroutines of their
// own, so at "one worker" it may use a second core; the CPU figures count
// that, and GOMAXPROCS=1 confines both tools to one core.
//
// The measurement is TestTable; see compare_test.go for the commands.
package readability

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	goread "codeberg.org/readeck/go-readability/v2"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Page is a page file held in memory.
type Page struct {
	Name string
	Data []byte
	URL  *url.URL // from a CleanEval wrapper's id attribute; nil if none
}

// DefaultDataDir returns ../shared/data/cleaneval-en-dev beside the fiasco
// module root (two directories above this package).
func DefaultDataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data", "cleaneval-en-dev")
}

// LoadPages reads dir/html/*.html in name order. It returns an error
// wrapping os.ErrNotExist when there are none.
func LoadPages(dir string) ([]Page, error) {
	files, err := filepath.Glob(filepath.Join(dir, "html", "*.html"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no pages in %s: %w", filepath.Join(dir, "html"), os.ErrNotExist)
	}
	sort.Strings(files)
	pages := make([]Page, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pages = append(pages, Page{Name: f, Data: data, URL: wrapperURL(data)})
	}
	return pages, nil
}

// wrapperURL returns the id attribute of a CleanEval <text id="URL" ...>
// wrapper at the start of data, parsed, or nil.
func wrapperURL(data []byte) *url.URL {
	head := bytes.TrimLeft(data[:min(len(data), 4096)], "\ufeff \t\r\n")
	if !bytes.HasPrefix(bytes.ToLower(head), []byte("<text ")) {
		return nil
	}
	end := bytes.IndexByte(head, '>')
	if end < 0 {
		return nil
	}
	tag := string(head[:end])
	i := strings.Index(tag, "id=")
	if i < 0 {
		return nil
	}
	v := tag[i+3:]
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		q := v[0]
		v = v[1:]
		if j := strings.IndexByte(v, q); j >= 0 {
			v = v[:j]
		}
	} else if j := strings.IndexAny(v, " \t\r\n"); j >= 0 {
		v = v[:j]
	}
	u, err := url.Parse(v)
	if err != nil {
		return nil
	}
	return u
}

// Tool cleans one page and returns the length in bytes of its text.
// Clean must be safe for concurrent use.
type Tool struct {
	Name  string
	Clean func(p *Page) (int, error)
	Close func() error
	// GCPercent, when not 0, is the garbage collector's target
	// (debug.SetGCPercent) during this tool's rounds; 0 leaves the
	// process's setting (GOGC, default 100).
	GCPercent int
}

// Fiasco returns fiasco's text-only cleaning: pipeline.New(ctx, false),
// Clean, Result.Text.
func Fiasco(ctx context.Context) (*Tool, error) {
	c, err := pipeline.New(ctx, false)
	if err != nil {
		return nil, err
	}
	return &Tool{
		Name: "fiasco",
		Clean: func(p *Page) (int, error) {
			res, err := c.Clean(ctx, p.Name, p.Data)
			if err != nil {
				return 0, err
			}
			return len(res.Text()), nil
		},
		Close: c.Close,
	}, nil
}

// Readability returns go-readability v2: FromReader over the page's raw
// bytes with its URL, then Article.RenderText. A page where it finds no
// article gives empty text, not an error.
func Readability() *Tool {
	return &Tool{
		Name: "readability",
		Clean: func(p *Page) (int, error) {
			art, err := goread.FromReader(bytes.NewReader(p.Data), p.URL)
			if err != nil {
				return 0, err
			}
			if art.Node == nil {
				return 0, nil
			}
			var b strings.Builder
			if err := art.RenderText(&b); err != nil {
				return 0, err
			}
			return b.Len(), nil
		},
		Close: func() error { return nil },
	}
}

// Round is the cost of one or more runs of a tool over the pages.
type Round struct {
	Pages, Errors, Empty int
	OutBytes             int64
	Wall, CPU            time.Duration
	// From runtime/metrics: the runtime's estimate of the CPU time spent
	// in garbage collection, the collections and the bytes allocated.
	GCCPU      time.Duration
	GCs        uint64
	AllocBytes uint64
}

// Add adds r's counts and times to s's.
func (s *Round) Add(r Round) {
	s.Pages += r.Pages
	s.Errors += r.Errors
	s.Empty += r.Empty
	s.OutBytes += r.OutBytes
	s.Wall += r.Wall
	s.CPU += r.CPU
	s.GCCPU += r.GCCPU
	s.GCs += r.GCs
	s.AllocBytes += r.AllocBytes
}

// PagesPerSec is pages per second of wall time.
func (s Round) PagesPerSec() float64 { return float64(s.Pages) / s.Wall.Seconds() }

// PagesPerCPUSec is pages per second of the process's CPU time: the rate
// one otherwise idle core would reach.
func (s Round) PagesPerCPUSec() float64 { return float64(s.Pages) / s.CPU.Seconds() }

// MsPerPage is wall milliseconds per page.
func (s Round) MsPerPage() float64 { return s.Wall.Seconds() * 1000 / float64(s.Pages) }

// CPUMsPerPage is CPU milliseconds per page.
func (s Round) CPUMsPerPage() float64 { return s.CPU.Seconds() * 1000 / float64(s.Pages) }

// GCShare is the runtime's estimate of the share of the CPU time spent in
// garbage collection.
func (s Round) GCShare() float64 { return s.GCCPU.Seconds() / s.CPU.Seconds() }

// runtimeStats reads the GC CPU estimate, the GC count and the bytes
// allocated so far.
func runtimeStats() (gcCPU time.Duration, gcs, alloc uint64) {
	ss := []metrics.Sample{
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/allocs:bytes"},
	}
	metrics.Read(ss)
	if ss[0].Value.Kind() == metrics.KindFloat64 {
		gcCPU = time.Duration(ss[0].Value.Float64() * 1e9)
	}
	if ss[1].Value.Kind() == metrics.KindUint64 {
		gcs = ss[1].Value.Uint64()
	}
	if ss[2].Value.Kind() == metrics.KindUint64 {
		alloc = ss[2].Value.Uint64()
	}
	return
}

// ProcessCPU returns the user plus system CPU time of the process so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// RunRound runs t over every page once with workers goroutines, each
// taking the next page not yet taken, and collects the garbage at the end,
// inside the timing.
func RunRound(t *Tool, pages []Page, workers int) Round {
	if workers < 1 {
		workers = 1
	}
	var next atomic.Int64
	var errs, empty atomic.Int64
	var out atomic.Int64
	if t.GCPercent != 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(t.GCPercent))
	}
	g0, n0, a0 := runtimeStats()
	c0, w0 := ProcessCPU(), time.Now()
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(pages) {
				return
			}
			n, err := t.Clean(&pages[i])
			switch {
			case err != nil:
				errs.Add(1)
			case n == 0:
				empty.Add(1)
			}
			out.Add(int64(n))
		}
	}
	if workers == 1 {
		work()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(work)
		}
		wg.Wait()
	}
	runtime.GC()
	wall, cpu := time.Since(w0), ProcessCPU()-c0
	g1, n1, a1 := runtimeStats()
	return Round{
		Pages: len(pages), Errors: int(errs.Load()), Empty: int(empty.Load()), OutBytes: out.Load(),
		Wall: wall, CPU: cpu, GCCPU: g1 - g0, GCs: n1 - n0, AllocBytes: a1 - a0,
	}
}

// Comparison is the outcome of Compare for two tools, A and B.
type Comparison struct {
	Workers, Rounds int
	A, B            Round     // totals over the rounds
	PairRatios      []float64 // per ABBA pair of rounds: B's wall over A's
}

// WallRatio is A's pages/s over B's, by wall time.
func (c Comparison) WallRatio() float64 { return c.A.PagesPerSec() / c.B.PagesPerSec() }

// CPURatio is A's pages per CPU-second over B's.
func (c Comparison) CPURatio() float64 { return c.A.PagesPerCPUSec() / c.B.PagesPerCPUSec() }

// MedianPairRatio is the median over rounds of B's wall time over A's in
// the same round.
func (c Comparison) MedianPairRatio() float64 {
	r := append([]float64(nil), c.PairRatios...)
	sort.Float64s(r)
	if len(r) == 0 {
		return 0
	}
	if len(r)%2 == 1 {
		return r[len(r)/2]
	}
	return (r[len(r)/2-1] + r[len(r)/2]) / 2
}

// Compare runs one untimed warm-up round of each tool, then rounds rounds
// of each, alternating A B B A A B ... so that the order of the rounds
// does not favour either tool.
func Compare(a, b *Tool, pages []Page, workers, rounds int) Comparison {
	RunRound(a, pages, workers)
	RunRound(b, pages, workers)
	c := Comparison{Workers: workers, Rounds: rounds}
	for r := range rounds {
		var ra, rb Round
		if r%2 == 0 {
			ra = RunRound(a, pages, workers)
			rb = RunRound(b, pages, workers)
		} else {
			rb = RunRound(b, pages, workers)
			ra = RunRound(a, pages, workers)
		}
		c.A.Add(ra)
		c.B.Add(rb)
		c.PairRatios = append(c.PairRatios, rb.Wall.Seconds()/ra.Wall.Seconds())
	}
	return c
}

// WriteTable writes one row per tool and worker count, then the ratios
// of A over B. ms/page is wall time over pages (1000 / pages/s, so at two
// workers about half a page's latency); cpu-ms/pg is the process's CPU
// time over pages, garbage collection included; pages/cpu-s is its
// inverse; gc-cpu is the runtime's estimate of the share of that spent in
// garbage collection, alloc/pg the heap allocated per page. wall and cpu are the ratios of the totals; median-pair is the
// median over rounds of the wall-time ratio of the two rounds of a pair.
func WriteTable(w io.Writer, aName, bName string, cs []Comparison) {
	fmt.Fprintf(w, "%-12s %7s %9s %9s %9s %11s %7s %8s %7s %6s %6s\n",
		"tool", "workers", "pages/s", "ms/page", "cpu-ms/pg", "pages/cpu-s", "gc-cpu", "alloc/pg", "pages", "errors", "empty")
	for _, c := range cs {
		for _, t := range []struct {
			name string
			r    Round
		}{{aName, c.A}, {bName, c.B}} {
			fmt.Fprintf(w, "%-12s %7d %9.1f %9.2f %9.2f %11.1f %6.0f%% %6.2fMB %7d %6d %6d\n",
				t.name, c.Workers, t.r.PagesPerSec(), t.r.MsPerPage(), t.r.CPUMsPerPage(),
				t.r.PagesPerCPUSec(), 100*t.r.GCShare(), float64(t.r.AllocBytes)/float64(t.r.Pages)/(1<<20),
				t.r.Pages, t.r.Errors, t.r.Empty)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "ratio %s/%s (pages/s):\n%7s %10s %10s %12s\n", aName, bName, "workers", "wall", "cpu", "median-pair")
	for _, c := range cs {
		fmt.Fprintf(w, "%7d %10.2f %10.2f %12.2f\n", c.Workers, c.WallRatio(), c.CPURatio(), c.MedianPairRatio())
	}
}
