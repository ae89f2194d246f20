// Package quality compares the word-level quality of fiasco's cleaning
// with that of two Go peers under the "article" policy: keep the main
// article only (headline and article text; no comments, related links or
// supplemental material). It is a module of its own so that the peers
// stay out of fiasco's go.mod and binary, and it holds test files only,
// so that fiasco's architecture test (internal/arch, which walks every
// directory for non-test Go files) has no package to place.
//
// Every tool starts from the bytes of a page file and ends with a plain
// text, which is scored against the page's gold text with fiasco's own
// CleanEval scorer (package score: word-level precision, recall and F,
// segment markers dropped), the gold read by fiasco's package gold under
// gold.Article's label mapping (L3S-GN1: headline + full text; Dragnet:
// the content before the comments marker). The tools:
//
//   - fiasco-article: a pipeline.Cleaner with the embedded article model
//     (classify.DefaultFor("article", false), loaded at run time), then
//     Result.Text() — "fiasco clean --no-render --policy article --format
//     text" for one page;
//   - fiasco-corpus: the same with the embedded corpus model
//     (classify.Default(false), what pipeline.New(ctx, false) uses), a
//     reference: it was trained for CleanEval's policy, comments included;
//   - go-trafilatura v1.12.2: trafilatura.Extract over the page's bytes
//     with ExcludeComments (its --no-comments), its fallback (go-readability
//     and go-domdistiller candidates) on and off, other options at their
//     defaults — what its command line does for a file — then
//     ExtractResult.ContentText;
//   - go-readability v2.1.2 (readeck): FromReader over the page's bytes,
//     then Article.RenderText, as in bench/readability;
//   - keep-everything: every block of fiasco's segmentation of the page
//     (the text fiasco-corpus classified), the no-cleaning baseline of
//     fiasco's own reports.
//
// The peers return the page's title apart from its text (ContentText and
// RenderText seldom hold the headline, which the gold holds), so each peer
// is also scored with its title line put before its text ("+ title"),
// from the same run.
//
// A tool that returns an error or panics on a page counts as a failure and
// is scored as empty output. Pages run one at a time (one worker), every
// tool on a page before the next page, after one untimed warm-up call of
// each tool; the time per page is the wall time of the tool's call.
package quality

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode"

	goread "codeberg.org/readeck/go-readability/v2"
	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/score"
	"github.com/fiasco-project/fiasco/train"
	trafilatura "github.com/markusmobius/go-trafilatura"
)

// DefaultDataDir returns ../shared/data beside the fiasco module root
// (three directories above this package).
func DefaultDataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
}

// SetSpec names a data set of the comparison: a directory of the data
// root and, for a set with a published split, the split's name.
type SetSpec struct {
	Name, Dir, Split string
}

// KnownSets are the sets -sets can name.
var KnownSets = []SetSpec{
	{Name: "l3s", Dir: "l3s-gn1"},
	{Name: "dragnet-test", Dir: "dragnet", Split: "test"},
	{Name: "dragnet-train", Dir: "dragnet", Split: "training"},
	{Name: "dragnet", Dir: "dragnet"},
}

// LookupSet returns the spec of a set name.
func LookupSet(name string) (SetSpec, error) {
	var names []string
	for _, s := range KnownSets {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return SetSpec{}, fmt.Errorf("unknown set %q (known: %s)", name, strings.Join(names, ", "))
}

// Page is one page of a set: its bytes and its gold reference text under
// the article policy.
type Page struct {
	Set, ID string
	Path    string
	Data    []byte
	Ref     string // gold.Gold.Reference() under gold.Article.Options()
}

// LoadSet reads the pages of a set under root that have a gold file
// (gold.Pairs), restricted to the set's split if it has one, in ID order;
// limit > 0 keeps the first limit pages. It returns an error wrapping
// fs.ErrNotExist when the set's directory is absent.
func LoadSet(root string, s SetSpec, limit int) ([]Page, error) {
	dir := filepath.Join(root, s.Dir)
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	pairs, err := gold.Pairs(dir)
	if err != nil {
		return nil, err
	}
	if s.Split != "" {
		if pairs, err = FilterSplit(filepath.Join(dir, "split", s.Split+".txt"), pairs); err != nil {
			return nil, err
		}
	}
	if limit > 0 && len(pairs) > limit {
		pairs = pairs[:limit]
	}
	opt := gold.Article.Options()
	pages := make([]Page, 0, len(pairs))
	for _, p := range pairs {
		g, err := gold.ReadOptions(p.Gold, p.Format, opt)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p.HTML)
		if err != nil {
			return nil, err
		}
		pages = append(pages, Page{Set: s.Name, ID: p.ID, Path: p.HTML, Data: data, Ref: g.Reference()})
	}
	return pages, nil
}

