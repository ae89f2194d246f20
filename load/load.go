package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"
)

// Page is a loaded, parsed web page.
type Page struct {
	Name string // file name, or "-" for standard input
	URL  string // from the CleanEval wrapper's id attribute, if any
	// Address is the page's own address as its head states it (link
	// rel=canonical, else meta property=og:url, else base href; absolute
	// http or https only), if any.
	Address string
	// BaseHref is the href of the page's first <base> element, as
	// written (relative or not), if any: what its relative links resolve
	// against.
	BaseHref string
	Title    string     // from the CleanEval wrapper's title attribute, if any
	Encoding string     // the charset the bytes were decoded with (WHATWG name)
	Doc      *html.Node // the parsed document

	// EncodingSource names the link of the charset chain that chose
	// Encoding: one of the Source* constants.
	EncodingSource string
	// Declared is the first charset named by the Content-Type header, the
	// wrapper or a meta tag (canonical name), whether or not it was used;
	// empty where a byte-order mark, UTF-16 without one, or valid UTF-8
	// decided before the declarations were read.
	Declared string
	// Wrapped reports a CleanEval <text ...> wrapper.
	Wrapped bool
	// Truncated reports that the input was cut at Options.MaxBytes or
	// Options.MaxTags (or, by pipeline.Prepare, after its MaxBlocks text
	// blocks); the page holds what came before the cut.
	Truncated bool
	// Cut says where a Truncated page was cut, the first cut of several:
	// CutBytes or CutTags (here), CutBlocks (pipeline.Prepare) or
	// CutSource or CutFile (the input came cut: pipeline.Cleaner.CleanInput).
	Cut string
	// Flattened counts the elements dropped (their content kept) because
	// the page nested deeper than the parser accepts.
	Flattened int
	// FormattingDropped reports a page whose formatting elements (<b>,
	// <font>, ...; not <a>) were dropped, their text kept, because the
	// parser would have reopened so many of them that the document
	// multiplied (see the package doc, "Resource guards").
	FormattingDropped bool
	// TitleClosed reports a <title> without an end tag, closed at its
	// first tag so that the rest of the page is parsed as markup rather
	// than read as the title's text (see the package doc, "Repairs").
	TitleClosed bool
}

// Options bound the resources spent on one page and pass what is known
// about it from outside.
type Options struct {
	// MaxBytes is the largest input read; longer inputs are cut there
	// (Page.Truncated). 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxTags caps the number of start tags parsed (not counting those in
	// comments and raw text such as scripts); the input is cut before the
	// next one (Page.Truncated). 0 means DefaultMaxTags.
	MaxTags int
	// ContentType is the value of an HTTP Content-Type header, if known,
	// e.g. "text/html; charset=iso-8859-1".
	ContentType string
}

// Where a page was cut (Page.Cut).
const (
	CutBytes  = "max-bytes"  // at Options.MaxBytes
	CutTags   = "max-tags"   // at Options.MaxTags
	CutBlocks = "max-blocks" // after pipeline.PrepareOptions.MaxBlocks text blocks
	CutSource = "source"     // by its crawler: a WARC-Truncated field, an HTTP body shorter than its length
	CutFile   = "file"       // a compressed page file that ends before its data (pipeline.ErrCutShort)
)

// MarkCut notes that the page was cut (Truncated) where says (Cut), unless
// an earlier cut is noted already.
func (p *Page) MarkCut(where string) {
	p.Truncated = true
	if p.Cut == "" {
		p.Cut = where
	}
}

// Default resource limits.
const (
	DefaultMaxBytes = 8 << 20
	DefaultMaxTags  = 200000
)

func (o Options) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

func (o Options) maxTags() int {
	if o.MaxTags <= 0 {
		return DefaultMaxTags
	}
	return o.MaxTags
}

// File reads and parses the page at path, reading at most Options.MaxBytes.
func File(path string, opt Options) (*Page, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Reader(path, f, opt)
}

