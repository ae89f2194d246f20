package load

import (
	"bytes"
	"encoding/binary"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Encoding sources: the link of the charset chain that decided.
const (
	SourceBOM     = "bom"     // a byte-order mark
	SourceUTF8    = "utf-8"   // valid UTF-8 with non-ASCII content
	SourceHeader  = "header"  // Options.ContentType
	SourceWrapper = "wrapper" // the CleanEval wrapper's encoding attribute
	SourceMeta    = "meta"    // <meta charset>, <meta http-equiv>, <?xml encoding?>
	SourceASCII   = "ascii"   // no byte above 0x7F and no declaration: decoded as UTF-8
	SourceGuess   = "guess"   // the statistical detector
	SourceDefault = "default" // windows-1252
)

// DefaultCharset is the charset of the last link of the chain.
const DefaultCharset = "windows-1252"

// choice is the outcome of the charset chain.
type choice struct {
	enc      encoding.Encoding // nil for UTF-8 (no decoding needed)
	name     string            // canonical WHATWG name
	source   string
	declared string // first charset named by header, wrapper or meta
	// unsupported is the first label named there that this package
	// cannot decode (utf-32 without a mark, iso-2022-kr), for messages.
	unsupported string
	skip        int // bytes of BOM to skip
}

// lookup resolves a charset label to an encoding, following the WHATWG
// Encoding Standard's label table (so iso-8859-1 means windows-1252).
// It returns ok=false for unknown labels.
func lookup(label string) (encoding.Encoding, string, bool) {
	label = cleanLabel(label)
	if label == "" {
		return nil, "", false
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, "", false
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return nil, "", false
	}
	return enc, name, true
}

// chooseCharset runs the charset chain on data (the page without any
// CleanEval wrapper).
func chooseCharset(data []byte, contentType, wrapperHint string) choice {
	// 1. Byte-order mark.
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		// UTF-32 (not a WHATWG encoding: browsers read this mark as
		// UTF-16LE and show NUL characters between the letters).
		return choice{enc: utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), name: "utf-32le", source: SourceBOM, skip: 4}
	case bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return choice{enc: utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), name: "utf-32be", source: SourceBOM, skip: 4}
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return choice{name: "utf-8", source: SourceBOM, skip: 3}
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return choice{enc: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), name: "utf-16be", source: SourceBOM, skip: 2}
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return choice{enc: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), name: "utf-16le", source: SourceBOM, skip: 2}
	}
	// UTF-16 without a BOM shows as a regular pattern of NUL bytes.
	if c, ok := sniffUTF16(data); ok {
		return c
	}
	// 2. Valid UTF-8 with non-ASCII content.
	st := utf8Stats(data)
	if st.valid > 0 && st.invalid == 0 {
		return choice{name: "utf-8", source: SourceUTF8}
	}
	// 3. Declarations: header, wrapper hint, meta anywhere in the head.
	var c choice
	decl := func(label, source string) bool {
		enc, name, ok := lookup(label)
		if t := cleanLabel(label); c.unsupported == "" && t != "" && (!ok || name == "replacement" && !isHZ(t)) {
			c.unsupported = strings.ToLower(t)
		}
		if !ok {
			return false
		}
		if name == "replacement" && isHZ(label) {
			// The Encoding Standard maps HZ to its replacement
			// decoder (a browser shows nothing); a corpus wants the
			// text, which x/text decodes.
			enc, name = simplifiedchinese.HZGB2312, "hz-gb-2312"
		}
		if c.declared == "" {
			c.declared = name
		}
		switch name {
		case "utf-16be", "utf-16le":
			// The HTML standard reads a <meta> naming UTF-16 as UTF-8
			// (a page whose meta the ASCII-based prescan read is not
			// UTF-16); an HTTP header is taken at its word where the
			// bytes read as UTF-16 markup (text in a script with few
			// NUL bytes, which sniffUTF16 did not take).
			big := name == "utf-16be"
			if source == SourceHeader && plausibleUTF16(data[:min(len(data), 4096)&^1], big) {
				order := unicode.LittleEndian
				if big {
					order = unicode.BigEndian
				}
				enc = unicode.UTF16(order, unicode.IgnoreBOM)
				break
			}
			enc, name = nil, "utf-8"
		case "utf-8":
			enc = nil
		case "replacement", "x-user-defined":
			return false
		}
		if name == "utf-8" && !st.mostlyUTF8() {
			return false // contradicted by the bytes
		}
		if source == SourceHeader && singleByte(name) && st.clearlyUTF8() {
			// A server's default (Apache's AddDefaultCharset
			// ISO-8859-1) over a UTF-8 page with a few stray bytes
			// (a pasted windows-1252 quote): the bytes say UTF-8.
			return false
		}
		c.enc, c.name, c.source = enc, name, source
		return true
	}
	// A declaration the bytes contradict beyond doubt gives way to the
	// statistical detector (overrule).
	if contentType != "" && decl(headerCharset(contentType), SourceHeader) {
		return overrule(data, st, c)
	}
	if decl(wrapperHint, SourceWrapper) {
		return overrule(data, st, c)
	}
	if decl(metaCharset(data), SourceMeta) {
		return overrule(data, st, c)
	}
	declared := c.declared
	// 4. Nothing to decode, but for ISO-2022-JP, whose 7-bit bytes
	// switch to JIS X 0208 after ESC $ B (or ESC $ @).
	if st.valid == 0 && st.invalid == 0 {
		if bytes.Contains(data, []byte("\x1b$B")) || bytes.Contains(data, []byte("\x1b$@")) {
			return choice{enc: japanese.ISO2022JP, name: "iso-2022-jp", source: SourceGuess, declared: declared, unsupported: c.unsupported}
		}
		return choice{name: "utf-8", source: SourceASCII, declared: declared, unsupported: c.unsupported}
	}
	// 5. Statistical detector.
	if enc, name, ok := guess(data, st); ok {
		return choice{enc: enc, name: name, source: SourceGuess, declared: declared, unsupported: c.unsupported}
	}
	// 6. Default.
	enc, name, _ := lookup(DefaultCharset)
	return choice{enc: enc, name: name, source: SourceDefault, declared: declared, unsupported: c.unsupported}
}

