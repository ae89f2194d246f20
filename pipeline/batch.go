package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Outcome is what a batch reports for one input: a result or an error,
// never neither.
type Outcome struct {
	Index  int // position in the input list
	Input  Input
	Result *Result // nil when Err is set
	Err    error
}

// Batch cleans inputs with workers goroutines (0: one per CPU) and calls
// emit once for every input, from a single goroutine, in completion order.
// A page that fails, even by a bug that panics, yields an Outcome with Err
// set; the batch goes on. Batch returns ctx's error if it was cancelled;
// inputs not started by then are reported with that error.
func (c *Cleaner) Batch(ctx context.Context, inputs []Input, workers int, emit func(Outcome)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan int)
	outs := make(chan Outcome)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				outs <- c.safeClean(ctx, i, inputs[i])
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for i := range inputs {
			select {
			case jobs <- i:
			case <-ctx.Done():
				for j := i; j < len(inputs); j++ {
					outs <- Outcome{Index: j, Input: inputs[j], Err: fmt.Errorf("%s: %w", inputs[j].Name, ctx.Err())}
				}
				return
			}
		}
	}()
	// The feeder reports cancelled inputs on outs too, so outs closes only
	// after the feeder and all workers are done.
	go func() { wg.Wait(); close(outs) }()
	for o := range outs {
		emit(o)
	}
	return ctx.Err()
}

func (c *Cleaner) safeClean(ctx context.Context, i int, in Input) (o Outcome) {
	o = Outcome{Index: i, Input: in}
	defer func() {
		if r := recover(); r != nil {
			o.Result = nil
			o.Err = fmt.Errorf("%s: internal error (please report): %v\n%s", in.Name, r, debug.Stack())
		}
	}()
	data, err := in.Read()
	if err != nil {
		o.Err = err
		return o
	}
	res, err := c.Clean(ctx, in.Name, data)
	if err != nil {
		o.Err = err
		return o
	}
	o.Result = res
	return o
}
