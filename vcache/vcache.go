// Package vcache keeps what rendering and vision measured for a page on
// disk, so that each page is rendered once across training and evaluation
// runs. A [Cache] is a pipeline.Visualizer that wraps another (normally a
// pipeline.ChromeVisualizer): it answers from the cache when it can and
// asks the wrapped Visualizer otherwise, storing the answer. Wrapping a
// [Lazy] around the browser's Visualizer means a run whose pages are all
// cached never starts a browser.
//
// # Contract
//
// The key of a page is the SHA-256 of: the cache format, [Version] (the
// version of what render and vision measure, raised by hand when their
// code changes what they measure), the fields of vision.Features (so that
// a new or retyped field changes every key by itself), the render options
// that change a rendering (width, viewport height, scale, maximum height,
// tile height; a zero value and its default give the same key),
// Options.Renderer (e.g. the browser's version), and the
// page's marked-up document as the renderer gets it (pipeline.Markup, after
// load and preclean: any change in those stages changes the key too).
// What is not in the key is assumed not to change a rendering.
//
// Entries are files under Dir/v<Version>/xx/<key> (xx the key's first two
// hex digits): a SHA-256 of the payload, then the payload (encoding/gob of
// the key and the measurements). They are written to a temporary file in
// the same directory and renamed into place, so a reader sees a whole
// entry or none, and concurrent writers of one key are harmless. An entry
// that fails its checksum, cannot be decoded, or holds another key or
// another number of blocks is ignored (counted in Stats.Corrupt),
// recomputed and overwritten; one that cannot be read is a miss. A failure to write is not an error of Visual: the
// measurements are returned and Stats.WriteErrors counts it. Visual is
// safe for concurrent use if the wrapped Visualizer is.
package vcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// Version is the version of what render and vision measure for a page.
// Raise it when a change to render or vision changes their measurements
// without changing vision.Features' fields.
//
// Version 2: line heights are no longer scaled twice at a capture scale
// other than 1.
// Version 3: colours in other colour spaces than sRGB (oklch(), lab(),
// color()) are read for the contrast readings (vision.Style). (The
// style fields themselves changed every key already.)
const Version = 3

// format is the entry layout; part of every key.
const format = "fiasco-vcache/1"

// Options configure a Cache.
type Options struct {
	// Dir is the cache directory; empty means DefaultDir().
	Dir string
	// Render are the options the wrapped Visualizer renders with (the
	// fields that change a rendering enter the key).
	Render render.Options
	// Renderer identifies the browser build (e.g. its version string);
	// part of the key.
	Renderer string
}

// Stats count what a Cache did.
type Stats struct {
	Hits, Misses int64
	// Corrupt counts entries found unreadable and recomputed (also counted
	// in Misses).
	Corrupt int64
	// WriteErrors counts entries that could not be stored;
	// FirstWriteError is the first of their errors.
	WriteErrors     int64
	FirstWriteError error
}

// Cache is a pipeline.Visualizer that remembers its answers on disk.
type Cache struct {
	inner  pipeline.Visualizer
	dir    string
	prefix []byte // everything of the key but the page

	hits, misses, corrupt, writeErrs atomic.Int64
	firstWriteErr                    atomic.Pointer[error]
}

// DefaultDir is $XDG_CACHE_HOME/fiasco, or ~/.cache/fiasco when
// XDG_CACHE_HOME is not set (os.UserCacheDir).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("vcache: %w", err)
	}
	return filepath.Join(d, "fiasco"), nil
}

// New wraps v. The directory is created when the first entry is written.
func New(v pipeline.Visualizer, opt Options) (*Cache, error) {
	if v == nil {
		return nil, errors.New("vcache: no Visualizer to wrap")
	}
	dir := opt.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("vcache: %s is not a directory", dir)
	}
	r := opt.Render
	orDefault := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	r.Width, r.Height = orDefault(r.Width, render.DefaultWidth), orDefault(r.Height, render.DefaultHeight)
	r.MaxHeight, r.TileHeight = orDefault(r.MaxHeight, render.DefaultMaxHeight), orDefault(r.TileHeight, render.DefaultTileHeight)
	if r.Scale == 0 {
		r.Scale = 1
	}
	prefix := fmt.Sprintf("%s\x00%d\x00%s\x00w=%d h=%d scale=%g max=%d tile=%d\x00%s\x00",
		format, Version, fieldsSignature(), r.Width, r.Height, r.Scale, r.MaxHeight, r.TileHeight, opt.Renderer)
	return &Cache{inner: v, dir: filepath.Join(dir, fmt.Sprintf("v%d", Version)), prefix: []byte(prefix)}, nil
}

// fieldsSignature names vision.Features' fields and their types.
func fieldsSignature() string {
	var b bytes.Buffer
	t := reflect.TypeFor[vision.Features]()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fmt.Fprintf(&b, "%s %s;", f.Name, f.Type)
	}
	return b.String()
}

// Dir is the directory the entries are in.
func (c *Cache) Dir() string { return c.dir }

// Stats returns the counts so far.
func (c *Cache) Stats() Stats {
	st := Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Corrupt: c.corrupt.Load(), WriteErrors: c.writeErrs.Load()}
	if p := c.firstWriteErr.Load(); p != nil {
		st.FirstWriteError = *p
	}
	return st
}

// entry is what a file holds after its checksum.
type entry struct {
	Key      string
	Features []vision.Features
}

// Key returns the cache key of d (hex SHA-256).
func (c *Cache) Key(d *pipeline.Doc) (string, error) {
	doc, err := pipeline.Markup(d)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(c.prefix)
	h.Write(doc)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key)
}

// Visual returns d's measurements from the cache, or from the wrapped
// Visualizer (storing them) when the cache has none.
func (c *Cache) Visual(ctx context.Context, d *pipeline.Doc) ([]vision.Features, error) {
	if d.Resources != nil {
		// Rendered with requisites from an archive: the markup alone does
		// not determine the rendering, so such pages are not cached.
		c.misses.Add(1)
		return c.inner.Visual(ctx, d)
	}
	key, err := c.Key(d)
	if err != nil {
		return nil, err
	}
	if vf, ok := c.read(key, len(d.Blocks)); ok {
		c.hits.Add(1)
		return vf, nil
	}
	c.misses.Add(1)
	vf, err := c.inner.Visual(ctx, d)
	if err != nil {
		return nil, err
	}
	if err := c.write(key, vf); err != nil {
		c.writeErrs.Add(1)
		c.firstWriteErr.CompareAndSwap(nil, &err)
	}
	return vf, nil
}

// read returns the entry of key if it is whole and has n blocks.
func (c *Cache) read(key string, n int) ([]vision.Features, bool) {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false // absent (or unreadable: recomputed and rewritten)
	}
	var e entry
	if len(data) < sha256.Size || sha256.Sum256(data[sha256.Size:]) != [sha256.Size]byte(data[:sha256.Size]) ||
		gob.NewDecoder(bytes.NewReader(data[sha256.Size:])).Decode(&e) != nil || e.Key != key || len(e.Features) != n {
		c.corrupt.Add(1)
		return nil, false
	}
	return e.Features, true
}

// write stores the entry of key: a temporary file renamed into place.
func (c *Cache) write(key string, vf []vision.Features) error {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(entry{Key: key, Features: vf}); err != nil {
		return err
	}
	sum := sha256.Sum256(payload.Bytes())
	dir := filepath.Dir(c.path(key))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(sum[:])
	if err == nil {
		_, err = f.Write(payload.Bytes())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
