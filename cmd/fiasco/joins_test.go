package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEvalJoinedGold: a page wrapped by hand in lines ending in LF alone,
// whose gold joins the words at the line ends as CleanEval's annotation
// tool did, is scored as usual and also against the gold with the joins
// split, where what the page shows matches; --pages counts the joins. The
// same page with CR LF line ends has gold with the spaces, and the report
// has no such row.
func TestEvalJoinedGold(t *testing.T) {
	lines := []string{
		"The river rose through the night and by morning the lower",
		"town was under a metre of water, the worst flood in forty",
		"years, and the council opened the school hall to anyone who",
		"needed a dry place to sleep while the pumps were brought in.",
	}
	page := func(eol string) string {
		return "<html><head><title>Flood</title></head><body><table><tr><td><a href=/>Home</a> | <a href=/news>News</a></td></tr>" +
			"<tr><td>\n" + strings.Join(lines, eol) + eol + "</td></tr></table></body></html>"
	}
	joined := "URL: http://example.com/flood\n<p>" + strings.Join(lines, "") + "\n"
	spaced := "URL: http://example.com/flood\n<p>" + strings.Join(lines, " ") + "\n"
	for _, c := range []struct {
		name, eol, gold string
		joins           int
	}{{"LF", "\n", joined, 3}, {"CRLF", "\r\n", spaced, 0}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeGoldSet(t, dir, map[string][2]string{"flood": {page(c.eol), c.gold}})
			pages := filepath.Join(t.TempDir(), "pages.jsonl")
			code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--data", dir, "--pages", pages)
			if code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			ls := readPageLines(t, pages)
			if len(ls) != 1 || ls[0].Joined != c.joins {
				t.Fatalf("--pages %+v: want one page with gold_joined %d", ls, c.joins)
			}
			row := regexp.MustCompile(`(?m)^  model micro, gold's joins split\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)$`).FindStringSubmatch(out)
			if c.joins == 0 {
				if row != nil || strings.Contains(out, "joins split") {
					t.Errorf("no joins, yet the report has them:\n%s", out)
				}
				return
			}
			// Recall, which the model's decision on the page's link row
			// does not move: the page's 4 lines of prose hold all its gold;
			// kept, they match every gold word but the 3 joined against the
			// gold as written, and every one against it split.
			m := microRRe.FindStringSubmatch(out)
			if row == nil || m == nil || !strings.Contains(out, "3 gold words on 1 page join two words") {
				t.Fatalf("no micro row, joins row or note in the report:\n%s", out)
			}
			plain, err1 := strconv.ParseFloat(m[1], 64)
			split, err2 := strconv.ParseFloat(row[2], 64)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if split != 100 || plain >= 95 {
				t.Errorf("micro R %v against the gold as written, %v against it split: want below 95 and 100 (the prose kept)\n%s", plain, split, out)
			}
		})
	}
}
