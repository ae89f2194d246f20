package main

import (
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// needChromium skips t, saying so, on a machine without Chromium; in CI
// (CI=true), where setup.sh installs it, a missing Chromium fails t.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := render.FindChromium(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Chromium in CI (%v): setup.sh installs it", err)
		}
		t.Skipf("no Chromium on this machine (%v); rendering not tested", err)
	}
}

// TestCleanRendered cleans the test page with the corpus policy's visual
// model (--render): Chromium renders it and the visual features join the
// others.
func TestCleanRendered(t *testing.T) {
	needChromium(t)
	code, out, errs := fiasco(t, "clean", "--render", "--format", "text", "../../testdata/article.html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"More than forty thousand people", "Police closed two streets"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"Log in", "Copyright"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("output keeps %q:\n%s", unwanted, out)
		}
	}
}

// TestInspect draws the test page with its blocks outlined.
func TestInspect(t *testing.T) {
	needChromium(t)
	png1 := filepath.Join(t.TempDir(), "article.png")
	code, out, errs := fiasco(t, "inspect", "../../testdata/article.html", "-o", png1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 10 || !strings.HasPrefix(lines[0], "id\tlabel\tvalue") {
		t.Fatalf("feature table:\n%s", out)
	}
	if !strings.Contains(lines[0], "\tvis_relwidth\t") {
		t.Errorf("the rendered model's table lacks the visual columns: %s", lines[0])
	}
	// With the text model nothing measures the visual columns: the table
	// leaves them out rather than show zeros.
	code, out, errs = fiasco(t, "inspect", "--no-render", "../../testdata/article.html", "-o", filepath.Join(t.TempDir(), "text.png"))
	if code != 0 {
		t.Fatalf("--no-render: exit %d: %s", code, errs)
	}
	head, _, _ := strings.Cut(out, "\n")
	if strings.Contains(head, "vis_") || !strings.Contains(head, "\twin_prose\t") {
		t.Errorf("--no-render table header: %s", head)
	}
	f, err := os.Open(png1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != render.DefaultWidth {
		t.Errorf("picture is %d px wide, want the viewport's %d", w, render.DefaultWidth)
	}
	// Both outline colours occur: the article is clean, the menu dirty.
	var green, red bool
	clean, dirty := vision.ClassColor(1), vision.ClassColor(0)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			green = green || c == clean
			red = red || c == dirty
		}
	}
	if !green || !red {
		t.Errorf("outlines: clean (green) %v, dirty (red) %v; want both", green, red)
	}
}

// TestNoEmptyOutput: a page whose only content is running text comes out
// with it, rendered (the corpus default) and not: one short paragraph,
// one table cell of 20 KB, a page of one line; and a news page whose
// article is one <div> of 3,600 words between a menu and a footer, far
// longer and larger than any training block, which the rendered model
// dropped (27 words out) before the scalers clipped.
func TestNoEmptyOutput(t *testing.T) {
	needChromium(t)
	dir := t.TempDir()
	para := "The council met on Tuesday evening to discuss the plan for a new bridge over the river, and after a long debate about its cost, the members voted to approve it; work will begin in the spring if the budget allows it."
	pages := map[string]string{
		"onepara.html": "<html><head><title>Bridge</title></head><body><p>" + para + "</p></body></html>",
		"bigtd.html": "<html><body><table><tr><td>" + strings.Repeat("This is a long report about the history of the town and its bridges, written by the local society. ", 200) +
			"</td></tr></table></body></html>",
		"oneline.html": "<html><body>Just one line of text on this page, nothing else here at all.</body></html>",
		"bigdiv.html":  bigDivPage(),
	}
	for name, html := range pages {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"--render", "--no-render"} {
			code, out, errs := fiasco(t, "clean", mode, "--format", "text", p)
			if code != 0 || len(strings.Fields(out)) < 10 {
				t.Errorf("%s %s: exit %d, %d words out; stderr %q", name, mode, code, len(strings.Fields(out)), errs)
			}
			if name == "bigdiv.html" && (len(strings.Fields(out)) < 3000 || !strings.Contains(out, "Sentence number 149 ")) {
				t.Errorf("%s %s: the article is not kept: %d words out", name, mode, len(strings.Fields(out)))
			}
		}
	}
}

