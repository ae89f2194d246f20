package meta

import (
	"encoding/json"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// ldState gathers the JSON-LD objects of a page's scripts.
type ldState struct {
	read  int // bytes of JSON-LD read
	nodes int // objects and arrays visited
	items []ldItem
	ids   map[string]map[string]any // objects by @id, to resolve references
}

// ldItem is a typed JSON-LD object and how much it says about the page.
type ldItem struct {
	obj  map[string]any
	rank int
}

// The ranks of JSON-LD items: articles speak for the page before web
// pages, and a web site gives only its name.
const (
	rankArticle = iota
	rankPage
	rankSite
)

// maxLDDepth bounds the nesting of arrays, @graph and mainEntity followed.
const maxLDDepth = 32

// parse reads the text of one JSON-LD script. Text that is not JSON is
// skipped; a script may hold several JSON values one after the other.
func (st *ldState) parse(text string) {
	text = strings.TrimSpace(text)
	if text == "" || st.read+len(text) > MaxJSONLDTotal {
		return
	}
	st.read += len(text)
	text = unwrap(text)
	vals := decodeAll(text)
	if vals == nil {
		// Raw line breaks and tabs inside strings are the commonest
		// error of hand-made JSON-LD: read them as spaces.
		vals = decodeAll(strings.Map(func(r rune) rune {
			if r < 0x20 {
				return ' '
			}
			return r
		}, text))
	}
	for _, v := range vals {
		st.visit(v, 0)
	}
}

// unwrap drops the HTML comment or CDATA markers around a script's JSON.
func unwrap(s string) string {
	for _, p := range []string{"<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	for _, p := range []string{"-->", "//]]>", "/*]]>*/", "]]>"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, p))
	}
	return strings.TrimSuffix(s, ";")
}

// decodeAll decodes the JSON values of s, one after the other, up to the
// first error; nil if the first one fails.
func decodeAll(s string) []any {
	dec := json.NewDecoder(strings.NewReader(s))
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, v)
	}
}

// visit records the typed objects of v: v itself, the elements of an
// array, the members of @graph and an object's mainEntity.
func (st *ldState) visit(v any, depth int) {
	if depth > maxLDDepth || st.nodes >= MaxJSONLDNodes {
		return
	}
	switch x := v.(type) {
	case []any:
		st.nodes++
		for _, e := range x {
			st.visit(e, depth+1)
		}
	case map[string]any:
		st.nodes++
		if id, ok := x["@id"].(string); ok && len(x) > 1 {
			if st.ids == nil {
				st.ids = map[string]map[string]any{}
			}
			if _, dup := st.ids[id]; !dup {
				st.ids[id] = x
			}
		}
		if r, ok := rankOf(x["@type"]); ok {
			st.items = append(st.items, ldItem{x, r})
		}
		if g, ok := x["@graph"]; ok {
			st.visit(g, depth+1)
		}
		if e, ok := x["mainEntity"]; ok {
			st.visit(e, depth+1)
		}
	}
}

// rankOf returns the rank of an object of the given @type (a string or an
// array of them; "schema:X" and "http://schema.org/X" mean X).
func rankOf(t any) (int, bool) {
	var types []string
	switch x := t.(type) {
	case string:
		types = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				types = append(types, s)
			}
		}
	}
	best, found := rankSite+1, false
	for _, s := range types {
		if i := strings.LastIndexAny(s, "/:#"); i >= 0 {
			s = s[i+1:]
		}
		r := -1
		switch {
		case strings.HasSuffix(s, "Article"), s == "BlogPosting", s == "LiveBlogPosting",
			s == "SocialMediaPosting", s == "DiscussionForumPosting", s == "Report", s == "Review":
			r = rankArticle
		case strings.HasSuffix(s, "Page"):
			r = rankPage
		case s == "WebSite":
			r = rankSite
		}
		if r >= 0 && r < best {
			best, found = r, true
		}
	}
	return best, found
}

// addTo adds the JSON-LD candidates to c: from the articles first, then
// the web pages; the site's name from their publisher, else a WebSite.
func (st *ldState) addTo(c candidates) {
	items := slices.Clone(st.items)
	slices.SortStableFunc(items, func(a, b ldItem) int { return a.rank - b.rank })
	for _, it := range items {
		o := it.obj
		if it.rank <= rankPage {
			c.add(fTitle, JSONLD, ldString(o["headline"]))
			c.add(fTitle, JSONLD, ldString(o["name"]))
			if len(c.get(fAuthor, JSONLD)) == 0 {
				for _, n := range st.names(o["author"], 0) {
					c.add(fAuthor, JSONLD, n)
				}
			}
			c.add(fDate, JSONLD, ldString(o["datePublished"]))
			c.add(fDescription, JSONLD, ldString(o["description"]))
			for _, p := range st.names(o["publisher"], 0) {
				c.add(fSite, JSONLD, p)
			}
		} else {
			c.add(fSite, JSONLD, ldString(o["name"]))
		}
		c.add(fLanguage, JSONLD, ldString(o["inLanguage"]))
	}
	// dateCreated only when no item has datePublished.
	for _, it := range items {
		if it.rank <= rankPage {
			c.add(fDate, JSONLD, ldString(it.obj["dateCreated"]))
		}
	}
}

// names returns the names in an author or publisher value: a string, an
// object with a name (or givenName and familyName), a reference to one
// by @id, or an array of these.
func (st *ldState) names(v any, depth int) []string {
	switch x := v.(type) {
	case string:
		return []string{ldString(x)}
	case []any:
		if depth > 0 {
			return nil
		}
		var out []string
		for _, e := range x {
			out = append(out, st.names(e, depth+1)...)
			if len(out) >= MaxAuthors {
				break
			}
		}
		return out
	case map[string]any:
		if _, ok := x["name"]; !ok {
			if id, ok := x["@id"].(string); ok && st.ids[id] != nil {
				x = st.ids[id]
			}
		}
		name := ldString(x["name"])
		if name == "" {
			name = strings.TrimSpace(ldString(x["givenName"]) + " " + ldString(x["familyName"]))
		}
		if name != "" {
			return []string{name}
		}
	}
	return nil
}

// ldString returns a string value (or the first string of an array) with
// its character references resolved and its tags dropped.
func ldString(v any) string {
	s, ok := v.(string)
	if !ok {
		if a, isArray := v.([]any); isArray && len(a) > 0 {
			s, _ = a[0].(string)
		}
	}
	if s == "" {
		return ""
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = stripTags(s)
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	return s
}

// stripTags drops what looks like HTML tags from s.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<' && i+1 < len(s) && (isLetter(s[i+1]) || s[i+1] == '/'):
			in = true
		case in && c == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
