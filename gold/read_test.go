package gold

import (
	binenc "encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPairs(t *testing.T) {
	ps, err := Pairs("testdata/set")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Format{}
	for _, p := range ps {
		got[p.ID] = p.Format
		if !strings.HasSuffix(p.HTML, "html/"+p.ID+".html") {
			t.Errorf("%s: html path %s", p.ID, p.HTML)
		}
	}
	want := map[string]Format{"p1": CleanEval, "p2": Plain, "p3": L3S, "p4": KrdWrd}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %v, want %v (p5 has no gold, notes.txt is no page)", got, want)
	}
	if _, err := Pairs("testdata/missing"); err == nil {
		t.Fatal("no error for a missing directory")
	}
}

func TestReadCleanEval(t *testing.T) {
	g, err := Read("testdata/cleaneval.txt", CleanEval)
	if err != nil {
		t.Fatal(err)
	}
	if g.URL != "http://example.org/a" {
		t.Errorf("URL %q", g.URL)
	}
	want := []Segment{
		{'h', "A Title"},
		{'p', "First paragraph, two lines & an entity."},
		{'l', "item one"},
		{'l', "item two"},
	}
	if !reflect.DeepEqual(g.Segments, want) {
		t.Errorf("segments %q", g.Segments)
	}
	if len(g.Words) != 13 || g.Words[0] != "A" || g.Page != nil {
		t.Errorf("words %q, page %v", g.Words, g.Page)
	}
	if s := g.CleanEval(); !strings.HasPrefix(s, "URL: http://example.org/a\n<h> A Title\n<p> First") {
		t.Errorf("CleanEval() = %q", s)
	}
	if r := g.Reference(); !strings.HasPrefix(r, "URL: http://example.org/a\n\n   <h>A   Title\n") || !strings.Contains(r, "&amp;") {
		t.Errorf("Reference() = %q", r)
	}
	e, err := Read("testdata/cleaneval-empty.txt", Unknown)
	if err != nil {
		t.Fatal(err)
	}
	if e.Format != CleanEval || len(e.Segments) != 0 || len(e.Words) != 0 {
		t.Errorf("empty gold: %+v", e)
	}
}

