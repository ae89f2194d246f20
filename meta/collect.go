package meta

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// metaKeys maps the lower-cased name or property of a <meta> element to
// its source and field.
var metaKeys = map[string]struct {
	src Source
	f   field
}{
	"og:title":                    {OpenGraph, fTitle},
	"og:site_name":                {OpenGraph, fSite},
	"og:description":              {OpenGraph, fDescription},
	"og:locale":                   {OpenGraph, fLanguage},
	"article:published_time":      {OpenGraph, fDate},
	"og:article:published_time":   {OpenGraph, fDate},
	"article:author":              {OpenGraph, fAuthor},
	"og:article:author":           {OpenGraph, fAuthor},
	"twitter:title":               {Twitter, fTitle},
	"twitter:description":         {Twitter, fDescription},
	"dc.title":                    {DublinCore, fTitle},
	"dcterms.title":               {DublinCore, fTitle},
	"dc.creator":                  {DublinCore, fAuthor},
	"dcterms.creator":             {DublinCore, fAuthor},
	"dc.date":                     {DublinCore, fDate},
	"dc.date.issued":              {DublinCore, fDate},
	"dc.date.created":             {DublinCore, fDate},
	"dcterms.date":                {DublinCore, fDate},
	"dcterms.issued":              {DublinCore, fDate},
	"dcterms.created":             {DublinCore, fDate},
	"dc.publisher":                {DublinCore, fSite},
	"dcterms.publisher":           {DublinCore, fSite},
	"dc.description":              {DublinCore, fDescription},
	"dcterms.description":         {DublinCore, fDescription},
	"dcterms.abstract":            {DublinCore, fDescription},
	"dc.language":                 {DublinCore, fLanguage},
	"dcterms.language":            {DublinCore, fLanguage},
	"title":                       {MetaName, fTitle},
	"headline":                    {MetaName, fTitle},
	"parsely-title":               {MetaName, fTitle},
	"sailthru.title":              {MetaName, fTitle},
	"author":                      {MetaName, fAuthor},
	"byl":                         {MetaName, fAuthor},
	"sailthru.author":             {MetaName, fAuthor},
	"parsely-author":              {MetaName, fAuthor},
	"article.author":              {MetaName, fAuthor},
	"date":                        {MetaName, fDate},
	"pubdate":                     {MetaName, fDate},
	"pdate":                       {MetaName, fDate},
	"publishdate":                 {MetaName, fDate},
	"publish-date":                {MetaName, fDate},
	"publish_date":                {MetaName, fDate},
	"published":                   {MetaName, fDate},
	"datepublished":               {MetaName, fDate},
	"publication_date":            {MetaName, fDate},
	"publication-date":            {MetaName, fDate},
	"original-publish-date":       {MetaName, fDate},
	"article.published":           {MetaName, fDate},
	"article_date_original":       {MetaName, fDate},
	"sailthru.date":               {MetaName, fDate},
	"parsely-pub-date":            {MetaName, fDate},
	"application-name":            {MetaName, fSite},
	"publisher":                   {MetaName, fSite},
	"description":                 {MetaName, fDescription},
	"http-equiv:content-language": {MetaName, fLanguage},
}

// itemprops maps microdata property names to fields.
var itemprops = map[string]field{
	"headline":      fTitle,
	"author":        fAuthor,
	"creator":       fAuthor,
	"datepublished": fDate,
	"publisher":     fSite,
}

// maxTimes bounds the <time> elements read.
const maxTimes = 100

// walker collects candidates in one walk over the document.
type walker struct {
	c     candidates
	ld    ldState
	title bool // a <title> was read
	// The <time> elements' dates: with pubdate, inside <article>, others.
	pubdate, inArticle, other []string
}

// collect adds the candidates of every source in doc to c.
func collect(doc *html.Node, c candidates) {
	w := &walker{c: c}
	w.walk(doc, false)
	for _, v := range w.pubdate {
		c.add(fDate, TimeElement, v)
	}
	for _, v := range w.inArticle {
		c.add(fDate, TimeElement, v)
	}
	for _, v := range w.other {
		c.add(fDate, TimeElement, v)
	}
	w.ld.addTo(c)
}

