package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fiasco-project/fiasco/classify"
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
page once in each, matched by set and ID, in any order, scored against
the same gold: a page whose gold_words differ, as under another --policy,
is an error) and prints the
candidate's figures minus the reference's, as eval counts them: word F
(micro) over all pages and, when there are several data sets, over each
set's pages, each with a 95% interval from a paired bootstrap over pages
(every resample draws the same pages for both) and P(<=0), the share of
resamples where the candidate is not ahead; then word P, word R and node
F over all pages, with intervals. A page that failed to load counts as
eval counted it (empty output); the header says how many did. Each file's
own model is compared: the --versus figures that "eval --versus --pages"
also writes are not read (that eval printed their paired differences
itself).

More pairs (e.g. the same comparison at "eval --seed" 1, 2 and 3 of a
cross-validation, whose figures move with the seed) are compared one by
one, then the mean, lowest and highest of their F differences are
printed: a gain that holds at one seed and not at another is not yet a
gain.`

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
	if *resamples < minResamples {
		return usagef("compare", "--bootstrap %d: want %d or more (fewer give no 95%% interval worth the name)", *resamples, minResamples)
	}
	var fDiffs []float64
	for i := 0; i < len(pos); i += 2 {
		if err := ctx.Err(); err != nil {
			return err
		}
		ref, err := readPages(pos[i])
		if err != nil {
			return err
		}
		cand, err := readPages(pos[i+1])
		if err != nil {
			return err
		}
		if err := samePages(ref, cand); err != nil {
			return err
		}
		if a, errA := os.Stat(pos[i]); errA == nil {
			if b, errB := os.Stat(pos[i+1]); errB == nil && os.SameFile(a, b) {
				fmt.Fprintf(stderr, "fiasco compare: note: %s and %s are the same file: every difference is 0\n", pos[i], pos[i+1])
			}
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		d, err := comparePair(stdout, ref, cand, *resamples, *seed)
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

// pagesFile is one --pages file read back.
type pagesFile struct {
	path   string
	scores []train.PageScore
	line   map[[2]string]int // the line of each page, by set and ID
	index  map[[2]string]int // its index in scores
	failed int               // pages that failed to load (scored as empty output)
}

// samePages reports, naming the files, a page that is not in both, or
// one scored against other gold in each (another --policy, a gold file
// changed between the runs): a difference there is the gold's, not the
// model's.
func samePages(ref, cand *pagesFile) error {
	for _, c := range [][2]*pagesFile{{ref, cand}, {cand, ref}} {
		f, other := c[0], c[1]
		for _, p := range f.scores {
			k := [2]string{p.Set, p.ID}
			j, ok := other.line[k]
			if !ok {
				return fmt.Errorf("%s:%d: page %s/%s is not in %s: compare wants the same pages in both", f.path, f.line[k], p.Set, p.ID, other.path)
			}
			if g := other.scores[other.index[k]].Words.Gold; g != p.Words.Gold {
				return fmt.Errorf("%s:%d: page %s/%s has %d gold words, %d in %s:%d: the two runs scored it against other gold (another --policy, or its gold changed); compare wants the same gold in both", f.path, f.line[k], p.Set, p.ID, p.Words.Gold, g, other.path, j)
			}
		}
	}
	return nil
}

// comparePair prints one pair's figures and returns the F difference of
// all pages (a fraction).
func comparePair(w io.Writer, rf, cf *pagesFile, resamples int, seed uint64) (float64, error) {
	ref, cand := rf.scores, cf.scores
	all, err := train.PairedBootstrapScores(cand, ref, resamples, seed)
	if err != nil {
		return 0, fmt.Errorf("%s and %s: %w", rf.path, cf.path, err)
	}
	fmt.Fprintf(w, "%s minus %s (%s; 95%% intervals, %d resamples, seed %d; P(<=0): share of resamples where it is not ahead)\n",
		cf.path, rf.path, plural(all.Pages, "page"), all.Resamples, seed)
	if rf.failed > 0 || cf.failed > 0 {
		fmt.Fprintf(w, "  pages that failed to load, counted as empty output: %d in the reference, %d in the candidate\n", rf.failed, cf.failed)
	}
	fmt.Fprintf(w, "  %-18s %5s  %-20s  %-20s  %-22s  %s\n", "pages", "n", "reference P/R/F", "candidate P/R/F", "F difference [95%]", "P(<=0)")
	line := func(name string, r, c []train.PageScore, d train.Difference) {
		rc, _ := train.Total(r)
		cc, _ := train.Total(c)
		fmt.Fprintf(w, "  %-18s %5d  %-20s  %-20s  %+6.2f [%+.2f, %+.2f]  %.3f\n", name, len(r),
			prf(rc), prf(cc), 100*d.Value, 100*d.Lo, 100*d.Hi, d.PNotAbove)
	}
	line("all", ref, cand, all.WordF)
	order, refBySet := train.BySet(ref)
	_, candBySet := train.BySet(cand)
	if len(order) > 1 {
		for _, s := range order {
			r, c := refBySet[s], candBySet[s]
			d, err := train.PairedBootstrapScores(c, r, resamples, seed)
			if err != nil {
				return 0, fmt.Errorf("%s and %s: %w", rf.path, cf.path, err)
			}
			line(s, r, c, d.WordF)
		}
	}
	iv := func(d train.Difference) string {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", 100*d.Value, 100*d.Lo, 100*d.Hi)
	}
	fmt.Fprintf(w, "  all pages: word P %s, word R %s, node F %s\n", iv(all.WordP), iv(all.WordR), iv(all.NodeF))
	return all.WordF.Value, nil
}

func prf(c score.Counts) string {
	return fmt.Sprintf("%.2f/%.2f/%.2f", 100*c.P(), 100*c.R(), 100*c.F())
}

// readPages reads a file of eval --pages lines back: each page's word
// counts as written, and its block counts as node scores.
func readPages(path string) (*pagesFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file only: a pipe (<(...)) read here would lose its head.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if is, _ := classify.IsModelFile(path); is {
			return nil, fmt.Errorf("%s: a fiasco model, not a file of eval --pages (compare takes two runs' --pages files)", path)
		}
		head := make([]byte, 2)
		if n, _ := f.ReadAt(head, 0); n == 2 && head[0] == 0x1f && head[1] == 0x8b {
			return nil, fmt.Errorf("%s: gzip-compressed, not a file of eval --pages (decompress it first)", path)
		}
	}
	out := &pagesFile{path: path, line: map[[2]string]int{}, index: map[[2]string]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		// Gold, shallower than pageLine's gold_words, takes it, so that a
		// line without it can be told from one of 0 words.
		var in struct {
			pageLine
			Gold *int `json:"gold_words"`
		}
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return nil, fmt.Errorf("%s:%d: not a line of eval --pages: %v", path, n, pagesLineErr(sc.Bytes(), err))
		}
		l := &in.pageLine
		if l.Set == "" || l.ID == "" || in.Gold == nil {
			return nil, fmt.Errorf("%s:%d: not a line of eval --pages: want set, id and gold_words", path, n)
		}
		l.Gold = *in.Gold
		k := [2]string{l.Set, l.ID}
		if at, dup := out.line[k]; dup {
			return nil, fmt.Errorf("%s:%d: page %s/%s again (first on line %d)", path, n, l.Set, l.ID, at)
		}
		out.line[k] = n
		if err := l.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: page %s/%s: %v", path, n, l.Set, l.ID, err)
		}
		if l.Error != "" {
			out.failed++
		}
		out.index[k] = len(out.scores)
		tp := l.TP
		fp, fn := l.Kept-tp, l.Clean-tp
		out.scores = append(out.scores, train.PageScore{Set: l.Set, ID: l.ID,
			Words: score.Counts{Gold: l.Gold, Out: l.Out, Matched: l.Matched},
			Nodes: train.NodeScores{TP: tp, FP: fp, FN: fn, TN: l.Blocks - tp - fp - fn}})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out.scores) == 0 {
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

// minResamples is the fewest bootstrap resamples eval and compare take:
// with fewer, the 2.5th and 97.5th percentiles are a resample or two
// each (with 1, an "interval" that may leave out the estimate).
const minResamples = 100

// pagesLineErr says what a line that is no eval --pages line looks like:
// a line of eval --blocks (a block's "block" and "value"), or err.
func pagesLineErr(line []byte, err error) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) == nil {
		if _, ok := m["block"]; ok {
			if _, ok := m["value"]; ok {
				return errors.New("a line of eval --blocks (one block each); compare takes --pages files (one page each)")
			}
		}
	}
	return err
}
