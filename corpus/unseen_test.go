package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/vision"
)

// TestUnseenFields: a page with blocks its rendering could not show
// (pipeline.Result.Unseen) says how many in every output: unseen_blocks
// in its JSONL line and manifest entry, Fiasco-Unseen-Blocks in its WET
// record; and Unseen reads it back from what Encode left. So does a page
// whose prose the floor kept (pipeline.Result.Floored): floored,
// Fiasco-Floored; and one of a WARC response its HTTP status (here 404, as
// --any-status lets through): http_status, Fiasco-HTTP-Status. Blocks in JSONL (with Blocks) and the JSON format say
// which they are: unseen, smoothed (with smoothed_blocks, the page's
// count), floor.
func TestUnseenFields(t *testing.T) {
	c, err := pipeline.New(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	in := pipeline.Input{Name: "tall.html", URL: "http://ex.org/tall", HTTPStatus: 404,
		Data: []byte("<html><body><h1>A report</h1><p>The first paragraph of the report, a sentence long enough to be kept.</p><p>The last paragraph of the report, below the capture of a very tall page.</p></body></html>")}
	// outcome is the page as a visual model would have cleaned it with
	// its last block below the capture.
	outcome := func() pipeline.Outcome {
		r, err := c.CleanInput(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		r.Model = vm
		r.Visual = make([]vision.Features, len(r.Blocks))
		for i := range r.Visual {
			r.Visual[i].Found = true
		}
		r.Visual[len(r.Visual)-1] = vision.Features{Beyond: true}
		// The floor kept the first paragraph, which the threshold dropped.
		r.Floor = make([]bool, len(r.Blocks))
		r.Floor[1], r.Keep[1] = true, true
		// Smoothing dropped the heading, which its value kept.
		r.Smoothed = make([]bool, len(r.Blocks))
		r.Smoothed[0], r.Keep[0] = true, false
		return pipeline.Outcome{Input: in, Result: r}
	}
	dir := t.TempDir()
	for _, f := range []struct{ format, path, want, floored, status string }{
		{"jsonl", filepath.Join(dir, "out.jsonl"), `"unseen_blocks":1`, `"floored":true`, `"http_status":404`},
		{"wet", filepath.Join(dir, "out.warc.wet.gz"), FieldUnseenBlocks + ": 1\r\n", FieldFloored + ": true\r\n", FieldHTTPStatus + ": 404\r\n"},
		{"jsonl", filepath.Join(dir, "OUT.JSONL.GZ"), `"unseen_blocks":1`, `"floored":true`, `"http_status":404`}, // gzip whatever the case
		{"text", filepath.Join(dir, "pages"), `"unseen_blocks":1`, `"floored":true`, `"http_status":404`},
	} {
		out, err := Open(OutputOptions{Format: f.format, Path: f.path})
		if err != nil {
			t.Fatal(err)
		}
		o := outcome()
		out.Sink.Encode(&o)
		if n, all := Unseen(o); n != 1 || all || !Floored(o) {
			t.Errorf("%s: Unseen after Encode = %d, %v, Floored %v; want 1, false, true", f.format, n, all, Floored(o))
		}
		if _, err := out.Sink.Put(o); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		p := f.path
		if f.format == "text" {
			p = filepath.Join(p, ManifestName)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(strings.ToLower(p), ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		for _, w := range []string{f.want, f.floored, f.status} {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s: output lacks %q:\n%s", f.format, w, data)
			}
		}
		// A JSONL line without blocks counts the smoothed ones all the same.
		if f.format == "jsonl" && !strings.Contains(string(data), `"smoothed_blocks":1`) {
			t.Errorf("jsonl: line lacks smoothed_blocks:\n%s", data)
		}
	}
	for _, f := range []struct {
		opt  OutputOptions
		path string
		want []string
	}{
		{OutputOptions{Format: "jsonl", Path: filepath.Join(dir, "blocks.jsonl"), Blocks: true}, "blocks.jsonl",
			[]string{`"unseen_blocks":1`, `"floored":true`, `"unseen":true`, `"floor":true`, `"smoothed_blocks":1`, `"smoothed":true`}},
		{OutputOptions{Format: "json", Path: filepath.Join(dir, "json")}, filepath.Join("json", "tall.json"),
			[]string{`"unseen_blocks": 1`, `"floored": true`, `"unseen": true`, `"floor": true`, `"smoothed_blocks": 1`, `"smoothed": true`}},
	} {
		out, err := Open(f.opt)
		if err != nil {
			t.Fatal(err)
		}
		o := outcome()
		out.Sink.Encode(&o)
		if _, err := out.Sink.Put(o); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, f.path))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range f.want {
			if strings.Count(string(data), w) != 1 {
				t.Errorf("%s: want %q once:\n%s", f.opt.Format, w, data)
			}
		}
		// On the right blocks: the floor's on the first paragraph, unseen on the last.
		var page struct {
			Blocks []struct {
				ID                      int
				Label                   string
				Unseen, Smoothed, Floor bool
			}
		}
		if err := json.Unmarshal(data, &page); err != nil || len(page.Blocks) != 3 {
			t.Fatalf("%s: %d blocks (%v)", f.opt.Format, len(page.Blocks), err)
		}
		for i, b := range page.Blocks {
			if b.ID != i || b.Floor != (i == 1) || b.Unseen != (i == 2) || b.Smoothed != (i == 0) || i == 1 && b.Label != "clean" || i == 0 && b.Label != "dirty" {
				t.Errorf("%s: block %+v", f.opt.Format, b)
			}
		}
	}
}
