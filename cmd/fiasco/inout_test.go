package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputIsOutput: an output or error log that is one of the run's
// inputs (or an output directory holding one) is a usage error before
// anything is opened, and the input is left as it was; an output
// directory inside an input directory is fine (the walk skips it).
func TestInputIsOutput(t *testing.T) {
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files []string // made with the page's bytes
		args  []string
		want  string
	}{
		{"wet over its WARC", []string{"v.warc.gz"}, []string{"--format", "wet", "-o", "v.warc.gz", "v.warc.gz"}, "v.warc.gz is an input and the output (-o)"},
		{"jsonl over its page", []string{"p.html"}, []string{"--format", "jsonl", "-o", "p.html", "p.html"}, "p.html is an input and the output (-o)"},
		{"error log over its page", []string{"p.html"}, []string{"--format", "jsonl", "-o", "x.jsonl", "--errors", "p.html", "p.html"}, "p.html is an input and the error log (--errors)"},
		{"default error log over a page", []string{"x.errors.jsonl"}, []string{"--format", "jsonl", "-o", "x.jsonl", "x.errors.jsonl"}, "x.errors.jsonl is an input and the error log of this run"},
		{"output over its list", []string{"lst.txt"}, []string{"--format", "jsonl", "-o", "lst.txt", "-i", "lst.txt"}, "lst.txt is an input and the output (-o)"},
		{"output directory is the input directory", []string{"d/p.html"}, []string{"-o", "d", "d"}, "d is an input directory and the output (-o) of this run"},
		{"a page inside the output directory", []string{"d/p.html"}, []string{"-o", "d", "d/p.html"}, "d/p.html is an input inside the output directory d"},
		{"output over a listed page", []string{"a.html", "b.html"}, []string{"--format", "jsonl", "-o", "b.html", "-i", "list.txt"}, "b.html is an input and the output (-o)"},
		{"a listed page inside the output directory", []string{"d/p.html"}, []string{"-o", "d", "-i", "list.txt"}, "d/p.html is an input inside the output directory d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			for _, f := range c.files {
				os.MkdirAll(filepath.Dir(f), 0o755)
				if err := os.WriteFile(f, page, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile("list.txt", []byte("# the pages\n"+strings.Join(c.files, "\n")+"\n"), 0o644)
			code, _, stderr := fiasco(t, append([]string{"clean", "--no-render", "-q"}, c.args...)...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, c.want)
			}
			for _, f := range c.files {
				if got, _ := os.ReadFile(f); !bytes.Equal(got, page) {
					t.Errorf("%s changed (%d bytes)", f, len(got))
				}
			}
		})
	}
	t.Run("output directory inside the input directory", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		os.MkdirAll("e/out", 0o755)
		os.WriteFile("e/p.html", page, 0o644)
		code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "-o", "e/out", "e")
		if code != 0 || !strings.Contains(stderr, "1 page, 1 cleaned") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
}

