package corpus

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/pipeline"
)

// metaPage gives its metadata in JSON-LD (read before preclean drops the
// script) and Open Graph.
const metaPage = `<html><head><title>Harbour bridge reopens | The Coastal Times</title>
<meta property="og:site_name" content="The Coastal Times">
<script type="application/ld+json">{"@type":"NewsArticle","headline":"Harbour bridge reopens",
"author":{"@type":"Person","name":"Ada Lovelace"},"datePublished":"2024-03-05T08:30:00+01:00"}</script>
</head><body><h1>Harbour bridge reopens</h1>
<p>The harbour bridge opened again at dawn on Tuesday after six months of repairs, and the first buses crossed it before seven o'clock in the morning.</p>
</body></html>`

// plainPage gives no metadata but its title.
const plainPage = `<html><head><title>A page</title></head><body><p>The text of a page, a sentence that is long enough to be kept by the model as the clean text of the page.</p></body></html>`

func cleanInputs(t *testing.T, ins ...pipeline.Input) []pipeline.Outcome {
	t.Helper()
	c, err := pipeline.New(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	var out []pipeline.Outcome
	for _, in := range ins {
		res, err := c.CleanInput(context.Background(), in)
		out = append(out, pipeline.Outcome{Input: in, Result: res, Err: err})
	}
	return out
}

// TestJSONLineMeta: a JSONL line carries the page's metadata after its
// title, and leaves out author, date and site when the page has none.
func TestJSONLineMeta(t *testing.T) {
	outs := cleanInputs(t,
		pipeline.Input{Name: "meta.html", URL: "https://coastal.example/bridge", Data: []byte(metaPage)},
		pipeline.Input{Name: "plain.html", Data: []byte(plainPage)})
	line, err := JSONLine(&outs[0], false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"input":"meta.html","url":"https://coastal.example/bridge","title":"Harbour bridge reopens","author":"Ada Lovelace","date":"2024-03-05T08:30:00+01:00","site":"The Coastal Times","lang":"en",`
	if !strings.HasPrefix(string(line), want) {
		t.Errorf("line\n%s\nwant it to start\n%s", line, want)
	}
	line, err = JSONLine(&outs[1], false)
	if err != nil {
		t.Fatal(err)
	}
	var l map[string]any
	if err := json.Unmarshal(line, &l); err != nil {
		t.Fatal(err)
	}
	if l["title"] != "A page" {
		t.Errorf("plain page: title %v", l["title"])
	}
	for _, k := range []string{"author", "date", "site"} {
		if _, ok := l[k]; ok {
			t.Errorf("plain page has %s: %s", k, line)
		}
	}
}

// TestDirJSONMeta: the JSON files of a directory output carry the
// metadata as pipeline.Result.Write writes it.
func TestDirJSONMeta(t *testing.T) {
	dir := t.TempDir()
	out, err := Open(OutputOptions{Format: "json", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range cleanInputs(t, pipeline.Input{Name: "meta.html", Data: []byte(metaPage)}) {
		if _, err := out.Sink.Put(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := "\n \"title\": \"Harbour bridge reopens\",\n \"author\": \"Ada Lovelace\",\n \"date\": \"2024-03-05T08:30:00+01:00\",\n \"site\": \"The Coastal Times\",\n \"lang\": \"en\",\n \"charset\": \"utf-8\",\n \"threshold\": -0.25,\n \"text\": \"Harbour bridge reopens\\n\\nThe harbour bridge"
	if !bytes.Contains(data, []byte(want)) {
		t.Errorf("meta.json:\n%.400s\nwant it to hold%s", data, want)
	}
}

// TestJSONLineFrames: a frameset without text names the pages its frames
// load, resolved against the page's URL; a page with text names none.
func TestJSONLineFrames(t *testing.T) {
	const frameset = `<html><head><title>Frames</title></head><frameset cols="20%,80%">` +
		`<frame src="nav.html"><frame src="/docs/main.html"><frame src="about:blank"></frameset></html>`
	outs := cleanInputs(t,
		pipeline.Input{Name: "f.html", URL: "https://old.example/site/index.html", Data: []byte(frameset)},
		pipeline.Input{Name: "g.html", Data: []byte(frameset)},
		pipeline.Input{Name: "plain.html", Data: []byte(plainPage)})
	want := [][]string{
		{"https://old.example/site/nav.html", "https://old.example/docs/main.html"},
		{"nav.html", "/docs/main.html"},
		nil,
	}
	for i, o := range outs {
		line, err := JSONLine(&o, false)
		if err != nil {
			t.Fatal(err)
		}
		var l Line
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l.Frames, want[i]) {
			t.Errorf("%s: frames %q, want %q", o.Input.Name, l.Frames, want[i])
		}
	}
}
