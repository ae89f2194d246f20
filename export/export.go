package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/internal/lang"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/meta"
)

// Format is an output format.
type Format int

// The output formats.
const (
	CleanEval Format = iota // CleanEval text: URL line, segments opened by <p>, <h>, <l>
	Text                    // plain paragraphs separated by blank lines
	HTML                    // the pruned document
	JSON                    // one object per page: its kept text and one object per block, with label, value, type, text
)

var formatNames = [...]string{"cleaneval", "text", "html", "json"}

func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// ParseFormat returns the format named s (cleaneval, text, html, json).
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("export: unknown format %q (want cleaneval, text, html or json)", s)
}

// Ext is the file extension for f: .txt, .html or .json.
func (f Format) Ext() string {
	switch f {
	case HTML:
		return ".html"
	case JSON:
		return ".json"
	}
	return ".txt"
}

// Write writes page p in format f. bs are the blocks of p.Doc (blocks.Find),
// keep says which to keep (nil keeps all) and score holds the classifier's
// decision values (nil if there are none; only JSON shows them). No
// format changes p (HTML prunes a copy of p.Doc).
func Write(w io.Writer, f Format, p *load.Page, bs []*blocks.Block, keep []bool, score []float64) error {
	return write(w, f, p, nil, bs, keep, score, nil)
}

// WriteMeta is Write with the page's metadata m (package meta, as
// pipeline.Doc.Meta holds it): the JSON format adds title (always, "" when
// the page has none), author, date and site (each when the page gives it)
// after name and url, then lang (always): a guess of the kept text's
// language, an ISO 639-1 code or "" (as JSON Lines' "lang"). The other formats are Write's.
func WriteMeta(w io.Writer, f Format, p *load.Page, m meta.Meta, bs []*blocks.Block, keep []bool, score []float64) error {
	return write(w, f, p, &m, bs, keep, score, nil)
}

// Notes is what a cleaner knows of a page besides its blocks' labels and
// decision values: how far its decisions can be trusted. Only the JSON
// format writes it (WriteNotes).
type Notes struct {
	// Truncated reports that the page was cut before it was parsed
	// (load.Page.Truncated, which Write does not write).
	Truncated bool
	// RenderError is why the page was not rendered and a text model
	// cleaned it instead; "" when it was rendered or not meant to be.
	RenderError string
	// Unseen holds, per block, whether the rendering could not show the
	// block (below the captured part of a very tall page, or on a page
	// that renders all but blank) and a text model decided it; nil when
	// none.
	Unseen []bool
	// Smoothed holds, per block, whether sequence smoothing gave the
	// block the other label than its own value against the threshold
	// would; nil when it changed none.
	Smoothed []bool
	// Floor holds, per block, whether the prose floor kept the block,
	// which the threshold dropped; nil when it kept none.
	Floor []bool
	// Fallback holds, per block, whether the fallback kept it, the best
	// block of a page that would keep nothing (pipeline.Result.Fallback);
	// nil when none did.
	Fallback []bool
	// NeverKept holds, per block, why a rule dropped it whatever its
	// value ("box", "ad label", "stamp", "byline", "legal": pipeline.NeverKept),
	// "" for the others; nil when none.
	NeverKept []string
	// Charset is the charset the page's bytes were decoded with
	// (load.Page.Encoding); "" when not known.
	Charset string
	// Frames are the addresses of the page's frames, as the page writes
	// them, where it holds no text block (pipeline.Doc.Frames): its text
	// is in the pages they load. JSON's "frames", as JSON Lines' (which
	// resolves them against the page's address).
	Frames []string
	// Threshold, when not nil, is the decision threshold the blocks'
	// values were cut at: at or above it a value says clean.
	Threshold *float64
}

