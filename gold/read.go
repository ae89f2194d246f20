package gold

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/internal/mojibake"
	"github.com/fiasco-project/fiasco/load"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"
	unicode16 "golang.org/x/text/encoding/unicode"
)

// Segment is one paragraph of clean gold text.
type Segment struct {
	Kind byte   // 'p' paragraph, 'h' heading, 'l' list item
	Text string // white space collapsed to single spaces
}

// Word is one word of an annotated page with its gold label.
type Word struct {
	Text  string
	Clean bool
}

// Gold is the parsed gold standard of one page.
type Gold struct {
	Format   Format
	URL      string    // from the CleanEval "URL:" line, if any
	Segments []Segment // the clean text, in order
	Words    []string  // the words of Segments, in order
	// Page holds, for annotated formats (L3S, KrdWrd), every visible word of
	// the annotated page in document order with its label; nil for text
	// formats, whose gold holds the clean text only.
	Page []Word
	// Raw is the gold file as text (UTF-8, no byte-order mark, LF line
	// ends), for CleanEval-format files only.
	Raw string
}

// Reference returns the text to score an output against: for CleanEval
// files the file itself, as the reference scorer reads it (HTML comments
// and character references included), otherwise CleanEval().
func (g *Gold) Reference() string {
	if g.Format == CleanEval {
		return g.Raw
	}
	return g.CleanEval()
}

// Options change what counts as clean text: they map each annotated
// format's labels to clean or not. [Policy.Options] gives the mapping of
// an annotation policy; the zero value is the mapping used before
// policies existed.
type Options struct {
	// Comments includes the user comments of Dragnet gold files (the text
	// after the marker line) in the clean text; by default they are not
	// main content.
	Comments bool
	// Uncertain counts KrdWrd's tag 2 (annotators uncertain) as clean; by
	// default only tag 3 (good) is clean.
	Uncertain bool
	// L3SClasses lists the x-nc-selN numbers that count as clean for L3S-GN1;
	// nil means 1, 2 and 3 (headline, full text, supplemental), as in
	// Bevendorff et al. 2023.
	L3SClasses []int
}

// Read parses the gold file at path in format f with default Options.
func Read(path string, f Format) (*Gold, error) {
	return ReadOptions(path, f, Options{})
}

