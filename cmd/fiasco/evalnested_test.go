package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"
	"github.com/fiasco-project/fiasco/train"
)

// foldRow is one row of the per-fold table of eval --nested or --by-set.
type foldRow struct {
	name                string
	test, train         int
	features            string
	c, gamma, threshold float64
	innerF, outerF      float64
}

// foldRows parses the per-fold table: the rows between its header (first
// column header) and the next empty line.
func foldRows(t *testing.T, out, header string) []foldRow {
	t.Helper()
	var rows []foldRow
	in := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, header+" ") && strings.Contains(line, "inner F"):
			in = true
			continue
		case !in:
			continue
		case strings.TrimSpace(line) == "":
			return rows
		}
		f := strings.Fields(line)
		if len(f) < 9 {
			t.Fatalf("fold row %q: want 9 or more columns", line)
		}
		n := len(f) - 8 // the name may have spaces ("fold 1")
		var r foldRow
		r.name = strings.Join(f[:n], " ")
		var err [8]error
		r.test, err[0] = strconv.Atoi(f[n])
		r.train, err[1] = strconv.Atoi(f[n+1])
		r.features = f[n+2]
		r.c, err[2] = strconv.ParseFloat(f[n+3], 64)
		if f[n+4] != "1/features" { // svm-train's default, gamma 0
			r.gamma, err[3] = strconv.ParseFloat(f[n+4], 64)
		}
		r.threshold, err[4] = strconv.ParseFloat(f[n+5], 64)
		r.innerF, err[5] = strconv.ParseFloat(f[n+6], 64)
		r.outerF, err[6] = strconv.ParseFloat(f[n+7], 64)
		for _, e := range err {
			if e != nil {
				t.Fatalf("fold row %q: %v", line, e)
			}
		}
		rows = append(rows, r)
	}
	t.Fatalf("no fold table (header %q) in:\n%s", header, out)
	return nil
}

var (
	intervalRe = regexp.MustCompile(`(?m)^  word F \(micro\)\s+([0-9.]+)\s+\[([0-9.]+), ([0-9.]+)\]$`)
	microRe    = regexp.MustCompile(`(?m)^  model micro\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)$`)
	microRRe   = regexp.MustCompile(`(?m)^  model micro\s+[0-9.]+\s+([0-9.]+)\s+[0-9.]+$`) // recall
)

// checkInterval finds the bootstrap line of word F and checks lo <= F <=
// hi, and that F is the report's micro-averaged model F.
func checkInterval(t *testing.T, out string) {
	t.Helper()
	m := intervalRe.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no word F interval line in:\n%s", out)
	}
	f, _ := strconv.ParseFloat(m[1], 64)
	lo, _ := strconv.ParseFloat(m[2], 64)
	hi, _ := strconv.ParseFloat(m[3], 64)
	if !(lo <= f && f <= hi) || lo == hi {
		t.Errorf("word F %g, interval [%g, %g]: want lo <= F <= hi and a nonempty interval", f, lo, hi)
	}
	r := microRe.FindStringSubmatch(out)
	if r == nil {
		t.Fatalf("no model micro line in:\n%s", out)
	}
	if r[1] != m[1] {
		t.Errorf("bootstrap word F %s differs from the report's model micro F %s", m[1], r[1])
	}
}

