package meta

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/internal/mojibake"
	"github.com/fiasco-project/fiasco/load"
)

// Meta is what a page says about itself. Every field is white space
// collapsed and "" when the page does not say it.
type Meta struct {
	// Title is the page's title: an article's headline where the page
	// names one, with a " | Site" suffix (or "Site | " prefix) dropped when
	// it names the site (Site, or the URL's host).
	Title string `json:"title"`
	// Author is the author's name, several joined by ", " (at most
	// MaxAuthors).
	Author string `json:"author,omitempty"`
	// Date is the publication date as ParseDate normalises it: RFC 3339
	// when the page gives a time and a zone, else YYYY-MM-DD; "" when the
	// page gives no date that ParseDate reads.
	Date string `json:"date,omitempty"`
	// DateRaw is the publication date as the page gives it: the string
	// Date was read from, else the first date found, unread.
	DateRaw string `json:"date_raw,omitempty"`
	// Site is the name of the site or publication.
	Site string `json:"site,omitempty"`
	// Description is the page's summary of itself.
	Description string `json:"description,omitempty"`
	// Language is the language the page declares (a tag such as "en",
	// "en-GB" or "en_US", as given).
	Language string `json:"language,omitempty"`
	// From names the source of each field that is set.
	From Sources `json:"from,omitzero"`
}

// Sources names, per field of Meta, the source it was taken from.
type Sources struct {
	Title       Source `json:"title,omitempty"`
	Author      Source `json:"author,omitempty"`
	Date        Source `json:"date,omitempty"`
	Site        Source `json:"site,omitempty"`
	Description Source `json:"description,omitempty"`
	Language    Source `json:"language,omitempty"`
}

// Source is where a field of Meta came from.
type Source string

// The sources, in the order Extract prefers them (see the package
// documentation for which field each one gives).
const (
	JSONLD       Source = "json-ld"    // <script type="application/ld+json">
	HTMLLang     Source = "html-lang"  // <html lang>
	OpenGraph    Source = "og"         // <meta property="og:..."> and article:*
	Twitter      Source = "twitter"    // <meta name="twitter:...">
	DublinCore   Source = "dc"         // <meta name="DC.*"> and dcterms.*
	MetaName     Source = "meta"       // other <meta name> (author, date, ...)
	Microdata    Source = "itemprop"   // itemprop=headline, author, datePublished
	TimeElement  Source = "time"       // <time pubdate>, <time datetime>
	RelAuthor    Source = "rel-author" // <a rel="author">Name</a>
	TitleElement Source = "title"      // <title>
	Wrapper      Source = "wrapper"    // CleanEval's <text title=..> (FromPage)
)

// Limits on what Extract reads; beyond them it reads no further (a page
// is never an error).
const (
	MaxJSONLD      = 1 << 20 // bytes of one JSON-LD script; a longer one is skipped
	MaxJSONLDTotal = 4 << 20 // bytes of JSON-LD read per page
	MaxJSONLDNodes = 10000   // JSON objects and arrays visited per page
	MaxValue       = 2000    // bytes of one value (cut at a rune boundary)
	MaxAuthors     = 10      // names joined in Author
)

// field indexes the candidates of one Meta field.
type field int

const (
	fTitle field = iota
	fAuthor
	fDate
	fSite
	fDescription
	fLanguage
	nFields
)

// order is, per field, the sources in the order they are preferred.
var order = [nFields][]Source{
	fTitle:       {JSONLD, OpenGraph, Twitter, DublinCore, MetaName, Microdata, TitleElement},
	fAuthor:      {JSONLD, OpenGraph, DublinCore, MetaName, Microdata, RelAuthor},
	fDate:        {JSONLD, OpenGraph, DublinCore, MetaName, Microdata, TimeElement},
	fSite:        {JSONLD, OpenGraph, DublinCore, MetaName, Microdata},
	fDescription: {JSONLD, OpenGraph, Twitter, DublinCore, MetaName},
	fLanguage:    {HTMLLang, MetaName, DublinCore, OpenGraph, JSONLD},
}

// candidates holds the values found, per field and source: the first one
// in document order, but up to MaxAuthors distinct ones for dates (the
// first that ParseDate reads wins) and for authors from the head's
// metadata under the key of the first (Author joins them: several
// <meta name=author>, but not author and byl; in the body, itemprop=author
// and rel=author also mark the authors of comments).
type candidates map[Source]*found

// found is what one source gave.
type found struct {
	vals      [nFields][]string
	authorKey string // the meta name or property of the first author
}

func (c candidates) add(f field, s Source, v string) { c.addAs(f, s, "", v) }

// addAs adds value v of field f from source s, given under key (a meta
// name or property, or "").
func (c candidates) addAs(f field, s Source, key, v string) {
	v = clean(v)
	if v == "" {
		return
	}
	if f == fAuthor {
		v = authorName(v)
		if v == "" {
			return
		}
	}
	fd := c[s]
	if fd == nil {
		fd = new(found)
		c[s] = fd
	}
	vals := fd.vals[f]
	switch {
	case len(vals) == 0:
		if f == fAuthor {
			fd.authorKey = key
		}
	case len(vals) >= MaxAuthors:
		return
	case f == fDate:
	case f == fAuthor && s != Microdata && s != RelAuthor && key == fd.authorKey:
	default:
		return
	}
	for _, old := range vals {
		if strings.EqualFold(old, v) {
			return
		}
	}
	fd.vals[f] = append(vals, v)
}

func (c candidates) get(f field, s Source) []string {
	if fd := c[s]; fd != nil {
		return fd.vals[f]
	}
	return nil
}

