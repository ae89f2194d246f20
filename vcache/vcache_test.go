package vcache

import (
	"context"
	"errors"
	"image"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// fake measures nothing: it returns made-up features and counts its calls.
type fake struct {
	calls atomic.Int64
	nan   bool // X is NaN (gob keeps it)
}

func (f *fake) Visual(_ context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	f.calls.Add(1)
	out := make([]vision.Features, len(d.Blocks))
	for i := range out {
		out[i] = vision.Features{Found: i%2 == 0, Blobs: i, Box: image.Rect(i, 2*i, 3*i, 4*i), SolidityI: 1 / float64(i+3), X: 0.5}
		if f.nan {
			out[i].X = math.NaN()
		}
	}
	out[0] = vision.Features{} // a zero element survives too
	return out, nil
}

func doc(t *testing.T, text string) *pipeline.Doc {
	t.Helper()
	d, err := pipeline.Prepare(context.Background(), "p.html", []byte("<html><body><h1>Title</h1><p>"+text+"</p><ul><li><a href=/>Home</a></li></ul></body></html>"), pipeline.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// same compares features, NaN equal to NaN.
func same(a, b []vision.Features) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if math.IsNaN(x.X) && math.IsNaN(y.X) {
			x.X, y.X = 0, 0
		}
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	f := &fake{nan: true}
	c, err := New(f, Options{Dir: dir, Render: render.Options{Scale: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	d := doc(t, "The rain in Spain falls mainly on the plain.")
	first, err := c.Visual(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Visual(ctx, doc(t, "The rain in Spain falls mainly on the plain."))
	if err != nil {
		t.Fatal(err)
	}
	if f.calls.Load() != 1 || !same(first, second) {
		t.Fatalf("%d renderings; cached %+v, want %+v", f.calls.Load(), second, first)
	}
	if s := c.Stats(); s != (Stats{Hits: 1, Misses: 1}) {
		t.Errorf("stats %+v", s)
	}

	// Another page, other render options or another renderer: other keys.
	c.Visual(ctx, doc(t, "Another page."))
	c2, _ := New(f, Options{Dir: dir, Render: render.Options{Scale: 1}})
	c2.Visual(ctx, d)
	c3, _ := New(f, Options{Dir: dir, Render: render.Options{Scale: 0.5}, Renderer: "Chromium 200"})
	c3.Visual(ctx, d)
	c4, _ := New(f, Options{Dir: dir, Render: render.Options{Scale: 0.5, Width: render.DefaultWidth}})
	c4.Visual(ctx, d) // the default width spelt out: the same key
	if f.calls.Load() != 4 {
		t.Errorf("%d renderings, want 4 (a new page, a new scale, a new renderer)", f.calls.Load())
	}

	// A corrupt entry is recomputed and rewritten.
	key, _ := c.Key(d)
	p := filepath.Join(c.Dir(), key[:2], key)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-3] ^= 0xff
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := c.Visual(ctx, d)
	if err != nil || !same(again, first) || f.calls.Load() != 5 {
		t.Fatalf("corrupt entry: err %v, %d renderings", err, f.calls.Load())
	}
	if s := c.Stats(); s.Corrupt != 1 {
		t.Errorf("stats %+v, want 1 corrupt", s)
	}
	if _, err := c.Visual(ctx, d); err != nil || f.calls.Load() != 5 {
		t.Errorf("the rewritten entry was not used: %d renderings", f.calls.Load())
	}
	// A truncated entry too.
	os.WriteFile(p, data[:10], 0o644)
	if _, err := c.Visual(ctx, d); err != nil || f.calls.Load() != 6 {
		t.Errorf("truncated entry: err %v, %d renderings", err, f.calls.Load())
	}
	left, _ := filepath.Glob(filepath.Join(c.Dir(), "*", ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestCacheInPrepare renders through pipeline.Prepare and concurrently:
// the cached measurements reach the feature table unchanged.
func TestCacheInPrepare(t *testing.T) {
	ctx := context.Background()
	f := &fake{}
	c, err := New(f, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	page := []byte("<html><body><h1>Title</h1><p>Some text of the page itself.</p><p>More of it.</p></body></html>")
	var wg sync.WaitGroup
	docs := make([]*pipeline.Doc, 8)
	for i := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := pipeline.Prepare(ctx, "p.html", page, pipeline.PrepareOptions{Visual: c})
			if err != nil {
				t.Error(err)
				return
			}
			docs[i] = d
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, d := range docs[1:] {
		if !same(d.Visual, docs[0].Visual) || !reflect.DeepEqual(d.Table.Values, docs[0].Table.Values) {
			t.Fatal("the same page got different measurements or features")
		}
	}
	if s := c.Stats(); s.Hits+s.Misses != 8 || s.WriteErrors != 0 {
		t.Errorf("stats %+v", s)
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("no error without a Visualizer")
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, err := DefaultDir(); err != nil || d != "/x/cache/fiasco" {
		t.Errorf("DefaultDir = %q, %v", d, err)
	}
}

func TestLazy(t *testing.T) {
	ctx := context.Background()
	f := &fake{}
	starts := 0
	l := NewLazy(func(context.Context) (pipeline.Visualizer, error) { starts++; return f, nil })
	dir := t.TempDir()
	c, err := New(l, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	d := doc(t, "A page.")
	if l.Started() {
		t.Fatal("started before use")
	}
	c.Visual(ctx, d)
	c.Visual(ctx, d)
	if starts != 1 || f.calls.Load() != 1 {
		t.Errorf("%d starts, %d renderings, want 1 and 1", starts, f.calls.Load())
	}
	l.Close()
	l2 := NewLazy(func(context.Context) (pipeline.Visualizer, error) { starts++; return f, nil })
	c2, _ := New(l2, Options{Dir: dir})
	if _, err := c2.Visual(ctx, d); err != nil || l2.Started() {
		t.Errorf("a cached page started the visualizer (err %v)", err)
	}
}

// TestLazyWaitBounded: a call that comes while the start is under way
// waits for it only as long as its own context allows; a start that fails
// is tried again by the next call, and one that succeeds serves all.
func TestLazyWaitBounded(t *testing.T) {
	f := &fake{}
	entered, release := make(chan struct{}), make(chan error)
	var starts atomic.Int64
	l := NewLazy(func(context.Context) (pipeline.Visualizer, error) {
		starts.Add(1)
		entered <- struct{}{}
		if err := <-release; err != nil {
			return nil, err
		}
		return f, nil
	})
	d := doc(t, "A page.")
	first := make(chan error, 1)
	go func() {
		_, err := l.Visual(context.Background(), d)
		first <- err
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	second := make(chan error, 1)
	go func() {
		_, err := l.Visual(ctx, d)
		second <- err
	}()
	select {
	case err := <-second:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("second call: %v, want an error wrapping context.DeadlineExceeded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second call still waiting 10 s after its deadline, for the first call's start")
	}
	release <- errors.New("no browser")
	if err := <-first; err == nil {
		t.Error("first call: no error from its failed start")
	}
	third := make(chan error, 1)
	go func() {
		_, err := l.Visual(context.Background(), d)
		third <- err
	}()
	<-entered
	release <- nil
	if err := <-third; err != nil || !l.Started() || starts.Load() != 2 {
		t.Errorf("after a failed start: %v, started %v, %d starts; want a second start", err, l.Started(), starts.Load())
	}
	if _, err := l.Visual(context.Background(), d); err != nil || starts.Load() != 2 {
		t.Errorf("once started: %v, %d starts", err, starts.Load())
	}
}

// TestCacheDirNotDirectory: a cache directory that is a file is refused
// by New; one below a file cannot be written, which Visual does not fail
// on but Stats reports, with the first error.
func TestCacheDirNotDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cachefile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(&fake{}, Options{Dir: file}); err == nil {
		t.Errorf("New with a file for the directory: no error")
	}
	c, err := New(&fake{}, Options{Dir: filepath.Join(file, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Visual(context.Background(), doc(t, "Text of a page.")); err != nil {
		t.Fatalf("Visual: %v", err)
	}
	if s := c.Stats(); s.WriteErrors != 1 || s.FirstWriteError == nil {
		t.Errorf("stats %+v: want 1 write error and its error", s)
	}
}