// TestEvalNested runs a cheap nested cross-validation: 12 pages, 3 outer
// and 2 inner folds, a grid of 2 C values x 1 gamma.
func TestEvalNested(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--nested", "3,2", "--limit", "12", "--workers", "2",
		"--grid-c", "1,4", "--grid-gamma", "0.06", "--bootstrap", "200", "--data", dir)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	if !strings.Contains(out, "grid: features default; C 1, 4; gamma 0.06; threshold 0 (2 settings)") {
		t.Errorf("no grid line in:\n%s", out)
	}
	rows := foldRows(t, out, "fold")
	if len(rows) != 3 {
		t.Fatalf("%d fold rows, want 3:\n%s", len(rows), out)
	}
	tested := 0
	for i, r := range rows {
		if r.name != "fold "+strconv.Itoa(i+1) {
			t.Errorf("row %d named %q", i, r.name)
		}
		if r.features != "default" || (r.c != 1 && r.c != 4) || r.gamma != 0.06 || r.threshold != 0 {
			t.Errorf("%s chose %+v: not a setting of the grid", r.name, r)
		}
		if r.test+r.train != 12 {
			t.Errorf("%s: %d tested + %d trained on, want 12 pages", r.name, r.test, r.train)
		}
		if r.innerF <= 0 || r.innerF > 100 || r.outerF <= 0 || r.outerF > 100 {
			t.Errorf("%s: inner F %g, outer F %g", r.name, r.innerF, r.outerF)
		}
		tested += r.test
	}
	if tested != 12 {
		t.Errorf("folds test %d pages, want each of 12 once", tested)
	}
	if !strings.Contains(out, "settings chosen:") || !strings.Contains(out, "pages: 12 ") {
		t.Errorf("no choice summary or report:\n%s", out)
	}
	if !strings.Contains(out, "(200 resamples, seed 1)") {
		t.Errorf("--bootstrap 200 not used:\n%s", out)
	}
	checkInterval(t, out)
}

// TestEvalBySet holds out each of two sets (8 pages each), choosing a
// threshold and a feature set, with a sample of 5 of a third set's first
// 8 pages as extra training data.
func TestEvalBySet(t *testing.T) {
	ce, cp, l3s := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "cleanportaleval"), shared.Path(t, "l3s-gn1")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--by-set", "--inner", "2", "--limit", "8", "--workers", "2",
		"--grid-threshold", "-0.5,0", "--candidate-features", "text=text", "--candidate-features", "ls=linguistic,structural",
		"--extra", l3s, "--extra-pages", "5", "--data", ce, "--data", cp)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	rows := foldRows(t, out, "held out")
	if len(rows) != 2 || rows[0].name != "cleaneval-en-dev" || rows[1].name != "cleanportaleval" {
		t.Fatalf("fold rows %+v, want cleaneval-en-dev and cleanportaleval held out:\n%s", rows, out)
	}
	for _, r := range rows {
		// The other set's 8 pages and the 5 extra pages.
		if r.test != 8 || r.train != 13 {
			t.Errorf("%s: tests %d pages, trains on %d; want 8 and 13", r.name, r.test, r.train)
		}
		if (r.features != "text" && r.features != "ls") || (r.threshold != -0.5 && r.threshold != 0) {
			t.Errorf("%s chose %+v: not a setting of the grid", r.name, r)
		}
	}
	if !strings.Contains(out, "extra training pages, never scored: 5 from ") || !strings.Contains(out, "(a sample of at most 5 pages of each, seed 1)") || !strings.Contains(out, "pages: 16 ") {
		t.Errorf("extra pages scored or not reported:\n%s", out)
	}
	checkInterval(t, out)
	// Held out by set, a set's own figures are its fold's outer F.
	sets := setRowRe.FindAllStringSubmatch(out, -1)
	if len(sets) != 2 {
		t.Fatalf("%d rows by data set, want 2:\n%s", len(sets), out)
	}
	for i, m := range sets {
		f, _ := strconv.ParseFloat(m[3], 64)
		lo, _ := strconv.ParseFloat(m[4], 64)
		hi, _ := strconv.ParseFloat(m[5], 64)
		if m[1] != rows[i].name || m[2] != "8" || f != rows[i].outerF || lo > f || f > hi {
			t.Errorf("by data set %q: want %s, 8 pages, F %.2f within its interval", m[0], rows[i].name, rows[i].outerF)
		}
	}
}