// u8stats counts UTF-8 multi-byte sequences in a byte string.
type u8stats struct {
	valid   int // valid multi-byte sequences
	invalid int // bytes above 0x7F not part of a valid sequence
}

// mostlyUTF8 reports whether the bytes look like UTF-8 with some stray
// bytes (a page patched together from UTF-8 and legacy parts). Legacy
// 8-bit text almost never forms valid multi-byte sequences by chance, so
// as many valid sequences as stray bytes is strong evidence.
func (s u8stats) mostlyUTF8() bool {
	return s.valid >= s.invalid && s.valid > 0 || s.valid+s.invalid == 0
}

// clearlyUTF8 reports bytes that are UTF-8 but for a few stray bytes:
// at least 3 valid multi-byte sequences, and twice as many as stray
// bytes. Text in a single-byte legacy charset almost never holds valid
// sequences (an upper-case accented letter followed by a C1 control or
// a sign such as © or ±).
func (s u8stats) clearlyUTF8() bool {
	return s.valid >= 3 && s.valid >= 2*s.invalid
}

// isHZ reports a label of HZ (RFC 1843), which lookup maps to the
// replacement encoding.
func isHZ(label string) bool {
	return strings.EqualFold(cleanLabel(label), "hz-gb-2312")
}

// cleanLabel is a charset label without the spaces and quotes around it.
func cleanLabel(label string) string {
	return strings.Trim(strings.TrimSpace(label), `"' `)
}

// singleByte reports a charset of one byte per character (the
// windows-125x, ISO 8859 and KOI8 families and their kin), as lookup
// names them.
func singleByte(name string) bool {
	for _, p := range []string{"windows-", "iso-8859-", "koi8-", "ibm866", "macintosh", "x-mac-"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func utf8Stats(data []byte) u8stats {
	var s u8stats
	for i := 0; i < len(data); {
		// Skip ASCII eight bytes at a time.
		for i+8 <= len(data) && binary.LittleEndian.Uint64(data[i:])&0x8080808080808080 == 0 {
			i += 8
		}
		if i >= len(data) {
			break
		}
		b := data[i]
		if b < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			// An incomplete sequence cut off at the very end is truncation,
			// not evidence against UTF-8.
			if len(data)-i < 4 && !utf8.FullRune(data[i:]) {
				break
			}
			s.invalid++
			i++
			continue
		}
		s.valid++
		i += size
	}
	return s
}

// sniffUTF16 recognises BOM-less UTF-16 text by its NUL bytes: the ASCII
// markup of a page puts a zero in every other byte, at one parity mostly
// (text in other scripts has few zero bytes: U+4E00 and U+3000 are among
// the rare units with a zero low byte). The bytes must then read as
// text: '<' among the units, and hardly any control characters or
// unpaired surrogates, which a binary file with zeros at one parity
// would give.
func sniffUTF16(data []byte) (choice, bool) {
	n := len(data)
	if n > 4096 {
		n = 4096
	}
	n &^= 1
	if n < 8 {
		return choice{}, false
	}
	var even, odd int // zero bytes at even and odd offsets
	for i := 0; i < n; i += 2 {
		if data[i] == 0 {
			even++
		}
		if data[i+1] == 0 {
			odd++
		}
	}
	half := n / 2
	var big bool
	switch {
	// A fifth of the units with a zero byte at one parity and at most
	// a tenth at the other; or, for a page of Chinese text with little
	// markup and so few ASCII units, a tenth at one parity and four
	// times fewer at the other.
	case odd*5 >= half && even*10 <= half, odd*10 >= half && even*4 <= odd:
	case even*5 >= half && odd*10 <= half, even*10 >= half && odd*4 <= even:
		big = true
	default:
		return choice{}, false
	}
	if !plausibleUTF16(data[:n], big) {
		return choice{}, false
	}
	if big {
		return choice{enc: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), name: "utf-16be", source: SourceGuess}, true
	}
	return choice{enc: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), name: "utf-16le", source: SourceGuess}, true
}

