package gold

import (
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
}
