package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/fiasco-project/fiasco/pipeline"
)

const page = "<html><head><title>A page</title></head><body><p>Some text of a page.</p></body></html>"

// writeFiles writes files (path: content) below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// collect returns the inputs of a source as "rel=name" or "name!error".
func collect(t *testing.T, s *Source, args ...string) []string {
	t.Helper()
	var out []string
	for in := range s.Inputs(context.Background(), args, nil) {
		if in.Err != nil {
			out = append(out, in.Name+"!"+in.Err.Error())
			continue
		}
		out = append(out, in.Rel+"="+in.Name)
	}
	return out
}

func chdir(t *testing.T, dir string) {
	t.Helper()
	t.Chdir(dir)
}

// TestSymlinks: a directory of symbolic links, a mixed directory, a
// symbolic link to a directory given without a trailing slash, a cycle and
// a broken link; a file reached by several paths is read once.
func TestSymlinks(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{"pages/a.html": page, "pages/b.html": page, "pages/sub/c.html": page})
	os.MkdirAll("links", 0o755)
	symlink(t, "../pages/a.html", "links/a.html")
	symlink(t, "../pages/b.html", "links/b.html")
	writeFiles(t, root, map[string]string{"mixed/own.html": page})
	symlink(t, "../pages/a.html", "mixed/linked.html")
	symlink(t, "../pages/sub", "mixed/subdir")
	symlink(t, "..", "mixed/up")          // a cycle: mixed/up/mixed/up/...
	symlink(t, "nowhere.html", "mixed/z") // broken
	symlink(t, "pages", "dirlink")

	for _, c := range []struct {
		args     []string
		want     string
		repeated string // Stats.Repeated
	}{
		{[]string{"links"}, "a.html=links/a.html b.html=links/b.html", ""},
		{[]string{"dirlink"}, "a.html=dirlink/a.html b.html=dirlink/b.html sub/c.html=dirlink/sub/c.html", ""},
		{[]string{"dirlink/"}, "a.html=dirlink/a.html b.html=dirlink/b.html sub/c.html=dirlink/sub/c.html", ""},
		// up leads back to the root: of it, only what was not walked yet
		// (each directory is walked once), and of its files those not
		// read yet (pages/a.html was, as linked.html).
		{[]string{"mixed"}, "linked.html=mixed/linked.html own.html=mixed/own.html subdir/c.html=mixed/subdir/c.html " +
			"up/dirlink/b.html=mixed/up/dirlink/b.html " +
			"mixed/z!mixed/z: broken symbolic link",
			"mixed/up/dirlink/a.html mixed/up/links/a.html mixed/up/links/b.html"},
		// One file by several paths, arguments and walks: read once.
		{[]string{"pages/a.html", "./pages/a.html", "links", "pages/../links/a.html"}, "a.html=pages/a.html b.html=links/b.html",
			"./pages/a.html links/a.html pages/../links/a.html"},
	} {
		s := NewSource(Options{})
		got := strings.Join(collect(t, s, c.args...), " ")
		if got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.args, got, c.want)
		}
		if r := strings.Join(s.Stats().Repeated, " "); r != c.repeated {
			t.Errorf("%v: repeated %q, want %q", c.args, r, c.repeated)
		}
	}
}

// TestWalkOrderAndErrors: pages come in the order of their sorted paths,
// hidden files are skipped, a missing path is an error input and the run's
// own output inside the input folder is not read, but named in Stats.
func TestWalkOrderAndErrors(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{
		"in/a.html": page, "in/a/b.html": page, "in/a-b.html": page, "in/.hidden.html": page,
		"in/out/old.txt": "x", "in/out.jsonl": "{}\n",
	})
	s := NewSource(Options{Exclude: []string{"in/out", "./in/out.jsonl"}})
	got := strings.Join(collect(t, s, "in", "missing.html"), " ")
	want := "a-b.html=in/a-b.html a.html=in/a.html a/b.html=in/a/b.html missing.html!missing.html: no such file or directory"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := strings.Join(s.Stats().OwnOutputs, " "), filepath.Join("in", "out.jsonl")+" "+filepath.Join("in", "out"); got != want {
		t.Errorf("own outputs named %q, want %q", got, want)
	}
	if got := collect(t, s, "in/out.jsonl"); len(got) != 1 || !strings.Contains(got[0], "is an output of this run") {
		t.Errorf("the output named as input: %v", got)
	}
}

