package train

import (
	"context"
	"runtime"
	"sync"

	"github.com/fiasco-project/fiasco/score"
)

// parallel calls f(0..n-1) on workers goroutines (0: GOMAXPROCS).
func parallel(n, workers int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// scorer memoises word counts per page and kept-block pattern: thresholds
// and candidates that keep the same blocks of a page are scored once.
type scorer struct {
	mu   sync.Mutex
	refs map[*Example]string
	memo map[scoreKey]score.Counts
}

type scoreKey struct {
	e    *Example
	keep string
}

func newScorer() *scorer {
	return &scorer{refs: map[*Example]string{}, memo: map[scoreKey]score.Counts{}}
}

func (s *scorer) counts(e *Example, keep []bool) (score.Counts, error) {
	bits := make([]byte, (len(keep)+7)/8)
	for i, k := range keep {
		if k {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	key := scoreKey{e, string(bits)}
	s.mu.Lock()
	c, ok := s.memo[key]
	ref, have := s.refs[e]
	s.mu.Unlock()
	if ok {
		return c, nil
	}
	if !have {
		ref = e.Gold.Reference()
	}
	c, err := wordCounts(e, keep, ref)
	if err != nil {
		return c, err
	}
	s.mu.Lock()
	s.memo[key] = c
	s.refs[e] = ref
	s.mu.Unlock()
	return c, nil
}

// progress counts finished trainings across the phases of a run.
type progress struct {
	mu          sync.Mutex
	done, total int
	f           func(done, total int)
}

func newProgress(f func(done, total int), total int) *progress {
	return &progress{f: f, total: total}
}

func (p *progress) step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.f != nil {
		p.f(p.done, p.total)
	}
}

// runJobs runs f(0..n-1) on workers goroutines (0: GOMAXPROCS). The first
// error cancels the jobs not yet started and is returned.
func runJobs(ctx context.Context, n, workers int, prog *progress, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var first error
	parallel(n, workers, func(i int) {
		if ctx.Err() != nil {
			return
		}
		if err := f(ctx, i); err != nil {
			mu.Lock()
			if first == nil {
				first = err
				cancel()
			}
			mu.Unlock()
			return
		}
		prog.step()
	})
	if first != nil {
		return first
	}
	return ctx.Err()
}
