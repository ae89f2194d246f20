package preclean

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/internal/mojibake"
)

// Stats counts what Clean did to one document.
type Stats struct {
	Elements   int // elements removed (their subtrees included once)
	Comments   int // comment nodes removed
	Hidden     int // elements removed because hidden by attribute, style or style sheet
	Sheet      int // of those, elements hidden by the page's style sheets or moved out of sight (sheetHidden)
	Consent    int // elements removed as cookie or consent notices (consentNotice)
	HeadNodes  int // children of <head> removed
	Paragraphs int // paragraphs made from runs of <br>
	Kept       int // runs of <br> left alone (see splitBreaks)
	Fallbacks  int // <object> and <applet> elements kept for their fallback content (pluginObject)

	keepHidden bool
	keepStyles bool
	sheet      map[*html.Node]bool // elements the page's style sheets hide (sheetHidden)
	styles     []*html.Node        // <style> elements kept for the head
	title      *html.Node          // the first <title> outside <head>, for a head without one
	objects    []*html.Node        // plugin objects kept, in document order (emptyObjects)
}

// dropped are the elements removed with their content: nothing a reader
// sees as text (scripts, styles, embedded content, media fallbacks, form
// controls whose text is a label or a choice list, not prose, the readings
// that ruby annotations set above a word and their parentheses).
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Frame: true, atom.Frameset: true, atom.Noframes: true,
	atom.Embed: true, atom.Param: true,
	atom.Svg: true, atom.Canvas: true, atom.Audio: true, atom.Video: true,
	atom.Source: true, atom.Track: true, atom.Noembed: true,
	atom.Select: true, atom.Option: true, atom.Optgroup: true, atom.Datalist: true,
	atom.Input: true, atom.Textarea: true, atom.Button: true, atom.Keygen: true,
	atom.Link: true, atom.Meta: true, atom.Base: true,
	atom.Rt: true, atom.Rp: true,
}

// Options change what Clean removes.
type Options struct {
	// KeepHidden keeps elements hidden by the hidden attribute, an
	// inline style or the page's style sheets (some pages hide text that
	// a script reveals).
	KeepHidden bool
	// KeepStyles keeps the page's <style> sheets, moved into <head> where
	// they are no text block's text, so that a browser rendering the
	// precleaned document (package render) shows the page's own layout.
	KeepStyles bool
	// KeepFallbacks keeps what <noscript> and <noframes> hold, as a
	// browser with scripts off or without frames shows it: for a page
	// that has no text without it (package pipeline asks for it then).
	KeepFallbacks bool
}

// Clean removes from doc, in place, what a reader does not see, and turns
// runs of <br> into paragraphs; see the package documentation.
func Clean(doc *html.Node) error {
	_, err := CleanWith(doc, Options{})
	return err
}

// CleanStats is Clean that also reports what it did.
func CleanStats(doc *html.Node) (Stats, error) {
	return CleanWith(doc, Options{})
}

// CleanWith is Clean with options; it reports what it did.
func CleanWith(doc *html.Node, opt Options) (st Stats, err error) {
	if doc == nil {
		return st, nil
	}
	defer func() {
		// The x/net/html tree methods panic on inconsistent trees; report
		// that as an error rather than crash a batch.
		if r := recover(); r != nil {
			err = fmt.Errorf("preclean: %v", r)
		}
	}()
	st.keepHidden = opt.KeepHidden
	st.keepStyles = opt.KeepStyles
	if opt.KeepFallbacks {
		openFallbacks(doc)
	}
	var rules []rule
	if !opt.KeepHidden {
		// Read before the shadow roots open, so that a shadow tree's own
		// sheet, which applies to it alone, is left out with its template.
		rules = pageRules(doc)
	}
	OpenShadowRoots(doc)
	if !opt.KeepHidden {
		st.sheet = sheetHidden(doc, rules)
	}
	st.remove(doc)
	st.sheet = nil
	st.emptyObjects()
	blockCustomElements(doc)
	spaceBoxes(doc)
	ensureBody(doc)
	st.cleanHead(doc)
	st.splitBreaks(doc)
	return st, nil
}

// remove drops comments, dropped elements and hidden elements below n.
// It walks iteratively so that no depth of tree can exhaust the stack.
func (st *Stats) remove(root *html.Node) {
	n := root.FirstChild
	for n != nil {
		next := n
		if st.drop(n) {
			next = nil
			// Continue with the next node in document order after n.
			for m := n; m != root && next == nil; m = m.Parent {
				next = m.NextSibling
				if m.Parent == root {
					break
				}
			}
			n.Parent.RemoveChild(n)
			n = next
			continue
		}
		if n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
		}
		if n == root {
			break
		}
		n = n.NextSibling
	}
}

