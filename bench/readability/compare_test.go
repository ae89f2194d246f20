package readability

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Flags of TestTable (go test -run Table -v -args -rounds 20 ...).
var (
	flagData     = flag.String("data", DefaultDataDir(), "data set directory (pages in DIR/html/*.html)")
	flagRounds   = flag.Int("rounds", 0, "TestTable: timed rounds of each tool per worker count, after one warm-up round each (0: skip TestTable)")
	flagWorkers  = flag.String("workers", "1,2", "TestTable: comma-separated worker counts")
	flagFiascoGC = flag.Int("fiasco-gogc", 0, "TestTable: garbage collector target (GOGC) during fiasco's rounds only; 0: the process's")
)

// testPages loads the pages of -data or skips tb.
func testPages(tb testing.TB) []Page {
	tb.Helper()
	pages, err := LoadPages(*flagData)
	if errors.Is(err, os.ErrNotExist) {
		tb.Skipf("CleanEval dev pages not available: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

func tools(tb testing.TB) (f, r *Tool) {
	tb.Helper()
	f, err := Fiasco(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f, Readability()
}

func TestWrapperURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<text id="http://a.example/x?y=1" title="T" encoding="unset">` + "\n<html>", "http://a.example/x?y=1"},
		{"\ufeff <text id=http://b.example/ title=x>", "http://b.example/"},
		{"<html><body>no wrapper", ""},
	} {
		got := ""
		if u := wrapperURL([]byte(c.in)); u != nil {
			got = u.String()
		}
		if got != c.want {
			t.Errorf("wrapperURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCompare runs each tool once over every page, at one worker and at
// two, and checks that both clean every page; it logs the one-round
// table, too noisy to assert a ratio on a shared machine (TestTable and
// BenchmarkCompare measure).
func TestCompare(t *testing.T) {
	pages := testPages(t)
	f, r := tools(t)
	for _, w := range []int{1, 2} {
		c := Compare(f, r, pages, w, 1)
		for _, x := range []struct {
			name string
			r    Round
		}{{f.Name, c.A}, {r.Name, c.B}} {
			if x.r.Pages != len(pages) || x.r.Errors != 0 {
				t.Errorf("%s, %d workers: %d pages, %d errors", x.name, w, x.r.Pages, x.r.Errors)
			}
			if x.r.OutBytes == 0 {
				t.Errorf("%s, %d workers: no text at all", x.name, w)
			}
		}
		var b strings.Builder
		WriteTable(&b, f.Name, r.Name, []Comparison{c})
		t.Logf("one round, %d worker(s):\n%s", w, b.String())
	}
}

// TestTable is the measurement: -rounds alternating rounds of each tool
// at each of -workers, then the table on standard output. It is skipped
// unless -rounds is set:
//
//	go test -run Table -v -args -rounds 20
//	GOMAXPROCS=1 go test -run Table -v -args -rounds 20 -workers 1   # one core for everything
//	go test -run Table -v -args -rounds 20 -fiasco-gogc 400          # a GC target set for fiasco only
func TestTable(t *testing.T) {
	if *flagRounds <= 0 {
		t.Skip("set -rounds to measure (go test -run Table -v -args -rounds 20)")
	}
	var workers []int
	for _, s := range strings.Split(*flagWorkers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			t.Fatalf("bad worker count %q", s)
		}
		workers = append(workers, n)
	}
	pages := testPages(t)
	f, r := tools(t)
	f.GCPercent = *flagFiascoGC
	fmt.Printf("%d pages from %s; %d rounds per tool and worker count; GOMAXPROCS %d, %d CPUs; %s\n",
		len(pages), *flagData, *flagRounds, runtime.GOMAXPROCS(0), runtime.NumCPU(), loadavg())
	if f.GCPercent != 0 {
		fmt.Printf("fiasco's rounds run with GOGC=%d, readability's with the process's setting\n", f.GCPercent)
	}
	var cs []Comparison
	start := time.Now()
	for _, w := range workers {
		cs = append(cs, Compare(f, r, pages, w, *flagRounds))
	}
	fmt.Printf("measured in %s; %s\n\n", time.Since(start).Round(time.Second), loadavg())
	WriteTable(os.Stdout, f.Name, r.Name, cs)
	for _, c := range cs {
		if c.A.Errors+c.B.Errors > 0 {
			t.Errorf("%d workers: %d fiasco errors, %d readability errors", c.Workers, c.A.Errors, c.B.Errors)
		}
	}
}

// loadavg returns the first three fields of /proc/loadavg, if readable.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	return "load average " + strings.Join(strings.Fields(string(b))[:3], " ")
}

// BenchmarkCompare runs the two tools in alternating rounds over every
// page (one iteration: a round of each) and reports pages/s by wall and
// by CPU time for each, and the ratios fiasco/readability.
//
//	go test -run XXX -bench Compare -benchtime 10x
func BenchmarkCompare(b *testing.B) {
	pages := testPages(b)
	f, r := tools(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			c := Compare(f, r, pages, w, b.N)
			b.ReportMetric(c.A.PagesPerSec(), "fiasco-pages/s")
			b.ReportMetric(c.B.PagesPerSec(), "readability-pages/s")
			b.ReportMetric(c.A.CPUMsPerPage(), "fiasco-cpu-ms/page")
			b.ReportMetric(c.B.CPUMsPerPage(), "readability-cpu-ms/page")
			b.ReportMetric(c.WallRatio(), "wall-ratio")
			b.ReportMetric(c.CPURatio(), "cpu-ratio")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkTool runs one tool over every page per iteration, one worker;
// for profiling one of them:
//
//	go test -run XXX -bench 'Tool/fiasco' -benchtime 20x -cpuprofile cpu.out
//	go tool pprof -top -cum readability.test cpu.out
func BenchmarkTool(b *testing.B) {
	pages := testPages(b)
	f, r := tools(b)
	for _, t := range []*Tool{f, r} {
		b.Run(t.Name, func(b *testing.B) {
			RunRound(t, pages, 1) // warm-up
			b.ResetTimer()
			var s Round
			for b.Loop() {
				s.Add(RunRound(t, pages, 1))
			}
			b.ReportMetric(s.MsPerPage(), "ms/page")
			b.ReportMetric(s.CPUMsPerPage(), "cpu-ms/page")
			b.ReportMetric(s.PagesPerSec(), "pages/s")
		})
	}
}
