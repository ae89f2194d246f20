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

// TestJapaneseProse: a Japanese blog archive (testdata/ja-diary.html)
// whose five entries' running text is seen as prose, with and without
// rendering. Written without spaces, a paragraph of Japanese was one
// token of no sentence: the models dropped it as a link-like scrap, and
// the prose floor never saw prose (fiasco before 2026-11-30 kept one of
// the five paragraphs without rendering and none rendered, whatever the
// floor's share). The test asks the floor to keep prose wherever the
// model keeps under nine tenths of it: all five paragraphs must come
// out. What the models keep at their own share is logged, not asserted:
// none of the training pages is Japanese, and a retraining moves it (the
// text model kept four before the retraining of 2026-12-01 and keeps
// three; the rendered model kept none, the floor then keeping all five,
// and keeps one; RESULTS.md, "What a reader sees, mended").
func TestJapaneseProse(t *testing.T) {
	for _, mode := range []string{"--no-render", "--render"} {
		if mode == "--render" {
			needChromium(t)
		}
		for _, share := range []string{"", "0.9"} {
			args := []string{"clean", mode}
			if share != "" {
				args = append(args, "--floor-share", share)
			}
			code, out, errs := fiasco(t, append(args, "../../testdata/ja-diary.html")...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", mode, code, errs)
			}
			kept := 0
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "<p> ") && strings.HasSuffix(line, "。") && len([]rune(line)) > 40 {
					kept++
				}
			}
			switch {
			case share == "":
				t.Logf("%s, the model's floor share: %d of the 5 paragraphs kept", mode, kept)
			case kept < 5:
				t.Errorf("%s --floor-share %s: %d of the 5 paragraphs kept:\n%s", mode, share, kept, out)
			}
		}
	}
}