// pluginObject reports whether n is an <object> or <applet> that a
// browser shows its fallback content for, its children (but <param> and
// <embed>, which go): one that needs a plugin (Flash, Java, ActiveX,
// QuickTime, Windows Media), which browsers no longer run, so that a
// Flash video's caption is drawn in its place, or one that embeds
// nothing. One that embeds what a browser displays itself (an image, a
// text or document, a PDF, a video or sound it plays) is no plugin: its
// fallback ("your browser does not support SVG") is not shown and goes
// with it. The type is the type attribute's, else the one the data's
// file name implies; one neither tells is taken for a plugin's (the
// object's resource unreachable, a browser shows the fallback too).
func pluginObject(n *html.Node) bool {
	switch {
	case !isObject(n):
		return false
	case n.DataAtom == atom.Applet:
		return true
	}
	if strings.TrimSpace(dom.Attr(n, "classid")) != "" {
		return true // ActiveX
	}
	typ, _, _ := strings.Cut(strings.ToLower(dom.Attr(n, "type")), ";")
	typ = strings.TrimSpace(typ)
	if typ == "" {
		typ = typeOfName(dom.Attr(n, "data"))
	}
	return !displayedType(typ)
}

// isObject reports whether n is an HTML <object> or <applet>.
func isObject(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && (n.DataAtom == atom.Object || n.DataAtom == atom.Applet)
}

// displayedType reports whether a browser displays a resource of MIME
// type typ itself, without a plugin.
func displayedType(typ string) bool {
	major, minor, _ := strings.Cut(typ, "/")
	switch major {
	case "image", "text":
		return true
	case "video", "audio":
		switch minor {
		case "mp4", "webm", "ogg", "mpeg", "mp3", "wav", "x-wav", "aac", "flac", "opus":
			return true
		}
		return false
	}
	switch typ {
	case "application/pdf", "application/x-pdf", "application/xhtml+xml", "application/xml",
		"application/json", "application/javascript", "application/x-javascript", "application/ecmascript":
		return true
	}
	return false
}

// typeOfName returns the MIME type that the file name ending a URL
// implies for the types displayedType tells apart, or "" where it
// implies none of them.
func typeOfName(url string) string {
	url = strings.ToLower(strings.TrimSpace(url))
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		url = url[:i]
	}
	if i := strings.LastIndexByte(url, '/'); i >= 0 {
		url = url[i+1:]
	}
	i := strings.LastIndexByte(url, '.')
	if i < 0 {
		return ""
	}
	switch url[i+1:] {
	case "gif", "jpg", "jpeg", "png", "webp", "svg", "bmp", "ico", "avif":
		return "image/" + url[i+1:]
	case "html", "htm", "xhtml", "txt", "xml", "shtml", "php", "asp", "aspx", "jsp", "cgi":
		return "text/html"
	case "pdf":
		return "application/pdf"
	case "mp4", "webm", "ogg", "mp3", "wav":
		return "video/" + url[i+1:]
	}
	return ""
}

// fallbackOnly makes a plugin object show its fallback content when a
// browser draws the cleaned document (package render): the attributes
// that name what it embeds go. The element stays, so that the parser
// reads its content as it did (an object is a scope boundary: it may hold
// a <div> inside a <p>).
func fallbackOnly(n *html.Node) {
	attrs := n.Attr[:0]
	for _, a := range n.Attr {
		switch a.Key {
		case "data", "type", "classid", "codebase", "codetype", "archive", "code", "object":
			continue
		}
		attrs = append(attrs, a)
	}
	n.Attr = attrs
}