// TestFolderSummary: the summary says which files of a folder were
// skipped by their names; a folder of such files alone is no input; a
// run again into the same output says that it replaces it.
func TestFolderSummary(t *testing.T) {
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	os.MkdirAll("site/css", 0o755)
	os.WriteFile("site/index.html", page, 0o644)
	os.WriteFile("site/app.js", []byte("var x = 1;"), 0o644)
	os.WriteFile("site/css/a.css", []byte("p{}"), 0o644)
	os.WriteFile("site/css/b.css", []byte("p{}"), 0o644)
	code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "-o", "out", "site")
	if want := "folders: skipped 3 files whose names say they are no page (2 .css, 1 .js;"; code != 0 || !strings.Contains(stderr, "1 page, 1 cleaned") || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, want)
	}
	// The same run again, without --resume, says it replaces the output,
	// -q or not: a warning, not progress.
	code, _, stderr = fiasco(t, "clean", "--no-render", "-q", "-o", "out", "site")
	if code != 0 || !strings.Contains(stderr, "out held an earlier run's output: the pages its manifest listed are removed") {
		t.Errorf("a second run: exit %d, stderr:\n%s", code, stderr)
	}
	// A file of the user's own (no settings file beside it) is refused;
	// with --overwrite it is replaced, with no note of an earlier run.
	os.WriteFile("notes.jsonl", []byte("{}\n"), 0o644)
	code, _, stderr = fiasco(t, "clean", "--no-render", "--format", "jsonl", "-o", "notes.jsonl", "site/index.html")
	if code != 1 || !strings.Contains(stderr, "notes.jsonl exists and is no output of fiasco's") {
		t.Errorf("over a user's file: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = fiasco(t, "clean", "--no-render", "--overwrite", "--format", "jsonl", "-o", "notes.jsonl", "site/index.html")
	if code != 0 || strings.Contains(stderr, "earlier run") {
		t.Errorf("over a user's file, --overwrite: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = fiasco(t, "clean", "--no-render", "-q", "-o", "out2", "site/css")
	if code != 1 || !strings.Contains(stderr, "no page found in the folders") {
		t.Errorf("a folder of style sheets: exit %d, stderr:\n%s", code, stderr)
	}
	// Without -o (one page to standard output), the same words.
	code, _, stderr = fiasco(t, "clean", "--no-render", "-q", "site/css")
	if code != 1 || !strings.Contains(stderr, "site/css: no page found (skipped 2 files whose names say they are no page (2 .css") {
		t.Errorf("a folder of style sheets to standard output: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestNoInputLeavesNothing: a run that finds no input (a folder of hidden
// files) says where it looked and leaves no output behind.
func TestNoInputLeavesNothing(t *testing.T) {
	t.Chdir(t.TempDir())
	os.MkdirAll("empty", 0o755)
	os.WriteFile("empty/.hidden.html", []byte("<p>x</p>"), 0o644)
	for _, c := range []struct{ out, format string }{{"outdir", "cleaneval"}, {"out.jsonl", "jsonl"}, {"out.warc.wet.gz", "wet"}} {
		code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "--format", c.format, "-o", c.out, "empty")
		if code != 1 || !strings.Contains(stderr, "no input files found in empty (hidden files and folders are skipped)") {
			t.Errorf("%s: exit %d, stderr:\n%s", c.format, code, stderr)
		}
		names, _ := filepath.Glob("*")
		hidden, _ := filepath.Glob(".*")
		if len(names) != 1 || len(hidden) != 0 {
			t.Errorf("%s: left %q %q", c.format, names, hidden)
		}
	}
}

// TestEmptyFolderAmongOthers: a run over several inputs says which
// folder held no file to read (a mistyped or unmounted one), and still
// cleans the others.
func TestEmptyFolderAmongOthers(t *testing.T) {
	t.Chdir(t.TempDir())
	os.MkdirAll("empty", 0o755)
	os.MkdirAll("pages", 0o755)
	os.WriteFile("pages/a.html", []byte("<html><body><p>A paragraph of running text that a reader would keep, long enough to be kept.</p></body></html>"), 0o644)
	code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "-o", "out", "empty", "pages")
	if code != 0 || !strings.Contains(stderr, "folders: found no file to read in empty (hidden files and folders are skipped)") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat("out/a.txt"); err != nil {
		t.Errorf("the other folder's page: %v", err)
	}
	// One page to standard output: the same line.
	code, out, stderr := fiasco(t, "clean", "--no-render", "-q", "empty", "pages")
	if code != 0 || !strings.Contains(out, "running text") || !strings.Contains(stderr, "folders: found no file to read in empty") {
		t.Errorf("one page: exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
}

// TestResumeSkippedJSONLines: a run an earlier version began over a
// folder holding JSON Lines (or a log, skipped since 2026-12-02), which
// it cleaned as pages and walks now skip, cannot be resumed, and the refusal says why (not that the inputs
// changed).
func TestResumeSkippedJSONLines(t *testing.T) {
	page, err := os.ReadFile(articlePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ ext, want string }{
		{".jsonl", "folder walks skip JSON Lines"},
		{".log", "folder walks skip files named .log (no page: logs, pid files, compiled code, models) since 2026-12-02"},
	} {
		t.Run(c.ext, func(t *testing.T) {
			t.Chdir(t.TempDir())
			os.MkdirAll("site", 0o755)
			for _, n := range []string{"a.html", "b.html", "c.html"} {
				os.WriteFile(filepath.Join("site", n), page, 0o644)
			}
			if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", "out.jsonl", "site"); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			// As the earlier version wrote it over site/b.EXT.
			out, _ := os.ReadFile("out.jsonl")
			os.WriteFile("out.jsonl", []byte(strings.Replace(string(out), `"input":"site/b.html"`, `"input":"site/b`+c.ext+`"`, 1)), 0o644)
			os.Rename("site/b.html", "site/b"+c.ext)
			code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", "out.jsonl", "--resume", "site")
			if code != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d: %s", code, errs)
			}
		})
	}
}

// TestErrorLogIsOutput: an error log (--errors) that is the run's own
// output file, or lies in its output directory where pages and the
// manifest are written, is a usage error; the directory's own
// errors.jsonl may be named.
func TestErrorLogIsOutput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string // "" for a run that cleans
	}{
		{"jsonl", []string{"--format", "jsonl", "-o", "v.jsonl", "--errors", "v.jsonl"}, "--errors v.jsonl is the output (-o) too"},
		{"manifest", []string{"-o", "d", "--errors", "d/manifest.jsonl"}, "--errors d/manifest.jsonl lies in the output directory d"},
		{"a page's file", []string{"--format", "text", "-o", "d", "--errors", "d/p.txt"}, "--errors d/p.txt lies in the output directory d"},
		{"settings", []string{"--format", "jsonl", "-o", "v.jsonl", "--errors", ".v.jsonl.settings.json"}, "is the settings file of the output v.jsonl"},
		{"the directory's own log", []string{"-o", "d", "--errors", "d/errors.jsonl"}, ""},
		{"through a link", []string{"-o", "link/d", "--errors", "d/sub/e.jsonl"}, "--errors d/sub/e.jsonl lies in the output directory link/d"},
		{"the directory's own log through a link", []string{"-o", "d", "--errors", "link/d/errors.jsonl"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			page, err := os.ReadFile("../../testdata/article.html")
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(t.TempDir())
			os.WriteFile("p.html", page, 0o644)
			os.WriteFile("empty.html", nil, 0o644)
			if err := os.Symlink(".", "link"); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := fiasco(t, append(append([]string{"clean", "--no-render", "-q"}, c.args...), "p.html", "empty.html")...)
			switch {
			case c.want == "" && code != 3:
				t.Errorf("exit %d, stderr:\n%s\nwant 3 (a page failed)", code, stderr)
			case c.want == "":
				if b, _ := os.ReadFile("d/errors.jsonl"); !strings.Contains(string(b), `"input":"empty.html"`) {
					t.Errorf("d/errors.jsonl holds %q", b)
				}
			case code != 2 || !strings.Contains(stderr, c.want):
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, c.want)
			}
		})
	}
}

// TestForeignOutput: a stream's output file or an error log that exists
// and is no output of fiasco's (a crawl's WARC file, a page) is refused
// and left as it was, unless --overwrite; an earlier run's output is
// overwritten as before.
func TestForeignOutput(t *testing.T) {
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, victim string
		args         []string
		want         string
	}{
		{"wet over a WARC", "crawl.warc.gz", []string{"--format", "wet", "-o", "crawl.warc.gz"}, "crawl.warc.gz exists and is no output of fiasco's"},
		{"jsonl over notes", "notes.txt", []string{"--format", "jsonl", "-o", "notes.txt"}, "notes.txt exists and is no output of fiasco's"},
		{"error log over a page", "v.html", []string{"--format", "jsonl", "-o", "x.jsonl", "--errors", "v.html"}, "v.html, the error log, exists and holds no error records"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			os.WriteFile("p.html", page, 0o644)
			os.WriteFile(c.victim, []byte("precious\n"), 0o644)
			code, _, stderr := fiasco(t, append(append([]string{"clean", "--no-render", "-q"}, c.args...), "p.html")...)
			if code != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, stderr, c.want)
			}
			if b, _ := os.ReadFile(c.victim); string(b) != "precious\n" {
				t.Errorf("%s changed: %q", c.victim, b)
			}
			code, _, stderr = fiasco(t, append(append([]string{"clean", "--no-render", "-q", "--overwrite"}, c.args...), "p.html")...)
			if code != 0 {
				t.Errorf("--overwrite: exit %d, stderr:\n%s", code, stderr)
			}
		})
	}
	// A crawl copied over an earlier run's WET output keeps that run's
	// settings file beside it: it is still refused.
	t.Run("a WARC over an earlier WET output, its settings left", func(t *testing.T) {
		crawl := writeOneWARC(t, "p { color: red }", "", true)
		t.Chdir(t.TempDir())
		os.WriteFile("p.html", page, 0o644)
		args := []string{"clean", "--no-render", "-q", "--format", "wet", "-o", "crawl.warc.gz", "p.html"}
		if code, _, stderr := fiasco(t, args...); code != 0 {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		b, err := os.ReadFile(crawl)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("crawl.warc.gz", b, 0o644)
		if code, _, stderr := fiasco(t, args...); code != 1 || !strings.Contains(stderr, "crawl.warc.gz exists and is no output of fiasco's") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		if now, _ := os.ReadFile("crawl.warc.gz"); !bytes.Equal(now, b) {
			t.Errorf("the crawl was changed")
		}
	})
	t.Run("a WET file of fiasco's with no page and no settings", func(t *testing.T) {
		t.Chdir(t.TempDir())
		os.WriteFile("empty.html", nil, 0o644)
		args := []string{"clean", "--no-render", "-q", "--format", "wet", "-o", "all.warc.wet.gz", "empty.html"}
		if code, _, stderr := fiasco(t, args...); code != 3 {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		os.Remove(".all.warc.wet.gz.settings.json")
		if code, _, stderr := fiasco(t, args...); code != 3 || strings.Contains(stderr, "no output of fiasco's") {
			t.Errorf("again without its settings: exit %d, stderr:\n%s", code, stderr)
		}
	})
	t.Run("an earlier run's", func(t *testing.T) {
		t.Chdir(t.TempDir())
		os.WriteFile("p.html", page, 0o644)
		os.WriteFile("empty.html", nil, 0o644)
		for i := range 2 {
			code, _, stderr := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", "x.jsonl", "p.html", "empty.html")
			if code != 3 || strings.Contains(stderr, "no output of fiasco's") || strings.Contains(stderr, "no error records") {
				t.Errorf("run %d: exit %d, stderr:\n%s", i, code, stderr)
			}
		}
	})
}

// TestCleanCutGzip: a gzip-compressed page cut short is cleaned from what
// decodes up to the cut and reported truncated (exit 0), as a WARC
// record's body cut by its crawler is; its JSON Lines record says so.
func TestCleanCutGzip(t *testing.T) {
	gz := gzippedArticle(t)
	cut := filepath.Join(t.TempDir(), "cut.html.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := fiasco(t, "clean", "--no-render", "--format", "text", cut)
	if code != 0 || !strings.Contains(out, "More than forty thousand people") || !strings.Contains(errs, "truncated: the compressed file ends before its data does") {
		t.Errorf("text: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	code, out, errs = fiasco(t, "clean", "--no-render", "--format", "jsonl", cut)
	if code != 0 || !strings.Contains(out, `"truncated":true`) || strings.Contains(out, `"error"`) {
		t.Errorf("jsonl: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
}

// gzippedArticle is testdata/article.html, gzip-compressed.
func gzippedArticle(t *testing.T) *bytes.Buffer {
	t.Helper()
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(page)
	zw.Close()
	return &gz
}

// TestStdinIsOutput: standard input redirected from the file that is the
// output (-o crawl.warc.gz - < crawl.warc.gz) is refused, even with
// --overwrite, before the output is opened: it would be emptied before
// it is read.
func TestStdinIsOutput(t *testing.T) {
	want, err := os.ReadFile(writeOneWARC(t, "p { color: red }", "", true))
	if err != nil {
		t.Fatal(err)
	}
	crawl := filepath.Join(t.TempDir(), "crawl.warc.gz") // a name a WET output may have
	if err := os.WriteFile(crawl, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(crawl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--overwrite", "--format", "wet", "-o", crawl, "-")
	if code != 2 || !strings.Contains(errs, "standard input (-) is an input and the output (-o) of this run") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if got, _ := os.ReadFile(crawl); !bytes.Equal(got, want) {
		t.Errorf("the crawl was changed")
	}
	// Redirected from a page while the output directory holds the
	// working directory: standard input is no file inside it to refuse.
	page, err := os.Open("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	os.Stdin = page
	out := t.TempDir()
	t.Chdir(out)
	if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", ".", "-"); code != 0 {
		t.Errorf("-o . - < page: exit %d, stderr:\n%s", code, errs)
	}
}
