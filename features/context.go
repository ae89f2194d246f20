package features

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
)

// The context features (group Context) place a block in its page as a
// whole, which the article policy needs: where the page's main run of text
// is, which element holds most of its paragraphs, what the page's title
// says and where the comments start. They come after the layout columns;
// contextCol gives their columns.
const (
	ctxDenseIn       = iota // inside the densest run of text
	ctxDenseDist            // log1p of the block's distance, in blocks, from that run
	ctxTopParent            // inside the element whose <p> children hold the most text
	ctxTitleShare           // share of the block's words (stop words aside) in the page's title
	ctxCommentMarker        // looks like the head of a comment: reply, posted by, says: ...
	ctxAfterComments        // at or after the page's first comment-section marker (after the run starts)
	ctxCommentAttr          // inside an element whose class or id names comments
	numContext
)

// contextSchema names the context columns.
var contextSchema = [numContext]Feature{
	ctxDenseIn:       {"ctx_dense_in", Context, false},
	ctxDenseDist:     {"ctx_dense_dist", Context, false},
	ctxTopParent:     {"ctx_top_parent", Context, false},
	ctxTitleShare:    {"ctx_title_share", Context, false},
	ctxCommentMarker: {"ctx_comment_marker", Context, true},
	ctxAfterComments: {"ctx_after_comments", Context, true},
	ctxCommentAttr:   {"ctx_comment_attr", Context, false},
}

// denseCost is the number of non-link words a block must hold to add to a
// run of text rather than take from it: link lists and short lines between
// paragraphs cost, paragraphs pay.
const denseCost = 12

// contextFeatures fills the context columns of the rows of one page.
// tokens are the blocks' word tokens (lower case, as Extract made them);
// title is the page's title ("": the <title> element of the document).
func contextFeatures(bs []*blocks.Block, tokens [][]string, rows [][]float64, title string) {
	if len(bs) == 0 {
		return
	}
	cc := contextCol(0)
	// The densest run: the contiguous blocks with the largest sum of
	// non-link words minus denseCost each (Kadane's maximum subarray).
	best, bestA, bestB := math.Inf(-1), 0, 0
	sum, a := 0.0, 0
	for i, b := range bs {
		w := float64(len(tokens[i]))*(1-ratio(b.LinkChars, b.Chars)) - denseCost
		if sum <= 0 {
			sum, a = w, i
		} else {
			sum += w
		}
		if sum > best {
			best, bestA, bestB = sum, a, i
		}
	}
	// The element whose <p> children hold the most text.
	pText := map[*html.Node]int{}
	var top *html.Node
	for _, b := range bs {
		if b.Node.DataAtom == atom.P && b.Node.Parent != nil {
			p := b.Node.Parent
			pText[p] += b.Chars
			if top == nil || pText[p] > pText[top] {
				top = p
			}
		}
	}
	if title == "" {
		title = titleText(bs[0].Node)
	}
	titleSet := titleWords(title)
	comments := len(bs)
	commentAttr := map[*html.Node]bool{}
	for i, b := range bs {
		v := rows[i]
		switch {
		case i < bestA:
			v[cc+ctxDenseDist] = math.Log1p(float64(bestA - i))
		case i > bestB:
			v[cc+ctxDenseDist] = math.Log1p(float64(i - bestB))
		default:
			v[cc+ctxDenseIn] = 1
		}
		if top != nil && within(b.Node, top) {
			v[cc+ctxTopParent] = 1
		}
		if len(titleSet) > 0 && len(tokens[i]) > 0 {
			in, words := 0, 0
			for _, w := range tokens[i] {
				if !IsStopWord(w) {
					words++
					if titleSet[w] {
						in++
					}
				}
			}
			v[cc+ctxTitleShare] = ratio(in, words)
		}
		if n := len(tokens[i]); n <= 40 {
			lower := strings.ToLower(b.Text)
			if commentHead(lower) {
				v[cc+ctxCommentMarker] = 1
			}
			if comments == len(bs) && i > bestA && n <= 12 && commentSection(lower) {
				comments = i
			}
		}
		if i >= comments {
			v[cc+ctxAfterComments] = 1
		}
		v[cc+ctxCommentAttr] = bool01(inCommentElem(b.Node, commentAttr))
	}
}

// within reports whether n is top or below it.
func within(n, top *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == top {
			return true
		}
	}
	return false
}

// titleText returns the text of the <title> element of the document that
// n belongs to, or "".
func titleText(n *html.Node) string {
	root := n
	for root.Parent != nil {
		root = root.Parent
	}
	var find func(*html.Node, int) string
	find = func(n *html.Node, depth int) string {
		for c := n.FirstChild; c != nil && depth <= 2; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Title:
				if c.FirstChild != nil && c.FirstChild.Type == html.TextNode {
					return c.FirstChild.Data
				}
			case atom.Html, atom.Head:
				if t := find(c, depth+1); t != "" {
					return t
				}
			}
		}
		return ""
	}
	return find(root, 0)
}

// titleWords returns the lower-case words of a title, stop words left
// out; of Chinese and Japanese, the characters (as Tokens cuts a block's
// text).
func titleWords(title string) map[string]bool {
	words := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		ws := []string{f}
		if strings.IndexFunc(f, unspaced) >= 0 {
			ws = Tokens(f)
		}
		for _, w := range ws {
			if !IsStopWord(w) {
				words[w] = true
			}
		}
	}
	return words
}

var (
	commentHeads    = []string{"reply", "posted by", "says:", "said:", "wrote:", "permalink", "report abuse", "report comment", "flag as inappropriate"}
	commentSections = []string{"comment", "responses", "response to", "replies", "leave a reply", "leave a comment", "post a comment", "add a comment", "reader comments", "user comments", "discussion", "what do you think", "have your say", "join the conversation", "reader reactions"}
	commentAttrs    = []string{"comment", "disqus", "respond", "reply", "replies", "discussion"}
)

// commentHead reports whether a (lower-case) short text looks like the
// head or foot of a user comment.
func commentHead(s string) bool {
	return containsAny(s, commentHeads) && (hasDigit(s) || strings.Contains(s, " ago"))
}

// commentSection reports whether a (lower-case) short text opens a
// comment section: it starts, after an optional count, with one of
// commentSections ("12 comments", "Comments (3)", "Leave a reply").
func commentSection(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "0123456789 ")
	for _, p := range commentSections {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// inCommentElem reports whether n or an ancestor has a class or id naming
// comments; memo keeps the answer for every node asked about.
func inCommentElem(n *html.Node, memo map[*html.Node]bool) bool {
	if n == nil {
		return false
	}
	if v, ok := memo[n]; ok {
		return v
	}
	v := false
	if n.Type == html.ElementNode {
		for _, a := range n.Attr {
			if (a.Key == "class" || a.Key == "id") && containsAny(strings.ToLower(a.Val), commentAttrs) {
				v = true
				break
			}
		}
	}
	if !v {
		v = inCommentElem(n.Parent, memo)
	}
	memo[n] = v
	return v
}