// TestEvalNestedBySite deals sites, not pages, into the folds: the first
// 8 pages of CleanPortalEval are all BBC's, so one fold tests all 8 (and
// the 8 CleanEval dev pages, each its own site, fill the others); with
// BBC's pages alone there are too few sites for the folds.
func TestEvalNestedBySite(t *testing.T) {
	ce, cp := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "cleanportaleval")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--nested", "3,2", "--folds-by", "site", "--limit", "8",
		"--workers", "2", "--bootstrap", "100", "--data", ce, "--data", cp)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	if !strings.Contains(out, "nested cross-validation over sites: 3 outer folds, 2 inner folds") {
		t.Errorf("no header naming sites in:\n%s", out)
	}
	rows := foldRows(t, out, "fold")
	tests := []int{}
	for _, r := range rows {
		tests = append(tests, r.test)
	}
	slices.Sort(tests)
	if fmt.Sprint(tests) != "[4 4 8]" {
		t.Errorf("folds test %v pages, want [4 4 8] (BBC's 8 together)", tests)
	}
	// The fold of 8 is CleanPortalEval's 8 pages: its outer F is the set's.
	sets := setRowRe.FindAllStringSubmatch(out, -1)
	if len(sets) != 2 || sets[1][1] != "cleanportaleval" {
		t.Fatalf("rows by data set %q, want cleaneval-en-dev and cleanportaleval", sets)
	}
	for _, r := range rows {
		if f, _ := strconv.ParseFloat(sets[1][3], 64); r.test == 8 && r.outerF != f {
			t.Errorf("the fold of 8 pages has outer F %.2f, CleanPortalEval %.2f: not BBC's pages alone", r.outerF, f)
		}
	}
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--nested", "3,2", "--folds-by", "site", "--limit", "8", "--data", cp)
	if code != 1 || !strings.Contains(errs, "3 outer folds for 1 site") {
		t.Errorf("one site, three folds: exit %d, stderr %s", code, errs)
	}
}

// TestEvalCVAndBySetBySite: --cv and --by-set deal by site too; a set
// held out leaves one site to train on, too few for two inner folds.
func TestEvalCVAndBySetBySite(t *testing.T) {
	ce, cp := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "cleanportaleval")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--cv", "3", "--folds-by", "site", "--limit", "8",
		"-c", "4", "-g", "0.06", "--data", ce, "--data", cp)
	if code != 0 || !strings.Contains(out, "3-fold cross-validation over sites") {
		t.Errorf("--cv 3 --folds-by site: exit %d, stderr %s, stdout:\n%s", code, errs, out)
	}
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--cv", "3", "--folds-by", "site", "--limit", "8", "--data", cp)
	if code != 1 || !strings.Contains(errs, "3 folds for 1 site") {
		t.Errorf("--cv 3 over one site: exit %d, stderr %s", code, errs)
	}
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--by-set", "--inner", "2", "--folds-by", "site", "--limit", "8",
		"--data", ce, "--data", cp)
	if code != 1 || !strings.Contains(errs, "with cleaneval-en-dev held out, 1 site left to train on for 2 inner folds") {
		t.Errorf("--by-set with one site to train on: exit %d, stderr %s", code, errs)
	}
	// L3S-GN1's pages mostly state no address: said, and each is a site.
	l3s := shared.Path(t, "l3s-gn1")
	code, out, errs = fiasco(t, "eval", "-q", "--no-render", "--by-set", "--inner", "2", "--folds-by", "site", "--limit", "8",
		"--data", ce, "--data", l3s)
	if code != 0 || !strings.Contains(out, "2 inner folds by site") {
		t.Errorf("--by-set --folds-by site: exit %d, stderr %s, stdout:\n%s", code, errs, out)
	}
	if !regexp.MustCompile(`--folds-by site: [1-8] of 16 pages state no address`).MatchString(errs) {
		t.Errorf("no warning about pages without an address:\n%s", errs)
	}
}

// setRowRe matches a row of the table by data set: name, pages, F, lo, hi.
var setRowRe = regexp.MustCompile(`(?m)^  (\S+)\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+) \[([0-9.]+), ([0-9.]+)\]$`)

