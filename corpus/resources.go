package corpus

import (
	"context"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/warc"
)

// MaxResourceBytes is the largest requisite an Archive serves; larger ones
// are not served (the renderer goes without them).
const MaxResourceBytes = 16 << 20

// Archive serves the requisites of the pages of one WARC file (style
// sheets, images, fonts: its response and resource records that are not
// HTML) by URL, reading each record back from the file when asked. It
// holds an index from URL to record offset, built by one pass over the
// file; memory grows with the number of requisites in the file, not with
// their size. Its methods are safe for concurrent use.
type Archive struct {
	path  string
	index map[string]int64
	zstd  bool   // a .warc.zst
	dict  []byte // its dictionary
}

// indexArchive reads the WARC file at path once and indexes its
// requisites. It returns nil when the file holds no requisite, and nil and
// shared when it cannot be read by offset (its records share a gzip
// member or zstd frame: one for the whole file); a read error ends the index
// where it occurred (the main pass reports it).
func indexArchive(ctx context.Context, path string, zstd bool) (a *Archive, shared bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	a = &Archive{path: path, index: map[string]int64{}, zstd: zstd}
	r := warc.NewReader(f, warc.Options{Name: path, Zstd: zstd})
	last := int64(-1)
	for ctx.Err() == nil {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if rec.Offset == last {
			return nil, true // records share a member or frame: no offset to seek to
		}
		last = rec.Offset
		key := resourceKey(rec.TargetURI)
		if key == "" {
			continue
		}
		if _, dup := a.index[key]; dup {
			continue // the first capture wins
		}
		switch rec.Type {
		case warc.TypeResponse:
			resp, err := rec.HTTP()
			if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 || resp.IsHTML() {
				continue
			}
		case warc.TypeResource:
			if warc.IsHTML(rec.ContentType, nil) {
				continue
			}
		default:
			continue
		}
		a.index[key] = rec.Offset
	}
	if len(a.index) == 0 {
		return nil, false
	}
	a.dict = r.ZstdDict()
	return a, false
}

// resourceKey is the form of a URL the index is keyed by, close to the
// canonical form Chromium requests it in: scheme and host in lower case,
// no default port, "/" for an empty path, no fragment (which never
// reaches a server).
func resourceKey(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if h, ok := strings.CutSuffix(u.Host, ":80"); ok && u.Scheme == "http" {
		u.Host = h
	} else if h, ok := strings.CutSuffix(u.Host, ":443"); ok && u.Scheme == "https" {
		u.Host = h
	}
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	return u.String()
}

// Len returns the number of requisites indexed.
func (a *Archive) Len() int {
	if a == nil {
		return 0
	}
	return len(a.index)
}

// Resource returns the requisite at url: its Content-Type (the HTTP
// header's, or the record's for a resource record) and its body with
// transfer and content codings removed. It reports false when the archive
// holds no such requisite, or one over MaxResourceBytes, or cannot be read.
func (a *Archive) Resource(url string) (contentType string, body []byte, ok bool) {
	if a == nil {
		return "", nil, false
	}
	key := resourceKey(url)
	off, ok := a.index[key]
	if !ok {
		return "", nil, false
	}
	f, err := os.Open(a.path)
	if err != nil {
		return "", nil, false
	}
	defer f.Close()
	r := warc.NewReader(io.NewSectionReader(f, off, 1<<62), warc.Options{Name: a.path, StartOffset: off, MaxPayload: MaxResourceBytes, Zstd: a.zstd, ZstdDict: a.dict})
	rec, err := r.Next()
	if err != nil || rec.Offset != off || resourceKey(rec.TargetURI) != key {
		return "", nil, false
	}
	var src io.Reader
	switch rec.Type {
	case warc.TypeResponse:
		resp, err := rec.HTTP()
		if err != nil {
			return "", nil, false
		}
		contentType, src = resp.Header.Get("Content-Type"), resp.Body
	default:
		contentType, src = rec.ContentType, rec.Block()
	}
	body, err = io.ReadAll(src)
	if err != nil || rec.Truncated() {
		return "", nil, false
	}
	if body == nil {
		body = []byte{}
	}
	return contentType, body, true
}

// attach gives a page of the archive access to its requisites.
func (a *Archive) attach(in *pipeline.Input) {
	if a == nil {
		return
	}
	in.Resources = a.serve
}

func (a *Archive) serve(url string) (render.Resource, bool) {
	ct, body, ok := a.Resource(url)
	return render.Resource{ContentType: ct, Body: body}, ok
}