// ReadOptions parses the gold file at path in format f; Unknown detects it.
func ReadOptions(path string, f Format, opt Options) (*Gold, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := Parse(data, f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Parse parses the content of a gold file in format f; Unknown detects it.
// A UTF-16 byte-order mark selects UTF-16 (five Dragnet gold files), a
// UTF-32 one UTF-32;
// bytes that are not valid UTF-8 are decoded as a page's are (load.Text):
// UTF-8 with a few stray bytes keeps its UTF-8, each stray byte read as
// windows-1252; otherwise a declared <meta> charset, the statistical
// guess where it names a charset of another script, or windows-1252.
func Parse(data []byte, f Format, opt Options) (*Gold, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if f == Unknown {
		f = DetectBytes(data)
	}
	data = decodeUTF16(data)
	if binary(data) {
		return nil, errors.New("not a text file (binary data)")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if why := pageWhy(data); f == Plain && why != "" {
		return nil, fmt.Errorf("an HTML page (%s) without L3S-GN1 (x-nc-sel) or KrdWrd (krdwrd-tag-) labels: a gold file is the clean text (CleanEval's <p>/<h>/<l> segments, or plain lines) or a page annotated in one of those two ways", why)
	}
	if !utf8.Valid(data) {
		// The charset chain of a page (package load): mostly UTF-8 with
		// stray bytes stays UTF-8, each stray byte read as windows-1252;
		// a <meta> charset of an annotated page, or a guess of another
		// script (KOI8-R, windows-1251, Shift_JIS, ...), decides the
		// rest. A guess of another Latin charset is not taken: Danish
		// "Ærø" reads as windows-1250's "Ćrř" to the detector, and the
		// gold of the data sets is windows-1252 where it is not UTF-8.
		dec, cs, src, err := load.Text(data)
		if err != nil {
			return nil, err
		}
		if src == load.SourceGuess && cs != "windows-1252" && load.LatinCharset(cs) {
			dec, err = charmap.Windows1252.NewDecoder().String(string(data))
			if err != nil {
				return nil, err
			}
		}
		data = []byte(dec)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var g *Gold
	var err error
	switch f {
	case CleanEval:
		// Mojibake undone as package preclean undoes it in a page's
		// text (an annotated page's text nodes, in parseAnnotated).
		text = mojibake.Repair(text)
		g = parseCleanEval(text)
		g.Raw = text
	case Plain:
		g = parsePlain(mojibake.Repair(text), opt)
	case L3S:
		g, err = parseAnnotated(text, l3sLabeler(opt))
	case KrdWrd:
		g, err = parseAnnotated(text, krdwrdLabeler(opt))
	default:
		return nil, fmt.Errorf("gold: unknown format %v", f)
	}
	if err != nil {
		return nil, err
	}
	g.Format = f
	for _, s := range g.Segments {
		g.Words = append(g.Words, strings.Fields(s.Text)...)
	}
	return g, nil
}

// decodeUTF16 converts data that starts with a UTF-16 (or UTF-32)
// byte-order mark to UTF-8, and UTF-16 without a mark where load.Text recognises it (by its
// zero bytes, in gold with markup: CleanEval's segment tags, an annotated
// page); it returns other data unchanged.
func decodeUTF16(data []byte) []byte {
	var e unicode16.Endianness
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}), bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}):
		// UTF-32, whose little-endian mark begins as UTF-16's: load.Text
		// reads both by their marks.
		if text, cs, _, err := load.Text(data); err == nil && strings.HasPrefix(cs, "utf-32") {
			return []byte(text)
		}
		return data
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		e = unicode16.LittleEndian
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		e = unicode16.BigEndian
	case bytes.IndexByte(data, 0) >= 0:
		// Without a mark: UTF-16 by its zero bytes, as a page's
		// (load.Text); anything else is left to the binary check.
		if text, cs, _, err := load.Text(data); err == nil && strings.HasPrefix(cs, "utf-16") {
			return []byte(text)
		}
		return data
	default:
		return data
	}
	out, err := unicode16.UTF16(e, unicode16.ExpectBOM).NewDecoder().Bytes(data)
	if err != nil {
		return data
	}
	return out
}

var (
	commentRE = regexp.MustCompile(`(?s)<!--.*?-->`)
	tagRE     = regexp.MustCompile(`(?i)<[phl]>`)
)

func parseCleanEval(text string) *Gold {
	g := &Gold{}
	first, rest, _ := strings.Cut(text, "\n")
	if t := strings.TrimSpace(first); strings.HasPrefix(t, "URL:") {
		g.URL = strings.TrimSpace(strings.TrimPrefix(t, "URL:"))
		text = rest
	}
	text = commentRE.ReplaceAllString(text, " ")
	locs := tagRE.FindAllStringIndex(text, -1)
	add := func(kind byte, s string) {
		if s = collapse(html.UnescapeString(s)); s != "" {
			g.Segments = append(g.Segments, Segment{Kind: kind, Text: s})
		}
	}
	prev, kind := 0, byte('p')
	for _, l := range locs {
		add(kind, text[prev:l[0]])
		kind = byte(unicode.ToLower(rune(text[l[0]+1])))
		prev = l[1]
	}
	add(kind, text[prev:])
	return g
}

// isCommentMarker recognises Dragnet's "!@#$%^&*()  COMMENTS" line and its
// misspelt variants.
func isCommentMarker(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.HasSuffix(t, "COMMENTS") {
		return false
	}
	head := strings.TrimSpace(strings.TrimSuffix(t, "COMMENTS"))
	if len(head) < 3 {
		return false
	}
	for _, r := range head {
		if !strings.ContainsRune("!@#$%^&*() ", r) {
			return false
		}
	}
	return true
}

func parsePlain(text string, opt Options) *Gold {
	g := &Gold{}
	for _, line := range strings.Split(text, "\n") {
		if isCommentMarker(line) {
			if !opt.Comments {
				break
			}
			continue
		}
		if s := collapse(line); s != "" {
			g.Segments = append(g.Segments, Segment{Kind: 'p', Text: s})
		}
	}
	return g
}