// TestEvalCVBootstrap: with --cv, intervals are printed only when
// --bootstrap is given.
func TestEvalCVBootstrap(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev")
	args := []string{"eval", "-q", "--no-render", "--cv", "2", "--limit", "6", "--workers", "2", "--data", dir}
	code, out, errs := fiasco(t, args...)
	if code != 0 || strings.Contains(out, "bootstrap") {
		t.Fatalf("--cv without --bootstrap: exit %d, stderr %s, stdout:\n%s", code, errs, out)
	}
	code, out, errs = fiasco(t, append(args, "--bootstrap", "100")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	checkInterval(t, out)
}

// TestEvalNestedCache renders 4 pages through the render cache, then runs
// again: every page comes from the cache and the figures are the same.
func TestEvalNestedCache(t *testing.T) {
	if testing.Short() {
		t.Skip("renders pages")
	}
	dir := shared.Path(t, "cleaneval-en-dev")
	needChromium(t)
	cache := t.TempDir()
	args := []string{"eval", "-q", "--nested", "2,2", "--limit", "4", "--workers", "2", "--bootstrap", "0", "--cache-dir", cache, "--data", dir, "--features", "text,shape"}
	code, out1, errs := fiasco(t, args...)
	if code != 0 || !strings.Contains(errs, "0 pages from the cache, 4 rendered") {
		t.Fatalf("first run: exit %d, stderr %s", code, errs)
	}
	code, out2, errs := fiasco(t, args...)
	if code != 0 || !strings.Contains(errs, "4 pages from the cache, 0 rendered") {
		t.Fatalf("second run: exit %d, stderr %s", code, errs)
	}
	if out1 != out2 {
		t.Errorf("cached run differs:\n%s\nfirst run:\n%s", out2, out1)
	}
	if strings.Contains(out1, "bootstrap") {
		t.Errorf("--bootstrap 0 printed intervals:\n%s", out1)
	}
}

// TestEvalNestedUsage: wrong combinations and values are usage errors
// (exit 2) that name the problem, found before any page is read.
func TestEvalNestedUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--nested", "10"}, "OUTER,INNER"},
		{[]string{"--nested", "10,x"}, "OUTER,INNER"},
		{[]string{"--nested", "1,5"}, "2 or more"},
		{[]string{"--nested", "10,5", "--cv", "5"}, "--cv and --nested"},
		{[]string{"--nested", "10,5", "--by-set"}, "--nested and --by-set"},
		{[]string{"--nested", "10,5", "--model", "m.model"}, "drop --model"},
		{[]string{"--by-set"}, "two or more --data"},
		{[]string{"--nested", "10,5", "--inner", "3"}, "--inner is for --by-set"},
		{[]string{"--by-set", "--data", "y", "--inner", "1"}, "--inner 1"},
		{[]string{"--grid-c", "1,4"}, "--grid-c needs --nested or --by-set"},
		{[]string{"--extra", "z"}, "--extra needs --nested or --by-set"},
		{[]string{"--nested", "10,5", "--grid-c", "1,,4"}, "bad number"},
		{[]string{"--nested", "10,5", "--grid-c", "0,4"}, "positive C"},
		{[]string{"--nested", "10,5", "--grid-c", "4,4"}, "twice"},
		{[]string{"--nested", "10,5", "--grid-gamma", "-1"}, "gamma"},
		{[]string{"--nested", "10,5", "--grid-threshold", "NaN"}, "bad number"},
		{[]string{"--nested", "10,5", "-c", "2", "--grid-c", "1,4"}, "-c and --grid-c"},
		{[]string{"--nested", "10,5", "--threshold", "0", "--grid-threshold", "-1,0"}, "--threshold and --grid-threshold"},
		{[]string{"--nested", "10,5", "--features", "text", "--candidate-features", "a=text"}, "--features and --candidate-features"},
		{[]string{"--nested", "10,5", "--candidate-features", "a=nonsense"}, "nonsense"},
		{[]string{"--nested", "10,5", "--candidate-features", "=text"}, "NAME=SPEC"},
		{[]string{"--nested", "10,5", "--candidate-features", "a=text", "--candidate-features", "a=linguistic"}, "twice"},
		{[]string{"--nested", "10,5", "--no-render", "--candidate-features", "v=text,visual"}, "drop --no-render"},
		{[]string{"--nested", "10,5", "--extra", "a/x"}, "also a --data set"},
		{[]string{"--nested", "10,5", "--extra-pages", "5"}, "give --extra DIR"},
		{[]string{"--nested", "10,5", "--extra", "z", "--extra-pages", "-1"}, "--extra-pages -1"},
		{[]string{"--nested", "10,5", "--bootstrap", "-1"}, "--bootstrap -1"},
		{[]string{"--no-render", "--cache-dir", "c"}, "--cache-dir"},
		{[]string{"--nested", "10,5", "--folds-by", "host"}, "want page or site"},
		{[]string{"--folds-by", "site"}, "--folds-by is for --cv, --nested and --by-set"},
	} {
		args := append([]string{"eval", "--data", "x"}, c.args...)
		code, out, errs := fiasco(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("fiasco %s: exit %d, stderr %q, stdout %q; want 2 and a message with %q",
				strings.Join(args, " "), code, errs, out, c.want)
		}
	}
}