// bigDivPage is a menu, a heading, an article of 150 sentences in one
// <div> and a footer of links.
func bigDivPage() string {
	var b strings.Builder
	b.WriteString("<html><head><title>Report</title></head><body><ul>")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, `<li><a href="/s%d">Section %d</a></li>`, i, i)
	}
	b.WriteString("</ul><h1>The council report</h1><div>")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&b, "Sentence number %d of the report says that the council will meet again next week to discuss the bridge, the budget and the school. ", i)
	}
	b.WriteString(`</div><p><a href="/privacy">Privacy</a> | <a href="/terms">Terms</a> | Copyright 2008 The Daily Example</p></body></html>`)
	return b.String()
}

// TestCleanRescue: --rescue reaches the rendered model. On the sidebar
// blog page, cut at 0.5, the visual model alone drops the post's one
// block of paragraphs; with --rescue the text model, sure of it, keeps
// it (pipeline.RescueMargin). The sidebar stays out either way. With
// the text model (--no-render), --rescue is an error.
func TestCleanRescue(t *testing.T) {
	needChromium(t)
	const page, post = "../../testdata/sidebar-blog.html", "When a story breaks"
	for _, rescue := range []bool{false, true} {
		args := []string{"clean", "--render", "--threshold", "0.5", "--format", "text", page}
		if rescue {
			args = append([]string{"clean", "--rescue"}, args[1:]...)
		}
		code, out, errs := fiasco(t, args...)
		if code != 0 {
			t.Fatalf("--rescue=%v: exit %d: %s", rescue, code, errs)
		}
		if got := strings.Contains(out, post); got != rescue {
			t.Errorf("--rescue=%v: the post kept %v, want %v:\n%s", rescue, got, rescue, out)
		}
		if strings.Contains(out, "Category number") {
			t.Errorf("--rescue=%v: the sidebar kept:\n%s", rescue, out)
		}
	}
	// Without a rendered model there is nothing to rescue from: an error,
	// not a flag silently ignored.
	if code, _, errs := fiasco(t, "clean", "--rescue", "--no-render", page); code != 2 || !strings.Contains(errs, "--rescue") {
		t.Errorf("--rescue --no-render: exit %d, stderr %q; want a usage error (2) naming --rescue", code, errs)
	}
}

// TestCleanBlend: --blend reaches the rendered model. On the sidebar blog
// page, cut at 0.5, the visual model alone drops the post's block; with
// --blend 1 the text model, sure of it, decides it and keeps it. A weight
// outside 0 to 1, or a blend with the text model (--no-render), is a
// usage error.
func TestCleanBlend(t *testing.T) {
	const page, post = "../../testdata/sidebar-blog.html", "When a story breaks"
	for _, args := range [][]string{{"--blend", "1.5", "--render"}, {"--blend", "x", "--render"}, {"--blend", "0.5", "--no-render"}} {
		if code, _, errs := fiasco(t, append(append([]string{"clean"}, args...), page)...); code != 2 || !strings.Contains(errs, "blend") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error (2) naming the blend", args, code, errs)
		}
	}
	// 0 asks for nothing a text model lacks.
	if code, _, errs := fiasco(t, "clean", "--blend", "0", "--no-render", "--format", "text", page); code != 0 {
		t.Errorf("--blend 0 --no-render: exit %d, stderr %q; want 0", code, errs)
	}
	needChromium(t)
	for _, blend := range []string{"0", "1"} {
		code, out, errs := fiasco(t, "clean", "--render", "--blend", blend, "--threshold", "0.5", "--format", "text", page)
		if code != 0 {
			t.Fatalf("--blend %s: exit %d: %s", blend, code, errs)
		}
		if got, want := strings.Contains(out, post), blend == "1"; got != want {
			t.Errorf("--blend %s: the post kept %v, want %v:\n%s", blend, got, want, out)
		}
	}
}