// Reader reads at most Options.MaxBytes from r and parses the page; name is
// used in errors and Page.Name.
func Reader(name string, r io.Reader, opt Options) (*Page, error) {
	max := opt.maxBytes()
	data, err := io.ReadAll(io.LimitReader(r, min(max, math.MaxInt64-1)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Bytes(name, data, opt)
}

// Bytes parses the page held in data; name is used in errors and
// Page.Name. Errors name the page and wrap ErrEmpty, ErrBinary, ErrModel
// or ErrDepth where they apply.
func Bytes(name string, data []byte, opt Options) (*Page, error) {
	p := &Page{Name: name}
	if max := opt.maxBytes(); int64(len(data)) > max {
		data = data[:max]
		p.MarkCut(CutBytes)
	}
	w, body := unwrap(data)
	if w != nil {
		p.Wrapped = true
		data = body
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	if isModel(data) {
		return nil, fmt.Errorf("%s: %w", name, ErrModel)
	}
	hint := ""
	if w != nil {
		hint = w.encoding
	}
	c := chooseCharset(data, opt.ContentType, hint)
	if c.source != SourceBOM && !strings.HasPrefix(c.name, "utf-16") {
		// Text in UTF-16 was recognised above; anything else full of
		// control bytes is not a page.
		if kind := binaryKind(data); kind != "" {
			if c.unsupported != "" && kind == "binary data" {
				kind += fmt.Sprintf(", or text in the charset it declares, %q, which is not supported", c.unsupported)
			}
			return nil, fmt.Errorf("%s: %w (%s)", name, ErrBinary, kind)
		}
	}
	p.Encoding, p.EncodingSource, p.Declared = c.name, c.source, c.declared
	text, err := decode(data[c.skip:], c)
	if err != nil {
		return nil, fmt.Errorf("%s: decoding as %s: %v", name, c.name, err)
	}
	text = trimCutTag(text)
	if w != nil {
		p.URL = w.attr("id", c)
		p.Title = w.attr("title", c)
	}
	if len(strings.TrimSpace(text)) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	if servedAsXML(name, opt.ContentType) {
		text, _ = closeSelfClosing(text)
	}
	if cut, ok := cutTags(text, opt.maxTags()); ok {
		text = cut
		p.MarkCut(CutTags)
	}
	text, p.FormattingDropped = dropFormatting(text)
	doc, err := parse(text, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if swallowed(doc) {
		if fixed, ok := closeTitle(text); ok {
			if d, err := parse(fixed, p); err == nil {
				doc, p.TitleClosed = d, true
			}
		}
	}
	p.Doc = doc
	p.Address, p.BaseHref = address(doc)
	return p, nil
}

// Text decodes data that is text but no page to parse (a gold file) by
// the charset chain of a page without a header or wrapper: a byte-order
// mark, UTF-16 by its NUL bytes, valid UTF-8, a <meta> or XML declaration
// (an annotated page), mostly UTF-8 (stray bytes read as windows-1252),
// the statistical guess, windows-1252. It returns the text, the
// charset's name and the link of the chain that chose it (a Source*
// constant).
func Text(data []byte) (text, charset, source string, err error) {
	c := chooseCharset(data, "", "")
	text, err = decode(data[c.skip:], c)
	if err != nil {
		return "", c.name, c.source, fmt.Errorf("decoding as %s: %v", c.name, err)
	}
	return text, c.name, c.source, nil
}

// decode turns data into valid UTF-8 text. In UTF-8 input, bytes that are
// not part of a valid sequence are read as windows-1252: pages patched
// together from UTF-8 and legacy parts keep both readable.
func decode(data []byte, c choice) (string, error) {
	if c.enc == nil {
		if utf8.Valid(data) {
			return string(data), nil
		}
		// A sequence cut off by truncation at the very end is dropped.
		for i := 1; i <= 3 && i <= len(data); i++ {
			if b := data[len(data)-i]; b >= 0xC0 {
				if !utf8.FullRune(data[len(data)-i:]) {
					data = data[:len(data)-i]
				}
				break
			} else if b < 0x80 {
				break
			}
		}
		if utf8.Valid(data) {
			return string(data), nil
		}
		var b strings.Builder
		b.Grow(len(data) + len(data)/8)
		for len(data) > 0 {
			r, size := utf8.DecodeRune(data)
			if r == utf8.RuneError && size <= 1 {
				b.WriteRune(charmap.Windows1252.DecodeByte(data[0]))
				data = data[1:]
				continue
			}
			b.Write(data[:size])
			data = data[size:]
		}
		return b.String(), nil
	}
	if t := byteTableOf(c.enc); t != nil {
		return t.decode(data), nil
	}
	out, err := c.enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", err
	}
	// A multi-byte sequence cut off at the very end (a page cut by
	// its crawler or at Options.MaxBytes) decodes to U+FFFD: dropped,
	// as for UTF-8 above.
	out = bytes.TrimSuffix(out, []byte("\uFFFD"))
	if !utf8.Valid(out) {
		return strings.ToValidUTF8(string(out), "\uFFFD"), nil
	}
	return string(out), nil
}

// trimCutTag drops a "<" or "</" that ends text: a tag cut off at the
// very end, which the tokenizer would give as text ("…the end.</").
// A page that ends whole ends otherwise.
func trimCutTag(text string) string {
	t := strings.TrimSuffix(text, "<")
	if t == text {
		if t = strings.TrimSuffix(text, "</"); t == text {
			return text
		}
	}
	return t
}

// Depth caps tried, in turn, on a page that html.Parse rejects as nested
// too deep (it refuses more than 512 open elements).
var flattenDepths = []int{256, 64}

func parse(text string, p *Page) (*html.Node, error) {
	doc, err := html.Parse(strings.NewReader(text))
	if err == nil {
		return doc, nil
	}
	if !isDepthError(err) {
		return nil, err
	}
	for _, d := range flattenDepths {
		flat, n := flatten(text, d)
		doc, err = html.Parse(strings.NewReader(flat))
		if err == nil {
			p.Flattened = n
			return doc, nil
		}
		if !isDepthError(err) {
			return nil, err
		}
	}
	return nil, errors.Join(ErrDepth, err)
}