// TestEvalModelPolicy: without --policy, a model is scored under its own
// policy (the article model against article gold); --policy overrides it.
func TestEvalModelPolicy(t *testing.T) {
	dir := shared.Path(t, "dragnet")
	model := "../../classify/models/article-text.fiasco"
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--limit", "6", "--bootstrap", "0", "--data", dir, "--model", model)
	if code != 0 || !strings.Contains(errs, "gold mapped to --policy article") {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	code, out2, errs := fiasco(t, "eval", "-q", "--no-render", "--limit", "6", "--bootstrap", "0", "--policy", "corpus", "--data", dir, "--model", model)
	if code != 0 || !strings.Contains(errs, "gold mapped to --policy corpus") {
		t.Fatalf("--policy corpus: exit %d; stderr:\n%s", code, errs)
	}
	if out == out2 {
		t.Error("the same report under both policies: the gold mapping did not change")
	}
}

// TestEvalVersus: --versus scores a second model on the same pages and
// prints paired differences; the text model against itself differs by
// exactly 0, and a visual --versus needs the rendered model first.
func TestEvalVersus(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev")
	args := []string{"eval", "-q", "--no-render", "--limit", "4", "--data", dir, "--bootstrap", "200"}
	code, out, errs := fiasco(t, append(args, "--versus", "text")...)
	if code != 0 || !strings.Contains(out, "--versus text on the same pages (the text model minus it") {
		t.Fatalf("exit %d, stderr %s, stdout:\n%s", code, errs, out)
	}
	if !strings.Contains(out, "word F (micro)    +0.00  [+0.00, +0.00]  P(<=0) 1.000") {
		t.Errorf("the text model against itself does not differ by 0:\n%s", out)
	}
	if !strings.Contains(errs, "note: --versus text keeps every block the text model keeps, on every page") {
		t.Errorf("no note that the model is compared with itself:\n%s", errs)
	}
	// The header names what the flags changed: a threshold set by hand
	// (which turns the prose floor off) and the smoothing.
	code, out, errs = fiasco(t, append(args, "--threshold", "0.5", "--smooth", "0", "--versus", "text")...)
	if want := "(the text model at threshold 0.5 without smoothing or the prose floor minus it"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("--threshold 0.5 --smooth 0: exit %d, stderr %s; want %q in:\n%s", code, errs, want, out)
	}
	if strings.Contains(errs, "every difference is 0") {
		t.Errorf("--threshold 0.5: noted as the same model:\n%s", errs)
	}
	code, out, errs = fiasco(t, append(args, "--threshold", "0.5", "--floor", "--versus", "text")...)
	if want := "(the text model at threshold 0.5 with the prose floor minus it"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("--threshold 0.5 --floor: exit %d, stderr %s; want %q in:\n%s", code, errs, want, out)
	}
	// The sign is the first model minus the second: a stricter threshold
	// loses recall.
	strictPath := strictModel(t)
	code, out, errs = fiasco(t, append(args, "--versus", strictPath)...)
	m := regexp.MustCompile(`word R \(micro\) +([-+][0-9.]+)`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("--versus a stricter threshold: exit %d, stderr %s:\n%s", code, errs, out)
	}
	if d, _ := strconv.ParseFloat(m[1], 64); d <= 0 {
		t.Errorf("--versus a stricter threshold: recall difference %v, want the first model ahead:\n%s", d, out)
	}
	// A --model of the article policy scores article gold: --versus text is
	// the article text model, the same model, so no difference.
	art, err := classify.DefaultFor("article", false)
	if err != nil {
		t.Fatal(err)
	}
	artPath := filepath.Join(t.TempDir(), "article.fiasco")
	if err := art.Save(artPath); err != nil {
		t.Fatal(err)
	}
	l3s := shared.Path(t, "l3s-gn1")
	code, out, errs = fiasco(t, "eval", "-q", "--model", artPath, "--limit", "4", "--data", l3s, "--bootstrap", "200", "--versus", "text")
	if code != 0 || !strings.Contains(out, "word F (micro)    +0.00  [+0.00, +0.00]  P(<=0) 1.000") {
		t.Errorf("--model article.fiasco --versus text: exit %d, stderr %s; want the article text model, no difference:\n%s", code, errs, out)
	}
	code, _, errs = fiasco(t, "eval", "-q", "--model", artPath, "--limit", "4", "--data", l3s, "--versus", strictPath)
	if code != 2 || !strings.Contains(errs, "trained for --policy corpus") {
		t.Errorf("--versus a corpus model under the article policy: exit %d, stderr %q; want a usage error", code, errs)
	}
	code, _, errs = fiasco(t, append(args, "--versus", "rendered")...)
	if code != 2 || !strings.Contains(errs, "--render --versus text") {
		t.Errorf("--no-render --versus rendered: exit %d, stderr %q; want a usage error", code, errs)
	}
	code, _, errs = fiasco(t, "eval", "--cv", "2", "--data", dir, "--versus", "text")
	if code != 2 || !strings.Contains(errs, "not with --cv") {
		t.Errorf("--cv --versus: exit %d, stderr %q", code, errs)
	}
}

