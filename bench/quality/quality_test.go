package quality

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
)

// Flags of TestQuality (go test -run Quality -v -args -sets l3s,dragnet-test).
var (
	flagData      = flag.String("data", DefaultDataDir(), "data root (holding l3s-gn1/, dragnet/)")
	flagSets      = flag.String("sets", "l3s,dragnet-test", "comma-separated sets: l3s, dragnet-test, dragnet-train, dragnet")
	flagPages     = flag.Int("pages", 0, "first N pages of each set (0: all; -short: 5)")
	flagResamples = flag.Int("resamples", 1000, "bootstrap resamples")
	flagSeed      = flag.Uint64("seed", 1, "bootstrap seed")
	flagPerPage   = flag.String("perpage", "", "write every page's counts to this TSV file")
)

// shortPages is the number of pages of each set under -short.
const shortPages = 5

// TestQuality runs every tool over the pages of -sets and prints, per set
// and tool, word P, R and F micro-averaged over pages with 95% bootstrap
// intervals, macro F and the wall time per page, then paired bootstraps of
// fiasco-article against each other row. Under -short it runs the first
// few pages of each set and checks the harness; it skips when the data
// are absent.
//
//	go test -run Quality -v -args -sets l3s,dragnet-test
//	go test -short -run Quality -v
func TestQuality(t *testing.T) {
	limit := *flagPages
	if testing.Short() && limit == 0 {
		limit = shortPages
	}
	var specs []SetSpec
	for _, name := range strings.Split(*flagSets, ",") {
		s, err := LookupSet(strings.TrimSpace(name))
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	type loaded struct {
		spec  SetSpec
		pages []Page
	}
	var sets []loaded
	for _, s := range specs {
		pages, err := LoadSet(*flagData, s, limit)
		if isNotExist(err) {
			t.Skipf("data set %s not available: %v", s.Name, err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) == 0 {
			t.Fatalf("set %s: no pages with gold", s.Name)
		}
		sets = append(sets, loaded{s, pages})
	}

	ctx := context.Background()
	fa, am, err := Fiasco(ctx, "article")
	if err != nil {
		t.Fatal(err)
	}
	fc, cm, err := Fiasco(ctx, "corpus")
	if err != nil {
		t.Fatal(err)
	}
	tools := []*Tool{fa, fc, Trafilatura(true), Trafilatura(false), Readability()}
	t.Cleanup(func() {
		for _, x := range tools {
			x.Close()
		}
	})

	fmt.Printf("%s; GOMAXPROCS %d, %d CPUs; one worker; %s\n", runtime.Version(), runtime.GOMAXPROCS(0), runtime.NumCPU(), loadavg())
	fmt.Printf("gold mapping (gold.Article): %s\n", gold.Article.Options())
	fmt.Printf("%s: embedded models/article-text.fiasco, %s\n", fa.Name, modelInfo(am))
	fmt.Printf("%s: embedded models/text.fiasco, %s\n", fc.Name, modelInfo(cm))
	fmt.Printf("bootstrap: %d resamples over pages, seed %d\n", *flagResamples, *flagSeed)

	Warm(tools, &sets[0].pages[0])
	var results []*SetResult
	var paired []Paired
	start := time.Now()
	for _, s := range sets {
		t0 := time.Now()
		step := max(1, len(s.pages)/10)
		sr, err := RunSet(s.spec.Name, s.pages, tools, *flagResamples, *flagSeed, func(done int) {
			if testing.Verbose() && (done%step == 0 || done == len(s.pages)) {
				fmt.Printf("  %s: %d/%d pages, %s\n", s.spec.Name, done, len(s.pages), time.Since(t0).Round(time.Second))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, sr)
		var others []string
		for _, r := range sr.Rows {
			if r.Name != fa.Name {
				others = append(others, r.Name)
			}
		}
		ps, err := PairedF(sr, fa.Name, others, *flagResamples, *flagSeed)
		if err != nil {
			t.Fatal(err)
		}
		paired = append(paired, ps...)
	}
	fmt.Printf("measured in %s; %s\n\n", time.Since(start).Round(time.Second), loadavg())
	WriteTable(os.Stdout, results)
	fmt.Println()
	WritePaired(os.Stdout, paired)

	if *flagPerPage != "" {
		f, err := os.Create(*flagPerPage)
		if err != nil {
			t.Fatal(err)
		}
		if err := WritePerPage(f, results); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}

	for _, sr := range results {
		checkSet(t, sr)
	}
}

// checkSet asserts what holds of any sane run: every row scored every
// page, every tool gave text on most pages, and every figure and interval
// lies within [0, 100] percent.
func checkSet(t *testing.T, sr *SetResult) {
	t.Helper()
	for _, r := range sr.Rows {
		if r.Pages != sr.Pages || len(r.Scores) != sr.Pages {
			t.Errorf("%s, %s: %d pages scored of %d", sr.Set, r.Name, r.Pages, sr.Pages)
		}
		if 2*r.Empty >= r.Pages {
			t.Errorf("%s, %s: no text on %d of %d pages (%d failures)", sr.Set, r.Name, r.Empty, r.Pages, r.Failures)
		}
		s := r.Summary
		for _, x := range []struct {
			name string
			v    float64
		}{
			{"P", s.WordP.Value}, {"P low", s.WordP.Lo}, {"P high", s.WordP.Hi},
			{"R", s.WordR.Value}, {"R low", s.WordR.Lo}, {"R high", s.WordR.Hi},
			{"F", s.WordF.Value}, {"F low", s.WordF.Lo}, {"F high", s.WordF.Hi},
			{"macro F", r.MacroF()},
		} {
			if !(x.v >= 0 && x.v <= 1) {
				t.Errorf("%s, %s: %s = %.2f%%, outside [0, 100]", sr.Set, r.Name, x.name, 100*x.v)
			}
		}
		if !(s.WordF.Lo <= s.WordF.Value && s.WordF.Value <= s.WordF.Hi) {
			t.Errorf("%s, %s: F %.4f outside its interval [%.4f, %.4f]", sr.Set, r.Name, s.WordF.Value, s.WordF.Lo, s.WordF.Hi)
		}
	}
	// The baseline keeps every word fiasco sees, so its recall bounds that
	// of both fiasco models.
	if b := sr.Row(KeepAll); b != nil {
		for _, name := range []string{"fiasco-article", "fiasco-corpus"} {
			if r := sr.Row(name); r != nil && r.Summary.WordR.Value > b.Summary.WordR.Value+1e-9 {
				t.Errorf("%s: %s recall %.4f above the keep-everything baseline's %.4f", sr.Set, name, r.Summary.WordR.Value, b.Summary.WordR.Value)
			}
		}
	}
}

func modelInfo(m *classify.Model) string {
	i := m.Info
	return fmt.Sprintf("policy %q, command %q, note %q, trained on %s, %d pages, %d blocks (%d clean), C %g, gamma %g, threshold %g",
		i.Policy, i.Command, i.Note, strings.Join(i.Data, " "), i.Pages, i.Blocks, i.Clean, i.C, i.Gamma, m.Threshold)
}

// loadavg returns the first three fields of /proc/loadavg, if readable.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	return "load average " + strings.Join(strings.Fields(string(b))[:3], " ")
}

func TestWithTitle(t *testing.T) {
	for _, c := range []struct{ title, text, want string }{
		{"", "a b", "a b"},
		{" T ", "a b", "T\n\na b"},
		{"T", "", "T\n"},
	} {
		if got := withTitle(c.title, c.text); got != c.want {
			t.Errorf("withTitle(%q, %q) = %q, want %q", c.title, c.text, got, c.want)
		}
	}
}

func TestLookupSet(t *testing.T) {
	s, err := LookupSet("dragnet-test")
	if err != nil || s.Dir != "dragnet" || s.Split != "test" {
		t.Errorf("LookupSet(dragnet-test) = %+v, %v", s, err)
	}
	if _, err := LookupSet("nope"); err == nil {
		t.Error("LookupSet(nope): no error")
	}
}

func TestFilterSplit(t *testing.T) {
	path := t.TempDir() + "/test.txt"
	if err := os.WriteFile(path, []byte("R1\n2.html\nT3"), 0o644); err != nil {
		t.Fatal(err)
	}
	pairs := []gold.Pair{{ID: "R1"}, {ID: "2"}, {ID: "T3"}, {ID: "R4"}}
	got, err := FilterSplit(path, pairs)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range got {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "R1,2,T3" {
		t.Errorf("FilterSplit kept %v, want R1, 2, T3", ids)
	}
}
