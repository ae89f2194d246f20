package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestResumeSameDecisions: a resume names the model by what it decides
// by: a model trained again by another command line resumes the output
// of the first, and an output written when the digest hashed the
// model's Info too (before 2026-11-30) resumes with the same model.
func TestResumeSameDecisions(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "a.html")
	if err := os.WriteFile(page, []byte("<html><body><p>A paragraph of running text, long enough to be kept as the page's own content.</p></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	save := func(name, command string) string {
		t.Helper()
		mm := *m
		mm.Info.Command = command
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := mm.Write(f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m1, m2 := save("m1.fiasco", "fiasco train --workers 2"), save("m2.fiasco", "fiasco train --workers 1")
	out := filepath.Join(dir, "crawl.jsonl")
	run := func(args ...string) (int, string) {
		t.Helper()
		code, _, stderr := fiasco(t, append(append([]string{"clean", "-q", "--no-render", "--format", "jsonl", "-o", out}, args...), page)...)
		return code, stderr
	}
	if code, stderr := run("--model", m1); code != 0 {
		t.Fatalf("first run: exit %d, %s", code, stderr)
	}
	if code, stderr := run("--resume", "--model", m2); code != 0 {
		t.Errorf("resume with the model trained again: exit %d, %s", code, stderr)
	}
	// The output as a version before wrote it: the embedded model's
	// digest with its Info.
	sp := filepath.Join(dir, ".crawl.jsonl.settings.json")
	var s map[string]string
	b, _ := os.ReadFile(sp)
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	old, _ := m.DigestWithInfo()
	s["model"] = old[:16]
	b, _ = json.Marshal(s)
	if err := os.WriteFile(sp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stderr := run("--resume"); code != 0 {
		t.Errorf("resume of an output named by the digest with Info: exit %d, %s", code, stderr)
	}
	if code, stderr := run("--resume", "--model", m1); code == 0 || !strings.Contains(stderr, "model (a digest") {
		t.Errorf("resume with another model's Info over it: exit %d, %s; want it refused", code, stderr)
	}
}