// TestEvalPages checks --pages: a line per page whose word counts add up
// to the report's micro figures, --versus's figures beside them, and the
// fold that tested every page of --cv, --nested and --by-set.
func TestEvalPages(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev")
	strictPath := strictModel(t)
	tmp := t.TempDir()
	pages := filepath.Join(tmp, "pages.jsonl")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--limit", "5", "--data", dir, "--pages", pages, "--versus", strictPath)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	lines := readPageLines(t, pages)
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5", len(lines))
	}
	var matched, outW, goldW int
	for _, l := range lines {
		if l.Set != "cleaneval-en-dev" || l.ID == "" || l.Versus == nil || l.Fold != "" {
			t.Errorf("line %+v: want set, ID, --versus's figures and no fold", l)
			continue
		}
		matched, outW, goldW = matched+l.Matched, outW+l.Out, goldW+l.Gold
		if l.Versus.Gold != l.Gold || l.Versus.Blocks != l.Blocks || l.Versus.Kept > l.Kept {
			t.Errorf("page %s: versus %+v against %+v: want the same gold and blocks, no more blocks kept at a higher threshold", l.ID, *l.Versus, l.pageFigures)
		}
	}
	p, r := float64(matched)/float64(outW), float64(matched)/float64(goldW)
	m := microRe.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no micro F in the report:\n%s", out)
	}
	if got, want := m[1], fmt.Sprintf("%.2f", 100*2*p*r/(p+r)); got != want {
		t.Errorf("the pages' counts give micro F %s, the report %s", want, got)
	}
	// Every page once, with the fold that tested it.
	for _, c := range []struct {
		args  []string
		folds map[string]int
	}{
		{[]string{"--limit", "6", "--data", dir, "--cv", "3"}, map[string]int{"fold 1": 2, "fold 2": 2, "fold 3": 2}},
		{[]string{"--limit", "6", "--data", dir, "--nested", "3,2", "--bootstrap", "0"}, map[string]int{"fold 1": 2, "fold 2": 2, "fold 3": 2}},
		{[]string{"--limit", "4", "--data", dir, "--data", shared.Path(t, "cleanportaleval"), "--by-set", "--inner", "2", "--bootstrap", "0"},
			map[string]int{"cleaneval-en-dev": 4, "cleanportaleval": 4}},
	} {
		args := append([]string{"eval", "-q", "--no-render", "--pages", pages}, c.args...)
		code, _, errs := fiasco(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %s", c.args, code, errs)
		}
		folds := map[string]int{}
		for _, l := range readPageLines(t, pages) {
			folds[l.Fold]++
		}
		if !maps.Equal(folds, c.folds) {
			t.Errorf("%v: pages by fold %v, want %v", c.args, folds, c.folds)
		}
	}
	// A --pages file that cannot be written is found before any page is
	// cleaned.
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--limit", "1", "--data", dir, "--pages", filepath.Join(tmp, "no", "such", "dir", "p.jsonl"))
	if code != 2 || !strings.Contains(errs, "--pages") {
		t.Errorf("--pages in a missing directory: exit %d, stderr %q; want a usage error naming --pages", code, errs)
	}
}

