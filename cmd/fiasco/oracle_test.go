package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOracleCommand builds a two-page data set and checks that the oracle
// keeps exactly the gold text (F 100) while keep-all does not.
func TestOracleCommand(t *testing.T) {
	dir := t.TempDir()
	writeGoldSet(t, dir, map[string][2]string{
		"a": {`<html><body><div><a href="/">Home</a> | <a href="/x">Login</a></div><h1>Title here</h1><p>The body text of page a, long enough.</p><p>Copyright a</p></body></html>`,
			"URL: http://a/\n<h>Title here\n<p>The body text of page a, long enough.\n"},
		"b": {`<html><body><ul><li>Menu one</li><li>Menu two</li></ul><p>Only this paragraph of page b is content.</p></body></html>`,
			"URL: http://b/\n<p>Only this paragraph of page b is content.\n"},
	})
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := fiasco(t, "oracle", "--data", dir, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var oracle, all []string
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		if len(f) > 6 && f[2] == "oracle" {
			oracle = f
		}
		if len(f) > 6 && f[2] == "keep-all" {
			all = f
		}
	}
	if oracle == nil || all == nil {
		t.Fatalf("no result rows in\n%s", stdout)
	}
	if oracle[1] != "2" || oracle[5] != "100.00" {
		t.Errorf("oracle row %q, want 2 pages and micro F 100.00", oracle)
	}
	if all[5] == "100.00" {
		t.Errorf("keep-all row %q scores 100", all)
	}
	text, err := os.ReadFile(filepath.Join(out, filepath.Base(dir), "b.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != "<p> Only this paragraph of page b is content.\n" {
		t.Errorf("oracle output of b: %q", text)
	}
	if code, _, _ := fiasco(t, "oracle"); code != 2 {
		t.Errorf("oracle without --data: exit %d, want 2", code)
	}
}

// writeGoldSet writes a data set into dir: html/<id>.html and
// gold/<id>.txt (CleanEval format) from pages[id] = {html, gold}.
func writeGoldSet(t *testing.T, dir string, pages map[string][2]string) {
	t.Helper()
	for _, d := range []string{"html", "gold"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for id, p := range pages {
		if err := os.WriteFile(filepath.Join(dir, "html", id+".html"), []byte(p[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "gold", id+".txt"), []byte(p[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOracleHeaderOnce: the table's header comes once, before the first
// set's rows, not above a set that could not be read.
func TestOracleHeaderOnce(t *testing.T) {
	dir := t.TempDir()
	writeGoldSet(t, dir, map[string][2]string{
		"a": {`<html><body><p>Only this paragraph is content here.</p><p>Copyright</p></body></html>`, "<p>Only this paragraph is content here.\n"},
	})
	missing := filepath.Join(t.TempDir(), "none")
	code, stdout, stderr := fiasco(t, "oracle", "-q", "--data", missing)
	if code == 0 || stdout != "" || !strings.Contains(stderr, missing) {
		t.Errorf("a missing set alone: exit %d, stdout %q, stderr %q; want an error naming it and nothing on stdout", code, stdout, stderr)
	}
	// A set that is not there is refused before any work; one that is
	// there and cannot be read fails alone (exit 3).
	code, stdout, stderr = fiasco(t, "oracle", "-q", "--data", dir, "--data", missing)
	if code != 1 || stdout != "" || !strings.Contains(stderr, missing+": no such directory") {
		t.Errorf("a good set, then a missing one: exit %d, stdout %q, stderr %q; want 1 before any work", code, stdout, stderr)
	}
	broken := t.TempDir() // no html/
	code, stdout, _ = fiasco(t, "oracle", "-q", "--data", broken, "--data", dir)
	if lines := strings.Split(strings.TrimSpace(stdout), "\n"); code != 3 || strings.Count(stdout, "microF") != 1 || len(lines) != 3 || !strings.HasPrefix(lines[0], "set ") {
		t.Errorf("a broken set, then a good one: exit %d, stdout\n%s\nwant 3, the header then two rows", code, stdout)
	}
}

// TestOracleNoPage: a set whose every page fails prints no rows (not
// figures of nothing), says so and fails.
func TestOracleNoPage(t *testing.T) {
	dir := t.TempDir()
	writeGoldSet(t, dir, map[string][2]string{
		"a": {"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00", "<p>Some gold text.\n"},
	})
	code, stdout, stderr := fiasco(t, "oracle", "-q", "--data", dir)
	if code == 0 || stdout != "" || !strings.Contains(stderr, "no page scored") || !strings.Contains(stderr, "not a text file") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a failure, no rows, and why", code, stdout, stderr)
	}
}
