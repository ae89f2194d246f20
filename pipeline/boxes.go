package pipeline

import (
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxBoxWords is the most words an element named as a box around the
// content (boxName) may hold for its blocks to be never kept: a page
// whose content element is so named (a newsletter's archive page in a
// <div class="newsletter">) keeps it.
const MaxBoxWords = 300

// boxWords, boxPairs and boxTeasers are the class and id words
// (dom.NameWords), and boxValues the whole values, that name a box which
// is never a page's content: a newsletter prompt, a sign-up or login box,
// the comment form (WordPress's "respond"), an author's bio, teasers
// (Outbrain, Taboola, "related-stories") and lists of what is popular,
// and pagination. Under the corpus policy, of the 37,777 words of blocks
// in such boxes on the pages the corpus models learn from (CleanEval dev,
// CleanPortalEval, L3S-GN1, Dragnet's training split), the gold keeps 174,
// 163 of them L3S-GN1's comment forms' fields (RESULTS.md: Boxes named
// for what they hold).
var (
	boxWords = map[string]bool{
		"newsletter": true, "subscribe": true, "signup": true, "login": true,
		"outbrain": true, "taboola": true, "zergnet": true, "pagination": true,
	}
	// boxValues are whole class or id values: WordPress's comment form
	// (a method's "respond_to" is no box).
	boxValues = map[string]bool{"respond": true, "comment-respond": true}
	boxPairs  = map[[2]string]bool{
		{"sign", "up"}: true, {"log", "in"}: true,
		{"author", "bio"}: true, {"about", "author"}: true,
		{"most", "popular"}: true,
		{"comment", "form"}: true, {"comments", "form"}: true,
	}
	// boxTeasers are the things of boxes of teasers: related-articles,
	// recommended-stories. "recommended" alone marks a state (a comment
	// readers recommended), as "subscription" does (an article for
	// subscribers), and is not read.
	boxTeasers = map[string]bool{
		"articles": true, "stories": true, "links": true, "content": true, "posts": true,
	}
)

// NeverKept returns, per block of d, why it may never be kept whatever
// its decision value: "ad label" when its whole text is an
// advertisement's label and it is no heading (adLabel), "box" when it
// lies in a box named for what it holds (boxName, inBox), "stamp" when
// its whole text is a time stamp and it is no heading, header cell or
// element in a heading's role (isStamp, headingLike), "byline" when it is
// a stamp with a poster's byline and no such heading (isByline), "legal"
// when it is a copyright line and no such heading (isLegal), "" for
// the others; nil when no block is any of them. Keep drops these blocks
// before the smoothing, the fallback and the prose floor, which so never
// count them as kept; but for a model of the article policy it leaves a
// stamp or a byline to its value ([Result.NeverKept] holds what
// applied). Prepare finds them once; the slice is the document's, not to
// be changed.
func NeverKept(d *Doc) []string {
	if d == nil {
		return nil
	}
	if d.neverFound {
		return d.never
	}
	return findNeverKept(d)
}

// findNeverKept is NeverKept for a document Prepare did not make.
func findNeverKept(d *Doc) []string {
	var why []string
	seen := map[*html.Node]boxKind{} // elements checked
	for i, b := range d.Blocks {
		r := ""
		switch {
		case !dom.IsHeading(b.Node) && adLabel(b.Text):
			r = "ad label"
		case inBox(b.Node, seen):
			r = "box"
		case !headingLike(b.Node) && isStamp(b.Text):
			r = stampReason
		case !headingLike(b.Node) && isByline(b.Text):
			r = bylineReason
		case !headingLike(b.Node) && isLegal(b.Text):
			r = legalReason
		default:
			continue
		}
		if why == nil {
			why = make([]string, len(d.Blocks))
		}
		why[i] = r
	}
	return why
}

// neverKept reports whether never (NeverKept's answer, nil or not) names
// block i.
func neverKept(never []string, i int) bool {
	return i < len(never) && never[i] != ""
}

// inBox reports whether n or an ancestor below the content elements is a
// box (boxName) of at most MaxBoxWords words, remembering each element's
// answer in seen (each element's class list is read once: a page of
// nested elements with thousands of class names each took minutes when
// every block read every ancestor's). The content elements, which are
// never boxes, nor is anything above them: <html>, <body>, <main>,
// <article>, and a WordPress post's wrapper (postWrapper).
func inBox(n *html.Node, seen map[*html.Node]boxKind) bool {
	for e := n; e != nil && e.Type == html.ElementNode; e = e.Parent {
		kind, ok := seen[e]
		if !ok {
			switch {
			case e.DataAtom == atom.Html, e.DataAtom == atom.Head, e.DataAtom == atom.Body,
				e.DataAtom == atom.Main, e.DataAtom == atom.Article, postWrapper(e):
				kind = boxContent
			case boxName(e) && dom.Words(e, MaxBoxWords+1, nil) <= MaxBoxWords:
				kind = boxSmall
			default:
				kind = boxNone
			}
			seen[e] = kind
		}
		switch kind {
		case boxContent:
			return false
		case boxSmall:
			return true
		}
	}
	return false
}

// boxKind is what inBox found an element to be.
type boxKind uint8

const (
	boxNone    boxKind = iota + 1 // neither: look further up
	boxSmall                      // a box (boxName) of few words
	boxContent                    // a content element or a post's wrapper: no box at or above it
)

// postWrapper reports whether e is the wrapper WordPress's post_class
// writes around a post ("hentry", or "type-product status-publish"): its
// other classes name the post's type and terms (a newsletter post type,
// a shop's product_cat-email-newsletter-templates), not a box.
func postWrapper(e *html.Node) bool {
	typ, status := false, false
	for _, v := range strings.Fields(dom.Attr(e, "class")) {
		switch {
		case v == "hentry":
			return true
		case strings.HasPrefix(v, "type-"):
			typ = true
		case strings.HasPrefix(v, "status-"):
			status = true
		}
	}
	return typ && status
}

// boxName reports whether n's class or id names a box (boxValues,
// boxWords, boxPairs, boxTeasers after "related" or "recommended"). A post's
// taxonomy classes ("tag-newsletter", "category-login") name what it is
// about and are not read, nor is an id that is an anchor (anchorID).
func boxName(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" || a.Namespace != "" {
			continue
		}
		for _, v := range strings.Fields(a.Val) {
			lv := strings.ToLower(v)
			if strings.HasPrefix(lv, "tag-") || strings.HasPrefix(lv, "category-") {
				continue
			}
			if boxValues[lv] {
				return true
			}
			ws := dom.NameWords(v)
			if a.Key == "id" && anchorID(n, v, ws) {
				continue
			}
			for i, w := range ws {
				if boxWords[w] || i > 0 && (boxPairs[[2]string{ws[i-1], w}] ||
					boxTeasers[w] && (ws[i-1] == "related" || ws[i-1] == "recommended")) {
					return true
				}
			}
		}
	}
	return false
}

// anchorID reports whether the id v (of words ws) of n is an anchor for
// links to a section rather than a box's name: the id of a heading
// (Hugo's and WordPress's <h2 id="login">), of a documented function or
// method ("login(java.lang.String)", "requests.Session.login", RDoc's
// "method-i-login"), or one whose words begin the text of the first
// heading inside n (Sphinx's <section id="pagination"> titled
// "Pagination").
func anchorID(n *html.Node, v string, ws []string) bool {
	if dom.IsHeading(n) || strings.ContainsAny(v, "().") || strings.HasPrefix(v, "method-") {
		return true
	}
	if len(ws) == 0 {
		return false
	}
	for c := n.FirstChild; c != nil; c = dom.Next(n, c) {
		if dom.IsHeading(c) {
			hs := dom.NameWords(headingText(c))
			return len(hs) >= len(ws) && strings.Join(hs[:len(ws)], " ") == strings.Join(ws, " ")
		}
	}
	return false
}

// headingText returns the text below a heading h.
func headingText(h *html.Node) string {
	var b strings.Builder
	for c := h.FirstChild; c != nil; c = dom.Next(h, c) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	}
	return b.String()
}
