package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/train"
)

func init() {
	register(&command{
		name:    "compare",
		summary: "paired differences of two eval --pages files (a candidate minus a reference), with bootstrap intervals",
		run:     runCompare,
	})
}

const compareHelp = `usage: fiasco compare [options] REFERENCE CANDIDATE [REFERENCE CANDIDATE ...]

Reads two files written by "fiasco eval --pages" over the same pages (each
page once in each, matched by set and ID, in any order) and prints the
candidate's figures minus the reference's: word P, R and F (micro, as eval
counts them) over all pages and over each data set's pages, each with a
95% interval from a paired bootstrap over pages (every resample draws the
same pages for both) and P(<=0), the share of resamples where the
candidate is not ahead. A page that failed to load counts as eval counted
it (empty output).

More pairs (e.g. the same comparison at --seed 1, 2 and 3 of a cross-
validation, whose figures move with the seed) are compared one by one,
then their F differences summed up: a gain that holds at one seed and not
at another is not yet a gain.`

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", compareHelp)
	resamples := fs.Int("bootstrap", 1000, "bootstrap resamples over pages")
	seed := fs.Uint64("seed", 1, "seed of the resamples")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos)%2 != 0 {
		return usagef("compare", "want pairs of --pages files, REFERENCE CANDIDATE, got %d file(s)", len(pos))
	}
	if *resamples < 1 {
		return usagef("compare", "--bootstrap %d: want 1 or more", *resamples)
	}
	var fDiffs []float64
	for i := 0; i < len(pos); i += 2 {
		if err := ctx.Err(); err != nil {
			return err
		}
		ref, err := readPageScores(pos[i])
		if err != nil {
			return err
		}
		cand, err := readPageScores(pos[i+1])
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		d, err := comparePair(stdout, pos[i], pos[i+1], ref, cand, *resamples, *seed)
		if err != nil {
			return err
		}
		fDiffs = append(fDiffs, d)
	}
	if len(fDiffs) > 1 {
		sum, lo, hi := 0.0, fDiffs[0], fDiffs[0]
		for _, d := range fDiffs {
			sum += d
			lo, hi = min(lo, d), max(hi, d)
		}
		fmt.Fprintf(stdout, "\nword F, candidate minus reference, over %d pairs: mean %+.2f, from %+.2f to %+.2f\n",
			len(fDiffs), 100*sum/float64(len(fDiffs)), 100*lo, 100*hi)
	}
	return nil
}

// comparePair prints one pair's figures and returns the F difference of
// all pages (a fraction).
func comparePair(w io.Writer, refName, candName string, ref, cand []train.PageScore, resamples int, seed uint64) (float64, error) {
	all, err := train.PairedBootstrapScores(cand, ref, resamples, seed)
	if err != nil {
		return 0, fmt.Errorf("%s and %s: %w", refName, candName, err)
	}
	fmt.Fprintf(w, "%s minus %s (%d pages; 95%% intervals, %d resamples, seed %d; P(<=0): share of resamples where it is not ahead)\n",
		candName, refName, all.Pages, all.Resamples, seed)
	fmt.Fprintf(w, "  %-18s %5s  %-20s  %-20s  %-22s  %s\n", "pages", "n", "reference P/R/F", "candidate P/R/F", "F difference [95%]", "P(<=0)")
	line := func(name string, r, c []train.PageScore, d train.Difference) {
		rc, cc := total(r), total(c)
		fmt.Fprintf(w, "  %-18s %5d  %-20s  %-20s  %+6.2f [%+.2f, %+.2f]  %.3f\n", name, len(r),
			prf(rc), prf(cc), 100*d.Value, 100*d.Lo, 100*d.Hi, d.PNotAbove)
	}
	line("all", ref, cand, all.WordF)
	var order []string
	bySet := map[string][2][]train.PageScore{}
	for _, p := range ref {
		g, ok := bySet[p.Set]
		if !ok {
			order = append(order, p.Set)
		}
		g[0] = append(g[0], p)
		bySet[p.Set] = g
	}
	for _, p := range cand {
		g := bySet[p.Set]
		g[1] = append(g[1], p)
		bySet[p.Set] = g
	}
	if len(order) > 1 {
		for _, s := range order {
			g := bySet[s]
			d, err := train.PairedBootstrapScores(g[1], g[0], resamples, seed)
			if err != nil {
				return 0, fmt.Errorf("%s and %s: %w", refName, candName, err)
			}
			line(s, g[0], g[1], d.WordF)
		}
	}
	fmt.Fprintf(w, "  all pages: word P %+.2f [%+.2f, %+.2f], word R %+.2f [%+.2f, %+.2f]\n",
		100*all.WordP.Value, 100*all.WordP.Lo, 100*all.WordP.Hi, 100*all.WordR.Value, 100*all.WordR.Lo, 100*all.WordR.Hi)
	return all.WordF.Value, nil
}

func total(ps []train.PageScore) score.Counts {
	var c score.Counts
	for _, p := range ps {
		c.Gold += p.Words.Gold
		c.Out += p.Words.Out
		c.Matched += p.Words.Matched
	}
	return c
}

func prf(c score.Counts) string {
	return fmt.Sprintf("%.2f/%.2f/%.2f", 100*c.P(), 100*c.R(), 100*c.F())
}

// readPageScores reads a file of eval --pages lines back into page
// scores: the word counts as written, and the block counts as node
// scores.
func readPageScores(path string) ([]train.PageScore, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []train.PageScore
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l pageLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: not a line of eval --pages: %v", path, n, err)
		}
		if l.Set == "" && l.ID == "" {
			return nil, fmt.Errorf("%s:%d: not a line of eval --pages: no set or id", path, n)
		}
		if err := l.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: page %s/%s: %v", path, n, l.Set, l.ID, err)
		}
		tp := l.TP
		fp, fn := l.Kept-tp, l.Clean-tp
		out = append(out, train.PageScore{Set: l.Set, ID: l.ID,
			Words: score.Counts{Gold: l.Gold, Out: l.Out, Matched: l.Matched},
			Nodes: train.NodeScores{TP: tp, FP: fp, FN: fn, TN: l.Blocks - tp - fp - fn}})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no pages", path)
	}
	return out, nil
}

// check reports counts that no page can have.
func (l *pageLine) check() error {
	switch {
	case l.Gold < 0 || l.Out < 0 || l.Matched < 0 || l.Blocks < 0 || l.Kept < 0 || l.Clean < 0 || l.TP < 0:
		return fmt.Errorf("a negative count")
	case l.Matched > l.Out || l.Matched > l.Gold:
		return fmt.Errorf("matched_words %d above out_words %d or gold_words %d", l.Matched, l.Out, l.Gold)
	case l.TP > l.Kept || l.TP > l.Clean || l.Kept+l.Clean-l.TP > l.Blocks:
		return fmt.Errorf("block counts that do not add up (blocks %d, kept %d, clean %d, kept_clean %d)", l.Blocks, l.Kept, l.Clean, l.TP)
	}
	return nil
}