// TestCompressedAndLists: gzip and zstd pages are decompressed; lists name
// paths one per line.
func TestCompressedAndLists(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(page))
	zw.Close()
	enc, _ := zstd.NewWriter(&zs)
	enc.Write([]byte(page))
	enc.Close()
	writeFiles(t, root, map[string]string{"p.html.gz": gz.String(), "p.html.zst": zs.String(), "list.txt": "\ufeff# pages, a byte-order mark first\np.html.gz\n\n  p.html.zst  \nnone.html\n"})
	s := NewSource(Options{})
	var got []string
	for in := range s.Inputs(context.Background(), nil, []string{"list.txt", "nolist.txt"}) {
		data, err := in.ReadMax(0)
		if err != nil {
			got = append(got, in.Name+"!")
			continue
		}
		got = append(got, in.Name+"="+string(data))
	}
	want := []string{"p.html.gz=" + page, "p.html.zst=" + page, "none.html!", "nolist.txt!"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Cut short, each says which data is cut (not "unexpected EOF" alone),
	// and gives what it decoded up to the cut (pipeline.ErrCutShort: the
	// page is cleaned from it, reported truncated).
	writeFiles(t, root, map[string]string{"c.html.gz": gz.String()[:gz.Len()/2], "c.html.zst": zs.String()[:zs.Len()/2],
		"h.html.gz": "\x1f\x8b\x08garbage"})
	for in := range s.Inputs(context.Background(), []string{"c.html.gz", "c.html.zst"}, nil) {
		data, err := in.ReadMax(0)
		what := map[string]string{".gz": "gzip", ".zst": "zstd"}[filepath.Ext(in.Name)]
		if err == nil || !strings.Contains(err.Error(), what+": the compressed data is cut short") || !errors.Is(err, pipeline.ErrCutShort) {
			t.Errorf("%s cut short: %v", in.Name, err)
		}
		if len(data) > 0 && !strings.HasPrefix(page, string(data)) {
			t.Errorf("%s cut short: %q is not the start of the page", in.Name, data)
		}
	}
	// From standard input, read once: the bytes up to the cut, marked
	// CutShort for CleanInput.
	s2 := NewSource(Options{Stdin: strings.NewReader(gz.String()[:gz.Len()/2])})
	for in := range s2.Inputs(context.Background(), []string{"-"}, nil) {
		if in.Err != nil || !in.CutShort || len(in.Data) == 0 || !strings.HasPrefix(page, string(in.Data)) {
			t.Errorf("standard input cut short: err %v, CutShort %v, %d bytes", in.Err, in.CutShort, len(in.Data))
		}
	}
	// A header that is not gzip's, after gzip's magic number.
	for in := range s.Inputs(context.Background(), []string{"h.html.gz"}, nil) {
		if _, err := in.ReadMax(0); err == nil || !strings.Contains(err.Error(), "gzip: the header is cut short or corrupt") {
			t.Errorf("a corrupt gzip header: %v", err)
		}
	}
}

// TestBoundedRead: a device is read once, through the limit.
func TestBoundedRead(t *testing.T) {
	s := NewSource(Options{MaxBytes: 4096})
	n := 0
	for in := range s.Inputs(context.Background(), []string{"/dev/zero"}, nil) {
		n++
		if in.Err != nil || len(in.Data) != 4097 {
			t.Errorf("/dev/zero: %d bytes (%v), want 4097", len(in.Data), in.Err)
		}
	}
	if n != 1 {
		t.Errorf("%d inputs for /dev/zero", n)
	}
	var stdin bytes.Buffer
	stdin.WriteString(page)
	s = NewSource(Options{Stdin: &stdin})
	var ins []pipeline.Input
	for in := range s.Inputs(context.Background(), []string{"-", "-"}, nil) {
		ins = append(ins, in)
	}
	if len(ins) != 2 || string(ins[0].Data) != page || ins[1].Err == nil {
		t.Errorf("standard input twice: %+v", ins)
	}
}

// TestWalkSkipsNoPages: a directory walk skips files whose names say they
// are no page (a site's mirror: style sheets, scripts, images, documents)
// and the outputs of earlier runs (directories, JSONL and WET files with
// their settings beside them, and error logs), and counts them; named as
// arguments, such files are read.
func TestWalkSkipsNoPages(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{
		"site/index.html": page, "site/about": page, "site/feed.xml": page, "site/notes.txt": "Some text.",
		"site/style.css": "body{color:red}", "site/app.js": "var x = 1;", "site/logo.PNG": "\x89PNG",
		"site/paper.pdf": "%PDF-1.4", "site/font.woff2": "wOF2", "site/old.css.gz": "\x1f\x8b",
		"site/out/.fiasco-settings.json": "{}", "site/out/manifest.jsonl": "{}", "site/out/index.txt": "Some text.",
		// An earlier run's JSONL and WET outputs, with their settings
		// and error logs; a page that only looks like one stays.
		"site/run1.jsonl": `{"input":"a.html","text":"Some text."}`, "site/.run1.jsonl.settings.json": "{}",
		"site/run1.errors.jsonl": `{"input":"b.html","error":"x"}`,
		"site/crawl.warc.wet.gz": "\x1f\x8b", "site/.crawl.warc.wet.gz.settings.json": "{}",
		"site/page.html.settings": page,
		// A page copied over an earlier run's output keeps that run's
		// settings file beside it: it begins as no output does, and is
		// read.
		"site/copied.html": page, "site/.copied.html.settings.json": "{}",
	})
	s := NewSource(Options{})
	got := collect(t, s, "site")
	want := []string{"about=site/about", "copied.html=site/copied.html", "feed.xml=site/feed.xml", "index.html=site/index.html", "notes.txt=site/notes.txt", "page.html.settings=site/page.html.settings"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("walk gave %q, want %q", got, want)
	}
	st := s.Stats()
	if st.OutputDirs != 1 || st.OutputFiles != 2 || st.NotPages[".css"] != 2 || st.NotPages[".js"] != 1 || st.NotPages[".png"] != 1 || st.NotPages[".pdf"] != 1 || st.NotPages[".woff2"] != 1 || st.NotPages[".jsonl"] != 1 || len(st.NotPages) != 6 {
		t.Errorf("stats: %d output directories, %d output files, not pages %v", st.OutputDirs, st.OutputFiles, st.NotPages)
	}
	s = NewSource(Options{})
	if got := collect(t, s, "site/style.css"); len(got) != 1 || !strings.HasSuffix(got[0], "=site/style.css") {
		t.Errorf("a style sheet named as an argument: %q", got)
	}
}