// TestUnseenReported: a page taller than the renderer's capture has its
// lower blocks decided by the text model, and says so: a line on stderr
// for one page, unseen_blocks in its JSON and JSONL line (and unseen on
// the blocks in JSON), and a count in a batch's summary.
func TestUnseenReported(t *testing.T) {
	needChromium(t)
	var b strings.Builder
	b.WriteString(`<html><head><title>The long report</title></head><body style="margin:0;font:16px/20px sans-serif">
<h1>The long report</h1>`)
	para := func(where string, i int) {
		fmt.Fprintf(&b, "<p>Paragraph %d %s. The council met on Tuesday to discuss the new bridge over the river, and the mayor said that the work would start in the spring if the budget allows it.</p>\n", i, where)
	}
	for i := range 3 {
		para("near the top", i)
	}
	fmt.Fprintf(&b, `<div style="height:%dpx"></div>`, render.DefaultMaxHeight)
	for i := range 3 {
		para("far below", i)
	}
	b.WriteString(`</body></html>`)
	dir := t.TempDir()
	tall := filepath.Join(dir, "tall.html")
	if err := os.WriteFile(tall, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := fiasco(t, "clean", "--format", "text", tall)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := fmt.Sprintf("tall.html: 3 text blocks below the first %s px", thousands(render.DefaultMaxHeight))
	if !strings.Contains(errs, want) || !strings.Contains(out, "Paragraph 2 far below") {
		t.Errorf("stderr lacks %q, or the text lacks the paragraphs below:\nstderr: %s\nstdout: %s", want, errs, out)
	}
	// JSON marks the three blocks the text model decided.
	code, out, errs = fiasco(t, "clean", "--format", "json", tall)
	if code != 0 || !strings.Contains(out, `"unseen_blocks": 3`) || strings.Count(out, `"unseen": true`) != 3 {
		t.Errorf("json: exit %d, stderr %q; want unseen_blocks 3 and three blocks unseen:\n%s", code, errs, out)
	}
	// The short test page was captured whole: nothing to say.
	code, _, errs = fiasco(t, "clean", "--format", "text", "../../testdata/article.html")
	if code != 0 || strings.Contains(errs, "the text model decided") {
		t.Errorf("article.html: exit %d, stderr %q; want 0 and no unseen blocks", code, errs)
	}
	jsonl := filepath.Join(dir, "out.jsonl")
	code, _, errs = fiasco(t, "clean", "--format", "jsonl", "-o", jsonl, tall, "../../testdata/article.html")
	if code != 0 {
		t.Fatalf("batch: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "1 with text blocks the rendering could not show") {
		t.Errorf("batch summary lacks the count:\n%s", errs)
	}
	data, err := os.ReadFile(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"unseen_blocks":3`) || strings.Contains(lines[1], "unseen_blocks") {
		t.Errorf("jsonl: want unseen_blocks 3 on the tall page's line only:\n%s", data)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 60000: "60,000", 1234567: "1,234,567", -1000: "-1,000", -100: "-100"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestInspectMatchesClean: inspect's labels and decision values are those
// of fiasco clean on the same page (the blocks are measured at clean's
// scale; only the picture is drawn at full scale).
func TestInspectMatchesClean(t *testing.T) {
	needChromium(t)
	type block struct {
		Label string  `json:"label"`
		Value float64 `json:"value"`
	}
	const page = "../../testdata/article.html"
	code, out, errs := fiasco(t, "clean", "--format", "json", page)
	if code != 0 {
		t.Fatalf("clean: exit %d: %s", code, errs)
	}
	var cleaned struct{ Blocks []block }
	if err := json.Unmarshal([]byte(out), &cleaned); err != nil {
		t.Fatal(err)
	}
	code, out, errs = fiasco(t, "inspect", "--json", "-o", filepath.Join(t.TempDir(), "a.png"), page)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, errs)
	}
	var inspected []block
	if err := json.Unmarshal([]byte(out), &inspected); err != nil {
		t.Fatal(err)
	}
	if len(inspected) != len(cleaned.Blocks) || len(inspected) == 0 {
		t.Fatalf("inspect lists %d blocks, clean %d", len(inspected), len(cleaned.Blocks))
	}
	for i, b := range inspected {
		c := cleaned.Blocks[i]
		// clean's JSON rounds values to six decimals
		if b.Label != c.Label || math.Abs(b.Value-c.Value) > 1e-6 {
			t.Errorf("block %d: inspect %s %.6f, clean %s %.6f", i, b.Label, b.Value, c.Label, c.Value)
		}
	}
}
