package pipeline

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// pages yields n small pages, counting how many were taken from the
// stream.
func pages(n int, taken *atomic.Int64) iter.Seq[Input] {
	return func(yield func(Input) bool) {
		for i := range n {
			taken.Add(1)
			body := fmt.Sprintf("<html><body><h1>Page %d</h1><p>%s</p></body></html>", i, strings.Repeat("Some words of a paragraph. ", 1+i%7))
			if !yield(Input{Name: fmt.Sprintf("p%03d.html", i), Data: []byte(body)}) {
				return
			}
		}
	}
}

// TestStreamOrdered: with Ordered, outcomes come in input order although
// pages finish out of order (Post sleeps more for early pages), the stream
// is never read more than Window ahead of what was emitted, Post's Value
// reaches emit, and no outcome keeps the page bytes.
func TestStreamOrdered(t *testing.T) {
	c := &Cleaner{Model: defaultText(t)}
	const n, window = 60, 8
	var taken atomic.Int64
	next := 0
	maxAhead := int64(0)
	err := c.Stream(context.Background(), pages(n, &taken), BatchOptions{
		Workers: 3, Ordered: true, Window: window,
		Post: func(o *Outcome) {
			time.Sleep(time.Duration((n-o.Index)%5) * time.Millisecond)
			o.Value = o.Input.Name
			o.Result = nil
		},
	}, func(o Outcome) {
		if o.Index != next {
			t.Fatalf("outcome %d emitted when %d was due", o.Index, next)
		}
		next++
		if ahead := taken.Load() - int64(next); ahead > maxAhead {
			maxAhead = ahead
		}
		if o.Err != nil || o.Value != o.Input.Name || o.Input.Data != nil {
			t.Errorf("outcome %d: err %v, value %v, %d bytes kept", o.Index, o.Err, o.Value, len(o.Input.Data))
		}
	})
	if err != nil || next != n {
		t.Fatalf("Stream = %v after %d outcomes, want %d", err, next, n)
	}
	if maxAhead > window {
		t.Errorf("the stream was read %d pages ahead of the output, window %d", maxAhead, window)
	}
}

// TestStreamInputErrors: an input with Err set is a failed page, a page
// that cannot be read too, and a panicking Post becomes the page's error.
func TestStreamInputErrors(t *testing.T) {
	c := &Cleaner{Model: defaultText(t)}
	inputs := []Input{
		{Name: "gone.html", Err: fmt.Errorf("gone.html: no such file or directory")},
		{Name: "/nonexistent/x.html"},
		{Name: "ok.html", Data: []byte("<p>A paragraph of text that is long enough to be kept as a block.</p>")},
		{Name: "boom.html", Data: []byte("<p>Another paragraph of text.</p>")},
	}
	var got []string
	err := c.Stream(context.Background(), func(yield func(Input) bool) {
		for _, in := range inputs {
			if !yield(in) {
				return
			}
		}
	}, BatchOptions{Workers: 2, Ordered: true, Post: func(o *Outcome) {
		if o.Input.Name == "boom.html" {
			panic("post failed")
		}
	}}, func(o Outcome) {
		got = append(got, fmt.Sprintf("%s:%v", o.Input.Name, o.Err != nil))
		if o.Err != nil && !strings.Contains(o.Err.Error(), strings.TrimSuffix(o.Input.Name, ".html")) {
			t.Errorf("error %q does not name %s", o.Err, o.Input.Name)
		}
	})
	want := "gone.html:true /nonexistent/x.html:true ok.html:false boom.html:true"
	if err != nil || strings.Join(got, " ") != want {
		t.Errorf("Stream = %v, outcomes %q, want %q", err, got, want)
	}
}

// TestStreamCancelled: after cancellation, inputs the stream still yields
// are reported cancelled, in order.
func TestStreamCancelled(t *testing.T) {
	c := &Cleaner{Model: defaultText(t)}
	ctx, cancel := context.WithCancel(context.Background())
	var taken atomic.Int64
	n := 0
	err := c.Stream(ctx, pages(20, &taken), BatchOptions{Workers: 1, Ordered: true}, func(o Outcome) {
		if o.Index == 2 {
			cancel()
		}
		if o.Index > 5 && o.Err == nil {
			t.Errorf("page %d cleaned long after cancellation", o.Index)
		}
		n++
	})
	if err == nil || n != 20 {
		t.Errorf("Stream = %v with %d outcomes, want the context error and 20", err, n)
	}
}

