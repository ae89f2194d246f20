package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/meta"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func loadPage(t *testing.T) (*load.Page, []*blocks.Block) {
	t.Helper()
	data, err := os.ReadFile("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	p := &load.Page{Name: "page.html", URL: "http://example.org/story", Doc: doc}
	return p, blocks.Find(p.Doc)
}

// keepRule drops the navigation, the ad and the copyright line.
func keepRule(bs []*blocks.Block) ([]bool, []float64) {
	keep := make([]bool, len(bs))
	score := make([]float64, len(bs))
	for i, b := range bs {
		dirty := strings.Contains(b.Text, "Home |") || strings.Contains(b.Text, "Buy now") ||
			strings.Contains(b.Text, "Copyright") || strings.Contains(b.Text, "Menu junk")
		keep[i] = !dirty
		score[i] = 1
		if dirty {
			score[i] = -1
		}
	}
	return keep, score
}

func TestGolden(t *testing.T) {
	for _, f := range []Format{CleanEval, Text, HTML, JSON} {
		t.Run(f.String(), func(t *testing.T) {
			p, bs := loadPage(t)
			keep, score := keepRule(bs)
			var buf bytes.Buffer
			if err := Write(&buf, f, p, bs, keep, score); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "page."+f.String()+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s:\n%s", golden, buf.String())
			}
			out := buf.String()
			for _, gone := range []string{"Buy now", "Copyright", "About"} {
				if strings.Contains(out, gone) && f != JSON {
					t.Errorf("dropped text %q in output", gone)
				}
			}
			for _, kept := range []string{"quoted passage", "Second point", "Background"} {
				if !strings.Contains(out, kept) {
					t.Errorf("kept text %q missing", kept)
				}
			}
		})
	}
}