func readPageLines(t *testing.T, path string) []pageLine {
	t.Helper()
	var out []pageLine
	for _, s := range readLines(t, path) {
		var l pageLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%s: %v in %q", path, err, s)
		}
		out = append(out, l)
	}
	return out
}

// strictModel saves the embedded corpus text model with its threshold
// raised by 1 (it keeps fewer blocks) and returns the file's path.
func strictModel(t *testing.T) string {
	t.Helper()
	strict, err := classify.DefaultFor("corpus", false)
	if err != nil {
		t.Fatal(err)
	}
	strict.Threshold += 1
	path := filepath.Join(t.TempDir(), "strict.fiasco")
	if err := strict.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEvalBlocks checks --blocks: a line per block whose counts per page
// are those of --pages (blocks, kept, labelled clean, both), with the
// gold share, the decision and --versus's beside it, and the text.
func TestEvalBlocks(t *testing.T) {
	dir := shared.Path(t, "cleaneval-en-dev")
	strictPath := strictModel(t)
	tmp := t.TempDir()
	pages, blocks := filepath.Join(tmp, "pages.jsonl"), filepath.Join(tmp, "blocks.jsonl")
	code, _, errs := fiasco(t, "eval", "-q", "--no-render", "--limit", "5", "--data", dir, "--pages", pages, "--blocks", blocks, "--versus", strictPath)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	if !strings.Contains(errs, "blocks' decisions written to "+blocks) {
		t.Errorf("stderr %q: want it to say where the blocks went", errs)
	}
	type counts struct{ blocks, kept, clean, tp, versusKept int }
	got := map[string]*counts{}
	next := map[string]int{}
	for _, s := range readLines(t, blocks) {
		var l blockLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%s: %v in %q", blocks, err, s)
		}
		if l.Set != "cleaneval-en-dev" || l.ID == "" || l.Tag == "" || l.Words == 0 || l.Text == "" || l.Gold < 0 || l.Gold > 1 {
			t.Errorf("line %q: want set, ID, tag, words, text and a gold share from 0 to 1", s)
		}
		if l.Value == nil || l.Threshold == nil || l.VersusValue == nil || l.VersusThreshold == nil || l.VersusKept == nil ||
			*l.VersusValue != *l.Value || math.Abs(*l.VersusThreshold-*l.Threshold-1) > 1e-9 {
			t.Errorf("line %q: want the value, the threshold and --versus's, on the same value and a threshold 1 higher (the strict model is the embedded one with its threshold raised by 1)", s)
		}
		if l.Block != next[l.ID] {
			t.Errorf("page %s: block %d where %d was due (blocks in document order, none left out)", l.ID, l.Block, next[l.ID])
		}
		next[l.ID] = l.Block + 1
		c := got[l.ID]
		if c == nil {
			c = &counts{}
			got[l.ID] = c
		}
		clean := l.Gold >= train.LabelThreshold
		c.blocks++
		c.kept += b01(l.Kept)
		c.clean += b01(clean)
		c.tp += b01(l.Kept && clean)
		c.versusKept += b01(*l.VersusKept)
	}
	lines := readPageLines(t, pages)
	if len(got) != len(lines) {
		t.Errorf("blocks of %d pages, --pages has %d", len(got), len(lines))
	}
	for _, p := range lines {
		c := got[p.ID]
		if c == nil {
			t.Errorf("page %s: no blocks", p.ID)
			continue
		}
		want := counts{p.Blocks, p.Kept, p.Clean, p.TP, p.Versus.Kept}
		if *c != want {
			t.Errorf("page %s: the blocks count %+v, --pages %+v", p.ID, *c, want)
		}
	}
	// Under --cv each line names its fold and the threshold it was cut at.
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--limit", "4", "--data", dir, "--cv", "2", "--threshold", "-0.25", "--blocks", blocks)
	if code != 0 {
		t.Fatalf("--cv 2: exit %d, stderr %s", code, errs)
	}
	for _, s := range readLines(t, blocks) {
		var l blockLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%s: %v in %q", blocks, err, s)
		}
		if (l.Fold != "fold 1" && l.Fold != "fold 2") || l.Threshold == nil || *l.Threshold != -0.25 || l.VersusValue != nil {
			t.Fatalf("--cv 2 line %q: want fold 1 or 2, threshold -0.25 and no --versus", s)
		}
	}
	// Paths that cannot be written are found before any page is cleaned.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--blocks", filepath.Join(tmp, "no", "such", "dir", "b.jsonl")}, "--blocks"},
		{[]string{"--blocks", tmp}, "is a directory"},
		{[]string{"--blocks", pages, "--pages", pages}, "give each its own file"},
	} {
		args := append([]string{"eval", "-q", "--no-render", "--limit", "1", "--data", dir}, c.args...)
		code, _, errs = fiasco(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error saying %q", c.args, code, errs, c.want)
		}
	}
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFoldsBeforeLoad: more folds than pages is refused once the pages are
// listed, before any is prepared (or, without --no-render, rendered): the
// summary line of a load never comes.
func TestFoldsBeforeLoad(t *testing.T) {
	const data = "../../testdata/modern" // 14 pages
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--cv", "15"}, "--cv 15: 15 folds for 14 pages"},
		{[]string{"eval", "--nested", "15,5"}, "--nested 15,5: 15 folds for 14 pages"},
		{[]string{"eval", "--nested", "7,13"}, "13 inner folds for the 12 pages an outer fold trains on"},
		{[]string{"train", "--grid", "--folds", "15", "-o", filepath.Join(t.TempDir(), "m.fiasco")}, "--folds 15: 15 folds for 14 pages"},
	} {
		args := append(append([]string{}, c.args...), "-q", "--no-render", "--data", data)
		code, out, errs := fiasco(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "(0 failed)") || out != "" {
			t.Errorf("fiasco %s: exit %d, stderr %q, stdout %q; want 2 and %q before the pages load",
				strings.Join(args, " "), code, errs, out, c.want)
		}
	}
	// As many folds as pages is allowed: the check counts what the
	// limits leave (--limit 4 of the 14).
	code, _, errs := fiasco(t, "eval", "-q", "--no-render", "--data", data, "--limit", "4", "--cv", "5")
	if code != 2 || !strings.Contains(errs, "--cv 5: 5 folds for 4 pages") {
		t.Errorf("--limit 4 --cv 5: exit %d, stderr %q; want 2 and the 4 pages counted", code, errs)
	}
}