// TestStreamPanics: a stream that panics is Stream's error, after the
// pages it yielded before; a panic of emit reaches the caller and leaves
// no goroutine of the batch behind; no inputs or no emit is an error.
func TestStreamPanics(t *testing.T) {
	c := &Cleaner{Model: defaultText(t)}
	before := runtime.NumGoroutine()
	var taken atomic.Int64
	n := 0
	err := c.Stream(context.Background(), func(yield func(Input) bool) {
		for in := range pages(3, &taken) {
			if !yield(in) {
				return
			}
		}
		panic("the archive reader failed")
	}, BatchOptions{Workers: 2, Ordered: true}, func(o Outcome) { n++ })
	if err == nil || !strings.Contains(err.Error(), "the archive reader failed") || n != 3 {
		t.Errorf("a stream that panics: Stream = %v after %d outcomes, want its panic and 3", err, n)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel() // its outcomes are all failures, emitted as fast as the stream yields
	for k, ordered := range []bool{false, true, false, true} {
		ctx := context.Background()
		if k >= 2 {
			ctx = cancelled
		}
		var taken atomic.Int64
		func() {
			defer func() {
				if r := recover(); r != "emit failed" {
					t.Errorf("ordered %v: recovered %v, want emit's panic", ordered, r)
				}
			}()
			c.Stream(ctx, pages(400, &taken), BatchOptions{Workers: 2, Ordered: ordered, Window: 2}, func(o Outcome) { panic("emit failed") })
		}()
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if g := runtime.NumGoroutine(); g > before {
			t.Errorf("case %d (ordered %v): %d goroutines after emit panicked, %d before", k, ordered, g, before)
		}
		// The stream is asked for no more pages than were under way.
		if n := taken.Load(); n > 10 {
			t.Errorf("case %d (ordered %v): %d of 400 pages taken from the stream after emit panicked at the first", k, ordered, n)
		}
	}

	if err := c.Stream(context.Background(), nil, BatchOptions{}, func(Outcome) {}); err == nil {
		t.Error("Stream with nil inputs: no error")
	}
	if err := c.Batch(context.Background(), []Input{{Name: "a.html"}}, 1, nil); err == nil {
		t.Error("Batch with a nil emit: no error")
	}
}

// TestReadMaxBounded: a page is read through a limit, never whole.
func TestReadMaxBounded(t *testing.T) {
	data, err := Input{Name: "/dev/zero"}.ReadMax(1000)
	if err != nil || len(data) != 1001 {
		t.Fatalf("read %d bytes of /dev/zero (%v), want 1001", len(data), err)
	}
	c := &Cleaner{Model: defaultText(t)}
	c.Prepare.Load.MaxBytes = 1 << 16
	if _, err := c.CleanInput(context.Background(), Input{Name: "/dev/zero"}); err == nil {
		t.Error("/dev/zero cleaned without an error")
	}
	res, err := c.CleanInput(context.Background(), Input{Name: "big.html", Data: []byte("<p>" + strings.Repeat("word ", 20000) + "</p>")})
	if err != nil || !res.Page.Truncated || res.Page.Cut != load.CutBytes {
		t.Errorf("a page over MaxBytes: err %v, truncated %v", err, res != nil && res.Page.Truncated)
	}
	res, err = c.CleanInput(context.Background(), Input{Name: "cut.html", Truncated: true, Data: []byte("<p>A page its crawler cut.</p>")})
	if err != nil || !res.Page.Truncated || res.Page.Cut != load.CutSource {
		t.Errorf("a page its input says is cut: err %v, truncated %v, cut %q", err, res != nil && res.Page.Truncated, res.Page.Cut)
	}
}

// seenVisualizer records what a page brought to the renderer.
type seenVisualizer struct {
	url       string
	resources bool
}

func (v *seenVisualizer) Visual(_ context.Context, d *Doc) ([]vision.Features, error) {
	v.url, v.resources = d.URL, d.Resources != nil
	return make([]vision.Features, len(d.Blocks)), nil
}

// TestCleanInputCarries: CleanInput passes an input's HTTP charset to
// loading, and its URL (when http or https) and requisites to the
// renderer.
func TestCleanInputCarries(t *testing.T) {
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	v := &seenVisualizer{}
	c := &Cleaner{Model: m, Prepare: PrepareOptions{Visual: v}}
	serve := func(string) (render.Resource, bool) { return render.Resource{}, false }
	in := Input{Name: "x#1", URL: "https://ex.org/a", ContentType: "text/html; charset=windows-1251", Resources: serve,
		Data: []byte("<html><body><p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! A paragraph of text.</p></body></html>")}
	res, err := c.CleanInput(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Page.Encoding != "windows-1251" || v.url != in.URL || !v.resources {
		t.Errorf("encoding %s, renderer got URL %q and resources %v", res.Page.Encoding, v.url, v.resources)
	}
	in.URL = "urn:x"
	if _, err := c.CleanInput(context.Background(), in); err != nil || v.url != "" {
		t.Errorf("a URL that is not http: %v, renderer got %q", err, v.url)
	}
}

// TestCleanInputURL: an input's URL (a WARC record's target URI) becomes
// the page's URL, so that every output format carries it.
func TestCleanInputURL(t *testing.T) {
	c, err := New(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	page := []byte("<html><body><p>The council met on Tuesday to discuss the new bridge over the river and its budget.</p></body></html>")
	res, err := c.CleanInput(context.Background(), Input{Name: "a.warc.gz#0", URL: "http://example.org/a", Data: page})
	if err != nil {
		t.Fatal(err)
	}
	if res.Page.URL != "http://example.org/a" {
		t.Errorf("page URL %q, want the input's", res.Page.URL)
	}
}
