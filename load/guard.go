package load

import (
	"bytes"
	"errors"
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Errors returned by File and Bytes, wrapped with the page name; test with
// errors.Is.
var (
	ErrEmpty  = errors.New("empty page")
	ErrBinary = errors.New("not a text file")
	ErrDepth  = errors.New("nesting too deep to parse")
	ErrModel  = errors.New("a fiasco model file, not a page")
)

// isModel reports whether data is a fiasco model file's JSON (package
// classify's format "fiasco-model/N", decompressed): given as a page by
// mistake, it would come out as a page of JSON text.
func isModel(data []byte) bool {
	head := bytes.TrimLeft(data[:min(len(data), 256)], " \t\r\n\ufeff")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	i := bytes.Index(head, []byte(`"format"`))
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(head[i+len(`"format"`):], " \t\r\n:")
	return bytes.HasPrefix(rest, []byte(`"fiasco-model/`))
}

// binaryKind returns a description of data if it looks like a binary file:
// a known magic number, or more than 5% control bytes in its first 16 KiB.
// Text in UTF-16 must have been recognised before.
func binaryKind(data []byte) string {
	magics := []struct{ magic, kind string }{
		{"\x89PNG", "PNG image"}, {"GIF8", "GIF image"}, {"\xFF\xD8\xFF", "JPEG image"},
		{"%PDF-", "PDF document"}, {"PK\x03\x04", "ZIP archive"}, {"\x1F\x8B", "gzip-compressed data"},
		{"\x7FELF", "ELF executable"}, {"\xD0\xCF\x11\xE0", "MS Office document"},
		{"RIFF", "RIFF media"}, {"\x00\x00\x01\x00", "icon"},
	}
	for _, m := range magics {
		if m.kind != "" && bytes.HasPrefix(data, []byte(m.magic)) {
			return m.kind
		}
	}
	// Compressions fiasco does not read (gzip and zstd it does, where a
	// name says so): the kind says what to do.
	if len(data) >= 10 && bytes.HasPrefix(data, []byte("BZh")) && data[3] >= '1' && data[3] <= '9' && bytes.HasPrefix(data[4:], []byte("\x31\x41\x59\x26\x53\x59")) {
		return "bzip2-compressed data, which fiasco does not read: decompress it first (bunzip2), or recompress it with gzip or zstd"
	}
	if bytes.HasPrefix(data, []byte("\xFD7zXZ\x00")) {
		return "xz-compressed data, which fiasco does not read: decompress it first (unxz), or recompress it with gzip or zstd"
	}
	// NUL bytes that pad a file's end (a download or a disk image
	// written in blocks) are no sign of binary data.
	data = bytes.TrimRight(data, "\x00")
	if len(data) == 0 {
		return "NUL bytes only"
	}
	n := len(data)
	if n > 16<<10 {
		n = 16 << 10
	}
	ctl := 0
	for _, c := range data[:n] {
		ctl += int(isControl[c])
	}
	if n > 0 && ctl*20 > n {
		return "binary data"
	}
	return ""
}

// isControl is 1 for the control bytes binaryKind counts: below 0x20
// except tab, newline, carriage return, form feed and escape, and DEL.
var isControl = func() (t [256]uint8) {
	for c := range t {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1B || c == 0x7F {
			t[c] = 1
		}
	}
	return t
}()

// cutTags returns text cut before its (max+1)-th start tag, and whether
// it cut. Start tags are what make the parser's elements: those the
// tokenizer finds, outside comments, attribute values and the raw text
// of script, style, textarea, title and the like (which the parser reads
// as text in HTML content, and as markup inside <svg> and <math>). A
// page's comparisons in a script, a long comment and end tags count for
// nothing. A page with no more '<' than max is not tokenized.
func cutTags(text string, max int) (string, bool) {
	if max <= 0 || strings.Count(text, "<") <= max {
		return text, false
	}
	z := html.NewTokenizer(strings.NewReader(text))
	off, n, foreign := 0, 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return text, false
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if n++; n > max {
				return text[:off], true
			}
			name, _ := z.TagName()
			if tt == html.StartTagToken && foreignRoot(name) {
				foreign++
			}
			if foreign > 0 {
				z.NextIsNotRawText() // <svg><style>: markup, for the parser
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); foreign > 0 && foreignRoot(name) {
				foreign--
			}
		}
		off += len(z.Raw())
	}
}

// foreignRoot reports whether a tag name opens foreign content.
func foreignRoot(name []byte) bool {
	return string(name) == "svg" || string(name) == "math"
}

// isDepthError reports whether err is html.Parse refusing a deep nesting.
func isDepthError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "open stack of elements")
}

var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true, "keygen": true, "basefont": true,
	"bgsound": true, "frame": true, "image": true,
}

// closesSame lists elements whose start tag implicitly closes an open
// element of the same group.
var closesSame = map[string]string{
	"p": "p", "li": "li", "dt": "d", "dd": "d", "option": "option",
	"tr": "tr", "td": "t", "th": "t",
}

// flatten rewrites the page so that no element opens more than maxDepth
// levels deep, by a cheap approximation of the parser's stack of open
// elements: start tags beyond maxDepth are dropped together with their end
// tags; their content stays. A dropped tag of an element that is not
// inline leaves a <br> in its place, so that the words on either side stay
// apart and the blocks it made become lines (two in a row, paragraphs: see
// package preclean). It returns the rewritten page and the number of start
// tags dropped.
func flatten(data string, maxDepth int) (string, int) {
	type open struct {
		name    string
		dropped bool
	}
	var stack []open
	kept := 0 // entries in stack that were not dropped
	dropped := 0
	var out strings.Builder
	out.Grow(len(data))
	z := html.NewTokenizer(strings.NewReader(data))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			nb, _ := z.TagName()
			name := string(nb)
			if voidElements[name] {
				break
			}
			if g, ok := closesSame[name]; ok && len(stack) > 0 && closesSame[stack[len(stack)-1].name] == g {
				if !stack[len(stack)-1].dropped {
					kept--
				}
				stack = stack[:len(stack)-1]
			}
			if kept >= maxDepth {
				stack = append(stack, open{name, true})
				dropped++
				if !dom.IsInlineAtom(atom.Lookup(nb)) {
					out.WriteString("<br>")
				}
				continue
			}
			stack = append(stack, open{name, false})
			kept++
		case html.EndTagToken:
			nb, _ := z.TagName()
			name := string(nb)
			for i := len(stack) - 1; i >= 0 && i >= len(stack)-64; i-- {
				if stack[i].name != name {
					continue
				}
				wasDropped := stack[i].dropped
				for _, o := range stack[i:] {
					if !o.dropped {
						kept--
					}
				}
				stack = stack[:i]
				if wasDropped {
					raw = nil
					if !dom.IsInlineAtom(atom.Lookup(nb)) {
						raw = []byte("<br>")
					}
				}
				break
			}
		}
		out.Write(raw)
	}
	return out.String(), dropped
}
