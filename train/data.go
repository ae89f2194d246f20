package train

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Example is one training page: its prepared document, its gold standard and
// the gold share of every block.
type Example struct {
	Set, ID string
	Doc     *pipeline.Doc
	Gold    *gold.Gold
	// Share is, per block, the share of its words aligned to gold content;
	// a block is labelled clean when Share >= LabelThreshold.
	Share []float64
	// Err is why the page could not be prepared (with
	// DataOptions.KeepFailed); Doc is nil then.
	Err error
	// Weight multiplies the SVM's C for the page's blocks (svm.Problem.W):
	// below 1 a page counts for less than a page of the main training
	// data (an extra set's, say). 0 means 1.
	Weight float64
	// Joined counts the gold words that join two words of the page's
	// source across a line feed, and Split is the gold's reference with
	// them split (gold.Gold.SplitLineFeedJoins); "" when there are none.
	Joined int
	Split  string
}

// weight returns e.Weight, 1 for 0.
func (e *Example) weight() float64 {
	if e.Weight == 0 {
		return 1
	}
	return e.Weight
}

// LabelThreshold is the aligned share at or above which a block counts as
// clean in training.
const LabelThreshold = 0.5

// Labels returns +1 (clean) or -1 (dirty) for every block of e.
func (e *Example) Labels() []float64 {
	y := make([]float64, len(e.Share))
	for i, s := range e.Share {
		y[i] = -1
		if s >= LabelThreshold {
			y[i] = 1
		}
	}
	return y
}

// DataOptions configure LoadData.
type DataOptions struct {
	Prepare pipeline.PrepareOptions
	Gold    gold.Options
	Workers int // 0: one per CPU
	Limit   int // > 0: at most this many pages per data set (the first, their IDs sorted as strings: 1, 10, 100, 11)
	// Sample > 0 takes a seeded random sample of at most that many pages
	// of each data set (after Split and Limit), the same for the same
	// SampleSeed.
	Sample     int
	SampleSeed uint64
	Split      string                       // "training" or "test": restricts the sets that publish splits (Dragnet) to that split; the others are used whole
	Each       func(done, total int)        // progress, called from one goroutine
	OnError    func(pair string, err error) // a page that failed; it is left out
	// OnUnpaired, if set, is told of each file that a data set used whole
	// (no Limit, Sample, Split or Skip that leaves pages out) holds
	// without its counterpart (gold.Unpaired), and of all of them where
	// nothing pairs.
	OnUnpaired func(gold.Orphan)
	// Skip leaves out the pages whose "set/id" (the set being the data set
	// directory's last element) matches one of these path.Match patterns,
	// e.g. "cleanportaleval/bbc.co.uk_*", before Limit and Sample; OnSkip,
	// if set, is told of each with the pattern it matched.
	Skip   []string
	OnSkip func(set, id, pattern string)
	// OnWarning, if set, is told of what is odd but not wrong: a split
	// file listing IDs that have no page.
	OnWarning func(msg string)
	// Listed, if set, is told how many pages all the sets hold once they
	// are listed (after Split, Skip, Limit and Sample), before any is
	// prepared: an error it returns ends LoadData with that error, before
	// the work of rendering them (a cross-validation with more folds than
	// pages).
	Listed func(pages int) error
	// KeepFailed keeps pages that failed to load (but whose gold could be
	// read) as Examples with Err set and no Doc, so that an evaluation
	// counts them as empty output instead of skipping them.
	KeepFailed bool
}

// LoadData reads the data sets in dirs (each with html/ and gold/, see
// package gold), prepares every page and aligns its gold standard to its
// blocks. Pages that fail are reported through OnError and left out; the
// error returned is for a data set that cannot be read at all.
func LoadData(ctx context.Context, dirs []string, opt DataOptions) ([]*Example, error) {
	type job struct {
		set  string
		pair gold.Pair
	}
	var jobs []job
	for _, dir := range dirs {
		pairs, err := gold.Pairs(dir) // its errors name the directory or file
		if err != nil {
			return nil, err
		}
		if len(pairs) == 0 {
			// What is there instead says why (pages named otherwise, gold
			// files of other IDs, backups).
			if orphans, err := gold.Unpaired(dir); err == nil && opt.OnUnpaired != nil {
				for _, o := range orphans {
					opt.OnUnpaired(o)
				}
			}
			return nil, fmt.Errorf("data set %s: no html/<id>.html with gold/<id>.* found", dir)
		}
		whole := len(pairs)
		if opt.Split != "" {
			pairs, err = filterSplit(dir, pairs, opt.Split, opt.OnWarning)
			if err != nil {
				return nil, err
			}
		}
		if len(opt.Skip) > 0 {
			if pairs, err = skipPages(gold.SetName(dir), pairs, opt); err != nil {
				return nil, err
			}
		}
		if opt.OnUnpaired != nil && opt.Limit == 0 && opt.Sample == 0 && len(pairs) == whole {
			orphans, err := gold.Unpaired(dir)
			if err != nil {
				return nil, err
			}
			for _, o := range orphans {
				opt.OnUnpaired(o)
			}
		}
		if opt.Limit > 0 && len(pairs) > opt.Limit {
			pairs = pairs[:opt.Limit]
		}
		set := gold.SetName(dir)
		if opt.Sample > 0 && len(pairs) > opt.Sample {
			// Seeded by the set's name too, so that two sets of one size
			// are not sampled at the same positions.
			var sub []gold.Pair
			for _, i := range sampleIndex(len(pairs), opt.Sample, opt.SampleSeed^fnv64(set)) {
				sub = append(sub, pairs[i])
			}
			pairs = sub
		}
		for _, p := range pairs {
			jobs = append(jobs, job{set, p})
		}
	}
	if opt.Listed != nil {
		if err := opt.Listed(len(jobs)); err != nil {
			return nil, err
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]*Example, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = loadExample(ctx, jobs[i].set, jobs[i].pair, opt)
				if ctx.Err() != nil {
					continue // stopped, not done: the progress counts pages done
				}
				if opt.Each != nil {
					mu.Lock()
					done++
					opt.Each(done, len(jobs))
					mu.Unlock()
				}
			}
		}()
	}
