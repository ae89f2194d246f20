package pipeline

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

// Outcome is what a batch reports for one input: a result or an error,
// never neither.
type Outcome struct {
	Index  int // position in the input stream (or list), from 0
	Input  Input
	Result *Result // nil when Err is set
	Err    error
	// Value is what BatchOptions.Post left for the caller (nil without
	// Post).
	Value any
}

// BatchOptions configure Stream.
type BatchOptions struct {
	// Workers is the number of pages cleaned at once (0: one per CPU).
	Workers int
	// Ordered emits outcomes in input order instead of completion order.
	// Finished pages wait for the ones before them, but no more than
	// Window at a time: the stream is read only that far ahead of the
	// oldest page not yet emitted.
	Ordered bool
	// Window bounds the outcomes held back by Ordered (0: 64 per worker).
	Window int
	// Post, when set, is called on the worker goroutine for every outcome
	// before it is emitted, also for failed and cancelled pages. It may set
	// Value (an encoded output, say) and drop Result, so that outcomes
	// held back by Ordered take little memory; a panic in it becomes the
	// outcome's error.
	Post func(*Outcome)
}

// Batch cleans inputs with workers goroutines (0: one per CPU) and calls
// emit once for every input, from a single goroutine, in completion order.
// It is Stream over a slice.
func (c *Cleaner) Batch(ctx context.Context, inputs []Input, workers int, emit func(Outcome)) error {
	return c.Stream(ctx, slices.Values(inputs), BatchOptions{Workers: workers}, emit)
}

// Stream cleans the inputs of a stream with opt.Workers goroutines and
// calls emit once for every input, from a single goroutine, in completion
// order or, with opt.Ordered, in input order. The stream is read as
// workers become free, so memory stays bounded however long it is; an
// outcome keeps no page bytes (Input.Data is dropped once read).
//
// A page that fails, even by a bug that panics, yields an Outcome with Err
// set; so does an input whose Err is set. The batch goes on. Stream
// returns ctx's error if it was cancelled: inputs the stream still yields
// then are reported with that error (wrapped, naming the input) without
// being read, and pages under way fail with it at their next stage
// (rendering at once); a stream that reads an archive should stop at
// cancellation. The stream runs on a goroutine of Stream's: if it panics,
// the inputs it yielded before are cleaned and emitted and Stream returns
// the panic as its error. A panic of emit goes on to Stream's caller:
// the stream is read no further (it is asked for no more inputs), and the
// pages under way finish in the background.
// Stream returns only after every worker is done.
func (c *Cleaner) Stream(ctx context.Context, inputs iter.Seq[Input], opt BatchOptions, emit func(Outcome)) error {
	if inputs == nil || emit == nil {
		return errors.New("pipeline: Stream needs inputs and an emit function")
	}
	// Ended when Stream returns: a panic of emit (passed on to the
	// caller) stops the feeding (emitPanicked, whatever ctx's state),
	// and the workers' outcomes are drained.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var emitPanicked atomic.Bool
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		i  int
		in Input
	}
	jobs := make(chan job)
	outs := make(chan Outcome)
	var tokens chan struct{}
	if opt.Ordered {
		window := opt.Window
		if window <= 0 {
			window = 64 * workers
		}
		tokens = make(chan struct{}, max(window, workers))
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				o := c.safeClean(ctx, j.i, j.in)
				post(opt.Post, &o)
				outs <- o
			}
		}()
	}
	var feedErr error // the inputs' panic; read once outs is closed
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer func() {
			// The caller's sequence runs here, not on the caller's
			// goroutine: its panic is Stream's error, not the process's end.
			if r := recover(); r != nil {
				feedErr = fmt.Errorf("pipeline: Stream: the inputs panicked: %v\n%s", r, debug.Stack())
			}
		}()
		i := 0
		for in := range inputs {
			if emitPanicked.Load() {
				return // nobody takes the outcomes: read no more of the stream
			}
			if tokens != nil {
				// Released by the emitter (or, after its panic, the
				// drain): never blocks for good.
				tokens <- struct{}{}
			}
			// No page is handed out once ctx is done, also when a worker
			// is free (select picks at random among ready cases).
			if ctx.Err() == nil {
				select {
				case jobs <- job{i, in}:
					i++
					continue
				case <-ctx.Done():
				}
			}
			if emitPanicked.Load() {
				return
			}
			in.Data = nil
			o := Outcome{Index: i, Input: in, Err: fmt.Errorf("%s: %w", in.Name, ctx.Err())}
			post(opt.Post, &o)
			outs <- o
			i++
		}
	}()
	// The feeder reports cancelled inputs on outs too, so outs closes only
	// after the feeder and all workers are done.
	go func() { wg.Wait(); close(outs) }()
	defer func() {
		if r := recover(); r != nil {
			// emit panicked: end the feeding, let the workers finish into
			// nothing (taking back the feeder's tokens), and pass the
			// panic on.
			emitPanicked.Store(true)
			stop()
			go func() {
				for {
					select {
					case _, ok := <-outs:
						if !ok {
							return
						}
					case <-tokens:
					}
				}
			}()
			panic(r)
		}
	}()
	done := func() error {
		if feedErr != nil {
			return feedErr
		}
		return ctx.Err()
	}
	if !opt.Ordered {
		for o := range outs {
			emit(o)
		}
		return done()
	}
	held := map[int]Outcome{}
	next := 0
	for o := range outs {
		held[o.Index] = o
		for {
			h, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			next++
			emit(h)
			<-tokens
		}
	}
	return done()
}

func post(f func(*Outcome), o *Outcome) {
	if f == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			o.Result, o.Value = nil, nil
			o.Err = fmt.Errorf("%s: internal error (please report): %v\n%s", o.Input.Name, r, debug.Stack())
		}
	}()
	f(o)
}

func (c *Cleaner) safeClean(ctx context.Context, i int, in Input) (o Outcome) {
	o = Outcome{Index: i, Input: in}
	o.Input.Data = nil
	defer func() {
		if r := recover(); r != nil {
			o.Result = nil
			o.Err = fmt.Errorf("%s: internal error (please report): %v\n%s", in.Name, r, debug.Stack())
		}
	}()
	res, err := c.CleanInput(ctx, in)
	if err != nil {
		o.Err = err
		return o
	}
	o.Result = res
	return o
}