// collapse turns runs of white space (NBSP included) into single spaces and
// trims the ends.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\u00a0'
	}), " ")
}

// CleanEval renders the clean text in CleanEval's format: a "URL:" line
// (empty URL if unknown), then one line per segment opened by its marker.
func (g *Gold) CleanEval() string {
	var b strings.Builder
	b.WriteString("URL: " + g.URL + "\n")
	for _, s := range g.Segments {
		b.WriteByte('<')
		b.WriteByte(s.Kind)
		b.WriteString("> ")
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// pageWhy tells why text is an HTML page rather than gold text:
// it opens as a page does (a doctype, an <html>, <head> or <body> tag,
// an XML declaration, or CleanEval's <text id=...> wrapper of an input
// page, after white space and comments), or it holds pageTags tags of
// pageKinds or more of HTML's elements other than the gold markers <p>,
// <h> and <l> (a page copied into gold/ whose head was cut off). Gold
// text that writes out a snippet of markup (a page about HTML) stays
// gold. The reason reads "it opens with <html" or "it holds 240 tags of
// 9 elements of a page's: ..."; "" is gold text.
func pageWhy(text []byte) string {
	t := bytes.TrimLeft(text, " \t\r\n")
	for bytes.HasPrefix(t, []byte("<!--")) {
		_, rest, ok := bytes.Cut(t, []byte("-->"))
		if !ok {
			return ""
		}
		t = bytes.TrimLeft(rest, " \t\r\n")
	}
	l := bytes.ToLower(t[:min(len(t), 16)])
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<?xml", "<text id="} {
		if bytes.HasPrefix(l, []byte(p)) {
			return "it opens with " + p
		}
	}
	if n, kinds := htmlTags(text); n >= pageTags && kinds >= pageKinds {
		return fmt.Sprintf("it holds %d tags of %d elements of a page's: <div>, <a>, <span> and the like", n, kinds)
	}
	return ""
}

// pageTags and pageKinds are how many tags, and of how many elements,
// make a gold file a page: a page's body holds hundreds, of many kinds
// (div, a, span, img, script, ...); no gold file of the five data sets
// holds more than one.
const (
	pageTags  = 100
	pageKinds = 6
)

// pageElems are the elements a page's body is made of and gold text
// does not hold (not CleanEval's markers p, h and l).
var pageElems = map[string]bool{
	"a": true, "b": true, "body": true, "br": true, "div": true, "em": true,
	"font": true, "form": true, "head": true, "hr": true, "i": true, "img": true,
	"input": true, "li": true, "link": true, "meta": true, "script": true,
	"span": true, "strong": true, "style": true, "table": true, "td": true,
	"th": true, "title": true, "tr": true, "ul": true, "ol": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "nav": true,
	"header": true, "footer": true, "section": true, "article": true,
}

// htmlTags counts the start and end tags of pageElems in the first 64
// KiB of text ("<" or "</", the element's name, then white space, ">" or
// "/"), and how many elements they are of.
func htmlTags(text []byte) (n, kinds int) {
	text = text[:min(len(text), 64<<10)]
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '/' {
			j++
		}
		k := j
		for k < len(text) && k-j < 8 && (text[k]|0x20 >= 'a' && text[k]|0x20 <= 'z' || k > j && text[k] >= '0' && text[k] <= '9') {
			k++
		}
		if k == j || k >= len(text) {
			continue
		}
		if c := text[k]; c != '>' && c != '/' && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			continue
		}
		if name := string(bytes.ToLower(text[j:k])); pageElems[name] {
			n++
			seen[name] = true
		}
	}
	return n, len(seen)
}

// binary tells whether data, decoded from UTF-16 if it was, holds a NUL
// byte or more than 5% control bytes in its first 16 KiB: no gold text.
// (Magic numbers are not looked for: plain gold may open with any word.)
func binary(data []byte) bool {
	n := min(len(data), 16<<10)
	ctl := 0
	for _, c := range data[:n] {
		if c == 0 {
			return true
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1B || c == 0x7F {
			ctl++
		}
	}
	return ctl*20 > n
}