// FilterSplit keeps the pairs whose ID is listed in the split file (one
// ID per line, as Dragnet's split/test.txt; a trailing ".html" is
// ignored).
func FilterSplit(path string, pairs []gold.Pair) ([]gold.Pair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, id := range strings.Fields(string(data)) {
		keep[strings.TrimSuffix(id, ".html")] = true
	}
	var out []gold.Pair
	for _, p := range pairs {
		if keep[p.ID] {
			out = append(out, p)
		}
	}
	return out, nil
}

// Output is what a tool made of a page.
type Output struct {
	Text  string
	Title string // the page title the tool reports apart from Text; "" if none
	// All is, for fiasco, the text of every block (the keep-everything
	// baseline); "" otherwise.
	All string
	Err error
}

// Tool cleans one page.
type Tool struct {
	Name string
	// Title says that the tool reports a title apart from its text, so
	// that a "+ title" variant is scored.
	Title bool
	Run   func(p *Page) Output
	Close func() error
}

// run calls t.Run, turning a panic into an error, and times the call.
func (t *Tool) run(p *Page) (out Output, d time.Duration) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			out = Output{Err: fmt.Errorf("panic: %v", r)}
		}
		d = time.Since(start)
	}()
	return t.Run(p), 0
}

// Fiasco returns a fiasco tool: a pipeline.Cleaner with the embedded model
// of a policy ("article" or "corpus"), without rendering, then
// Result.Text(). Its Output.All is the text of every block.
func Fiasco(ctx context.Context, policy string) (*Tool, *classify.Model, error) {
	m, err := classify.DefaultFor(policy, false)
	if err != nil {
		return nil, nil, err
	}
	c := &pipeline.Cleaner{Model: m}
	return &Tool{
		Name: "fiasco-" + policy,
		Run: func(p *Page) Output {
			res, err := c.Clean(ctx, p.Path, p.Data)
			if err != nil {
				return Output{Err: err}
			}
			all := *res
			all.Keep = make([]bool, len(res.Blocks))
			for i := range all.Keep {
				all.Keep[i] = true
			}
			return Output{Text: res.Text(), All: all.Text()}
		},
		Close: c.Close,
	}, m, nil
}

// Trafilatura returns go-trafilatura as its command line runs it on a
// file with --no-comments (and --no-fallback when !fallback):
// trafilatura.Extract over the page's bytes, ContentText.
func Trafilatura(fallback bool) *Tool {
	name := "go-trafilatura"
	if !fallback {
		name += " (no fallback)"
	}
	opts := trafilatura.Options{EnableFallback: fallback, ExcludeComments: true}
	return &Tool{
		Name:  name,
		Title: true,
		Run: func(p *Page) Output {
			res, err := trafilatura.Extract(bytes.NewReader(p.Data), opts)
			if err != nil {
				return Output{Err: err}
			}
			return Output{Text: res.ContentText, Title: res.Metadata.Title}
		},
		Close: func() error { return nil },
	}
}

// Readability returns readeck's go-readability v2 as bench/readability
// runs it: FromReader over the page's bytes, Article.RenderText. A page
// where it finds no article gives empty text, not an error.
func Readability() *Tool {
	return &Tool{
		Name:  "go-readability",
		Title: true,
		Run: func(p *Page) Output {
			art, err := goread.FromReader(bytes.NewReader(p.Data), nil)
			if err != nil {
				return Output{Err: err}
			}
			if art.Node == nil {
				return Output{Title: art.Title()}
			}
			var b strings.Builder
			if err := art.RenderText(&b); err != nil {
				return Output{Err: err}
			}
			return Output{Text: b.String(), Title: art.Title()}
		},
		Close: func() error { return nil },
	}
}

