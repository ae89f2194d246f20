package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"
)

// TestTrainExtra trains on 6 CleanEval dev pages and a seeded sample of 4
// of L3S-GN1's first 6 (--limit applies to every set), and checks that the
// model saw 10 pages.
func TestTrainExtra(t *testing.T) {
	ce, l3s := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "l3s-gn1")
	model := filepath.Join(t.TempDir(), "m.fiasco")
	code, _, errs := fiasco(t, "train", "-q", "--no-render", "--limit", "6", "--data", ce,
		"--extra", l3s, "--extra-pages", "4", "-o", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := classify.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Info.Pages != 10 {
		t.Errorf("model trained on %d pages, want 6 + 4\n%s", m.Info.Pages, errs)
	}
	if len(m.Info.Extra) != 1 || m.Info.Extra[0] != l3s || m.Info.ExtraPages != 4 {
		t.Errorf("Info records --extra %v of %d pages, want [%s] of 4", m.Info.Extra, m.Info.ExtraPages, l3s)
	}
	if !strings.Contains(errs, "4 pages (0 failed)") {
		t.Errorf("stderr does not report the 4 extra pages:\n%s", errs)
	}
}

// TestMaxSV: fiasco train --max-sv cuts the model's SVMs to that many
// vectors and records it; eval --cv with it says so in its report.
func TestMaxSV(t *testing.T) {
	ce := shared.Path(t, "cleaneval-en-dev")
	model := filepath.Join(t.TempDir(), "m.fiasco")
	code, _, errs := fiasco(t, "train", "-q", "--no-render", "--limit", "10", "--data", ce, "-c", "4", "-g", "0.06", "--max-sv", "50", "-o", model)
	if code != 0 || !strings.Contains(errs, "a reduced set of 50 vectors (--max-sv 50)") {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	m, err := classify.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.English.SV); n > 50 || n < 40 || m.Info.MaxSV != 50 {
		t.Errorf("English SVM: %d vectors, Info.MaxSV %d; want at most 50 and 50", n, m.Info.MaxSV)
	}
	full := filepath.Join(t.TempDir(), "full.fiasco")
	if code, _, errs := fiasco(t, "train", "-q", "--no-render", "--limit", "10", "--data", ce, "-c", "4", "-g", "0.06", "-o", full); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if f, err := classify.Load(full); err != nil || len(f.English.SV) <= 100 || f.Info.MaxSV != 0 {
		t.Fatalf("without --max-sv: %v; want more than 100 support vectors to cut", err)
	}
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--cv", "2", "--limit", "6", "--data", ce, "--max-sv", "30")
	if code != 0 || !strings.Contains(out, "with more than 30 support vectors cut to that many vectors (--max-sv)") {
		t.Errorf("eval --cv --max-sv: exit %d, stderr %s, stdout:\n%s", code, errs, out)
	}
}

// TestTrainGridBySite: --grid --folds-by site scores C and gamma on folds
// of whole sites: 6 CleanEval dev pages (6 sites) and BBC's first 6
// CleanPortalEval pages (one site) make 7 sites for 3 folds; BBC's pages
// alone are one site, too few.
func TestTrainGridBySite(t *testing.T) {
	ce, cp := shared.Path(t, "cleaneval-en-dev"), shared.Path(t, "cleanportaleval")
	model := filepath.Join(t.TempDir(), "m.fiasco")
	grid := []string{"train", "-q", "--no-render", "--limit", "6", "--grid", "--folds", "3", "--folds-by", "site",
		"--log2c", "0,2,2", "--log2g", "-4,-4,1", "-o", model}
	code, _, errs := fiasco(t, append(grid, "--data", ce, "--data", cp)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "best C = 2^") {
		t.Errorf("no grid result on stderr:\n%s", errs)
	}
	m, err := classify.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Info.Pages != 12 {
		t.Errorf("model trained on %d pages, want 12", m.Info.Pages)
	}
	code, _, errs = fiasco(t, append(grid, "--data", cp)...)
	if code != 1 || !strings.Contains(errs, "3 folds for 1 site") {
		t.Errorf("one site, three folds: exit %d, stderr %s", code, errs)
	}
}