// TestWalkEmptyDirs: a folder argument whose walk finds no file to read
// (empty, or holding only hidden files, files skipped by name and
// earlier outputs) is named in Stats.EmptyDirs; one that holds a page, a
// file that fails or a file read already is not. A working folder's
// source code, logs, pid file and models are skipped by name (a script's
// name, .py or .pl, may be a mirrored CGI page: read).
func TestWalkEmptyDirs(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{
		"pages/a.html": page, "pages/run.log": "log", "pages/run.pid": "123", "pages/my.fiasco": "\x1f\x8b", "pages/main.go": "package main",
		"hidden/.a.html": page, "skipped/style.css": "body{}",
	})
	os.MkdirAll(filepath.Join(root, "empty"), 0o755)
	os.MkdirAll(filepath.Join(root, "again"), 0o755)
	os.MkdirAll(filepath.Join(root, "nested/deeper"), 0o755)
	os.Symlink(filepath.Join(root, "pages/a.html"), filepath.Join(root, "again/link.html"))
	s := NewSource(Options{})
	got := collect(t, s, "empty", "pages", "hidden", "skipped", "nested", "again")
	if len(got) != 1 || !strings.HasSuffix(got[0], "=pages/a.html") {
		t.Errorf("walk gave %q, want pages/a.html alone", got)
	}
	st := s.Stats()
	if want := []string{"empty", "hidden", "skipped", "nested"}; !slices.Equal(st.EmptyDirs, want) {
		t.Errorf("empty folders %q, want %q", st.EmptyDirs, want)
	}
	if st.NotPages[".go"] != 1 || st.NotPages[".log"] != 1 || st.NotPages[".pid"] != 1 || st.NotPages[".fiasco"] != 1 {
		t.Errorf("not pages %v: want the source file, the log, the pid file and the model skipped", st.NotPages)
	}
}

// TestURLArgument: a URL given as an input says that fiasco reads files.
func TestURLArgument(t *testing.T) {
	got := collect(t, NewSource(Options{}), "https://example.org/page")
	if len(got) != 1 || !strings.Contains(got[0], "fiasco reads files, not URLs") {
		t.Errorf("got %q", got)
	}
	// Without its scheme, an address that names no file gets the hint
	// too; a missing file of another name does not.
	for p, hint := range map[string]bool{"www.example.org": true, "example.com/news/1": true, "bbc.co.uk": true,
		"missing-page.html": false, "pages/missing.htm": false, "notes.txt": false} {
		got := collect(t, NewSource(Options{}), p)
		if len(got) != 1 || strings.Contains(got[0], "not URLs") != hint || !strings.Contains(got[0], "no such file") {
			t.Errorf("%s: got %q, want the address hint: %v", p, got, hint)
		}
	}
}

// TestListStopped: a run stopped (its context cancelled) while it reads
// a list of paths from a file reads the list on: its paths are the run's
// pages (interrupted, where the pipeline had not started them), and the
// list itself is none (it was counted among the interrupted pages).
func TestListStopped(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{"a.html": page, "b.html": page, "c.html": page, "list.txt": "a.html\nb.html\nc.html\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []string
	for in := range NewSource(Options{}).Inputs(ctx, nil, []string{"list.txt"}) {
		got = append(got, in.Name)
		cancel()
	}
	if want := []string{"a.html", "b.html", "c.html"}; !slices.Equal(got, want) {
		t.Errorf("inputs %q: want the list's pages, %q", got, want)
	}
}

// TestWalkSkipsSpecialFiles: a walk skips named pipes and links to
// devices (a pipe would block it, /dev/zero never ends) and counts them.
func TestWalkSkipsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	chdir(t, root)
	writeFiles(t, root, map[string]string{"site/a.html": page})
	if err := syscall.Mkfifo(filepath.Join(root, "site", "fifo.html"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(root, "site", "null.html")); err != nil {
		t.Fatal(err)
	}
	s := NewSource(Options{})
	got := collect(t, s, "site")
	if want := []string{"a.html=site/a.html"}; !slices.Equal(got, want) {
		t.Errorf("walk gave %q, want %q", got, want)
	}
	if n := s.Stats().Special; n != 2 {
		t.Errorf("%d special files counted, want 2", n)
	}
}