// withTitle puts a title line before a text.
func withTitle(title, text string) string {
	title = strings.TrimSpace(title)
	if title == "" {
		return text
	}
	if text == "" {
		return title + "\n"
	}
	return title + "\n\n" + text
}

// Row is one tool's (or variant's) figures on one set.
type Row struct {
	Name     string
	Set      string
	Pages    int
	Failures int // errors and panics, scored as empty output
	Empty    int // pages with no words of output, failures included
	// URLLines counts pages whose output has a line starting with "URL",
	// which the scorer drops as CleanEval's header line.
	URLLines int
	Results  []score.Result
	Scores   []train.PageScore
	Time     time.Duration // total wall time of the tool's calls; 0: no run of its own
	Summary  *train.Summary
}

// MacroF is the mean of the pages' word F, in [0, 1].
func (r *Row) MacroF() float64 { return score.Macro(r.Results).F }

// MsPerPage is the mean wall time per page in milliseconds.
func (r *Row) MsPerPage() float64 {
	return r.Time.Seconds() * 1000 / float64(r.Pages)
}

func (r *Row) add(p *Page, text string, failed bool) {
	res := score.Score(text, p.Ref, score.Options{})
	r.Pages++
	if failed {
		r.Failures++
	}
	if res.OutWords == 0 {
		r.Empty++
	}
	if hasURLLine(text) {
		r.URLLines++
	}
	r.Results = append(r.Results, res)
	r.Scores = append(r.Scores, train.PageScore{Set: p.Set, ID: p.ID,
		Words: score.Counts{Matched: res.Matched, Out: res.OutWords, Gold: res.GoldWords}})
}

// SetResult holds the rows of one set in table order.
type SetResult struct {
	Set   string
	Pages int
	Rows  []*Row
}