// WriteNotes is WriteMeta with notes n. The JSON format adds to the page
// "charset" and "threshold" (when set), "truncated" (true, when set),
// "render_error" (when set),
// "unseen_blocks" (how many blocks are unseen, when any),
// "smoothed_blocks" (how many blocks smoothing relabelled, when any) and
// "floored" (true, when the floor kept any) after the metadata (with Write
// too: "text", the kept text as the text format writes it), and to
// each block "unseen", "smoothed", "floor" and "fallback" (true, when set) and
// "never_kept" (when set) before its text. The other
// formats are Write's. Per-block notes of another length than bs are an
// error, whatever the format.
func WriteNotes(w io.Writer, f Format, p *load.Page, m meta.Meta, bs []*blocks.Block, keep []bool, score []float64, n Notes) error {
	for _, x := range []struct {
		name  string
		flags []bool
	}{{"unseen", n.Unseen}, {"smoothed", n.Smoothed}, {"floor", n.Floor}, {"fallback", n.Fallback}} {
		if x.flags != nil && len(x.flags) != len(bs) {
			return fmt.Errorf("export: %d %s flags for %d blocks", len(x.flags), x.name, len(bs))
		}
	}
	if n.NeverKept != nil && len(n.NeverKept) != len(bs) {
		return fmt.Errorf("export: %d never-kept reasons for %d blocks", len(n.NeverKept), len(bs))
	}
	return write(w, f, p, &m, bs, keep, score, &n)
}

func write(w io.Writer, f Format, p *load.Page, m *meta.Meta, bs []*blocks.Block, keep []bool, score []float64, n *Notes) error {
	if keep != nil && len(keep) != len(bs) {
		return fmt.Errorf("export: %d keep flags for %d blocks", len(keep), len(bs))
	}
	if score != nil && len(score) != len(bs) {
		return fmt.Errorf("export: %d scores for %d blocks", len(score), len(bs))
	}
	kept := func(i int) bool { return keep == nil || keep[i] }
	// In-memory writers take the output as it comes; others get a buffer.
	var sw stringWriter
	var bw *bufio.Writer
	switch x := w.(type) {
	case *strings.Builder:
		sw = x
	case *bytes.Buffer:
		sw = x
	default:
		bw = bufio.NewWriter(w)
		sw = bw
	}
	var err error
	switch f {
	case CleanEval:
		err = writeCleanEval(sw, p, bs, kept)
	case Text:
		err = writeText(sw, bs, kept)
	case HTML:
		err = writeHTML(sw, p, bs, kept)
	case JSON:
		err = writeJSON(sw, p, m, bs, kept, score, n)
	default:
		return fmt.Errorf("export: unknown format %v", f)
	}
	if err != nil {
		return err
	}
	if bw != nil {
		return bw.Flush()
	}
	return nil
}

// stringWriter is what the writers below write to.
type stringWriter interface {
	io.Writer
	io.StringWriter
}

func writeCleanEval(w stringWriter, p *load.Page, bs []*blocks.Block, kept func(int) bool) error {
	if p != nil && p.URL != "" {
		fmt.Fprintf(w, "URL: %s\n", oneLine(p.URL))
	}
	for _, s := range Segments(bs, kept) {
		fmt.Fprintf(w, "<%c> %s\n", s.Kind, s.Text)
	}
	return nil
}

func writeText(w stringWriter, bs []*blocks.Block, kept func(int) bool) error {
	segs := Segments(bs, kept)
	if sb, ok := w.(*strings.Builder); ok {
		n := 0
		for _, s := range segs {
			n += len(s.Text) + 2
		}
		sb.Grow(n)
	}
	for i, s := range segs {
		if i > 0 {
			w.WriteString("\n")
		}
		w.WriteString(s.Text)
		w.WriteString("\n")
	}
	return nil
}

type jsonBlock struct {
	ID    int      `json:"id"`
	Label string   `json:"label"`
	Value *float64 `json:"value,omitempty"`
	Type  string   `json:"type"`
	Tag   string   `json:"tag"`
	// With WriteNotes only, and only when true.
	Unseen   bool `json:"unseen,omitempty"`
	Smoothed bool `json:"smoothed,omitempty"`
	Floor    bool `json:"floor,omitempty"`
	Fallback bool `json:"fallback,omitempty"`
	// NeverKept is why a rule dropped the block whatever its value.
	NeverKept string `json:"never_kept,omitempty"`
	Text      string `json:"text"`
}