// TestDataSetChecks: a data set's pages without gold, gold files without
// pages and second gold files of one page are reported, not skipped in
// silence (hidden files are no part of a set); a set
// given twice (here through a symbolic link) is a usage error; under
// --policy article, CleanEval-format gold is noted as counted as it is.
func TestDataSetChecks(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set")
	page, gold, part := articlePair()
	writeTree(t, set, map[string][]byte{
		"html/1.html": page, "html/2.html": page, "html/3.html": page,
		"gold/1.txt": gold, "gold/2.txt": part, "gold/4.txt": gold, "gold/1.xml": gold,
		"gold/.DS_Store": {0, 1}, "html/.x.html": page,
	})
	model := filepath.Join(dir, "m.fiasco")
	code, _, errs := fiasco(t, "train", "-q", "--no-render", "--data", set, "-o", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"skipped " + filepath.Join(set, "html/3.html") + ": a page without a gold file gold/3.*",
		"skipped " + filepath.Join(set, "gold/4.txt") + ": a gold file without a page html/4.html",
		"skipped " + filepath.Join(set, "gold/1.xml") + ": a second gold file for html/1.html, which has 1.txt",
		"2 pages (0 failed)",
		"3 files skipped (named above)",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	// A set with no pair at all names what is there instead.
	bad := filepath.Join(dir, "bad")
	writeTree(t, bad, map[string][]byte{"html/1.htm": page, "gold/1.txt": []byte("<p> text\n")})
	if code, _, errs := fiasco(t, "train", "-q", "--no-render", "--data", bad, "-o", model); code == 0 ||
		!strings.Contains(errs, "html/1.htm: not named <id>.html") || !strings.Contains(errs, "no html/<id>.html with gold/<id>.* found") {
		t.Errorf("a set without pairs: exit %d, stderr:\n%s", code, errs)
	}
	if strings.Contains(errs, ".DS_Store") || strings.Contains(errs, ".x.html") {
		t.Errorf("hidden files reported:\n%s", errs)
	}
	if m, err := classify.Load(model); err != nil || m.Info.Pages != 2 {
		t.Errorf("model: %v; want 2 pages trained on", err)
	}
	if _, err := os.Stat(os.DevNull); err == nil {
		if code, _, errs := fiasco(t, "train", "-q", "--no-render", "--data", set, "-o", os.DevNull); code != 0 {
			t.Errorf("-o %s: exit %d: %s", os.DevNull, code, errs)
		}
	}
	code, _, errs = fiasco(t, "eval", "-q", "--no-render", "--policy", "article", "--data", set)
	if code != 0 || !strings.Contains(errs, "note: set's gold is clean text without finer labels") || !strings.Contains(errs, "2 pages (0 failed)") {
		t.Errorf("article policy on CleanEval gold: exit %d; stderr:\n%s", code, errs)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(set, link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	code, _, errs = fiasco(t, "train", "-q", "--no-render", "--data", set, "--data", link, "-o", model)
	if code != 2 || !strings.Contains(errs, "is given twice") {
		t.Errorf("a set twice: exit %d; stderr:\n%s", code, errs)
	}
}

// TestSkipPages: --skip-pages leaves out the pages whose SET/ID matches,
// says how many, warns of a pattern of a loaded set that matches none, and
// refuses a bad pattern.
func TestSkipPages(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set")
	page, _ := os.ReadFile("testdata/article.html")
	gold, _ := os.ReadFile("testdata/article.cleaneval")
	gold = gold[:bytes.Index(gold, []byte("\n<p> The mayor"))] // the rest of the page is dirty
	for _, id := range []string{"a_1", "a_2", "b_1"} {
		for name, data := range map[string][]byte{"html/" + id + ".html": page, "gold/" + id + ".txt": gold} {
			p := filepath.Join(set, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := filepath.Join(dir, "f.libsvm")
	code, _, errs := fiasco(t, "features", "-q", "--data", set, "--skip-pages", "set/a_*", "--skip-pages", "set/c_*", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"--skip-pages set/a_* left out 2 pages", "warning: --skip-pages set/c_* matches no page", "1 page (0 failed)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, bad := range []string{"set/[", "a_1", "/a_*", "set/", "d/set/a_*"} {
		if code, _, errs := fiasco(t, "features", "--data", set, "--skip-pages", bad, "-o", out); code != 2 || !strings.Contains(errs, "want SET/ID as a shell pattern") {
			t.Errorf("--skip-pages %s: exit %d, stderr %q; want a usage error", bad, code, errs)
		}
	}
	// A SET that names no set read is a typo, not a no-op.
	for _, typo := range []string{"SET/a_*", "other/*"} {
		if code, _, errs := fiasco(t, "features", "--data", set, "--skip-pages", typo, "-o", out); code != 2 || !strings.Contains(errs, "names no set read here (set)") {
			t.Errorf("--skip-pages %s: exit %d, stderr %q; want a usage error", typo, code, errs)
		}
	}
	// Leaving every page out is an error, not an empty run.
	if code, _, errs := fiasco(t, "features", "-q", "--data", set, "--skip-pages", "set/*", "-o", out); code == 0 || !strings.Contains(errs, "the skip patterns leave out every page") {
		t.Errorf("every page skipped: exit %d, stderr %q", code, errs)
	}
	// oracle says what it left out too.
	if code, stdout, errs := fiasco(t, "oracle", "-q", "--data", set, "--skip-pages", "set/a_*"); code != 0 || !strings.Contains(errs, "--skip-pages set/a_* left out 2 pages") || !strings.Contains(stdout, "set                    1 oracle") {
		t.Errorf("oracle: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
}

// TestFailedPageExit: a page that fails to load (its gold is binary) is
// named, the other pages are used and the output written, and train,
// features and eval exit 3, as fiasco clean does with a failed page.
func TestFailedPageExit(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set")
	page, gold, part := articlePair()
	writeTree(t, set, map[string][]byte{
		"html/1.html": page, "html/2.html": page, "html/3.html": page, "html/4.html": page,
		"gold/1.txt": gold, "gold/2.txt": part, "gold/3.txt": {'<', 'p', '>', 0, 1, 2, 0}, "gold/4.txt": part,
	})
	model := filepath.Join(dir, "m.fiasco")
	code, _, errs := fiasco(t, "train", "-q", "--no-render", "--data", set, "-o", model)
	if code != 3 || !strings.Contains(errs, "page failed: ") || !strings.Contains(errs, "gold/3.txt") || !strings.Contains(errs, "4 pages (1 failed)") {
		t.Errorf("train: exit %d, want 3; stderr:\n%s", code, errs)
	}
	if m, err := classify.Load(model); err != nil || m.Info.Pages != 3 {
		t.Errorf("model: %v; want one written from the 3 pages that loaded", err)
	}
	rows := filepath.Join(dir, "b.libsvm")
	if code, _, errs := fiasco(t, "features", "-q", "--data", set, "-o", rows); code != 3 {
		t.Errorf("features: exit %d, want 3; stderr:\n%s", code, errs)
	} else if fi, err := os.Stat(rows); err != nil || fi.Size() == 0 {
		t.Errorf("features: %v; want the rows of the 3 pages that loaded", err)
	}
	code, out, errs := fiasco(t, "eval", "-q", "--no-render", "--model", model, "--data", set)
	if code != 3 || !strings.Contains(out, "word") || !strings.Contains(errs, "(1 failed)") || !strings.Contains(errs, "fiasco eval: 1 page failed (named above)") ||
		!strings.Contains(out, "not scored above: 1 page whose gold could not be read") {
		t.Errorf("eval: exit %d, want 3 with its report; stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// Without the failed page every command succeeds.
	os.Remove(filepath.Join(set, "html/3.html"))
	os.Remove(filepath.Join(set, "gold/3.txt"))
	if code, _, errs := fiasco(t, "eval", "-q", "--no-render", "--cv", "2", "--data", set); code != 0 {
		t.Errorf("eval --cv on good pages: exit %d; stderr:\n%s", code, errs)
	}
}

// articlePair returns testdata's article page, its CleanEval gold with a
// URL line, and a part of that gold: the headline and the first paragraph,
// the rest of the page dirty.
func articlePair() (page, gold, part []byte) {
	page, _ = os.ReadFile("testdata/article.html")
	gold, _ = os.ReadFile("testdata/article.cleaneval")
	gold = append([]byte("URL: http://example.org/a\n"), gold...)
	return page, gold, gold[:bytes.Index(gold, []byte("\n<p> The mayor"))]
}

// writeTree writes files, named by slash paths below root, making their
// directories.
func writeTree(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
