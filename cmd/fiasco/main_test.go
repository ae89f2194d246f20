package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fiasco runs the CLI in-process and returns its exit code and output.
func fiasco(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runMain(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

// TestCleanGolden cleans the test page with the embedded text model in each
// output format and compares with golden files.
func TestCleanGolden(t *testing.T) {
	for _, format := range []string{"cleaneval", "text", "json", "html"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := fiasco(t, "clean", "--no-render", "--format", format, "../../testdata/article.html")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, "article."+format, out)
		})
	}
}

// TestCleanPolicies cleans a news page with comments, related links and
// metadata under each policy (embedded text models) and compares with
// golden files: the article policy drops the comments that the corpus
// policy keeps; json carries the page's metadata.
func TestCleanPolicies(t *testing.T) {
	for _, c := range []struct{ policy, format string }{
		{"corpus", "text"}, {"article", "text"}, {"article", "json"},
	} {
		t.Run(c.policy+"."+c.format, func(t *testing.T) {
			code, out, errs := fiasco(t, "clean", "--no-render", "--policy", c.policy, "--format", c.format, "testdata/comments.html")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, "comments."+c.policy+"."+c.format, out)
		})
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "--policy", "news", "testdata/comments.html")
	if code != 2 || !strings.Contains(errs, "corpus or article") {
		t.Errorf("--policy news: exit %d, stderr %q", code, errs)
	}
	// A model trained for one policy is refused under the other: a
	// usage error (exit 2), as a visual model with --no-render is.
	dir := t.TempDir()
	m, err := classify.DefaultFor("article", false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.fiasco")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	code, _, errs = fiasco(t, "clean", "--no-render", "--policy", "corpus", "--model", path, "testdata/comments.html")
	if code != 2 || !strings.Contains(errs, "trained for --policy article, not corpus") {
		t.Errorf("article model under --policy corpus: exit %d, stderr %q", code, errs)
	}
	// Without --policy, a model's own policy stands.
	code, out, errs := fiasco(t, "clean", "--no-render", "--format", "text", "--model", path, "testdata/comments.html")
	if want, _ := os.ReadFile("testdata/comments.article.text"); code != 0 || out != string(want) {
		t.Errorf("article model without --policy: exit %d, stderr %q, output differs from comments.article.text", code, errs)
	}
}

func TestCleanBatch(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(filepath.Join(in, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"a.html": page, "sub/a.html": page, "empty.html": nil, "b.htm": page,
	} {
		if err := os.WriteFile(filepath.Join(in, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", in, "-o", out)
	if code != 3 {
		t.Errorf("exit %d with a failing page, want 3; stderr:\n%s", code, errs)
	}
	if !strings.Contains(errs, "empty.html") {
		t.Errorf("stderr does not name the failed page:\n%s", errs)
	}
	for _, name := range []string{"a.txt", "a-2.txt", "b.txt"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Errorf("missing output: %v", err)
			continue
		}
		if !strings.Contains(string(data), "More than forty thousand people") {
			t.Errorf("%s lacks the article text", name)
		}
	}
	rec, err := os.ReadFile(filepath.Join(out, "errors.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var r errRecord
	if err := json.Unmarshal(bytes.TrimSpace(rec), &r); err != nil || !strings.HasSuffix(r.Input, "empty.html") || r.Error == "" {
		t.Errorf("errors.jsonl = %q (%v)", rec, err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"nonsense"},
		{"clean"},
		{"clean", "--format", "pdf", "x.html"},
		{"clean", "--no-render", "a.html", "b.html"}, // two pages need -o
	} {
		code, _, errs := fiasco(t, args...)
		if code == 0 {
			t.Errorf("fiasco %q: exit 0", args)
		}
		if errs == "" {
			t.Errorf("fiasco %q: no message", args)
		}
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "does-not-exist.html")
	if code != 1 || !strings.Contains(errs, "does-not-exist.html") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}
