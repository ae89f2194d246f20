package load

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestEmpty(t *testing.T) {
	for _, in := range []string{"", "  \r\n\t ", "\xEF\xBB\xBF", `<text id="http://x/" encoding="unset">` + "\n</text>\n"} {
		_, err := Bytes("empty.html", []byte(in), Options{})
		if !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), "empty.html") {
			t.Errorf("%q: got %v, want ErrEmpty naming the file", in, err)
		}
	}
}

func TestBinary(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 200}, 1000)...)
	noise := make([]byte, 10000)
	for i := range noise {
		noise[i] = byte(i * 7919 % 251)
	}
	cases := map[string][]byte{"image.png": png, "noise.bin": noise, "data.gz": []byte("\x1f\x8b\x08\x00rest")}
	for name, data := range cases {
		_, err := Bytes(name, data, Options{})
		if !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want ErrBinary naming the file", name, err)
		}
	}
	// bzip2 and xz, which fiasco does not read, are named with what to do.
	for name, data := range map[string][]byte{
		"crawl.warc.bz2": []byte("BZh91AY&SY\x00\x01rest of the stream"),
		"crawl.warc.xz":  []byte("\xFD7zXZ\x00\x00\x04rest"),
	} {
		_, err := Bytes(name, data, Options{})
		if !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "decompress it first") {
			t.Errorf("%s: got %v, want ErrBinary naming the file and the compression", name, err)
		}
	}
	// A text page that begins with the letters BZh is still a page.
	if _, err := Bytes("bzh.html", []byte("BZh9 is a bzip2 magic number.<p>"+strings.Repeat("More text of the page. ", 20)), Options{}); err != nil {
		t.Errorf("a page beginning BZh9: %v", err)
	}
	// So is one padded with NUL bytes at its end.
	pad := append([]byte(strings.Repeat("<p>Some text of the page.</p>", 40)), make([]byte, 512)...)
	if p, err := Bytes("padded.html", pad, Options{}); err != nil || !strings.Contains(docText(p.Doc), "Some text") {
		t.Errorf("page padded with NUL bytes: %v", err)
	}
	// A text page with a few stray NUL bytes is still a page.
	p, err := Bytes("nul.html", []byte("<p>hello\x00 world</p>"+strings.Repeat("<p>more text here</p>", 20)), Options{})
	if err != nil || !strings.Contains(docText(p.Doc), "world") {
		t.Errorf("page with a NUL byte: %v", err)
	}
}

// TestModel: a fiasco model file's JSON given as a page is refused,
// naming the file; JSON of another kind, and a page that speaks of the
// format, are not taken for one.
func TestModel(t *testing.T) {
	for name, data := range map[string]string{
		"model.json":   "{\n \"format\": \"fiasco-model/1\",\n \"visual\": true}",
		"stacked.json": "\ufeff{\"format\":\"fiasco-model/2\"}",
	} {
		_, err := Bytes(name, []byte(data), Options{})
		if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want ErrModel naming the file", name, err)
		}
	}
	for name, data := range map[string]string{
		"other.json": `{"format": "geojson", "note": "fiasco-model/1"}`,
		"page.html":  `<p>{"format": "fiasco-model/1"} is how a model file begins.</p>`,
	} {
		if _, err := Bytes(name, []byte(data), Options{}); err != nil {
			t.Errorf("%s: %v, want a page", name, err)
		}
	}
}

// TestDeepNesting parses 100,000 nested elements of several kinds: the
// result keeps the text and the tree stays within the parser's depth.
func TestDeepNesting(t *testing.T) {
	for _, tag := range []string{"div", "span", "b", "table><tr><td", "p"} {
		open, close := "<"+tag+">", "</"+strings.SplitN(tag, ">", 2)[0]+">"
		var b strings.Builder
		b.WriteString("<html><body>start ")
		for i := 0; i < 100000; i++ {
			b.WriteString(open)
		}
		b.WriteString("deep text")
		for i := 0; i < 100000; i++ {
			b.WriteString(close)
		}
		b.WriteString(" end</body></html>")
		p, err := Bytes("deep.html", []byte(b.String()), Options{MaxTags: 1 << 30})
		if err != nil {
			if !errors.Is(err, ErrDepth) || !strings.Contains(err.Error(), "deep.html") {
				t.Errorf("%s: unclear error %v", tag, err)
			}
			continue
		}
		txt := docText(p.Doc)
		if !strings.Contains(txt, "deep text") || !strings.Contains(txt, "start") {
			t.Errorf("%s: text lost: %.100q", tag, txt)
		}
		if d := depth(p.Doc); d > 600 {
			t.Errorf("%s: depth %d", tag, d)
		}
	}
}

