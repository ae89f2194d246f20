package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/warc"
)

// columnsPage is a page whose style sheet, at a URL relative to the page,
// sets its two blocks side by side; without it they stack. A second style
// sheet and an image are not in the archive.
const columnsPage = `<!DOCTYPE html>
<html><head>
<link rel="stylesheet" href="../../css/columns.css">
<link rel="stylesheet" href="/css/missing.css">
</head><body style="margin:0;font:16px/20px sans-serif">
<div class="col" data-fiasco-block="0">The left column holds the first half of the text, long enough to wrap onto several lines of its own.</div>
<div class="col" data-fiasco-block="1">The right column holds the second half of the text, long enough to wrap onto several lines of its own.</div>
<img src="../../img/logo.png" alt="">
</body></html>`

const columnsCSS = `.col { float: left; width: 40%; margin: 0 5%; }`

// writeTestWARC writes a gzipped WARC with one HTTP response record per
// URL, as a crawler stores a page and its requisites.
func writeTestWARC(t *testing.T, records map[string][2]string) []byte {
	t.Helper()
	var file bytes.Buffer
	w := warc.NewWriter(&file, true)
	date := time.Date(2007, 6, 1, 12, 0, 0, 0, time.UTC)
	for uri, r := range records {
		contentType, body := r[0], r[1]
		http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", contentType, len(body), body)
		fields := warc.Header{{Name: warc.FieldTargetURI, Value: uri}}
		if _, err := w.WriteRecord(warc.TypeResponse, date, "application/http; msgtype=response", fields, []byte(http)); err != nil {
			t.Fatal(err)
		}
	}
	return file.Bytes()
}

// readTestWARC reads the response records of a WARC into a map by
// WARC-Target-URI, as the corpus package's index does.
func readTestWARC(t *testing.T, file []byte) map[string]Resource {
	t.Helper()
	out := map[string]Resource{}
	r := warc.NewReader(bytes.NewReader(file), warc.Options{Name: "test.warc.gz"})
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type != warc.TypeResponse {
			continue
		}
		resp, err := rec.HTTP()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		out[rec.TargetURI] = Resource{ContentType: resp.Header.Get("Content-Type"), Body: body}
	}
}

// askLog records the URLs a Resources function was asked for.
type askLog struct {
	mu   sync.Mutex
	urls []string
}

func (l *askLog) add(url string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.urls = append(l.urls, url)
}

func (l *askLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.urls...)
}

// sideBySide reports whether a lies left of b with their lines overlapping.
func sideBySide(a, b image.Rectangle) bool {
	return !a.Empty() && !b.Empty() && a.Max.X <= b.Min.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// stacked reports whether a lies above b.
func stacked(a, b image.Rectangle) bool {
	return !a.Empty() && !b.Empty() && a.Max.Y <= b.Min.Y
}

// TestRenderFromArchive renders a page from a WARC at its own URL, which is
// a loopback server's: its style sheet, a record of the archive, makes two
// columns; without the archive it renders one column. Requests the archive
// cannot answer are blocked, and the server sees no connection at all.
func TestRenderFromArchive(t *testing.T) {
	var hits, conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(20 * time.Second) // a request that got out would hang the page
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	pageURL := srv.URL + "/articles/2007/page.html"
	cssURL := srv.URL + "/css/columns.css"
	file := writeTestWARC(t, map[string][2]string{
		pageURL: {"text/html; charset=utf-8", columnsPage},
		cssURL:  {"text/css", columnsCSS},
	})
	archive := readTestWARC(t, file)
	if len(archive) != 2 {
		t.Fatalf("%d records read back, want 2", len(archive))
	}
	doc := archive[pageURL].Body
	var asked askLog
	resources := func(url string) (Resource, bool) {
		asked.add(url)
		r, ok := archive[url]
		return r, ok
	}

	b := newBrowser(t, Options{Timeout: 15 * time.Second})
	var log requestLog
	b.tabHook = log.hook
	res, err := b.Render(context.Background(), doc, testColors[:2], RenderOptions{Highlight: true, URL: pageURL + "#top", Resources: resources})
	if err != nil {
		t.Fatal(err)
	}
	b.tabHook = nil
	writeDump(t, "archive-columns.png", res.Image)
	checkBlocks(t, res, testColors[:2])
	if !sideBySide(res.Boxes[0], res.Boxes[1]) {
		t.Errorf("with the archive's style sheet: boxes %v and %v, want two columns", res.Boxes[0], res.Boxes[1])
	}
	if res.Timings.Load > 3*time.Second {
		t.Errorf("load took %v: blocked requests must fail at once", res.Timings.Load)
	}
	t.Logf("Resources asked for %q", asked.get())

	log.mu.Lock()
	for id, url := range log.sent {
		switch {
		case url == pageURL || url == cssURL:
			if st := log.received[id]; st != 200 {
				t.Errorf("%s: status %d, want 200", url, st)
			}
		case strings.HasPrefix(url, "data:"):
		default:
			if st, ok := log.received[id]; ok {
				t.Errorf("request %s got a response (status %d)", url, st)
			}
			if e := log.failed[id]; !strings.HasPrefix(e, "net::ERR_BLOCKED_BY_CLIENT") {
				t.Errorf("request %s: error %q, want net::ERR_BLOCKED_BY_CLIENT", url, e)
			}
		}
	}
	for _, want := range []string{pageURL, cssURL, srv.URL + "/css/missing.css", srv.URL + "/img/logo.png"} {
		found := false
		for _, url := range log.sent {
			found = found || url == want
		}
		if !found {
			t.Errorf("no request for %s in %q", want, log.sent)
		}
	}
	log.mu.Unlock()

	// The same page without the archive, at its URL or at the made-up
	// one, where its relative URLs are not the archive's: one column.
	for _, opt := range []RenderOptions{
		{Highlight: true, URL: pageURL},
		{Highlight: true, Resources: resources},
	} {
		res, err := b.Render(context.Background(), doc, testColors[:2], opt)
		if err != nil {
			t.Fatal(err)
		}
		checkBlocks(t, res, testColors[:2])
		if !stacked(res.Boxes[0], res.Boxes[1]) {
			t.Errorf("URL %q, Resources %v: boxes %v and %v, want one column", opt.URL, opt.Resources != nil, res.Boxes[0], res.Boxes[1])
		}
	}
	if n, c := hits.Load(), conns.Load(); n != 0 || c != 0 {
		t.Errorf("the page's server saw %d requests on %d connections", n, c)
	}
}

// TestRenderAtURLCanonical: a page URL that Chromium writes differently
// (upper case, dot segments, a fragment) is still served, and relative URLs
// resolve against Chromium's form of it.
func TestRenderAtURLCanonical(t *testing.T) {
	archive := map[string]Resource{"http://example.com/css/columns.css": {ContentType: "text/css", Body: []byte(columnsCSS)}}
	var asked askLog
	b := newBrowser(t, Options{})
	res, err := b.Render(context.Background(), []byte(columnsPage), testColors[:2], RenderOptions{
		Highlight: true,
		URL:       "HTTP://Example.COM:80/articles/x/../2007/page.html#top",
		Resources: func(url string) (Resource, bool) {
			asked.add(url)
			r, ok := archive[url]
			return r, ok
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Resources asked for %q", asked.get())
	if !sideBySide(res.Boxes[0], res.Boxes[1]) {
		t.Errorf("boxes %v and %v, want two columns", res.Boxes[0], res.Boxes[1])
	}
}