type jsonPage struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
	// The metadata, with WriteMeta only: Title is nil with Write.
	Title  *string `json:"title,omitempty"`
	Author string  `json:"author,omitempty"`
	Date   string  `json:"date,omitempty"`
	Site   string  `json:"site,omitempty"`
	// Lang, with WriteMeta only, is the guess of the kept text's
	// language (internal/lang), as JSON Lines' "lang".
	Lang *string `json:"lang,omitempty"`
	// The notes, with WriteNotes only, and only when set.
	Charset        string   `json:"charset,omitempty"`
	Threshold      *float64 `json:"threshold,omitempty"`
	Truncated      bool     `json:"truncated,omitempty"`
	RenderError    string   `json:"render_error,omitempty"`
	UnseenBlocks   int      `json:"unseen_blocks,omitempty"`
	SmoothedBlocks int      `json:"smoothed_blocks,omitempty"`
	Floored        bool     `json:"floored,omitempty"`
	Frames         []string `json:"frames,omitempty"`
	// Text is the page's kept text as the text format writes it (the
	// blocks in reading order, which their ids need not follow), without
	// its last line feed: JSON Lines' "text".
	Text   string      `json:"text"`
	Blocks []jsonBlock `json:"blocks"`
}

func writeJSON(w stringWriter, p *load.Page, m *meta.Meta, bs []*blocks.Block, kept func(int) bool, score []float64, n *Notes) error {
	types, texts := KeptTypes(bs, kept), BlockTexts(bs)
	out := jsonPage{Blocks: make([]jsonBlock, 0, len(bs))}
	if p != nil {
		out.Name, out.URL = p.Name, p.URL
	}
	if m != nil {
		out.Title, out.Author, out.Date, out.Site = &m.Title, m.Author, m.Date, m.Site
	}
	if n != nil {
		out.Truncated, out.RenderError, out.Charset, out.Frames = n.Truncated, n.RenderError, n.Charset, n.Frames
		if n.Threshold != nil {
			t := math.Round(*n.Threshold*1e6) / 1e6 // as the values below
			out.Threshold = &t
		}
	}
	for i, b := range bs {
		jb := jsonBlock{ID: b.ID, Label: "dirty", Type: string(types[i]), Tag: b.Node.Data, Text: texts[i]}
		if kept(i) {
			jb.Label = "clean"
		}
		if score != nil {
			// Six decimals: decision values are exact to about 1e-12,
			// and the last bits depend on the order of the arithmetic.
			v := math.Round(score[i]*1e6) / 1e6
			jb.Value = &v
		}
		if n != nil {
			jb.Unseen = n.Unseen != nil && n.Unseen[i]
			jb.Smoothed = n.Smoothed != nil && n.Smoothed[i]
			jb.Floor = n.Floor != nil && n.Floor[i]
			jb.Fallback = n.Fallback != nil && n.Fallback[i]
			if n.NeverKept != nil {
				jb.NeverKept = n.NeverKept[i]
			}
			if jb.Unseen {
				out.UnseenBlocks++
			}
			if jb.Smoothed {
				out.SmoothedBlocks++
			}
			out.Floored = out.Floored || jb.Floor
		}
		out.Blocks = append(out.Blocks, jb)
	}
	var text strings.Builder
	if err := writeText(&text, bs, kept); err != nil {
		return err
	}
	out.Text = strings.TrimSuffix(text.String(), "\n")
	if m != nil {
		code := lang.Guess(out.Text)
		out.Lang = &code
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeHTML prunes a copy of p.Doc (p.Doc is left as it is): the own
// text of every dropped block goes, then every element left without text
// or images (except html, head, body and the head's content), and the
// blocks' anonymous <div>s (unwrapAnon); the rest is rendered unchanged,
// with a <base> in the head (see baseURL) unless it has one.
func writeHTML(w stringWriter, p *load.Page, bs []*blocks.Block, kept func(int) bool) error {
	if p == nil || p.Doc == nil {
		return fmt.Errorf("export: html format needs the page document")
	}
	blockOf := make(map[*html.Node]int, len(bs))
	for i, b := range bs {
		blockOf[b.Node] = i
	}
	owner := make(map[*html.Node]int, len(bs)) // the blocks' nodes in the copy
	doc := cloneTree(p.Doc, blockOf, owner)
	addBase(doc, baseURL(p.BaseHref, p.URL))
	var strip func(n *html.Node, blk int)
	strip = func(n *html.Node, blk int) {
		if i, ok := owner[n]; ok {
			blk = i
		}
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.TextNode && blk >= 0 && !kept(blk) {
				n.RemoveChild(c)
			} else if c.Type == html.ElementNode && c.DataAtom != atom.Head {
				strip(c, blk)
			}
			c = next
		}
	}
	strip(doc, -1)
	prune(doc)
	unwrapAnon(doc)
	disarm(doc)
	return html.Render(w, doc)
}

// disarm drops what would run code when the cleaned document is opened
// in a browser: event handler attributes (onclick, onerror, ...) and
// javascript: or vbscript: URLs (preclean removed the scripts
// themselves). A browser strips tabs and line ends from a URL and reads
// its scheme in any case, and so does disarm.
func disarm(n *html.Node) {
	if n.Type == html.ElementNode {
		attrs := n.Attr[:0]
		for _, a := range n.Attr {
			if len(a.Key) > 2 && strings.EqualFold(a.Key[:2], "on") || scriptURL(a.Val) && urlAttr(a.Key) {
				continue
			}
			attrs = append(attrs, a)
		}
		n.Attr = attrs
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		disarm(c)
	}
}

// urlAttr reports the attributes that hold a URL a browser follows.
func urlAttr(key string) bool {
	switch strings.ToLower(key) {
	case "href", "src", "action", "formaction", "data", "poster", "background", "cite", "xlink:href":
		return true
	}
	return false
}

// scriptURL reports a javascript: or vbscript: URL, as a browser reads
// one: leading spaces and control characters skipped, tabs and line ends
// anywhere dropped, the scheme in any case.
func scriptURL(v string) bool {
	v = strings.TrimLeftFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
	if len(v) > 11 {
		v = v[:11]
	}
	v = strings.ToLower(v)
	return strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:")
}

// unwrapAnon replaces each <div> that package blocks inserted around a
// run of inline content (blocks.AnonAttr) by its children, so that the
// document is the page's own again.
func unwrapAnon(n *html.Node) {
	dom.Unwrap(n, func(c *html.Node) bool {
		return c.DataAtom == atom.Div && slices.ContainsFunc(c.Attr, func(a html.Attribute) bool { return a.Key == blocks.AnonAttr })
	})
}

// cloneTree returns a deep copy of n; for each node of n's tree that
// blockOf names, owner gets its copy with the same block.
func cloneTree(n *html.Node, blockOf, owner map[*html.Node]int) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: slices.Clone(n.Attr)}
	if i, ok := blockOf[n]; ok {
		owner[c] = i
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.AppendChild(cloneTree(ch, blockOf, owner))
	}
	return c
}