func TestCleanEvalStructure(t *testing.T) {
	p, bs := loadPage(t)
	keep, _ := keepRule(bs)
	var buf bytes.Buffer
	if err := Write(&buf, CleanEval, p, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"URL: http://example.org/story\n",
		"<h> The Story Of The Day\n",
		"<h> Short bold heading\n",
		"<h> Background\n", // short, followed by a longer paragraph
		"<l> First point\n",
		"<l> Second point with a link\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Reading order: the quote comes between the two parts of the cell.
	i, j, k := strings.Index(out, "Intro"), strings.Index(out, "quoted"), strings.Index(out, "rest of the story")
	if !(i >= 0 && i < j && j < k) {
		t.Errorf("not in reading order:\n%s", out)
	}
}

// TestRunsPartition checks that the runs of each block hold exactly the
// words of its text.
func TestRunsPartition(t *testing.T) {
	_, bs := loadPage(t)
	words := make([][]string, len(bs))
	for _, r := range blocks.Runs(bs) {
		words[r.Block] = append(words[r.Block], strings.Fields(r.Text)...)
	}
	for i, b := range bs {
		if got, want := strings.Join(words[i], " "), strings.Join(strings.Fields(b.Text), " "); got != want {
			t.Errorf("block %d: runs %q, text %q", i, got, want)
		}
	}
	if len(blocks.Runs(nil)) != 0 {
		t.Error("runs of no blocks")
	}
}

func TestWriteErrors(t *testing.T) {
	p, bs := loadPage(t)
	var buf bytes.Buffer
	if err := Write(&buf, Text, p, bs, make([]bool, len(bs)+1), nil); err == nil {
		t.Error("no error for a wrong keep length")
	}
	if err := Write(&buf, JSON, p, bs, nil, []float64{1}); err == nil {
		t.Error("no error for a wrong score length")
	}
	if err := Write(&buf, Format(9), p, bs, nil, nil); err == nil {
		t.Error("no error for a bad format")
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("no error for format xml")
	}
	if f, err := ParseFormat("JSON"); err != nil || f != JSON {
		t.Errorf("ParseFormat(JSON) = %v, %v", f, err)
	}
}

func TestKeepAll(t *testing.T) {
	p, bs := loadPage(t)
	var buf bytes.Buffer
	if err := Write(&buf, Text, p, bs, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		for _, w := range strings.Fields(b.Text) {
			if !strings.Contains(buf.String(), w) {
				t.Fatalf("word %q of block %d missing with keep nil", w, b.ID)
			}
		}
	}
}

func TestCountFields(t *testing.T) {
	inputs := []string{"", " ", "a", "a b", " a  b ", "a\nb\tc", "a\u00a0b", "a\u0085b", "\xff", "a \xff b",
		"\xe2\x80 x", "日本 語 x", "a\u2028b\u3000c d e f g", "one two three four five six", "\v\f a"}
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", " ", "\n", "\u00a0", "\u0085", "\xff", "é", "\u3000", "\t", "xy"}
	for range 5000 {
		var b strings.Builder
		for k := r.Intn(15); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	for _, s := range inputs {
		want := len(strings.Fields(s))
		for limit := 0; limit <= want+2; limit++ {
			if got := countFields(s, limit); got != min(want, limit) {
				t.Fatalf("countFields(%q, %d) = %d, want %d", s, limit, got, min(want, limit))
			}
		}
	}
}

// onlyWriter hides the methods of the writer it wraps, so that Write
// buffers it.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }

// Write gives the same bytes to an in-memory writer (written directly)
// and to any other writer (through a buffer).
func TestWriteAnyWriter(t *testing.T) {
	for _, f := range []Format{CleanEval, Text, HTML, JSON} {
		var outs []string
		for k := range 3 {
			p, bs := loadPage(t)
			keep, score := keepRule(bs)
			var buf bytes.Buffer
			var sb strings.Builder
			var err error
			switch k {
			case 0:
				err = Write(&buf, f, p, bs, keep, score)
			case 1:
				err = Write(&sb, f, p, bs, keep, score)
				buf.WriteString(sb.String())
			default:
				err = Write(onlyWriter{&buf}, f, p, bs, keep, score)
			}
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, buf.String())
		}
		if outs[0] != outs[1] || outs[0] != outs[2] || outs[0] == "" {
			t.Errorf("%v: outputs differ by writer:\n%q\n%q\n%q", f, outs[0], outs[1], outs[2])
		}
	}
}

// TestWriteMeta: WriteMeta's JSON carries the page's metadata after name
// and url (title always; author, date and site when known) and is Write's
// otherwise; Write's JSON has none of these fields, as before.
func TestWriteMeta(t *testing.T) {
	p, bs := loadPage(t)
	keep, score := keepRule(bs)
	var plain, full, none bytes.Buffer
	if err := Write(&plain, JSON, p, bs, keep, score); err != nil {
		t.Fatal(err)
	}
	m := meta.Meta{Title: "A story", Author: "Ada Lovelace", Date: "2024-03-05", DateRaw: "March 5, 2024", Site: "Example Times", Description: "not written"}
	if err := WriteMeta(&full, JSON, p, m, bs, keep, score); err != nil {
		t.Fatal(err)
	}
	if err := WriteMeta(&none, JSON, p, meta.Meta{}, bs, keep, score); err != nil {
		t.Fatal(err)
	}
	want := `{
 "name": "page.html",
 "url": "http://example.org/story",
 "title": "A story",
 "author": "Ada Lovelace",
 "date": "2024-03-05",
 "site": "Example Times",
 "lang": "en",
 "text": "The Story Of The Day\n\nShort bold heading\n\n`
	if !strings.HasPrefix(full.String(), want) {
		t.Errorf("WriteMeta JSON starts\n%s\nwant\n%s", full.String()[:min(full.Len(), len(want)+40)], want)
	}
	if got, rest := full.String(), plain.String()[strings.Index(plain.String(), ` "blocks"`):]; !strings.HasSuffix(got, rest) {
		t.Errorf("WriteMeta's blocks differ from Write's")
	}
	if !strings.Contains(none.String(), "\n \"title\": \"\",\n \"lang\": \"en\",\n \"text\": \"The Story") {
		t.Errorf("WriteMeta without metadata: no empty title, or other fields:\n%.200s", none.String())
	}
	for _, k := range []string{`"title"`, `"author"`, `"date"`, `"site"`, `"lang"`} {
		if strings.Contains(plain.String(), k) {
			t.Errorf("Write's JSON has %s", k)
		}
	}
	var page struct {
		Title, Author, Date, Site, Text string
		Blocks                          []json.RawMessage
	}
	if err := json.Unmarshal(full.Bytes(), &page); err != nil || page.Title != m.Title || page.Author != m.Author || page.Date != m.Date || page.Site != m.Site || len(page.Blocks) != len(bs) {
		t.Errorf("decoded %+v, %v", page, err)
	}
	// "text" is the text format's output, in reading order (the page's
	// quoted passage splits its paragraph's block in two), without its
	// last line feed.
	var text bytes.Buffer
	if err := Write(&text, Text, p, bs, keep, score); err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSuffix(text.String(), "\n"); page.Text != want || want == "" {
		t.Errorf("JSON text %q, want the text format's %q", page.Text, want)
	}
	for _, f := range []Format{CleanEval, Text, HTML} {
		var a, b bytes.Buffer
		p, bs := loadPage(t)
		if err := Write(&a, f, p, bs, keep, score); err != nil {
			t.Fatal(err)
		}
		p, bs = loadPage(t)
		if err := WriteMeta(&b, f, p, m, bs, keep, score); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%v: WriteMeta differs from Write", f)
		}
	}
}