// Extract reads the metadata of the parsed page doc (as package load
// parses it, before preclean drops its scripts and meta elements).
// pageURL, when known, names the page's host for the title's site suffix;
// it may be "". Extract never fails: what it cannot read it skips. It does
// not change doc.
func Extract(doc *html.Node, pageURL string) Meta {
	var m Meta
	if doc == nil {
		return m
	}
	c := candidates{}
	collect(doc, c)
	pick := func(f field) (string, Source) {
		for _, s := range order[f] {
			if v := c.get(f, s); len(v) > 0 {
				return strings.Join(v, ", "), s
			}
		}
		return "", ""
	}
	m.Author, m.From.Author = pick(fAuthor)
	m.Site, m.From.Site = pick(fSite)
	m.Description, m.From.Description = pick(fDescription)
	m.Language, m.From.Language = pick(fLanguage)
	m.Date, m.DateRaw, m.From.Date = pickDate(c)
	// The first title in order, its site suffix dropped; with no site
	// named, a suffix that names the URL's host becomes the site.
	host := hostOf(pageURL)
	for _, s := range order[fTitle] {
		v := c.get(fTitle, s)
		if len(v) == 0 {
			continue
		}
		title, site := splitSite(v[0], m.Site, host)
		m.Title, m.From.Title = title, s
		if m.Site == "" && site != "" {
			m.Site, m.From.Site = site, s
		}
		break
	}
	return m
}

// FromPage is Extract on a loaded page: pageURL "" means p.URL, and
// a page without a title takes the CleanEval wrapper's (p.Title).
func FromPage(p *load.Page, pageURL string) Meta {
	if p == nil {
		return Meta{}
	}
	if pageURL == "" {
		pageURL = p.URL
	}
	m := Extract(p.Doc, pageURL)
	if m.Title == "" {
		if t := clean(p.Title); t != "" {
			m.Title, m.From.Title = t, Wrapper
		}
	}
	return m
}

// pickDate returns the first date in order that ParseDate reads, with the
// page's string and its source; if none reads, "" with the first date as
// given and its source.
func pickDate(c candidates) (date, raw string, src Source) {
	for _, s := range order[fDate] {
		for _, v := range c.get(fDate, s) {
			if d, ok := ParseDate(v); ok {
				return d, v, s
			}
		}
	}
	for _, s := range order[fDate] {
		if v := c.get(fDate, s); len(v) > 0 {
			return "", v[0], s
		}
	}
	return "", "", ""
}

// titleSeps are the separators between a title and a site name.
var titleSeps = []string{" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " « ", " : "}

// splitSite drops a suffix " | X" or a prefix "X | " from title when X
// names the site or the host (the whole host or its first label); it
// returns the title and the X it dropped.
func splitSite(title, site, host string) (string, string) {
	names := func(x string) bool {
		k := key(x)
		if k == "" {
			return false
		}
		if site != "" && k == key(site) {
			return true
		}
		return host != "" && (k == key(host) || k == key(strings.SplitN(host, ".", 2)[0]))
	}
	for _, sep := range titleSeps {
		if i := strings.LastIndex(title, sep); i > 0 {
			if rest := strings.TrimSpace(title[:i]); rest != "" && names(title[i+len(sep):]) {
				return rest, title[i+len(sep):]
			}
		}
		if i := strings.Index(title, sep); i > 0 {
			if rest := strings.TrimSpace(title[i+len(sep):]); rest != "" && names(title[:i]) {
				return rest, title[:i]
			}
		}
	}
	return title, ""
}

// key folds a name for comparison: letters and digits only, lower case.
func key(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// hostOf returns the host of an absolute URL without "www.", or "".
func hostOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// clean collapses white space and cuts s to MaxValue bytes.
func clean(s string) string {
	if len(s) > 4*MaxValue {
		s = s[:4*MaxValue]
	}
	// Mojibake is undone, and characters that show nothing (a soft
	// hyphen, a zero-width space) go, as package preclean does to the
	// text: a title matches its heading.
	s = strings.Join(strings.Fields(strings.Map(dropInvisible, mojibake.Repair(s))), " ")
	if len(s) > MaxValue {
		i := MaxValue
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = strings.TrimSpace(s[:i])
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

func dropInvisible(r rune) rune {
	if dom.Invisible(r) {
		return -1
	}
	return r
}

// authorName returns the name in an author value: "By " (or "Posts by ",
// "View all posts by ") dropped, "" for a URL, a Twitter handle or a
// link text that names no one ("View profile", notAuthors).
func authorName(v string) string {
	lv := strings.ToLower(v)
	for _, p := range []string{"view all posts by ", "posts by ", "by "} {
		if strings.HasPrefix(lv, p) && len(v) > len(p) {
			v, lv = strings.TrimSpace(v[len(p):]), lv[len(p):]
			break
		}
	}
	if strings.Contains(lv, "://") || strings.HasPrefix(lv, "www.") || strings.HasPrefix(v, "@") || strings.HasPrefix(v, "/") ||
		strings.HasPrefix(lv, "view ") || notAuthors[strings.TrimSpace(lv)] {
		return ""
	}
	return v
}

// notAuthors are the (lower-cased) texts of author links that name no one.
var notAuthors = map[string]bool{
	"google": true, "google+": true, "google +": true, "google profile": true, "google+ profile": true,
	"author": true, "about": true, "about me": true, "about us": true, "about the author": true,
	"profile": true, "more": true, "website": true, "homepage": true, "home page": true,
	"admin": true, "administrator": true,
}