// TestRenderFlagsUnused: --chromium or --remote with --no-render is a
// usage error (they ask for a browser); --width, --scale, --render-timeout
// or --reuse-tabs there is noted as unused and the run goes on.
func TestRenderFlagsUnused(t *testing.T) {
	for _, args := range [][]string{
		{"clean", "--no-render", "--remote", "http://127.0.0.1:9", "../../testdata/article.html"},
		{"serve", "--no-render", "--chromium", "/usr/bin/chromium"},
		{"train", "--no-render", "--chromium", "/usr/bin/chromium", "--data", "../../testdata/modern", "-o", filepath.Join(t.TempDir(), "m.fiasco")},
	} {
		code, out, errs := fiasco(t, args...)
		if code != 2 || !strings.Contains(errs, "asks for a browser, and --no-render renders nothing") || out != "" {
			t.Errorf("fiasco %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
	for _, args := range [][]string{
		{"clean", "--no-render", "--width", "800", "../../testdata/article.html"},
		{"eval", "-q", "--no-render", "--render-timeout", "1s", "--data", "../../testdata/modern", "--limit", "2"},
	} {
		code, _, errs := fiasco(t, args...)
		if code != 0 || !strings.Contains(errs, "sets how pages render, and --no-render renders none: it is not used") {
			t.Errorf("fiasco %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}