// baseURL returns what the page's relative links resolve against: its
// <base href> resolved against the page's URL from outside (load.Page.URL:
// the CleanEval wrapper's id, a WARC record's target URI), else that URL;
// "" unless that is an absolute http or https URL.
func baseURL(baseHref, pageURL string) string {
	u, err := url.Parse(strings.TrimSpace(pageURL))
	if err != nil || !u.IsAbs() {
		u = nil
	}
	if baseHref != "" {
		if b, err := url.Parse(baseHref); err == nil {
			if u != nil {
				b = u.ResolveReference(b)
			}
			u = b
		}
	}
	if u == nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	return u.String()
}

// addBase puts <base href=href> into the head of doc, after its first
// child (the <meta charset> preclean puts first), unless href is "" or the
// head has a <base>.
func addBase(doc *html.Node, href string) {
	if href == "" {
		return
	}
	head := dom.Head(doc)
	if head == nil {
		return
	}
	for c := head.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Base {
			return
		}
	}
	base := &html.Node{Type: html.ElementNode, Data: "base", DataAtom: atom.Base,
		Attr: []html.Attribute{{Key: "href", Val: href}}}
	var after *html.Node
	if f := head.FirstChild; f != nil && f.Type == html.ElementNode && f.DataAtom == atom.Meta {
		after = f.NextSibling
	} else {
		after = head.FirstChild
	}
	head.InsertBefore(base, after)
}

// prune removes the empty elements below n and reports whether n holds
// text or an image.
func prune(n *html.Node) bool {
	has := false
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				has = true
			}
		case html.ElementNode:
			switch c.DataAtom {
			case atom.Head, atom.Br, atom.Wbr, atom.Hr:
				// kept as they are
			case atom.Img, atom.Picture, atom.Svg, atom.Video, atom.Audio, atom.Iframe, atom.Object, atom.Embed, atom.Canvas:
				has = true
			default:
				if prune(c) {
					has = true
				} else if c.DataAtom != atom.Html && c.DataAtom != atom.Body {
					n.RemoveChild(c)
				}
			}
		}
		c = next
	}
	return has
}