// Row returns the row of a name, or nil.
func (s *SetResult) Row(name string) *Row {
	for _, r := range s.Rows {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// KeepAll is the name of the keep-everything baseline row.
const KeepAll = "keep everything"

// TitleSuffix marks the rows of a peer scored with its title line first.
const TitleSuffix = " + title"

// Warm calls every tool once on a page, untimed (go-trafilatura compiles
// its WebAssembly regular expressions on first use).
func Warm(tools []*Tool, p *Page) {
	for _, t := range tools {
		t.run(p)
	}
}

// RunSet runs every tool on every page, one page at a time, and scores the
// outputs; each (optional) call of progress follows a page. fiasco's
// keep-everything baseline comes from the first tool with Output.All.
func RunSet(set string, pages []Page, tools []*Tool, resamples int, seed uint64, progress func(done int)) (*SetResult, error) {
	sr := &SetResult{Set: set, Pages: len(pages)}
	rows := map[string]*Row{}
	row := func(name string) *Row {
		if r, ok := rows[name]; ok {
			return r
		}
		r := &Row{Name: name, Set: set}
		rows[name] = r
		sr.Rows = append(sr.Rows, r)
		return r
	}
	allFrom := ""
	for _, t := range tools {
		row(t.Name)
		if allFrom == "" && strings.HasPrefix(t.Name, "fiasco") {
			allFrom = t.Name
		}
	}
	for _, t := range tools {
		if t.Title {
			row(t.Name + TitleSuffix)
		}
	}
	if allFrom != "" {
		row(KeepAll)
	}
	for i := range pages {
		p := &pages[i]
		for _, t := range tools {
			out, d := t.run(p)
			failed := out.Err != nil
			r := row(t.Name)
			r.Time += d
			r.add(p, out.Text, failed)
			if t.Title {
				row(t.Name+TitleSuffix).add(p, withTitle(out.Title, out.Text), failed)
			}
			if t.Name == allFrom {
				row(KeepAll).add(p, out.All, failed)
			}
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	for _, r := range sr.Rows {
		s, err := train.BootstrapScores(r.Scores, resamples, seed)
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", set, r.Name, err)
		}
		r.Summary = s
	}
	return sr, nil
}

// Paired is a paired bootstrap of two rows of a set: A minus B.
type Paired struct {
	Set, A, B string
	Diff      *train.PairedSummary
}

// PairedF compares row a with each of bs on the same pages.
func PairedF(sr *SetResult, a string, bs []string, resamples int, seed uint64) ([]Paired, error) {
	ra := sr.Row(a)
	if ra == nil {
		return nil, fmt.Errorf("%s: no row %q", sr.Set, a)
	}
	var out []Paired
	for _, b := range bs {
		rb := sr.Row(b)
		if rb == nil {
			continue
		}
		d, err := train.PairedBootstrapScores(ra.Scores, rb.Scores, resamples, seed)
		if err != nil {
			return nil, fmt.Errorf("%s, %s - %s: %w", sr.Set, a, b, err)
		}
		out = append(out, Paired{Set: sr.Set, A: a, B: b, Diff: d})
	}
	return out, nil
}

func pct(e train.Estimate) string {
	return fmt.Sprintf("%.1f [%.1f, %.1f]", 100*e.Value, 100*e.Lo, 100*e.Hi)
}

// WriteTable writes the rows of the sets as a Markdown table, figures in
// percent with 95% bootstrap intervals.
func WriteTable(w io.Writer, sets []*SetResult) {
	fmt.Fprintln(w, "| set | tool | pages | failures | empty | word P | word R | word F (micro) | macro F | ms/page |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|---|---:|---:|")
	for _, sr := range sets {
		for _, r := range sr.Rows {
			ms := "same run"
			if r.Time > 0 {
				ms = fmt.Sprintf("%.1f", r.MsPerPage())
			}
			s := r.Summary
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %s | %s | %s | %.1f | %s |\n",
				sr.Set, r.Name, r.Pages, r.Failures, r.Empty, pct(s.WordP), pct(s.WordR), pct(s.WordF), 100*r.MacroF(), ms)
		}
	}
	sep := "\n"
	for _, sr := range sets {
		for _, r := range sr.Rows {
			if r.URLLines > 0 {
				fmt.Fprintf(w, "%s%s, %s: %d pages with an output line starting with \"URL\", which the scorer drops\n", sep, sr.Set, r.Name, r.URLLines)
				sep = ""
			}
		}
	}
}

// WritePaired writes paired differences of word P, R and F as a Markdown
// table, in percentage points with 95% bootstrap intervals and the share
// of resamples in which A did not beat B on F.
func WritePaired(w io.Writer, ps []Paired) {
	fmt.Fprintln(w, "| set | A − B | ΔP | ΔR | ΔF | P(ΔF ≤ 0) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---:|")
	d := func(x train.Difference) string {
		return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*x.Value, 100*x.Lo, 100*x.Hi)
	}
	for _, p := range ps {
		fmt.Fprintf(w, "| %s | %s − %s | %s | %s | %s | %.3f |\n",
			p.Set, p.A, p.B, d(p.Diff.WordP), d(p.Diff.WordR), d(p.Diff.WordF), p.Diff.WordF.PNotAbove)
	}
}

// WritePerPage writes every row's page figures as tab-separated lines:
// set, tool, page ID, matched, output and gold words, failure.
func WritePerPage(w io.Writer, sets []*SetResult) error {
	if _, err := fmt.Fprintln(w, "set\ttool\tid\tmatched\tout\tgold\tF"); err != nil {
		return err
	}
	for _, sr := range sets {
		for _, r := range sr.Rows {
			for _, s := range r.Scores {
				if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%d\t%.4f\n",
					sr.Set, r.Name, s.ID, s.Words.Matched, s.Words.Out, s.Words.Gold, s.Words.F()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hasURLLine reports whether a line of text starts with "URL" after white
// space, as score.Tokens drops such lines.
func hasURLLine(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "URL") {
			return true
		}
	}
	return false
}

// isNotExist reports whether err says a data directory is absent.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
