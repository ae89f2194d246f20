package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"strconv"
	"strings"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

func init() {
	register(&command{
		name:    "inspect",
		summary: "draw a page with its blocks outlined by class, and list their features",
		run:     runInspect,
	})
}

const inspectHelp = `usage: fiasco inspect [options] PAGE -o PAGE.png

Renders PAGE in Chromium as it looks, outlines every text block in the
colour of its predicted class (green clean, red dirty) with its number, and
writes the picture to -o (only over a PNG picture, or as a new or empty
file: never over the page or the model it reads). A table of every block's
number, label, decision value, type and feature values goes to standard
output (TSV, or JSON with --json), so the numbers can be read beside the
picture; the visual columns are in it only when the model's page was
rendered. The classes are those of the model fiasco clean would use with
the same flags: under the corpus policy the model with visual features (and
their values in the table), with --no-render (and under --policy article)
the text model; the page is rendered for the picture either way. The labels
and values are fiasco clean's with the same flags: the blocks are measured
at --scale as clean measures them, and the picture is drawn at full scale.
A block dropped whatever its value (an advertisement's label, a block in a
box named for what it holds, such as a newsletter prompt or an author's
bio, a copyright line, and under the corpus policy a time stamp or a
byline; README) is labelled dirty, and in JSON its never_kept says which.
PAGE is read as fiasco clean reads a page: a file, gzip- or zstd-compressed
or not, "-" for standard input, or a WARC archive holding one page.`

func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("inspect", inspectHelp)
	mf := addModelFlags(fs.FlagSet)
	mf.withoutRender = ""
	out := fs.String("o", "", "output PNG (required)")
	asJSON := fs.Bool("json", false, "write the table as JSON instead of TSV")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("inspect", "want one PAGE, got %d arguments", len(pos))
	}
	if err := validateModelFlags("inspect", mf); err != nil {
		return err
	}
	if *out == "" {
		return usagef("inspect", "no output: give -o PAGE.png")
	}
	page := pos[0]
	if err := checkInspectOut(*out, page, mf.model); err != nil {
		return err
	}
	c, err := mf.prepared() // the model, threshold, floor and smoothing of fiasco clean
	if err != nil {
		return err
	}
	// The blocks are measured as fiasco clean measures them, at --scale;
	// the picture is drawn at full scale, for people, by a second browser
	// where the scales differ.
	ropt := mf.render.options()
	popt := ropt
	popt.Scale = 1
	if c.Model.Visual {
		mv, err := mf.render.start(ctx, ropt, "")
		if err != nil {
			return err
		}
		defer mv.Close()
		c.Prepare.Visual = mv
	} else {
		// Keep the page's style sheets for the picture, as rendering
		// does (they hold no text, so the blocks and their text features
		// are those of fiasco clean's text model).
		c.Prepare.Preclean.KeepStyles = true
	}
	v, _ := c.Prepare.Visual.(*pipeline.ChromeVisualizer)
	if v == nil || ropt.Scale != 1 {
		if v, err = mf.render.start(ctx, popt, ""); err != nil {
			return err
		}
		defer v.Close()
	}
	in, err := inspectInput(ctx, page)
	if err != nil {
		return err
	}
	res, err := c.CleanInput(ctx, in)
	if err != nil {
		return err
	}
	page = in.Name
	// Render the page as it looks, with the blocks' boxes.
	doc, err := pipeline.Markup(res.Doc)
	if err != nil {
		return fmt.Errorf("%s: %w", page, err)
	}
	colors, err := vision.Palette(len(res.Blocks))
	if err != nil {
		return fmt.Errorf("%s: %w", page, err)
	}
	shot, err := v.Browser.Render(ctx, doc, colors, render.RenderOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", page, err)
	}
	classes := make([]int, len(res.Blocks))
	labels := make([]string, len(res.Blocks))
	for i := range res.Blocks {
		if res.Keep[i] {
			classes[i] = 1
		}
		labels[i] = strconv.Itoa(i)
	}
	img := vision.Outline(shot.Image, shot.Boxes, classes, labels)
	if err := writeOutput(*out, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return err
	}
	if err := writeBlockTable(stdout, res, *asJSON); err != nil {
		return err
	}
	kept := len(res.Kept())
	if res.Page.Truncated {
		fmt.Fprintf(stderr, "fiasco inspect: %s: %s\n", page, truncatedMsg(res.Page.Cut, load.DefaultMaxBytes))
	}
	if res.Floored() {
		fmt.Fprintf(stderr, "fiasco inspect: %s: %s\n", page, flooredMsg)
	}
	if note := res.NoTextNote(); note != "" {
		fmt.Fprintf(stderr, "fiasco inspect: %s: %s\n", page, note) // as fiasco clean says it
	}
	fmt.Fprintf(stderr, "fiasco inspect: %d blocks, %d clean; wrote %s\n", len(res.Blocks), kept, *out)
	return nil
}