// TestWriteNotes: WriteNotes's JSON carries what the cleaner knows of its
// decisions, the page's truncated, render_error, unseen_blocks,
// smoothed_blocks and floored after the metadata, each block's unseen,
// smoothed, floor and never_kept before its text, and
// nothing of them when unset; the other formats are WriteMeta's; flags of
// the wrong length are refused.
func TestWriteNotes(t *testing.T) {
	p, bs := loadPage(t)
	keep, score := keepRule(bs)
	m := meta.Meta{Title: "A story"}
	unseen, floor, smoothed := make([]bool, len(bs)), make([]bool, len(bs)), make([]bool, len(bs))
	unseen[len(bs)-1], unseen[len(bs)-2] = true, true
	floor[1] = true
	smoothed[0], smoothed[2], smoothed[3] = true, true, true
	never := make([]string, len(bs))
	never[2] = "box"
	fallback := make([]bool, len(bs))
	fallback[4] = true
	var full, empty, withMeta bytes.Buffer
	if err := WriteNotes(&full, JSON, p, m, bs, keep, score, Notes{Truncated: true, RenderError: "render: timed out", Unseen: unseen, Smoothed: smoothed, Floor: floor, Fallback: fallback, NeverKept: never}); err != nil {
		t.Fatal(err)
	}
	if err := WriteNotes(&empty, JSON, p, m, bs, keep, score, Notes{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMeta(&withMeta, JSON, p, m, bs, keep, score); err != nil {
		t.Fatal(err)
	}
	if empty.String() != withMeta.String() {
		t.Errorf("WriteNotes without notes differs from WriteMeta:\n%s", empty.String())
	}
	if !strings.Contains(full.String(), "\n \"title\": \"A story\",\n \"lang\": \"en\",\n \"truncated\": true,\n \"render_error\": \"render: timed out\",\n \"unseen_blocks\": 2,\n \"smoothed_blocks\": 3,\n \"floored\": true,\n \"text\": \"") {
		t.Errorf("page notes missing or out of place:\n%.300s", full.String())
	}
	var page struct {
		UnseenBlocks int `json:"unseen_blocks"`
		Floored      bool
		Blocks       []struct {
			ID                                int
			Unseen, Smoothed, Floor, Fallback bool
			NeverKept                         string `json:"never_kept"`
		}
	}
	if err := json.Unmarshal(full.Bytes(), &page); err != nil || len(page.Blocks) != len(bs) {
		t.Fatalf("decoded %+v, %v", page, err)
	}
	for i, b := range page.Blocks {
		if b.Fallback != fallback[i] {
			t.Errorf("block %d: fallback %v, want %v", i, b.Fallback, fallback[i])
		}
		if b.Unseen != unseen[i] || b.Smoothed != smoothed[i] || b.Floor != floor[i] || b.NeverKept != never[i] {
			t.Errorf("block %d: unseen %v smoothed %v floor %v never kept %q, want %v %v %v %q", i, b.Unseen, b.Smoothed, b.Floor, b.NeverKept, unseen[i], smoothed[i], floor[i], never[i])
		}
	}
	if n := strings.Count(full.String(), `"unseen": true`); n != 2 {
		t.Errorf("%d blocks say unseen, want 2", n)
	}
	if strings.Contains(full.String(), `"unseen": false`) || strings.Contains(full.String(), `"smoothed": false`) || strings.Contains(full.String(), `"floor": false`) || strings.Contains(full.String(), `"fallback": false`) {
		t.Error("false flags written")
	}
	if n := strings.Count(full.String(), `"never_kept"`); n != 1 {
		t.Errorf("%d blocks have never_kept, want 1", n)
	}
	for _, f := range []Format{CleanEval, Text, HTML} {
		var a, b bytes.Buffer
		p, bs := loadPage(t)
		if err := WriteMeta(&a, f, p, m, bs, keep, score); err != nil {
			t.Fatal(err)
		}
		p, bs = loadPage(t)
		if err := WriteNotes(&b, f, p, m, bs, keep, score, Notes{RenderError: "x", Unseen: unseen, Smoothed: smoothed, Floor: floor}); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%v: WriteNotes differs from WriteMeta", f)
		}
	}
	for _, n := range []Notes{{Unseen: unseen[1:]}, {Floor: append(floor, true)}, {Smoothed: smoothed[2:]}, {NeverKept: never[1:]}, {Fallback: fallback[1:]}} {
		if err := WriteNotes(io.Discard, JSON, p, m, bs, keep, score, n); err == nil {
			t.Errorf("no error for %d unseen, %d smoothed, %d floor flags, %d never-kept reasons for %d blocks", len(n.Unseen), len(n.Smoothed), len(n.Floor), len(n.NeverKept), len(bs))
		}
	}
}

// interrupted is a page whose one <div> holds n nested blocks with its
// own text between them: n+1 runs of one block.
func interrupted(n int) []*blocks.Block {
	var b strings.Builder
	b.WriteString("<html><body><div>")
	for range n {
		b.WriteString("own text between the notes\n<p>a nested note</p>\n")
	}
	b.WriteString("the end of the div</div></body></html>")
	doc, _ := html.Parse(strings.NewReader(b.String()))
	return blocks.Find(doc)
}

// TestBlockTexts: a block's output text is its runs joined by line
// breaks, in order; the source's line breaks inside a run are spaces.
func TestBlockTexts(t *testing.T) {
	bs := interrupted(3)
	texts := BlockTexts(bs)
	want := "own text between the notes\nown text between the notes\nown text between the notes\nthe end of the div"
	if texts[0] != want {
		t.Errorf("the div's text %q, want %q", texts[0], want)
	}
	for i := 1; i < len(bs); i++ {
		if texts[i] != "a nested note" {
			t.Errorf("block %d: %q", i, texts[i])
		}
	}
}

// BenchmarkBlockTexts: a block interrupted by 4,000 nested blocks (a
// 13 MB page of such took a minute when the runs were concatenated one by
// one); compare with blocks.Runs alone, its lower bound.
func BenchmarkBlockTexts(b *testing.B) {
	bs := interrupted(4000)
	b.Run("Runs", func(b *testing.B) {
		for range b.N {
			blocks.Runs(bs)
		}
	})
	b.Run("BlockTexts", func(b *testing.B) {
		for range b.N {
			BlockTexts(bs)
		}
	})
}

// TestHTMLBase: the HTML format's links resolve as on the page: a <base>
// from the page's own <base href> resolved against its URL from outside,
// else that URL; none where neither gives an absolute http(s) URL, and no
// second one where the head has one.
func TestHTMLBase(t *testing.T) {
	for _, c := range []struct{ baseHref, pageURL, head, want string }{
		{"", "", "", ""},
		{"", "http://ex.org/a/b.html", "", "http://ex.org/a/b.html"},
		{"sub/", "http://ex.org/a/b.html", "", "http://ex.org/a/sub/"},
		{"http://other.org/x/", "http://ex.org/a/b.html", "", "http://other.org/x/"},
		{"http://other.org/x/", "", "", "http://other.org/x/"},
		{"sub/", "", "", ""},
		{"javascript:void(0)", "http://ex.org/", "", ""},
		{"", "file:///tmp/p.html", "", ""},
		{"", "http://ex.org/", `<base href="http://kept.org/">`, "http://kept.org/"},
	} {
		src := `<html><head><meta charset="utf-8">` + c.head + `<title>T</title></head><body><p>Text of the page.</p></body></html>`
		doc, err := html.Parse(strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		p := &load.Page{URL: c.pageURL, BaseHref: c.baseHref, Doc: doc}
		var buf bytes.Buffer
		if err := Write(&buf, HTML, p, blocks.Find(doc), nil, nil); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		want := `<head><meta charset="utf-8"/><title>`
		if c.want != "" {
			want = `<head><meta charset="utf-8"/><base href="` + c.want + `"/><title>`
		}
		if !strings.Contains(out, want) || strings.Count(out, "<base") > 1 {
			t.Errorf("base %q, page %q: %s\nwant %s", c.baseHref, c.pageURL, out, want)
		}
	}
}

// TestTypesInherited: a block inside a heading element that is no block
// itself is a heading; a paragraph inside a list item stays a paragraph
// (the gold of CleanEval dev types it so; see Types).
func TestTypesInherited(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<body><h1><div>Title in a div</div></h1><h2><a href="/"><span>Linked heading</span></a></h2><ul><li><p>An item whose text is a paragraph of its own.</p></li><li>A plain item</li></ul><div><p>A paragraph.</p></div></body>`))
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(doc)
	got := map[string]byte{}
	for i, ty := range Types(bs) {
		got[bs[i].Text] = ty
	}
	for text, want := range map[string]byte{
		"Title in a div": 'h', "Linked heading": 'h',
		"An item whose text is a paragraph of its own.": 'p', "A plain item": 'l', "A paragraph.": 'p',
	} {
		if got[text] != want {
			t.Errorf("%q: type %q, want %q (all: %q)", text, got[text], want, got)
		}
	}
}

// TestKeptTypes: a short kept paragraph before a longer one is a heading
// in the JSON output as in the cleaneval one (Segments), and the same
// paragraph dropped, or kept last, is a paragraph.
func TestKeptTypes(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<html><body><p>Continental Landings</p><p>The ships came ashore at dawn, one after another, in the fog.</p><p>Short end</p></body></html>"))
	bs := blocks.Find(doc)
	all := func(int) bool { return true }
	if got := string(KeptTypes(bs, all)); got != "hpp" {
		t.Errorf("all kept: types %q, want hpp", got)
	}
	var b bytes.Buffer
	if err := Write(&b, CleanEval, nil, bs, []bool{true, true, true}, nil); err != nil || !strings.HasPrefix(b.String(), "<h> Continental Landings\n<p> The ships") {
		t.Errorf("cleaneval: %v\n%s", err, b.String())
	}
	if got := string(KeptTypes(bs, func(i int) bool { return i != 1 })); got != "ppp" {
		t.Errorf("the long one dropped: types %q, want ppp", got)
	}
	b.Reset()
	if err := Write(&b, JSON, nil, bs, []bool{true, true, true}, nil); err != nil || !strings.Contains(b.String(), "\"type\": \"h\",\n   \"tag\": \"p\"") {
		t.Errorf("json: %v\n%s", err, b.String())
	}
}

// TestHTMLLeavesPage: the HTML format prunes a copy: the page's document
// is as before, and JSON written after HTML is JSON written alone.
func TestHTMLLeavesPage(t *testing.T) {
	src := `<html><body><div><a href="/">Home</a> <a href="/news">News</a></div><h1>Rain</h1><p>It rains all day in the valley.</p><div>Copyright 2026</div></body></html>`
	page, err := load.Bytes("page.html", []byte(src), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(page.Doc)
	keep := make([]bool, len(bs))
	for i, b := range bs {
		keep[i] = !strings.Contains(b.Text, "Home") && !strings.Contains(b.Text, "Copyright")
	}
	var before, after, jsonAlone, jsonAfter, htmlOut bytes.Buffer
	html.Render(&before, page.Doc)
	if err := Write(&jsonAlone, JSON, page, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	if err := Write(&htmlOut, HTML, page, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(htmlOut.String(), "Home") || !strings.Contains(htmlOut.String(), "It rains") {
		t.Errorf("HTML output %s: want the menu dropped and the paragraph kept", htmlOut.String())
	}
	html.Render(&after, page.Doc)
	if before.String() != after.String() {
		t.Errorf("the HTML format changed the page:\nbefore %s\nafter  %s", before.String(), after.String())
	}
	if err := Write(&jsonAfter, JSON, page, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	if jsonAlone.String() != jsonAfter.String() {
		t.Errorf("JSON after HTML differs:\n%s\nalone:\n%s", jsonAfter.String(), jsonAlone.String())
	}
}

// TestHTMLWithoutAnon: the <div>s that blocks.Find wraps around runs of
// inline content are not in the HTML output; their content is, in place.
func TestHTMLWithoutAnon(t *testing.T) {
	long := strings.Repeat("A paragraph inside the same div, long enough to outweigh the run. ", 5)
	src := `<html><body><div class="main">Posted by <b>Ann</b> <div>` + long + `</div></div></body></html>`
	page, err := load.Bytes("page.html", []byte(src), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(page.Doc)
	var before bytes.Buffer
	html.Render(&before, page.Doc)
	if !strings.Contains(before.String(), blocks.AnonAttr) {
		t.Fatalf("blocks.Find wrapped no run: %s", before.String())
	}
	keep := make([]bool, len(bs))
	for i := range keep {
		keep[i] = true
	}
	var out bytes.Buffer
	if err := Write(&out, HTML, page, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	want := `<div class="main">Posted by <b>Ann</b> <div>` + long + `</div></div>`
	if !strings.Contains(out.String(), want) {
		t.Errorf("HTML output\n%s\nwant it to hold\n%s", out.String(), want)
	}
}

// TestHTMLDisarmed: the HTML format keeps no event handler and no
// javascript: or vbscript: URL, however written, and keeps other links.
func TestHTMLDisarmed(t *testing.T) {
	src := `<html><body onload="alert(0)"><p onmouseover="alert(1)" ONCLICK='alert(2)'>A paragraph with <a href="javascript:alert(3)">one</a>,
<a href=" JaVa&#x09;Script:alert(4)">two</a>, <a href="vbscript:msgbox(5)">three</a> and <a href="/story/next" title="on time">a link</a>.
<img src="x.png" onerror="alert(6)"> <form action="javascript:alert(7)"></form><svg><a xlink:href="javascript:alert(8)">x</a></svg></p></body></html>`
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	p := &load.Page{Name: "x.html", Doc: doc}
	bs := blocks.Find(doc)
	var buf bytes.Buffer
	keep := make([]bool, len(bs))
	for i := range keep {
		keep[i] = true
	}
	if err := Write(&buf, HTML, p, bs, keep, nil); err != nil {
		t.Fatal(err)
	}
	out := strings.ToLower(buf.String())
	for _, bad := range []string{"alert", "msgbox", "onload", "onmouseover", "onclick", "onerror", "javascript", "vbscript"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q:\n%s", bad, buf.String())
		}
	}
	for _, want := range []string{`href="/story/next"`, `title="on time"`, `src="x.png"`, "a paragraph with"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}
