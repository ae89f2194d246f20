package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/train"
)

// writeLines writes eval --pages lines for scores to a new file in dir.
func writeLines(t *testing.T, dir, name string, ps []train.PageScore) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, s := range ps {
		if err := enc.Encode(pageLine{Set: s.Set, ID: s.ID, pageFigures: figuresOf(s)}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func pageScore(set, id string, gold, out, matched int, n train.NodeScores) train.PageScore {
	return train.PageScore{Set: set, ID: id, Words: score.Counts{Gold: gold, Out: out, Matched: matched}, Nodes: n}
}

// TestComparePages checks that compare reads back what eval --pages
// writes and prints the paired difference the counts give by hand.
func TestComparePages(t *testing.T) {
	dir := t.TempDir()
	nodes := train.NodeScores{TP: 3, FP: 1, TN: 5, FN: 2}
	ref := []train.PageScore{
		pageScore("a", "1", 100, 100, 90, nodes),
		pageScore("a", "2", 50, 60, 45, nodes),
		pageScore("b", "1", 200, 180, 170, nodes),
	}
	// The candidate: page a/1 gains 5 matched words, the rest as before;
	// written in another order.
	cand := []train.PageScore{ref[2], pageScore("a", "1", 100, 100, 95, nodes), ref[1]}
	rp := writeLines(t, dir, "ref.jsonl", ref)
	cp := writeLines(t, dir, "cand.jsonl", cand)

	got, err := readPages(rp)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.scores, ref) || !reflect.DeepEqual(got.line, map[[2]string]int{{"a", "1"}: 1, {"a", "2"}: 2, {"b", "1"}: 3}) || got.failed != 0 {
		t.Errorf("read back %+v, want %+v on lines 1-3", got, ref)
	}

	code, out, errs := runCmd(t, "compare", rp, cp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// All pages: gold 350; reference out 340, matched 305; candidate
	// matched 310. F = 2M/(gold+out): 610/690 and 620/690.
	fRef, fCand := 100*610.0/690, 100*620.0/690
	for _, want := range []string{
		"cand.jsonl minus " + rp,
		"  all                    3  89.71/87.14/88.41     91.18/88.57/89.86      +" + trim2(fCand-fRef) + " [",
		// Set a: gold 150, out 160, matched 135 and 140: F 270/310, 280/310.
		"  a                      2  84.38/90.00/87.10     87.50/93.33/90.32      +" + trim2(100*280.0/310-100*270.0/310) + " [",
		"  b                      1  94.44/85.00/89.47     94.44/85.00/89.47      +0.00 [+0.00, +0.00]  1.000",
		"all pages: word P +1.47 [", // 310/340 - 305/340
		"word R +1.43 [",            // 310/350 - 305/350
		"node F +0.00 [+0.00, +0.00]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// Two pairs: the summary line over both.
	code, out, errs = runCmd(t, "compare", rp, cp, cp, rp)
	if code != 0 {
		t.Fatalf("two pairs: exit %d: %s", code, errs)
	}
	d := trim2(fCand - fRef)
	if want := "over 2 pairs: mean +0.00, from -" + d + " to +" + d; !strings.Contains(out, want) {
		t.Errorf("two pairs: output lacks %q:\n%s", want, out)
	}
}

func trim2(x float64) string { return fmt.Sprintf("%.2f", x) }

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	nodes := train.NodeScores{TP: 1, FP: 1, TN: 1, FN: 1}
	ref := writeLines(t, dir, "ref.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes), pageScore("a", "2", 10, 10, 9, nodes)})
	short := writeLines(t, dir, "short.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes)})
	other := writeLines(t, dir, "other.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes), pageScore("a", "3", 10, 10, 9, nodes)})
	otherGold := writeLines(t, dir, "gold.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes), pageScore("a", "2", 12, 10, 9, nodes)})
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"set":"a","id":"1","gold_words":10,"out_words":10,"matched_words":9}`+"\n"+"not json\n"), 0o644)
	wrong := filepath.Join(dir, "wrong.jsonl")
	os.WriteFile(wrong, []byte(`{"set":"a","id":"1","gold_words":10,"out_words":5,"matched_words":9}`+"\n"), 0o644)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	lines := func(name string, ls ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(ls, "\n")+"\n"), 0o644)
		return p
	}
	okLine := `{"set":"a","id":"1","gold_words":10,"out_words":10,"matched_words":9,"blocks":4,"kept":2,"clean":2,"kept_clean":1}`
	dup := lines("dup.jsonl", okLine, okLine)
	noID := lines("noid.jsonl", `{"set":"a","gold_words":10}`)
	noGold := lines("nogold.jsonl", `{"set":"a","id":"1","kept":true}`)
	negative := lines("negative.jsonl", `{"set":"a","id":"1","gold_words":-1}`)
	blocks := lines("blocks.jsonl", `{"set":"a","id":"1","gold_words":10,"out_words":10,"matched_words":9,"blocks":2,"kept":2,"clean":2,"kept_clean":1}`)
	blockLines := lines("b.jsonl", `{"set":"a","id":"1","block":0,"parent":-1,"tag":"p","words":3,"gold":1,"value":0.5,"threshold":0,"kept":true,"text":"a b c"}`)
	gz := lines("p.jsonl.gz", "\x1f\x8b\x08\x00")
	model := filepath.Join(dir, "m.fiasco")
	if m, err := classify.Default(false); err != nil || m.Save(model) != nil {
		t.Fatal("saving the embedded model:", err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{ref}, 2, "want pairs of --pages files"},
		{[]string{ref, ref, ref}, 2, "got 3 file(s)"},
		{[]string{"--bootstrap", "0", ref, ref}, 2, "--bootstrap 0"},
		{[]string{ref, filepath.Join(dir, "missing.jsonl")}, 1, "missing.jsonl: no such file"},
		{[]string{ref, short}, 1, "ref.jsonl:2: page a/2 is not in " + short},
		{[]string{short, ref}, 1, "ref.jsonl:2: page a/2 is not in " + short},
		{[]string{ref, other}, 1, "ref.jsonl:2: page a/2 is not in " + other},
		{[]string{other, ref}, 1, "other.jsonl:2: page a/3 is not in " + ref},
		{[]string{ref, otherGold}, 1, "ref.jsonl:2: page a/2 has 10 gold words, 12 in " + otherGold + ":2: the two runs scored it against other gold"},
		{[]string{ref, dup}, 1, "dup.jsonl:2: page a/1 again (first on line 1)"},
		{[]string{ref, noID}, 1, "noid.jsonl:1: not a line of eval --pages: want set, id and gold_words"},
		{[]string{ref, noGold}, 1, "nogold.jsonl:1: not a line of eval --pages"},
		{[]string{ref, negative}, 1, "negative.jsonl:1: page a/1: a negative count"},
		{[]string{ref, blocks}, 1, "blocks.jsonl:1: page a/1: block counts that do not add up"},
		{[]string{ref, bad}, 1, "bad.jsonl:2: not a line of eval --pages"},
		{[]string{ref, wrong}, 1, "wrong.jsonl:1: page a/1: matched_words 9 above out_words 5"},
		{[]string{ref, empty}, 1, "empty.jsonl: no pages"},
		{[]string{ref, blockLines}, 1, "b.jsonl:1: not a line of eval --pages: a line of eval --blocks"},
		{[]string{gz, ref}, 1, "p.jsonl.gz: gzip-compressed, not a file of eval --pages"},
		{[]string{model, ref}, 1, "m.fiasco: a fiasco model, not a file of eval --pages"},
	} {
		code, _, errs := runCmd(t, "compare", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("compare %q: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestCompareSameFile: a file compared with itself is said to be.
func TestCompareSameFile(t *testing.T) {
	nodes := train.NodeScores{TP: 1, FP: 1, TN: 1, FN: 1}
	ref := writeLines(t, t.TempDir(), "ref.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes), pageScore("a", "2", 10, 10, 9, nodes)})
	code, _, errs := runCmd(t, "compare", ref, ref)
	if code != 0 || !strings.Contains(errs, "are the same file: every difference is 0") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestComparePipes: --pages files given as pipes (a shell's <(...)) are
// read once, whole: the checks for a model or gzip data read regular
// files only.
func TestComparePipes(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	nodes := train.NodeScores{TP: 1, FP: 1, TN: 1, FN: 1}
	ref := writeLines(t, t.TempDir(), "ref.jsonl", []train.PageScore{pageScore("a", "1", 10, 10, 9, nodes), pageScore("a", "2", 10, 10, 9, nodes)})
	data, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for range 2 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		go func() { w.Write(data); w.Close() }()
		paths = append(paths, fmt.Sprintf("/dev/fd/%d", r.Fd()))
	}
	code, out, errs := runCmd(t, "compare", paths...)
	if code != 0 || !strings.Contains(out, "(2 pages;") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestCompareFailedPages: a page that failed to load in one run is
// compared as the empty output eval scored it as, and the header says so.
func TestCompareFailedPages(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.jsonl")
	cand := filepath.Join(dir, "cand.jsonl")
	os.WriteFile(ref, []byte(`{"set":"a","id":"1","gold_words":10,"out_words":10,"matched_words":10,"blocks":1,"kept":1,"clean":1,"kept_clean":1}`+"\n"), 0o644)
	os.WriteFile(cand, []byte(`{"set":"a","id":"1","error":"load: no body","gold_words":10,"out_words":0,"matched_words":0,"blocks":0,"kept":0,"clean":0,"kept_clean":0}`+"\n"), 0o644)
	code, out, errs := runCmd(t, "compare", ref, cand)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"counted as empty output: 0 in the reference, 1 in the candidate",
		"  all                    1  100.00/100.00/100.00  0.00/0.00/0.00        -100.00 [",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// failWriter fails every write as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestReportUnwritable checks that a command whose report cannot be
// written to standard output (a full disk, > /dev/full) fails and says
// so, where it wrote the report without checking each write: compare
// here, as eval, grid and svm write theirs; --version and a command's
// help as well.
func TestReportUnwritable(t *testing.T) {
	dir := t.TempDir()
	nodes := train.NodeScores{TP: 3, FP: 1, TN: 5, FN: 2}
	ps := []train.PageScore{pageScore("a", "1", 100, 100, 90, nodes), pageScore("a", "2", 50, 60, 45, nodes)}
	rp := writeLines(t, dir, "ref.jsonl", ps)
	cp := writeLines(t, dir, "cand.jsonl", ps)
	for _, args := range [][]string{{"compare", rp, cp}, {"--version"}, {"grid", "-h"}} {
		var stderr strings.Builder
		out := &pipeWriter{w: failWriter{}, cancel: func(error) {}}
		code := runMain(context.Background(), args, out, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "writing standard output") || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v to a full disk: exit %d, stderr %q; want 1 and the write error", args, code, stderr.String())
		}
		// The same to a writable standard output succeeds.
		var ok strings.Builder
		if code := runMain(context.Background(), args, &pipeWriter{w: &ok, cancel: func(error) {}}, &stderr); code != 0 || ok.Len() == 0 {
			t.Errorf("%v: exit %d with %d bytes out; want 0 and a report", args, code, ok.Len())
		}
	}
}
