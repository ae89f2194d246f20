package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/render"
)

// TestDefaultWithoutChromium: where the policy's default is the rendered
// model and no Chromium is found, clean takes the text model, says so on
// stderr and prints what --no-render prints; --render, a named browser
// and --no-render behave as asked.
func TestDefaultWithoutChromium(t *testing.T) {
	if !classify.RendersByDefault("corpus") {
		t.Skip("the corpus policy's default is the text model: nothing falls back")
	}
	saved := findChromium
	findChromium = func() (string, error) { return "", render.ErrNoChromium }
	t.Cleanup(func() { findChromium = saved })

	_, want, _ := fiasco(t, "clean", "--no-render", "--format", "text", articlePath)
	code, out, errs := fiasco(t, "clean", "--format", "text", articlePath)
	if code != 0 || out != want || !strings.Contains(errs, "no Chromium found, so the text model cleans the pages") {
		t.Errorf("default without Chromium: exit %d, stderr %q, same output as --no-render: %v", code, errs, out == want)
	}
	dir := t.TempDir()
	articleDir(t, dir, "in/a.html", "in/b.html")
	code, _, errs = fiasco(t, "clean", "-q", "--format", "jsonl", "-o", filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "in"))
	if code != 0 || strings.Count(errs, "no Chromium found") != 1 {
		t.Errorf("batch without Chromium: exit %d, want one note; stderr %q", code, errs)
	}
	if code, _, errs := fiasco(t, "clean", "--no-render", articlePath); code != 0 || errs != "" {
		t.Errorf("--no-render without Chromium: exit %d, stderr %q; want silence", code, errs)
	}
	if code, _, errs := fiasco(t, "clean", "--render", articlePath); code != 1 || !strings.Contains(errs, "no Chromium binary found") {
		t.Errorf("--render without Chromium: exit %d, stderr %q; want 1 and the reason", code, errs)
	}
	if code, _, errs := fiasco(t, "clean", "--chromium", filepath.Join(dir, "no-chromium"), articlePath); code != 1 || !strings.Contains(errs, "--chromium") {
		t.Errorf("a named browser that is missing: exit %d, stderr %q; want 1 naming --chromium", code, errs)
	}
	if code, _, errs := fiasco(t, "clean", "--policy", "article", articlePath); code != 0 || errs != "" {
		t.Errorf("--policy article (text by default): exit %d, stderr %q", code, errs)
	}
	// eval scores the model its flags name: no falling back.
	if code, _, errs := fiasco(t, "eval", "--data", dir, "-q"); code != 1 || !strings.Contains(errs, "no Chromium binary found") || !strings.Contains(errs, "--no-render") {
		t.Errorf("eval without Chromium: exit %d, stderr %q; want 1, the reason and --no-render", code, errs)
	}
}

// TestDefaultBrokenChromium: a Chromium that is found but does not start
// is, for the default, as none: the text model and a note saying why.
func TestDefaultBrokenChromium(t *testing.T) {
	if !classify.RendersByDefault("corpus") {
		t.Skip("the corpus policy's default is the text model")
	}
	dir := t.TempDir()
	brokenChromium(t, dir)
	_, want, _ := fiasco(t, "clean", "--no-render", "--format", "text", articlePath)
	code, out, errs := fiasco(t, "clean", "--format", "text", articlePath)
	// The note quotes what the browser printed, and asks to mend it, not
	// to install a browser that is there.
	if code != 0 || out != want || !strings.Contains(errs, "Chromium did not start (") || !strings.Contains(errs, "libnss3.so") || !strings.Contains(errs, "Mend what stops it") || strings.Contains(errs, "Install Chromium") {
		t.Errorf("a broken Chromium: exit %d, stderr %q, same output as --no-render: %v", code, errs, out == want)
	}
	if code, _, errs := fiasco(t, "clean", "--render", "--format", "text", articlePath); code != 1 {
		t.Errorf("--render with a broken Chromium: exit %d, stderr %q; want 1", code, errs)
	}
}

