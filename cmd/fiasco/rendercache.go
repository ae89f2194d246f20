package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vcache"
)

// cachedRenderer is the Visualizer train and eval prepare pages with: the
// browser's, behind the render cache when --cache-dir is given.
type cachedRenderer struct {
	cmd   string // for messages
	v     pipeline.Visualizer
	cache *vcache.Cache
	stop  func()

	mu       sync.Mutex
	startErr error // the browser's first failure to start (lazy start)
}

// newCachedRenderer starts the browser, or with a cache directory returns a
// cache around a browser that starts at the first page not in the cache.
func newCachedRenderer(ctx context.Context, cmd string, rf *renderFlags, cacheDir string) (*cachedRenderer, error) {
	const hint = "pass --no-render"
	if cacheDir == "" {
		v, stop, err := rf.visualizer(ctx, hint)
		if err != nil {
			return nil, err
		}
		return &cachedRenderer{cmd: cmd, v: v, stop: stop}, nil
	}
	// Fail now, not page by page, when there is no browser at all.
	if _, err := rf.browserPath(hint); err != nil {
		return nil, err
	}
	r := &cachedRenderer{cmd: cmd}
	lazy := vcache.NewLazy(func(ctx context.Context) (pipeline.Visualizer, error) {
		v, err := rf.start(ctx, rf.options(), hint)
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case err == nil:
			r.startErr = nil // a later start succeeded: the pages after it rendered
		case r.startErr == nil && ctx.Err() == nil:
			r.startErr = err
		}
		return v, err
	})
	r.stop = func() { lazy.Close() }
	if err := r.wrap(ctx, lazy, rf, cacheDir); err != nil {
		r.stop()
		return nil, err
	}
	return r, nil
}

// cachedCleaner puts the render cache in front of c's running browser
// (--model with --cache-dir); it returns nil when c does not render or no
// cache directory is given.
func cachedCleaner(ctx context.Context, c *pipeline.Cleaner, mf *modelFlags, cacheDir string) (*cachedRenderer, error) {
	if c.Prepare.Visual == nil || cacheDir == "" {
		return nil, nil
	}
	r := &cachedRenderer{cmd: "eval", stop: func() {}}
	if err := r.wrap(ctx, c.Prepare.Visual, &mf.render, cacheDir); err != nil {
		return nil, err
	}
	c.Prepare.Visual = r.v
	return r, nil
}

// wrap puts the cache in front of v.
func (r *cachedRenderer) wrap(ctx context.Context, v pipeline.Visualizer, rf *renderFlags, dir string) error {
	c, err := vcache.New(v, vcache.Options{Dir: dir, Render: rf.options(), Renderer: rendererID(ctx, rf)})
	if err != nil {
		return err
	}
	r.v, r.cache = c, c
	return nil
}

// loaded is called once the pages are prepared: it reports what the cache
// did on stderr, and fails when the browser could not be started (the
// pages that needed it failed). A nil r does nothing.
func (r *cachedRenderer) loaded(stderr io.Writer) error {
	if r == nil || r.cache == nil {
		return nil
	}
	st := r.cache.Stats()
	fmt.Fprintf(stderr, "fiasco %s: render cache %s: %s from the cache, %d rendered", r.cmd, r.cache.Dir(), plural(int(st.Hits), "page"), st.Misses)
	if st.WriteErrors > 0 {
		fmt.Fprintf(stderr, ", %d could not be stored (%v)", st.WriteErrors, st.FirstWriteError)
	}
	fmt.Fprintln(stderr)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.startErr != nil {
		return fmt.Errorf("the browser did not start: %w", r.startErr)
	}
	return nil
}

// close stops the browser if one was started. A nil r does nothing.
func (r *cachedRenderer) close() {
	if r != nil && r.stop != nil {
		r.stop()
	}
}

// rendererID names the browser for the cache key: its version as
// `chromium --version` prints it, or its path or DevTools URL when that
// cannot be learned. A failed or slow `--version` (a loaded machine) is
// tried again before falling back to the path, since a different key
// means every page renders again.
func rendererID(ctx context.Context, rf *renderFlags) string {
	if rf.remote != "" {
		return "remote " + rf.remote
	}
	path, err := rf.browserPath("")
	if err != nil {
		return ""
	}
	for try := 0; try < versionTries && ctx.Err() == nil; try++ {
		if v := browserVersion(ctx, path); v != "" {
			return v
		}
	}
	return path
}

// versionTries is how often rendererID asks the browser for its version.
const versionTries = 3

// browserVersion runs `path --version` with a time limit; "" on failure.
func browserVersion(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// checkCacheDir refuses a --cache-dir in a data set's html/ or gold/
// folder (dirs): its files would be read as pages or gold, or named as
// skipped ones on every later run.
func checkCacheDir(cmd, dir string, dirs []string) error {
	for _, d := range dirs {
		for _, sub := range []string{"html", "gold"} {
			if p := filepath.Join(d, sub); dir != "" && (within(dir, p) || samePath(dir, p)) {
				return usagef(cmd, "--cache-dir %s lies in %s: the cache would be read as pages or gold; keep it elsewhere (e.g. ~/.cache/fiasco)", dir, p)
			}
		}
	}
	return nil
}
