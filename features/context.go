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
	ctxDenseDist            // log1p of the blocks between the block and that run
	ctxTopParent            // inside the element whose <p> children hold the most text
	ctxTitleShare           // share of the block's words (stop words aside) in the page's title
	ctxCommentMarker        // looks like the head of a comment: reply, posted by, says: ...
	ctxAfterComments        // at or after the page's first comment-section marker
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
// tokens are the blocks' word tokens (lower case, as Extract made them).
func contextFeatures(bs []*blocks.Block, tokens [][]string, rows [][]float64) {
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
	title := titleWords(bs[0].Node)
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
		if len(title) > 0 && len(tokens[i]) > 0 {
			in, words := 0, 0
			for _, w := range tokens[i] {
				if !IsStopWord(w) {
					words++
					if title[w] {
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
			if comments == len(bs) && n <= 12 && commentSection(lower) {
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

// titleWords returns the lower-case words (stop words left out) of the
// page's <title> and og:title, found from any node of the page.
func titleWords(n *html.Node) map[string]bool {
	root := n
	for root.Parent != nil {
		root = root.Parent
	}
	var texts []string
	var walk func(*html.Node, int)
	walk = func(n *html.Node, depth int) {
		if depth > 3 || len(texts) > 4 {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Title:
				if c.FirstChild != nil && c.FirstChild.Type == html.TextNode {
					texts = append(texts, c.FirstChild.Data)
				}
			case atom.Meta:
				var prop, content string
				for _, a := range c.Attr {
					switch a.Key {
					case "property", "name":
						prop = strings.ToLower(a.Val)
					case "content":
						content = a.Val
					}
				}
				if prop == "og:title" || prop == "twitter:title" {
					texts = append(texts, content)
				}
			case atom.Html, atom.Head:
				walk(c, depth+1)
			}
		}
	}
	walk(root, 0)
	words := map[string]bool{}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !IsStopWord(w) {
				words[w] = true
			}
		}
	}
	return words
}

var (
	commentHeads    = []string{"reply", "posted by", "says:", "said:", "wrote:", "permalink", "report abuse", "report comment", "flag as inappropriate"}
	commentSections = []string{"comment", "responses", "leave a reply", "discussion", "what do you think", "have your say", "join the conversation", "reader reactions"}
	commentAttrs    = []string{"comment", "disqus", "respond", "reply", "replies", "discussion"}
)

// commentHead reports whether a (lower-case) short text looks like the
// head or foot of a user comment.
func commentHead(s string) bool {
	return containsAny(s, commentHeads) && (hasDigit(s) || strings.Contains(s, " ago"))
}

// commentSection reports whether a (lower-case) short text opens a
// comment section ("12 comments", "Leave a reply").
func commentSection(s string) bool {
	return containsAny(s, commentSections)
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
