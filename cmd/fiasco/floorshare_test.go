package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/train"
)

// TestFloorShareFlag: --floor-share sets the share of the model a run
// cleans with (the Cleaner's too, for the text model a page falls back
// on), and of the models eval's folds train (their text models keep the
// embedded text model's own); without it, the model's own stands. Where
// the floor is off, it is refused.
func TestFloorShareFlag(t *testing.T) {
	text, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	// A model file whose own share is a tenth, so that every case below
	// changes something.
	stored := *text
	stored.FloorShare = 0.1
	model := filepath.Join(t.TempDir(), "m.fiasco")
	if err := stored.Save(model); err != nil {
		t.Fatal(err)
	}
	parse := func(args ...string) *modelFlags {
		t.Helper()
		fs := flag.NewFlagSet("fiasco eval", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		mf := addModelFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return mf
	}
	for _, c := range []struct {
		args []string
		want float64
	}{{nil, 0.1}, {[]string{"--floor-share", "0.2"}, 0.2}, {[]string{"--floor-share", "0.25"}, 0.25}} {
		mf := parse(append([]string{"--model", model, "--floor"}, c.args...)...)
		m, err := mf.load()
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if m.FloorShare != c.want || !m.Floor {
			t.Errorf("%v: the model's floor %v at share %g, want on at %g", c.args, m.Floor, m.FloorShare, c.want)
		}
		cl, stop, err := mf.cleaner(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		stop()
		if (cl.FloorShare != nil) != (c.args != nil) || cl.FloorShare != nil && *cl.FloorShare != c.want {
			t.Errorf("%v: the cleaner's share %v, want %g only when given", c.args, cl.FloorShare, c.want)
		}
		to, err := foldOptions(&dataFlags{policy: gold.Corpus}, mf, train.TrainOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if to.FloorShare != mf.floorShare || to.Text == nil || to.Text.FloorShare != text.FloorShare {
			t.Errorf("%v: a fold's share %g (its text model's %v), want %g (and %g)", c.args, to.FloorShare, to.Text, mf.floorShare, text.FloorShare)
		}
	}
	// The floor off: the share is refused, not ignored.
	for _, args := range [][]string{
		{"--no-render", "--floor=false", "--floor-share", "0.1"},
		{"--no-render", "--threshold", "0", "--floor-share", "0.1"},
	} {
		if _, err := parse(args...).load(); err == nil || !strings.Contains(err.Error(), "turns the floor off") {
			t.Errorf("%v: error %v, want --floor-share refused", args, err)
		}
	}
	if _, err := foldOptions(&dataFlags{policy: gold.Corpus}, parse("--floor-share", "0.1"), train.TrainOptions{}); err == nil || !strings.Contains(err.Error(), "give --floor") {
		t.Errorf("eval's folds with --floor-share and no --floor: error %v, want one asking for --floor", err)
	}
}

// TestInspectFloor: inspect marks the blocks the prose floor kept, as
// clean's JSON does, and says that it kept them.
func TestInspectFloor(t *testing.T) {
	needChromium(t) // inspect draws the picture
	dir := t.TempDir()
	page := filepath.Join(dir, "prose.html")
	var b strings.Builder
	b.WriteString(`<html><body><ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li></ul>`)
	for _, s := range []string{
		"The council met on Tuesday to discuss the new bridge over the river and its cost, which rose again.",
		"Engineers told the members that the old bridge could carry traffic for five more years at most.",
		"Residents asked whether the works would close the road during the summer season of visitors.",
		"The mayor promised a public meeting in spring before any final decision about the money is taken.",
	} {
		b.WriteString("<p>" + s + "</p>")
	}
	b.WriteString("</body></html>")
	if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// A threshold no block reaches: only the floor keeps the prose.
	rows, errs := inspectRows(t, "--threshold", "5", "--floor", page)
	floored := 0
	for i, r := range rows {
		if r.Floor {
			floored++
			if r.Label != "clean" {
				t.Errorf("block %d: floor but %s", i, r.Label)
			}
		}
	}
	if floored != 4 || !strings.Contains(errs, "the prose floor kept all of it") {
		t.Errorf("%d blocks marked floor, want the 4 paragraphs; stderr:\n%s", floored, errs)
	}
}

// TestInspectInputs: inspect reads a page as clean does (a gzip-compressed
// file), refuses a folder of pages, and says where it cut a page.
func TestInspectInputs(t *testing.T) {
	needChromium(t) // inspect draws the picture
	dir := t.TempDir()
	gz := gzippedArticle(t)
	gzPath := filepath.Join(dir, "article.html.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, plain, _ := fiasco(t, "inspect", "--no-render", "--json", "-o", filepath.Join(dir, "a.png"), "../../testdata/article.html")
	code, out, errs := fiasco(t, "inspect", "--no-render", "--json", "-o", filepath.Join(dir, "b.png"), gzPath)
	if code != 0 || out != plain {
		t.Errorf("a gzip-compressed page: exit %d, table equal to the plain page's: %v; stderr:\n%s", code, out == plain, errs)
	}
	frames := filepath.Join(dir, "frames.html")
	if err := os.WriteFile(frames, []byte(`<html><frameset cols="20%,80%"><frame src="nav.html"><frame src="main.html"></frameset></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = fiasco(t, "inspect", "--no-render", "-o", filepath.Join(dir, "f.png"), frames)
	if code != 0 || !strings.Contains(errs, "its text is in the pages its frames load (nav.html, main.html)") {
		t.Errorf("a frameset: exit %d, stderr:\n%s", code, errs)
	}
	code, _, errs = fiasco(t, "inspect", "--no-render", "-o", filepath.Join(dir, "c.png"), "../../testdata")
	if code != 2 || !strings.Contains(errs, "holds more than one page") {
		t.Errorf("a folder: exit %d, stderr:\n%s", code, errs)
	}
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := 0; i < pipeline.DefaultMaxBlocks+10; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d.</p>", i)
	}
	b.WriteString("</body></html>")
	long := filepath.Join(dir, "long.html")
	if err := os.WriteFile(long, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Drawing 20,000 paragraphs takes a while on a loaded machine: the
	// check is of the cut, not of the speed.
	code, _, errs = fiasco(t, "inspect", "--no-render", "--render-timeout", "180s", "-o", filepath.Join(dir, "d.png"), long)
	if code != 0 || !strings.Contains(errs, "long.html: truncated: the page has more than") {
		t.Errorf("a page cut at the block limit: exit %d, stderr:\n%s", code, errs)
	}
}

// TestInspectNeverKept: inspect says which blocks a rule drops whatever
// their value: a newsletter prompt of today's essay page is a box, and
// its date line "Apr 22, 2026" a time stamp (the corpus policy's text
// model), and its copyright line a legal notice, the one block of each.
func TestInspectNeverKept(t *testing.T) {
	needChromium(t) // inspect draws the picture
	rows, _ := inspectRows(t, "../../testdata/modern/html/m06.html")
	boxes, stamps, legal := 0, 0, 0
	for i, r := range rows {
		if r.NeverKept == "" {
			continue
		}
		switch {
		case r.Label != "dirty":
			t.Errorf("block %d (%q): %s, never kept for %q", i, r.Text, r.Label, r.NeverKept)
		case r.NeverKept == "box":
			if strings.Contains(r.Text, "reader-supported newsletter") {
				boxes++
			}
		case r.NeverKept == "stamp" && r.Text == "Apr 22, 2026":
			stamps++
		case r.NeverKept == "legal" && strings.HasPrefix(r.Text, "© 2026 Ines Calder"):
			legal++
		default:
			t.Errorf("block %d (%q): never kept for %q", i, r.Text, r.NeverKept)
		}
	}
	if boxes != 1 || stamps != 1 || legal != 1 {
		t.Errorf("the newsletter prompt is marked a box %d times, the date a stamp %d times, the copyright line legal %d times:\n%+v", boxes, stamps, legal, rows)
	}
}

// inspectRow is a row of fiasco inspect --json, the fields these tests read.
type inspectRow struct {
	Label     string `json:"label"`
	Text      string `json:"text"`
	Floor     bool   `json:"floor"`
	Fallback  bool   `json:"fallback"`
	NeverKept string `json:"never_kept"`
}

// inspectRows runs fiasco inspect --no-render --json with args (the page
// last) and returns its rows and its stderr.
func inspectRows(t *testing.T, args ...string) ([]inspectRow, string) {
	t.Helper()
	args = append([]string{"inspect", "--no-render", "--json", "-o", filepath.Join(t.TempDir(), "p.png")}, args...)
	code, out, errs := fiasco(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []inspectRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	return rows, errs
}

// TestCleanNeverKept: clean's JSON, and its JSONL with --blocks, say as
// inspect does which blocks a rule dropped whatever their value.
func TestCleanNeverKept(t *testing.T) {
	page := "../../testdata/modern/html/m06.html"
	code, out, errs := fiasco(t, "clean", "--no-render", "--format", "json", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct{ Blocks []inspectRow }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	code, out, errs = fiasco(t, "clean", "--no-render", "--format", "jsonl", "--blocks", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var line struct{ Blocks []inspectRow }
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatal(err)
	}
	rows, _ := inspectRows(t, page)
	if len(doc.Blocks) != len(rows) || len(line.Blocks) != len(rows) {
		t.Fatalf("%d JSON blocks, %d JSONL blocks, %d inspect rows", len(doc.Blocks), len(line.Blocks), len(rows))
	}
	boxes := 0
	for i, r := range rows {
		if doc.Blocks[i].NeverKept != r.NeverKept || line.Blocks[i].NeverKept != r.NeverKept {
			t.Errorf("block %d (%q): never kept %q in JSON, %q in JSONL, %q in inspect", i, r.Text, doc.Blocks[i].NeverKept, line.Blocks[i].NeverKept, r.NeverKept)
		}
		if r.NeverKept == "box" && strings.Contains(r.Text, "reader-supported newsletter") {
			boxes++
		}
	}
	if boxes != 1 {
		t.Errorf("the newsletter prompt is not marked a box in inspect: %+v", rows)
	}
}

// TestInspectOutputGuard: inspect -o never replaces what it reads (the
// page, the model) nor a file that is no PNG picture; it does replace a
// picture. The guard acts before anything is rendered.
func TestInspectOutputGuard(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "v.html")
	notes := filepath.Join(dir, "notes.txt")
	model := filepath.Join(dir, "m.fiasco")
	pic := filepath.Join(dir, "old.png")
	files := map[string]string{
		page:  "<html><body><p>A page with one sentence in it.</p></body></html>",
		notes: "notes\n",
		pic:   pngMagic + "rest of an older picture",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := os.ReadFile("../../classify/models/text.fiasco")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, m, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", page, page}, "the command reads that file"},
		{[]string{"--model", model, "-o", model, page}, "the command reads that file"},
		{[]string{"-o", model, page}, "is a fiasco model"},
		{[]string{"-o", notes, page}, "is no PNG picture"},
	} {
		code, _, errs := fiasco(t, append([]string{"inspect", "--no-render"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("inspect %q: exit %d, want 2 and %q; stderr:\n%s", c.args, code, c.want, errs)
		}
	}
	for p, s := range files {
		if b, _ := os.ReadFile(p); string(b) != s {
			t.Errorf("%s was changed", p)
		}
	}
	if b, _ := os.ReadFile(model); !bytes.Equal(b, m) {
		t.Errorf("the model was changed")
	}
	for _, out := range []string{pic, filepath.Join(dir, "new.png")} {
		if err := checkInspectOut(out, page, ""); err != nil {
			t.Errorf("%s: %v, want it written", out, err)
		}
	}
}

// TestInspectFallback: on a page of links alone, which would keep
// nothing, the block the fallback keeps is marked in inspect's JSON as
// in clean's.
func TestInspectFallback(t *testing.T) {
	page := filepath.Join(t.TempDir(), "links.html")
	links := `<html><body><ul><li><a href="/a">Home</a></li><li><a href="/b">About</a></li><li><a href="/c">Contact</a></li></ul><div><a href="/x">Login</a> | <a href="/y">Register</a></div></body></html>`
	if err := os.WriteFile(page, []byte(links), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := fiasco(t, "clean", "--no-render", "--format", "json", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct{ Blocks []struct{ Fallback bool } }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows, _ := inspectRows(t, page)
	if len(rows) != len(doc.Blocks) {
		t.Fatalf("%d inspect rows, %d JSON blocks", len(rows), len(doc.Blocks))
	}
	marked := 0
	for i, r := range rows {
		if r.Fallback != doc.Blocks[i].Fallback {
			t.Errorf("block %d (%q): fallback %v in inspect, %v in clean's JSON", i, r.Text, r.Fallback, doc.Blocks[i].Fallback)
		}
		if r.Fallback {
			marked++
			if r.Label != "clean" {
				t.Errorf("block %d (%q): marked fallback but %s", i, r.Text, r.Label)
			}
		}
	}
	if marked != 1 {
		t.Errorf("%d blocks marked fallback, want 1: %+v", marked, rows)
	}
}