// plausibleUTF16 reports whether the units of b (an even length) read as
// markup: at least one '<', and under 1% control characters (tab, line
// ends and form feed aside), non-characters and unpaired surrogates.
func plausibleUTF16(b []byte, big bool) bool {
	lt, bad := 0, 0
	units := len(b) / 2
	prevHigh := false
	for i := 0; i < len(b); i += 2 {
		u := uint16(b[i]) | uint16(b[i+1])<<8
		if big {
			u = uint16(b[i])<<8 | uint16(b[i+1])
		}
		high := u >= 0xD800 && u <= 0xDBFF
		low := u >= 0xDC00 && u <= 0xDFFF
		switch {
		case u == '<':
			lt++
		case u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f', u == 0xFFFE, u == 0xFFFF,
			low && !prevHigh, prevHigh && !low:
			bad++
		}
		prevHigh = high
	}
	return lt > 0 && bad*100 < units
}

// headerCharset returns the charset parameter of an HTTP Content-Type.
// A value that mime.ParseMediaType refuses (text/html;; charset=x, an
// unknown parameter with no value after it) is read as the HTML standard
// extracts a charset, leniently, as browsers do.
func headerCharset(contentType string) string {
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	return charsetFromContent(contentType)
}

// prescanBytes is how far a browser's prescan looks for a <meta> charset
// whatever comes before it (the HTML standard's 1024 bytes).
const prescanBytes = 1024

// maxMetaScan bounds the bytes searched for a charset declaration when the
// head never ends.
const maxMetaScan = 1 << 20

// metaCharset returns the charset named by the first <meta charset>,
// <meta http-equiv=content-type content=...> or XML declaration found in the
// head of the page. It scans the whole head, tokenising (so script and
// comment content is skipped), and stops at the first sign of the body
// after the first prescanBytes bytes: within them a declaration counts
// wherever it stands, after a <div> or a </head> too, as browsers read it.
func metaCharset(data []byte) string {
	if len(data) > maxMetaScan {
		data = data[:maxMetaScan]
	}
	xml := ""
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("<?xml")) {
		end := bytes.Index(data, []byte("?>"))
		if end > 0 {
			xml = attrInPI(string(data[:end]), "encoding")
		}
	}
	z := html.NewTokenizer(bytes.NewReader(data))
	pos := 0 // bytes read before the token
	for {
		tt := z.Next()
		inPrescan := pos < prescanBytes
		pos += len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return xml
		case html.EndTagToken:
			name, _ := z.TagName()
			if string(name) == "head" && !inPrescan {
				return xml
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "meta":
				var charset, content, equiv string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "charset":
						charset = string(v)
					case "content":
						content = string(v)
					case "http-equiv":
						equiv = strings.ToLower(string(v))
					}
				}
				if charset != "" {
					return charset
				}
				if equiv == "content-type" && content != "" {
					if cs := charsetFromContent(content); cs != "" {
						return cs
					}
				}
			case "body", "frameset", "div", "p", "table", "h1", "h2", "h3", "h4",
				"h5", "h6", "ul", "ol", "dl", "form", "center", "pre", "blockquote", "hr":
				if !inPrescan {
					return xml
				}
			}
		}
	}
}

// charsetFromContent extracts charset=X from a Content-Type value, leniently
// (the HTML standard's algorithm for extracting a character encoding).
func charsetFromContent(s string) string {
	i := indexFold(s, "charset")
	if i < 0 {
		return ""
	}
	s = strings.TrimLeft(s[i+len("charset"):], " \t\r\n")
	if !strings.HasPrefix(s, "=") {
		return ""
	}
	s = strings.TrimLeft(s[1:], " \t\r\n")
	if s == "" {
		return ""
	}
	if q := s[0]; q == '"' || q == '\'' {
		if j := strings.IndexByte(s[1:], q); j >= 0 {
			return s[1 : 1+j]
		}
		return ""
	}
	if j := strings.IndexAny(s, "; \t\r\n"); j >= 0 {
		s = s[:j]
	}
	return s
}

// indexFold is strings.Index for an ASCII lower-case sub, ignoring ASCII
// case in s (strings.ToLower would change the length of invalid UTF-8).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && (s[i+j] == sub[j] || s[i+j]|0x20 == sub[j] && sub[j] >= 'a' && sub[j] <= 'z') {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// attrInPI finds key="value" in a processing instruction such as <?xml ...?>.
func attrInPI(pi, key string) string {
	i := strings.Index(pi, key)
	if i < 0 {
		return ""
	}
	s := strings.TrimLeft(pi[i+len(key):], " ")
	if !strings.HasPrefix(s, "=") {
		return ""
	}
	s = strings.TrimLeft(s[1:], " ")
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return ""
	}
	if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
		return s[1 : 1+j]
	}
	return ""
}