// inspectInput reads the one page that arg stands for as fiasco clean
// reads it: a file (gzip- and zstd-compressed ones decompressed), "-" for
// standard input, or a WARC archive that holds one page (its damaged
// stretches aside; the page takes its style sheets and images from the
// archive, as the picture is rendered whatever the model).
func inspectInput(ctx context.Context, arg string) (pipeline.Input, error) {
	src := corpus.NewSource(corpus.Options{Resources: true})
	var page, failed *pipeline.Input
	for in := range src.Inputs(ctx, []string{arg}, nil) {
		switch {
		case in.Err != nil:
			if failed == nil {
				failed = &in
			}
		case page != nil:
			return pipeline.Input{}, usagef("inspect", "%s holds more than one page (a directory or a WARC archive): give one page", arg)
		default:
			page = &in
		}
	}
	switch {
	case page != nil:
		return *page, nil
	case failed != nil:
		return *failed, failed.Err
	}
	return pipeline.Input{}, fmt.Errorf("%s: no page in it", arg)
}

// writeBlockTable lists every block with its label, decision value, type,
// raw feature values and text.
func writeBlockTable(w io.Writer, res *pipeline.Result, asJSON bool) error {
	full := res.Table.Rows(res.Model.Keywords)
	// The visual columns only where the page was rendered for the model:
	// otherwise nothing measured them, and zeros would read as values.
	var names []string
	var cols []int
	for c, f := range features.All() {
		if f.Group == features.Visual && res.Doc.Visual == nil {
			continue
		}
		names, cols = append(names, f.Name), append(cols, c)
	}
	rows := features.Project(full, cols)
	types := export.KeptTypes(res.Blocks, func(i int) bool { return res.Keep[i] })
	if asJSON {
		type row struct {
			ID       int                `json:"id"`
			Label    string             `json:"label"`
			Value    float64            `json:"value"`
			Type     string             `json:"type"`
			Tag      string             `json:"tag"`
			Features map[string]float64 `json:"features"`
			Text     string             `json:"text"`
			// As in clean's JSON: sequence smoothing gave the block the
			// other label than its value; the prose floor kept it; the
			// fallback kept it, the page's best block on a page that
			// would keep nothing (pipeline.Result.Fallback).
			Smoothed bool `json:"smoothed,omitempty"`
			Floor    bool `json:"floor,omitempty"`
			Fallback bool `json:"fallback,omitempty"`
			// NeverKept says why a block is dropped whatever its value
			// (pipeline.NeverKept: "ad label", "box", "stamp", "byline", "legal").
			NeverKept string `json:"never_kept,omitempty"`
		}
		var out []row
		texts := export.BlockTexts(res.Blocks)
		never := res.NeverKept()
		fallback := res.Fallback()
		for i, b := range res.Blocks {
			fv := map[string]float64{}
			for j, n := range names {
				fv[n] = rows[i][j]
			}
			out = append(out, row{ID: i, Label: label(res.Keep[i]), Value: res.Score[i], Type: string(types[i]), Tag: b.Node.Data, Features: fv, Text: texts[i],
				Smoothed: res.Smoothed != nil && res.Smoothed[i], Floor: res.Floor != nil && res.Floor[i],
				Fallback: fallback != nil && fallback[i], NeverKept: neverKept(never, i)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(out)
	}
	fmt.Fprintf(w, "id\tlabel\tvalue\ttype\ttag\t%s\ttext\n", strings.Join(names, "\t"))
	for i, b := range res.Blocks {
		vals := make([]string, len(names))
		for j := range names {
			vals[j] = strconv.FormatFloat(rows[i][j], 'g', 4, 64)
		}
		text := strings.Join(strings.Fields(b.Text), " ")
		if r := []rune(text); len(r) > 80 {
			text = string(r[:80]) + "…"
		}
		if _, err := fmt.Fprintf(w, "%d\t%s\t%.3f\t%c\t%s\t%s\t%s\n", i, label(res.Keep[i]), res.Score[i], types[i], b.Node.Data, strings.Join(vals, "\t"), text); err != nil {
			return err
		}
	}
	return nil
}

// neverKept is why[i], or "" where why is nil (no block a rule drops).
func neverKept(why []string, i int) string {
	if i < len(why) {
		return why[i]
	}
	return ""
}

func label(keep bool) string {
	if keep {
		return "clean"
	}
	return "dirty"
}

// checkInspectOut refuses, before any work, an -o that would replace what
// inspect reads (the page, the model) or a file that is no PNG picture (a
// model, a page, notes): a picture is written only over a picture, or as
// a new or empty file.
func checkInspectOut(out, page, model string) error {
	if err := checkNotInput("inspect", "-o", out, nil, page, model); err != nil {
		return err
	}
	if err := checkOutKind("inspect", "-o", out, false); err != nil {
		return err
	}
	return checkOverOwn("inspect", "-o", out, "PNG picture", "a picture", isPNG)
}

// pngMagic is how every PNG file begins.
const pngMagic = "\x89PNG\r\n\x1a\n"

// isPNG tells whether head, a file's first bytes, opens a PNG picture.
func isPNG(head []byte) bool { return bytes.HasPrefix(head, []byte(pngMagic)) }
