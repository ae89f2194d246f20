package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModernGolden scores the embedded text model on the pages as written
// today (testdata/modern: fourteen pages with CleanEval-format gold that
// no model trains on) and compares each page's words of gold, of output
// and matched with a golden file, so that a change to what the cleaner
// keeps on pages of today shows in review (go test -update rewrites it).
func TestModernGolden(t *testing.T) {
	pages := filepath.Join(t.TempDir(), "pages.jsonl")
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--data", "../../testdata/modern", "--pages", pages)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(pages)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %6s %6s %7s %6s %6s %6s\n", "page", "gold", "out", "matched", "P", "R", "F")
	var gold, outWords, matched, n int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p struct {
			ID           string  `json:"id"`
			GoldWords    int     `json:"gold_words"`
			OutWords     int     `json:"out_words"`
			MatchedWords int     `json:"matched_words"`
			P            float64 `json:"p"`
			R            float64 `json:"r"`
			F            float64 `json:"f"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%-4s %6d %6d %7d %6.2f %6.2f %6.2f\n", p.ID, p.GoldWords, p.OutWords, p.MatchedWords, p.P, p.R, p.F)
		gold, outWords, matched, n = gold+p.GoldWords, outWords+p.OutWords, matched+p.MatchedWords, n+1
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 14 {
		t.Fatalf("%d pages scored, want 14:\n%s", n, out)
	}
	fmt.Fprintf(&b, "%-4s %6d %6d %7d\n", "all", gold, outWords, matched)
	if !strings.Contains(out, "model micro") {
		t.Errorf("no report:\n%s", out)
	}
	golden(t, "modern.text", b.String())
}
