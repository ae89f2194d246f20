package load

import (
	"bytes"
	"html"
)

// wrapper is a CleanEval <text id=".." title=".." encoding=".."> element.
type wrapper struct {
	attrs    map[string][]byte // raw attribute values, in the page's bytes
	encoding string
}

// maxWrapperTag bounds the search for the end of the opening tag.
const maxWrapperTag = 64 << 10

// unwrap recognises a CleanEval wrapper at the start of data (after an
// optional UTF-8 byte-order mark and white space) and returns it with the
// page inside it. A byte-order mark before the wrapper is kept in front of
// the page. It returns nil and data when there is no wrapper.
func unwrap(data []byte) (*wrapper, []byte) {
	var bom []byte
	rest := data
	if bytes.HasPrefix(rest, []byte{0xEF, 0xBB, 0xBF}) {
		bom, rest = rest[:3], rest[3:]
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) < 6 || !bytes.EqualFold(rest[:5], []byte("<text")) ||
		!(rest[5] == ' ' || rest[5] == '\t' || rest[5] == '\r' || rest[5] == '\n' || rest[5] == '>') {
		return nil, data
	}
	w := &wrapper{attrs: map[string][]byte{}}
	i := 5
	end := -1
	limit := min(len(rest), maxWrapperTag)
	for i < limit {
		c := rest[i]
		switch {
		case c == '>':
			end = i
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/':
			i++
			continue
		default:
			// key="value" or key='value' or key=value
			k := i
			for i < limit && rest[i] != '=' && rest[i] != '>' && rest[i] != ' ' && rest[i] != '\t' && rest[i] != '\n' && rest[i] != '\r' {
				i++
			}
			key := string(bytes.ToLower(rest[k:i]))
			if i >= limit || rest[i] != '=' {
				w.attrs[key] = nil
				continue
			}
			i++
			if i >= limit {
				break
			}
			var val []byte
			if q := rest[i]; q == '"' || q == '\'' {
				j := bytes.IndexByte(rest[i+1:limit], q)
				if j < 0 {
					return nil, data
				}
				val = rest[i+1 : i+1+j]
				i += j + 2
			} else {
				v := i
				for i < limit && rest[i] != '>' && rest[i] != ' ' && rest[i] != '\t' && rest[i] != '\n' && rest[i] != '\r' {
					i++
				}
				val = rest[v:i]
			}
			w.attrs[key] = val
			continue
		}
		break
	}
	if end < 0 {
		return nil, data
	}
	body := rest[end+1:]
	if j := bytes.LastIndex(body, []byte("</text>")); j >= 0 && len(bytes.TrimSpace(body[j+len("</text>"):])) == 0 {
		body = body[:j]
	}
	w.encoding = string(w.attrs["encoding"])
	if bom != nil {
		body = append(append([]byte{}, bom...), body...)
	}
	return w, body
}

// attr returns the attribute key decoded with the page's charset, with
// character references resolved.
func (w *wrapper) attr(key string, c choice) string {
	v, ok := w.attrs[key]
	if !ok {
		return ""
	}
	c.skip = 0
	if c.enc != nil && (c.name == "utf-16le" || c.name == "utf-16be") {
		c.enc = nil // the wrapper itself is never UTF-16 text
	}
	s, err := decode(v, c)
	if err != nil {
		return ""
	}
	return html.UnescapeString(s)
}