dispatch:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ex []*Example
	for i, e := range out {
		if errs[i] != nil && !(opt.KeepFailed && e != nil) {
			if opt.OnError != nil {
				opt.OnError(jobs[i].pair.HTML, errs[i])
			}
			continue
		}
		if errs[i] != nil && opt.OnError != nil {
			opt.OnError(jobs[i].pair.HTML, errs[i])
		}
		ex = append(ex, e)
	}
	return ex, nil
}

func loadExample(ctx context.Context, set string, p gold.Pair, opt DataOptions) (*Example, error) {
	g, err := gold.ReadOptions(p.Gold, p.Format, opt.Gold)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(p.HTML)
	if err != nil {
		return &Example{Set: set, ID: p.ID, Gold: g, Err: err}, err
	}
	e := &Example{Set: set, ID: p.ID, Gold: g}
	if split, n := g.SplitLineFeedJoins(src); n > 0 {
		e.Joined, e.Split = n, split
	}
	if e.Doc, err = pipeline.Prepare(ctx, p.HTML, src, opt.Prepare); err != nil {
		e.Err = err
		return e, err
	}
	e.Share = gold.Label(e.Doc.Blocks, g)
	return e, nil
}

// filterSplit keeps the pairs listed in dir/split/<name>.txt (Dragnet's
// published train/test split: one ID per line). A set without a split/
// directory is kept whole.
//
// A page listed in another split file of dir/split too is an error; IDs
// listed without a page are told to warn.
func filterSplit(dir string, pairs []gold.Pair, name string, warn func(string)) ([]gold.Pair, error) {
	data, err := os.ReadFile(filepath.Join(dir, "split", name+".txt"))
	if errors.Is(err, fs.ErrNotExist) {
		if _, derr := os.Stat(filepath.Join(dir, "split")); errors.Is(derr, fs.ErrNotExist) {
			return pairs, nil // a set without published splits is used whole
		}
	}
	if err != nil {
		return nil, fmt.Errorf("data set %s: split %q: %w", dir, name, err)
	}
	keep := map[string]bool{}
	var listed []string
	for _, id := range strings.Fields(string(data)) {
		id = strings.TrimSuffix(id, ".html")
		if !keep[id] {
			keep[id] = true
			listed = append(listed, id)
		}
	}
	// A page in both training and test would be trained on and tested:
	// refused. (Other files in split/, a list of all pages, say, are no
	// splits.)
	for _, other := range []string{"training", "test"} {
		if other == name {
			continue
		}
		o := filepath.Join(dir, "split", other+".txt")
		od, err := os.ReadFile(o)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("data set %s: %w", dir, err)
		}
		for _, id := range strings.Fields(string(od)) {
			if id = strings.TrimSuffix(id, ".html"); keep[id] {
				return nil, fmt.Errorf("data set %s: page %s is in split %q and in %s: splits must not share pages", dir, id, name, filepath.Base(o))
			}
		}
	}
	have := map[string]bool{}
	var out []gold.Pair
	for _, p := range pairs {
		if keep[p.ID] {
			out = append(out, p)
			have[p.ID] = true
		}
	}
	var missing []string
	for _, id := range listed {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 && warn != nil {
		some := strings.Join(missing[:min(3, len(missing))], ", ")
		if len(missing) > 3 {
			some += ", ..."
		}
		warn(fmt.Sprintf("data set %s: split %q lists %d pages with no html/<id>.html and gold/<id>.* pair (%s)", dir, name, len(missing), some))
	}
	return out, nil
}

// fnv64 is the 64-bit FNV-1a hash of s.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// skipPages leaves out the pairs of set that opt.Skip names.
func skipPages(set string, pairs []gold.Pair, opt DataOptions) ([]gold.Pair, error) {
	var kept []gold.Pair
pairs:
	for _, p := range pairs {
		for _, pat := range opt.Skip {
			ok, err := path.Match(pat, set+"/"+p.ID)
			if err != nil {
				return nil, fmt.Errorf("skip pattern %q: %w", pat, err)
			}
			if ok {
				if opt.OnSkip != nil {
					opt.OnSkip(set, p.ID, pat)
				}
				continue pairs
			}
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 && len(pairs) > 0 {
		return nil, fmt.Errorf("data set %s: the skip patterns leave out every page", set)
	}
	return kept, nil
}