// TestRenderFailureFallsBack: pages whose rendering fails (here: every
// page times out) are cleaned by the text model when the rendered model
// is the default, counted in the summary and marked in the JSONL lines;
// with --render they fail.
func TestRenderFailureFallsBack(t *testing.T) {
	needChromium(t)
	if !classify.RendersByDefault("corpus") {
		t.Skip("the corpus policy's default is the text model")
	}
	dir := t.TempDir()
	articleDir(t, dir, "in/a.html", "in/b.html")
	in := filepath.Join(dir, "in")
	out := filepath.Join(dir, "out.jsonl")
	code, _, errs := fiasco(t, "clean", "-q", "--render-timeout", "1ms", "--format", "jsonl", "-o", out, in)
	if code != 0 || !strings.Contains(errs, "2 pages, 2 cleaned, 0 failed, 2 cleaned by the text model (rendering failed)") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	_, want, _ := fiasco(t, "clean", "--no-render", "--format", "jsonl", in)
	lines := readLines(t, out)
	wantLines := strings.Split(strings.TrimSpace(want), "\n")
	if len(lines) != 2 || len(wantLines) != 2 {
		t.Fatalf("%d lines, %d from --no-render", len(lines), len(wantLines))
	}
	for i, l := range lines {
		var got, ref corpus.Line
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(wantLines[i]), &ref); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.RenderError, "render") || got.Text == nil || ref.Text == nil || *got.Text != *ref.Text {
			t.Errorf("line %d: render_error %q, text as --no-render's: %v", i, got.RenderError, got.Text != nil && ref.Text != nil && *got.Text == *ref.Text)
		}
	}
	code, _, errs = fiasco(t, "clean", "-q", "--render", "--render-timeout", "1ms", "--format", "jsonl", "-o", filepath.Join(dir, "r.jsonl"), in)
	if code != 3 || !strings.Contains(errs, "2 pages, 0 cleaned, 2 failed") {
		t.Errorf("--render: exit %d, stderr %q; want both pages failed", code, errs)
	}
}

// readLines returns the lines of a file, without the last newline.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestResumeBrokenChromium: a run whose Chromium failed to start (so the
// text model cleaned) resumes with the same flags; the check made before
// the browser starts accepts the text model's settings there.
func TestResumeBrokenChromium(t *testing.T) {
	if !classify.RendersByDefault("corpus") {
		t.Skip("the corpus policy's default is the text model")
	}
	dir := t.TempDir()
	brokenChromium(t, dir)
	out := filepath.Join(dir, "out.jsonl")
	if code, _, errs := fiasco(t, "clean", "-q", "--format", "jsonl", "-o", out, articlePath); code != 0 {
		t.Fatalf("first run: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := fiasco(t, "clean", "-q", "--resume", "--format", "jsonl", "-o", out, articlePath); code != 0 || strings.Contains(errs, "other settings") {
		t.Errorf("resume with the same flags: exit %d, stderr %q", code, errs)
	}
	// Other settings are still refused.
	if code, _, errs := fiasco(t, "clean", "-q", "--resume", "--threshold", "1", "--format", "jsonl", "-o", out, articlePath); code == 0 || !strings.Contains(errs, "other settings") {
		t.Errorf("resume with another threshold: exit %d, stderr %q; want it refused", code, errs)
	}
}

// brokenChromium makes findChromium find, for the rest of t, a browser in
// dir that fails to start as one missing its libraries does.
func brokenChromium(t *testing.T, dir string) {
	t.Helper()
	stub := filepath.Join(dir, "chromium")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\necho 'error while loading shared libraries: libnss3.so' >&2\nexit 127\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	saved := findChromium
	findChromium = func() (string, error) { return stub, nil }
	t.Cleanup(func() { findChromium = saved })
}