// drop reports whether n must be removed, counting it.
func (st *Stats) drop(n *html.Node) bool {
	switch n.Type {
	case html.CommentNode:
		st.Comments++
		return true
	case html.ElementNode:
	case html.TextNode:
		n.Data = stripInvisible(mojibake.Repair(n.Data))
		return false
	default:
		return false
	}
	if st.keepStyles && n.Namespace == "" && n.DataAtom == atom.Style {
		st.styles = append(st.styles, n)
		return true
	}
	if n.Namespace == "" && n.DataAtom == atom.Title && (n.Parent == nil || n.Parent.DataAtom != atom.Head) {
		// A <title> after markup that closed the head early: the parser
		// puts it in the body, where no browser shows it.
		if st.title == nil {
			st.title = n
		}
		st.Elements++
		return true
	}
	if n.Namespace == "" && dropped[n.DataAtom] || n.Namespace == "svg" && n.Parent != nil && n.Parent.Namespace != "svg" {
		st.Elements++
		return true
	}
	if isObject(n) && !pluginObject(n) {
		st.Elements++
		return true
	}
	if consentNotice(n) {
		st.Elements++
		st.Consent++
		return true
	}
	if !st.keepHidden && (hidden(n) || st.sheet[n]) {
		if !hidden(n) {
			st.Sheet++
		}
		if n.Namespace == "" && (n.DataAtom == atom.Html || n.DataAtom == atom.Head || n.DataAtom == atom.Body) {
			// Keep the document's skeleton; drop what it shows.
			target := n
			if n.DataAtom == atom.Html {
				target = find(n, atom.Body, 1)
			}
			for target != nil && target.FirstChild != nil {
				target.RemoveChild(target.FirstChild)
			}
			st.Hidden++
			return false
		}
		st.Elements++
		st.Hidden++
		return true
	}
	if isObject(n) {
		fallbackOnly(n)
		st.objects = append(st.objects, n)
	}
	return false
}

// emptyObjects removes the plugin objects that hold no content once
// cleaned (a video player's <param> and <embed> gone): a browser would
// draw the box of a plugin it does not run, empty, where the page showed
// the video. Those holding content are counted in Stats.Fallbacks.
func (st *Stats) emptyObjects() {
	for i := len(st.objects) - 1; i >= 0; i-- { // inner ones first
		n := st.objects[i]
		if n.Parent == nil {
			continue
		}
		if hasContent(n) {
			st.Fallbacks++
			continue
		}
		n.Parent.RemoveChild(n)
		st.Elements++
	}
	st.objects = nil
}

// hidden reports an element hidden by its attributes: the hidden attribute,
// an inline style with display:none or visibility:hidden/collapse, or a
// <dialog> that is not open. aria-hidden is not hiding: it hides from
// screen readers what sighted readers do see.
func hidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "style":
			if hiddenStyle(a.Val) {
				return true
			}
		}
	}
	return n.DataAtom == atom.Dialog && !hasAttr(n, "open")
}

// hiddenStyle reports whether an inline style declares display:none or
// visibility:hidden (or collapse).
func hiddenStyle(style string) bool {
	if !strings.Contains(style, ":") {
		return false
	}
	s := strings.ToLower(style)
	for _, decl := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		if k == "display" && v == "none" || k == "visibility" && (v == "hidden" || v == "collapse") {
			return true
		}
	}
	return false
}

// cleanHead keeps only <title> in <head> (where it has none, the first
// <title> the parser put in the body moves there) and puts a <meta charset="utf-8">
// first, so that a browser given the rendered document reads it as the
// UTF-8 it is.
func (st *Stats) cleanHead(doc *html.Node) {
	head := find(doc, atom.Head, 2)
	if head == nil {
		return
	}
	hasTitle := false
	for c := head.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && c.DataAtom == atom.Title {
			hasTitle = true
		} else {
			head.RemoveChild(c)
			st.HeadNodes++
		}
		c = next
	}
	if !hasTitle && st.title != nil && st.title.Parent == nil {
		head.AppendChild(st.title)
	}
	meta := &html.Node{Type: html.ElementNode, Data: "meta", DataAtom: atom.Meta,
		Attr: []html.Attribute{{Key: "charset", Val: "utf-8"}}}
	head.InsertBefore(meta, head.FirstChild)
	for _, s := range st.styles {
		if s.Parent != nil {
			s.Parent.RemoveChild(s)
		}
		head.AppendChild(s)
	}
}

// ensureBody gives <html> an empty <body> if removing frameset or a hidden
// body left it without one, as a parser would.
func ensureBody(doc *html.Node) {
	h := find(doc, atom.Html, 1)
	if h == nil || find(h, atom.Body, 1) != nil {
		return
	}
	h.AppendChild(&html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
}

// find returns the first element with atom a at most depth levels below n.
func find(n *html.Node, a atom.Atom, depth int) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	if depth == 0 {
		return nil
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a, depth-1); f != nil {
			return f
		}
	}
	return nil
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