// TestDeepNestingKeepsWords: a page that flattening reaches (600 unclosed
// <div>s before it) keeps its words apart and its paragraphs on lines of
// their own, though their tags are dropped; inline tags leave no break.
func TestDeepNestingKeepsWords(t *testing.T) {
	page := "<html><body>" + strings.Repeat("<div>", 600) +
		"<ul><li>Home</li><li>News</li></ul><h1>Title</h1><p>First <b>bold</b>word.</p><p>Second.</p></body></html>"
	p, err := Bytes("deep.html", []byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for n := range p.Doc.Descendants() {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && n.Data == "br":
			b.WriteString("\n")
		}
	}
	txt := b.String()
	for _, glued := range []string{"HomeNews", "NewsTitle", "TitleFirst", "word.Second"} {
		if strings.Contains(txt, glued) {
			t.Errorf("words glued where block tags were dropped (%q): %.200q", glued, txt)
		}
	}
	if !strings.Contains(txt, "First boldword.") {
		t.Errorf("an inline tag dropped changed the words: %.200q", txt)
	}
}

func depth(n *html.Node) int {
	max := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if d := depth(c); d > max {
			max = d
		}
	}
	return max + 1
}

// TestHuge loads a 50 MB page from a file: it is cut at the limits, not
// read whole, and the result keeps the start of the page.
func TestHuge(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	path := filepath.Join(t.TempDir(), "huge.html")
	var b bytes.Buffer
	b.WriteString("<html><body><p>first paragraph</p>")
	row := "<tr><td><a href='/x'>cell</a></td><td>some more text in a table cell</td></tr>\n"
	for b.Len() < 50<<20 {
		b.WriteString(row)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b = bytes.Buffer{}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if !p.Truncated || p.Cut != CutBytes || !strings.Contains(docText(p.Doc), "first paragraph") {
		t.Errorf("Truncated = %v, Cut %q; text kept: %v", p.Truncated, p.Cut, strings.Contains(docText(p.Doc), "first paragraph"))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("allocated %d MB", alloc>>20)
	}
	// A byte limit alone cuts too.
	p, err = File(path, Options{MaxBytes: 1 << 20, MaxTags: 1 << 30})
	if err != nil || !p.Truncated || p.Cut != CutBytes {
		t.Fatalf("MaxBytes: %v, truncated %v", err, p != nil && p.Truncated)
	}
	// So does a tag limit, and says so.
	p, err = File(path, Options{MaxBytes: 1 << 30, MaxTags: 1000})
	if err != nil || !p.Truncated || p.Cut != CutTags {
		t.Fatalf("MaxTags: %v, truncated %v, cut %q", err, p != nil && p.Truncated, p.Cut)
	}
}

// TestTagLimit: the tag limit counts start tags, not every '<': a
// script's comparisons, a comment and end tags leave the page whole.
func TestTagLimit(t *testing.T) {
	body := "<body><p>The first paragraph of the page.</p><p>The last one.</p></body>"
	for _, c := range []struct {
		name, page string
		cut        bool
	}{
		{"script", "<head><script>if (a<b && c<d) {} if (e<f) {}</script></head>" + body, false},
		{"script in capitals", "<head><SCRIPT>a<b; c<d; e<f; g<h</SCRIPT></head>" + body, false},
		{"style", "<style>p{} <!-- < < < --></style>" + body, false},
		{"comment", "<!-- <a> <b> <c> <d> <e> -->" + body, false},
		{"end tags", "<div><div><div></div></div></div>" + body, false},
		{"start tags", "<div><div><div><div><div><div>" + body, true},
		// Where the tokenizer and the parser see tags, they count.
		{"a comment closed at once", "<!--><div><div><div><div>" + body, true},
		{"a comment closed by --!>", "<!-- a --!><div><div><div><div>" + body, true},
		{"markup in an attribute", `<div title="<script>"><div><div><div>` + body, true},
		{"a name that starts as a raw one", "<style_x><div><div><div>" + body, true},
		{"a style in svg", "<svg><style><div><div><div><div>" + body, true},
	} {
		p, err := Bytes(c.name+".html", []byte(c.page), Options{MaxTags: 6})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Truncated != c.cut {
			t.Errorf("%s: truncated %v, want %v", c.name, p.Truncated, c.cut)
		}
		if !c.cut && !strings.Contains(docText(p.Doc), "The last one.") {
			t.Errorf("%s: the last paragraph is lost: %q", c.name, docText(p.Doc))
		}
	}
}
