package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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

func page(set, id string, gold, out, matched int, n train.NodeScores) train.PageScore {
	return train.PageScore{Set: set, ID: id, Words: score.Counts{Gold: gold, Out: out, Matched: matched}, Nodes: n}
}

// TestComparePages checks that compare reads back what eval --pages
// writes and prints the paired difference the counts give by hand.
func TestComparePages(t *testing.T) {
	dir := t.TempDir()
	nodes := train.NodeScores{TP: 3, FP: 1, TN: 5, FN: 2}
	ref := []train.PageScore{
		page("a", "1", 100, 100, 90, nodes),
		page("a", "2", 50, 60, 45, nodes),
		page("b", "1", 200, 180, 170, nodes),
	}
	// The candidate: page a/1 gains 5 matched words, the rest as before;
	// written in another order.
	cand := []train.PageScore{ref[2], page("a", "1", 100, 100, 95, nodes), ref[1]}
	rp := writeLines(t, dir, "ref.jsonl", ref)
	cp := writeLines(t, dir, "cand.jsonl", cand)

	got, err := readPageScores(rp)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ref) {
		t.Errorf("read back %+v, want %+v", got, ref)
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
		"  b                      1  94.44/85.00/89.47     94.44/85.00/89.47      +0.00 [+0.00, +0.00]  1.000",
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

func trim2(x float64) string {
	b, _ := json.Marshal(float64(int(x*100+0.5)) / 100)
	return string(b)
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	nodes := train.NodeScores{TP: 1, FP: 1, TN: 1, FN: 1}
	ref := writeLines(t, dir, "ref.jsonl", []train.PageScore{page("a", "1", 10, 10, 9, nodes), page("a", "2", 10, 10, 9, nodes)})
	short := writeLines(t, dir, "short.jsonl", []train.PageScore{page("a", "1", 10, 10, 9, nodes)})
	other := writeLines(t, dir, "other.jsonl", []train.PageScore{page("a", "1", 10, 10, 9, nodes), page("a", "3", 10, 10, 9, nodes)})
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"set":"a","id":"1","gold_words":10,"out_words":10,"matched_words":9}`+"\n"+"not json\n"), 0o644)
	wrong := filepath.Join(dir, "wrong.jsonl")
	os.WriteFile(wrong, []byte(`{"set":"a","id":"1","gold_words":10,"out_words":5,"matched_words":9}`+"\n"), 0o644)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{ref}, 2, "want pairs of --pages files"},
		{[]string{ref, ref, ref}, 2, "got 3 file(s)"},
		{[]string{"--bootstrap", "0", ref, ref}, 2, "--bootstrap 0"},
		{[]string{ref, filepath.Join(dir, "missing.jsonl")}, 1, "missing.jsonl: no such file"},
		{[]string{ref, short}, 1, "paired bootstrap of 1 and 2 pages"},
		{[]string{ref, other}, 1, "other.jsonl: train: page a/2 is not in both results once"},
		{[]string{ref, bad}, 1, "bad.jsonl:2: not a line of eval --pages"},
		{[]string{ref, wrong}, 1, "wrong.jsonl:1: page a/1: matched_words 9 above out_words 5"},
		{[]string{ref, empty}, 1, "empty.jsonl: no pages"},
	} {
		code, _, errs := runCmd(t, "compare", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("compare %q: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}
