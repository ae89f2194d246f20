package pipeline

import (
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxBoxWords is the most words an element named as a box around the
// content (boxName) may hold for its blocks to be dropped: a page whose
// content element is so named (a newsletter's archive page in a
// <div class="newsletter">) keeps it.
const MaxBoxWords = 300

// boxWords, boxPairs and boxTeasers are the class and id words
// (dom.NameWords) that name a box which is never a page's content: a
// newsletter or subscription prompt, a sign-up or login box, the comment form
// (WordPress's "respond"), an author's bio, recommendations (Outbrain,
// Taboola, "related-stories") and lists of what is popular, and
// pagination. Of the 44,010 words of blocks in such boxes on the pages
// the corpus models learn from (CleanEval dev, CleanPortalEval, L3S-GN1,
// Dragnet's training split), the gold keeps 11 (RESULTS.md: Boxes named
// for what they hold).
var (
	boxWords = map[string]bool{
		"newsletter": true, "subscribe": true, "signup": true, "login": true,
		"respond": true, "outbrain": true, "taboola": true, "zergnet": true,
		"pagination": true,
	}
	boxPairs = map[[2]string]bool{
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

// boxName reports whether n's class or id names a box (boxWords,
// boxPairs, boxTeasers after "related" or "recommended"). A post's taxonomy classes ("tag-newsletter",
// "category-login") name what it is about and are not read.
func boxName(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		for _, v := range strings.Fields(a.Val) {
			lv := strings.ToLower(v)
			if strings.HasPrefix(lv, "tag-") || strings.HasPrefix(lv, "category-") {
				continue
			}
			ws := dom.NameWords(v)
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

// dropBoxes drops every kept block of d that lies in a box (boxName) of
// at most MaxBoxWords words: the block's element or an ancestor below
// the page's content elements (<main>, <article>, <body>, which are never
// boxes, nor is anything above them). The models keep some such blocks
// (an author's bio is prose about a person, a comment form's notes are
// sentences).
func dropBoxes(d *Doc, keep []bool) {
	if d == nil {
		return
	}
	boxed := map[*html.Node]bool{} // elements checked: in a box of few words
	for i, k := range keep {
		if !k || i >= len(d.Blocks) {
			continue
		}
		if inBox(d.Blocks[i].Node, boxed) {
			keep[i] = false
		}
	}
}

// inBox reports whether n or an ancestor below the content elements is a
// box of at most MaxBoxWords words, remembering each element's answer in
// seen.
func inBox(n *html.Node, seen map[*html.Node]bool) bool {
	for e := n; e != nil && e.Type == html.ElementNode; e = e.Parent {
		if e.Namespace != "" {
			continue
		}
		switch e.DataAtom {
		case atom.Html, atom.Head, atom.Body, atom.Main, atom.Article:
			return false
		}
		box, ok := seen[e]
		if !ok {
			box = boxName(e) && nodeWords(e, MaxBoxWords+1) <= MaxBoxWords
			seen[e] = box
		}
		if box {
			return true
		}
	}
	return false
}

// nodeWords counts the white-space separated words of the text below n, up
// to max.
func nodeWords(n *html.Node, max int) int {
	count := 0
	for c := n; c != nil && count < max; c = dom.Next(n, c) {
		if c.Type == html.TextNode {
			count += len(strings.Fields(c.Data))
		}
	}
	return min(count, max)
}

// NeverKept reports why block i of d is never kept, whatever its decision
// value: "ad label" when its whole text is an advertisement's label (not
// a heading), "box" when it lies in a box named for what it holds
// (boxWords); "" for any other block, and for an i out of range.
func NeverKept(d *Doc, i int) string {
	if d == nil || i < 0 || i >= len(d.Blocks) {
		return ""
	}
	b := d.Blocks[i]
	switch {
	case !dom.IsHeading(b.Node) && adLabel(b.Text):
		return "ad label"
	case inBox(b.Node, map[*html.Node]bool{}):
		return "box"
	}
	return ""
}