func TestReadPlain(t *testing.T) {
	g, err := Read("testdata/plain.txt", Plain)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{{'p', "The Headline Of The Story"}, {'p', "by someone on January 31, 2011"}, {'p', "First paragraph of the story."}}
	if !reflect.DeepEqual(g.Segments, want) {
		t.Errorf("segments %q", g.Segments)
	}
	if g.Reference() != g.CleanEval() || g.Raw != "" {
		t.Errorf("Reference of plain gold %q", g.Reference())
	}
	g, err = ReadOptions("testdata/plain.txt", Plain, Options{Comments: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Segments); n != 4 || g.Segments[3].Text != "A reader comment." {
		t.Errorf("with comments: %q", g.Segments)
	}
	for _, l := range []string{"!@#$%^&*()  COMMENTS", "!@ $%^&*()  COMMENTS", " #$%^&*()  COMMENTS\t"} {
		if !isCommentMarker(l) {
			t.Errorf("%q is a marker", l)
		}
	}
	for _, l := range []string{"COMMENTS", "Read the COMMENTS", "() COMMENTS"} {
		if isCommentMarker(l) {
			t.Errorf("%q is no marker", l)
		}
	}
}

func TestParseWindows1252(t *testing.T) {
	g, err := Parse([]byte("humanity\x92s evil\n"), Plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Words[0] != "humanity’s" {
		t.Fatalf("words %q", g.Words)
	}
}

// TestParseMojibake: gold is repaired as package preclean repairs a
// page's text (package internal/mojibake), in each format, so that the
// repaired output matches it.
func TestParseMojibake(t *testing.T) {
	want := "Israel’s résumé — 2010–2012"
	for _, c := range []struct {
		f    Format
		text string
	}{
		{CleanEval, "<p>Israelâ€™s rÃ©sumÃ© â\u0080\u0094 2010\u00962012\n"},
		{Plain, "Israelâ€™s rÃ©sumÃ© â\u0080\u0094 2010\u00962012\n"},
		{L3S, `<html><body><p><span class="x-nc-sel2">Israelâ€™s rÃ&copy;sumÃ© â` + "\u0080\u0094 2010\u00962012</span></p></body></html>"},
	} {
		g, err := Parse([]byte(c.text), c.f, Options{})
		if err != nil {
			t.Fatalf("%v: %v", c.f, err)
		}
		if got := strings.Join(g.Words, " "); got != want {
			t.Errorf("%v: words %q, want %q", c.f, got, want)
		}
	}
}

// TestParseCharsets: gold in UTF-8 with one stray byte keeps its UTF-8
// (the stray byte read as windows-1252), gold in another legacy charset
// is decoded by its declaration or the guess, not as windows-1252.
func TestParseCharsets(t *testing.T) {
	koi8 := []byte{0xf0, 0xd2, 0xc1, 0xda, 0xc4, 0xce, 0xc9, 0xcb, ' ', 0xc7, 0xcf, 0xd2, 0xcf, 0xc4, 0xc1, ' ', 0xd7, ' ', 0xeb, 0xc1, 0xda, 0xc1, 0xce, 0xc9, ' ', 0xd3, 0xcf, 0xc2, 0xd2, 0xc1, 0xcc, ' ', 0xcd, 0xce, 0xcf, 0xc7, 0xcf, ' ', 0xcc, 0xc0, 0xc4, 0xc5, 0xca, '.', '\n'}
	for _, c := range []struct {
		name string
		data []byte
		f    Format
		want string
	}{
		{"utf-8 with a stray byte", []byte("<p> S\u00f8ren S\u00f8ndergaard vis-\xc3 -vis it\x92s\n"), CleanEval, "Søren Søndergaard vis-Ã -vis it’s"},
		{"koi8-r plain", koi8, Plain, "Праздник города в Казани собрал много людей."},
		{"annotated, ruby and invisible characters", []byte(`<html><body><span class="x-nc-sel2">The ban&shy;ner said <ruby>東京<rp>(</rp><rt>とうきょう</rt><rp>)</rp></ruby>&#8203;.</span></body></html>`), L3S, "The banner said 東京."},
		{"windows-1252 Danish", []byte("\xc6r\xf8 er en \xf8 i \xd8sters\xf8en. Bl\xe5b\xe6rsyltet\xf8j p\xe5 rugbr\xf8d.\n"), Plain, "Ærø er en ø i Østersøen. Blåbærsyltetøj på rugbrød."},
		{"windows-1252 French with î", []byte("--kde reconna\xeetre les cha\xeenes au format KDE 4\n"), Plain, "--kde reconnaître les chaînes au format KDE 4"},
		{"windows-1252 Portuguese with â", []byte("Rep\xfablica Isl\xe2mica da Maurit\xe2nia\n"), Plain, "República Islâmica da Mauritânia"},
		{"koi8-r annotated, declared", append([]byte(`<html><head><meta charset="koi8-r"></head><body><span class="x-nc-sel2">`), append(koi8[:len(koi8)-1], []byte("</span></body></html>")...)...), L3S, "Праздник города в Казани собрал много людей."},
	} {
		g, err := Parse(c.data, c.f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Join(g.Words, " "); got != c.want {
			t.Errorf("%s: words %q, want %q", c.name, got, c.want)
		}
	}
}

func cleanWords(g *Gold) (clean, dirty []string) {
	for _, w := range g.Page {
		if w.Clean {
			clean = append(clean, w.Text)
		} else {
			dirty = append(dirty, w.Text)
		}
	}
	return
}

func TestReadL3S(t *testing.T) {
	g, err := Read("testdata/l3s.html", L3S)
	if err != nil {
		t.Fatal(err)
	}
	clean, dirty := cleanWords(g)
	if got := strings.Join(clean, " "); got != "Big Headline 16 January 2008 The story starts here, and ends." {
		t.Errorf("clean %q", got)
	}
	if got := strings.Join(dirty, " "); got != "Home News Related link A comment" {
		t.Errorf("dirty %q (invisible text must be absent)", got)
	}
	want := []Segment{{'h', "Big Headline"}, {'p', "16 January 2008"}, {'p', "The story starts here, and ends."}}
	if !reflect.DeepEqual(g.Segments, want) {
		t.Errorf("segments %q", g.Segments)
	}
	g, err = ReadOptions("testdata/l3s.html", L3S, Options{L3SClasses: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Segments) != 1 {
		t.Errorf("sel2 only: %q", g.Segments)
	}
}

func TestReadKrdWrd(t *testing.T) {
	g, err := Read("testdata/krdwrd.html", KrdWrd)
	if err != nil {
		t.Fatal(err)
	}
	clean, dirty := cleanWords(g)
	if got := strings.Join(clean, " "); got != "Good text in bold" {
		t.Errorf("clean %q", got)
	}
	if got := strings.Join(dirty, " "); got != "Menu Login Maybe text Odd" {
		t.Errorf("dirty %q", got)
	}
	g, err = ReadOptions("testdata/krdwrd.html", KrdWrd, Options{Uncertain: true})
	if err != nil {
		t.Fatal(err)
	}
	if clean, _ := cleanWords(g); len(clean) != 6 {
		t.Errorf("with uncertain: clean %q", clean)
	}
}

func TestFormatString(t *testing.T) {
	if CleanEval.String() != "cleaneval" || KrdWrd.String() != "krdwrd" || Format(99).String() != "Format(99)" {
		t.Fatal("format names")
	}
	if _, err := Parse([]byte("x"), Format(99), Options{}); err == nil {
		t.Fatal("no error for a bad format")
	}
}

func TestParseUTF16(t *testing.T) {
	le := []byte{0xff, 0xfe, 'H', 0, 'i', 0, ' ', 0, 0x19, 0x20, 'x', 0, '\n', 0}
	be := []byte{0xfe, 0xff, 0, 'H', 0, 'i', 0, ' ', 0x20, 0x19, 0, 'x', 0, '\n'}
	for _, data := range [][]byte{le, be} {
		g, err := Parse(data, Plain, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(g.Words, " ") != "Hi ’x" {
			t.Errorf("words %q", g.Words)
		}
	}
	// CleanEval gold in UTF-16 without a mark, told by its zero bytes.
	var nomark []byte
	for _, r := range "URL: http://ex.org/\n<p> Привет, мир — hello world\n" {
		nomark = binenc.LittleEndian.AppendUint16(nomark, uint16(r))
	}
	g, err := Parse(nomark, Unknown, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Format != CleanEval || strings.Join(g.Words, " ") != "Привет, мир — hello world" {
		t.Errorf("UTF-16 without a mark: format %v, words %q", g.Format, g.Words)
	}
	// UTF-32 with its mark, whose little-endian form begins as UTF-16's.
	for _, order := range []binenc.AppendByteOrder{binenc.LittleEndian, binenc.BigEndian} {
		var u32 []byte
		for _, r := range "\ufeffURL: http://ex.org/\n<p> Привет, мир — hello world\n" {
			u32 = order.AppendUint32(u32, uint32(r))
		}
		g, err := Parse(u32, Unknown, Options{})
		if err != nil {
			t.Fatalf("UTF-32 (%v): %v", order, err)
		}
		if g.Format != CleanEval || strings.Join(g.Words, " ") != "Привет, мир — hello world" {
			t.Errorf("UTF-32 (%v): format %v, words %q", order, g.Format, g.Words)
		}
	}
}

// TestDetectSegmentTags: a CleanEval gold without its URL line is still
// CleanEval when its text opens with a segment tag (as CleanEval writes
// them, often glued to the text); plain text that merely starts with "<p"
// is not; UTF-16 is decoded before the format is told.
func TestDetectSegmentTags(t *testing.T) {
	for _, c := range []struct {
		text string
		want Format
	}{
		{"URL: http://example.org/\n<p> text", CleanEval},
		{"\ufeff\n<h> A Title\n<p> First paragraph.\n<l> an item\n", CleanEval},
		{"<P>\nText on the next line.", CleanEval},
		{"<p>", CleanEval},
		{"<pre> not a tag of CleanEval's", Plain},
		{"<p>Text glued to the tag, as in most of CleanEval's", CleanEval},
		{"\xff\xfeU\x00R\x00L\x00:\x00 \x00x\x00\n\x00<\x00p\x00>\x00", CleanEval},
		{"\xfe\xff\x00<\x00h\x00>\x00T", CleanEval},
		{"A headline\n<p> later", Plain},
	} {
		if got := DetectBytes([]byte(c.text)); got != c.want {
			t.Errorf("DetectBytes(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	g := parseCleanEval("\n<h> A Title\n<p> First paragraph.\n<l> an item\n")
	want := []Segment{{'h', "A Title"}, {'p', "First paragraph."}, {'l', "an item"}}
	if g.URL != "" || !reflect.DeepEqual(g.Segments, want) {
		t.Errorf("without a URL line: URL %q, segments %q", g.URL, g.Segments)
	}
}

// TestParseRefuses: a gold file that is binary, or an HTML page without
// labels, is an error rather than gold text.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file (binary data)"},
		{"\x00\x01\x02\x03\x04 some \x05\x06\x07\x08 bytes", "not a text file (binary data)"},
		{"<!DOCTYPE html><html><body><p>Menu</p></body></html>", "an HTML page ("},
		{"\n<!-- saved -->\n<html><body>x</body></html>", "an HTML page ("},
		{"<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>x</body></html>", "an HTML page ("},
		{"<text id=\"http://example.org/\" title=\"Home\" encoding=\"utf-8\">\n<p>Menu</p></text>", "an HTML page ("},
		// A page whose head was cut off: its body's tags give it away.
		{"<div id=\"nav\"><ul>" + strings.Repeat("<li><a href=\"/x\"><span>Link</span></a></li>\n", 20) + "</ul></div><div><img src=\"x.png\"><p>Text", "it holds 126 tags of 6 elements of a page's"},
	} {
		_, err := Parse([]byte(c.data), Unknown, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want an error with %q", c.data, err, c.want)
		}
	}
	// Plain gold may open with what a binary format's magic number is.
	if g, err := Parse([]byte("RIFFRAFF band returns\nGIF89a and %PDF- are file formats."), Unknown, Options{}); err != nil || len(g.Segments) != 2 {
		t.Errorf("plain text opening with RIFF: %v", err)
	}
	// Plain text that mentions a tag further on is plain gold.
	g, err := Parse([]byte("How to write <html> by hand\nA second line."), Unknown, Options{})
	if err != nil || g.Format != Plain || len(g.Segments) != 2 {
		t.Errorf("plain text mentioning <html>: %v, %+v", err, g)
	}
	// Plain gold that writes out a snippet of markup (a page about HTML)
	// is gold, its tags many but of few elements.
	text := "How to build a responsive navigation bar\n\nA navigation bar is a list of links. Start with the markup:\n\n<nav>\n  <ul>\n" +
		strings.Repeat("    <li><a href=\"/\">Home</a></li>\n", 8) + "  </ul>\n</nav>\n\nThen style the <ul> with flexbox so that each <li> sits in a row.\n"
	if g, err := Parse([]byte(text), Unknown, Options{}); err != nil || g.Format != Plain {
		t.Errorf("plain gold about HTML: %v, %+v", err, g)
	}
}

// TestPairsChoice: <id>.txt is a page's gold where there are several;
// editor's backups are never gold; Unpaired names what was left out and why.
func TestPairsChoice(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"html/1.html": "<p>one</p>", "html/2.html": "<p>two</p>", "html/3.html": "<p>three</p>", "html/4.html": "<p>four</p>",
		"gold/1.old": "stale", "gold/1.txt": "<p> one",
		"gold/2.a": "<p> two", "gold/2.b": "<p> deux", "gold/2.TXT": "<p> two",
		"gold/3.bak": "<p> three", "gold/3.txt~": "<p> three", "gold/4.txt~": "<p> four",
		"gold/5.txt": "<p> five",
		"html/6.htm": "<p>six</p>", "html/sub/7.html": "<p>seven</p>",
		"html/8.html": "<p>eight</p>", "gold/8.TXT": "<p> EIGHT", "gold/8.txt": "<p> eight",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := Pairs(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range ps {
		got[p.ID] = filepath.Base(p.Gold)
	}
	if want := map[string]string{"1": "1.txt", "2": "2.TXT", "8": "8.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	os_, err := Unpaired(dir)
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, o := range os_ {
		why[filepath.Base(o.Path)] = o.Why
	}
	for name, want := range map[string]string{
		"1.old": "backup", "2.a": "a second gold file for html/2.html, which has 2.TXT", "2.b": "which has 2.TXT",
		"3.bak": "backup", "3.txt~": "backup", "4.txt~": "backup",
		"5.txt": "without a page", "3.html": "without a gold file", "4.html": "without a gold file",
		"6.htm": "not named <id>.html", "sub": "a directory",
		"8.TXT": "a second gold file for html/8.html, which has 8.txt",
	} {
		if !strings.Contains(why[name], want) {
			t.Errorf("%s: %q, want %q", name, why[name], want)
		}
	}
	if len(why) != 12 {
		t.Errorf("unpaired %v, want 12", why)
	}
	if _, err := Pairs(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "none: no such directory") {
		t.Errorf("a missing set: %v", err)
	}
	if _, err := Pairs(filepath.Join(dir, "gold", "5.txt")); err == nil || !strings.Contains(err.Error(), "5.txt: not a directory") {
		t.Errorf("a file named as a set: %v", err)
	}
	if _, err := Pairs(filepath.Join(dir, "html")); err == nil || !strings.Contains(err.Error(), "no html/ directory (a data set holds") {
		t.Errorf("a directory that is no set: %v", err)
	}
}

// TestLabelNoGold: blocks without gold are all dirty, not a panic.
func TestLabelNoGold(t *testing.T) {
	if s := Label(nil, nil); len(s) != 0 {
		t.Errorf("Label(nil, nil) = %v", s)
	}
}