func (w *walker) walk(n *html.Node, inArticle bool) {
	for ; n != nil; n = n.NextSibling {
		if n.Type == html.DocumentNode {
			w.walk(n.FirstChild, inArticle)
			continue
		}
		if n.Type != html.ElementNode || n.Namespace != "" {
			continue
		}
		if p := dom.Attr(n, "itemprop"); p != "" {
			w.itemprop(n, p)
		}
		switch n.DataAtom {
		case atom.Html:
			w.c.add(fLanguage, HTMLLang, dom.Attr(n, "lang"))
		case atom.Title:
			if !w.title {
				w.title = true
				w.c.add(fTitle, TitleElement, titleText(textOf(n)))
			}
		case atom.Meta:
			w.meta(n)
		case atom.Script:
			if isLDJSON(dom.Attr(n, "type")) {
				w.ld.parse(scriptText(n))
			}
			continue
		case atom.Style, atom.Template, atom.Noscript:
			continue
		case atom.Time:
			w.time(n, inArticle)
		case atom.A:
			if hasToken(dom.Attr(n, "rel"), "author") {
				w.c.add(fAuthor, RelAuthor, textOf(n))
			}
		}
		w.walk(n.FirstChild, inArticle || n.DataAtom == atom.Article)
	}
}

// meta reads a <meta> element by its name, property and http-equiv.
func (w *walker) meta(n *html.Node) {
	content := dom.Attr(n, "content")
	if content == "" {
		return
	}
	seen := ""
	for _, k := range []string{dom.Attr(n, "property"), dom.Attr(n, "name"), "http-equiv:" + dom.Attr(n, "http-equiv")} {
		k = strings.ToLower(strings.TrimSpace(k))
		if k == seen {
			continue
		}
		seen = k
		if e, ok := metaKeys[k]; ok {
			w.c.addAs(e.f, e.src, k, content)
		}
	}
}

// time reads a <time> element's date: its datetime attribute, else its
// text.
func (w *walker) time(n *html.Node, inArticle bool) {
	v := dom.Attr(n, "datetime")
	_, pub := dom.LookupAttr(n, "pubdate")
	if v == "" && pub {
		v = textOf(n)
	}
	switch {
	case v == "" || len(w.pubdate)+len(w.inArticle)+len(w.other) >= maxTimes:
	case pub:
		w.pubdate = append(w.pubdate, v)
	case inArticle:
		w.inArticle = append(w.inArticle, v)
	default:
		w.other = append(w.other, v)
	}
}

// itemprop reads a microdata property of n (names separated by spaces).
func (w *walker) itemprop(n *html.Node, props string) {
	for _, p := range strings.Fields(props) {
		f, ok := itemprops[strings.ToLower(p)]
		if !ok {
			continue
		}
		var v string
		if _, scope := dom.LookupAttr(n, "itemscope"); scope && (f == fAuthor || f == fSite) {
			if name := findItemprop(n, "name"); name != nil {
				v = itemValue(name)
			} else if f == fSite {
				continue // an Organization without a name
			} else {
				v = textOf(n)
			}
		} else {
			v = itemValue(n)
		}
		w.c.add(f, Microdata, v)
	}
}

// findItemprop returns the first element below n with the property
// prop, not inside a nested item.
func findItemprop(n *html.Node, prop string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if hasToken(dom.Attr(c, "itemprop"), prop) {
			return c
		}
		if _, scope := dom.LookupAttr(c, "itemscope"); scope {
			continue
		}
		if f := findItemprop(c, prop); f != nil {
			return f
		}
	}
	return nil
}

// itemValue is a microdata property's value: content for <meta>,
// datetime for <time>, value for <data>, else the text.
func itemValue(n *html.Node) string {
	if v, ok := dom.LookupAttr(n, "content"); ok {
		return v
	}
	switch n.DataAtom {
	case atom.Time:
		if v := dom.Attr(n, "datetime"); v != "" {
			return v
		}
	case atom.Data, atom.Meter:
		return dom.Attr(n, "value")
	}
	return textOf(n)
}

// textOf returns the text below n (not of scripts or styles), up to
// 4*MaxValue bytes.
func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		for c := n.FirstChild; c != nil && b.Len() < 4*MaxValue; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode:
				if c.DataAtom == atom.Script || c.DataAtom == atom.Style {
					continue
				}
				b.WriteByte(' ')
				rec(c)
				b.WriteByte(' ')
			}
		}
	}
	rec(n)
	return b.String()
}

// titleText returns the text of a <title>; one that holds markup swallowed
// the page after it (its end tag is missing), and only its first line is
// kept.
func titleText(s string) string {
	if strings.Contains(s, "</") {
		s = strings.TrimSpace(s)
		if i := strings.IndexAny(s, "\r\n<"); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// scriptText returns the text of a script element, or "" when it is
// longer than MaxJSONLD bytes.
func scriptText(n *html.Node) string {
	size := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			size += len(c.Data)
		}
	}
	if size > MaxJSONLD {
		return ""
	}
	var b strings.Builder
	b.Grow(size)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// hasToken reports whether the space-separated list s holds tok (ASCII
// case ignored).
func hasToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// isLDJSON reports whether a script type is JSON-LD.
func isLDJSON(typ string) bool {
	typ, _, _ = strings.Cut(typ, ";")
	return strings.EqualFold(strings.TrimSpace(typ), "application/ld+json")
}
