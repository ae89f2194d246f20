package pipeline

import "strings"

// A byline is a time stamp with its poster's name and the links of a
// post's foot: "Posted by jamie k at 04:29 PM | Permalink | Comments (0)",
// "Posted by: Tim at Nov 24, 2004 4:33:46 AM", "Submitted by Marco on
// Tue, 17/06/2008 - 10:49am.". Like a stamp, it is never kept under the
// corpus policy and left to the model under the article policy. The
// gold of the sets annotated as CleanEval's keeps few of their words:
// CleanEval dev 223 of 812 (a blog's comment heads "By Don, at 10:46 PM"
// on one page, an article's byline on another, a blog's post feet on a
// third), CleanPortalEval none of 184, KrdWrd 1 of 1,082; L3S-GN1's and
// Dragnet's, which count an article's byline or a comment's head with
// it, keep most (RESULTS.md, "Bylines").
const (
	// bylineReason is NeverKept's reason for a byline.
	bylineReason = "byline"
	// maxBylineTokens is the most tokens of a byline, and
	// maxBylineOthers the most of them that are no word of stamps,
	// bylines or a post's foot (a poster's name, a category).
	maxBylineTokens = 20
	maxBylineOthers = 4
	// maxBylineBytes bounds the text read.
	maxBylineBytes = 200
)

var (
	// bylineVerbs are the words that, before "by NAME", make a stamp a
	// byline; "posted" also does before a date or a time.
	bylineVerbs = wordSet("posted submitted written")
	// bylineWords are the other words of a post's head or foot.
	bylineWords = wordSet("permalink comment comments trackback trackbacks pingback pingbacks " +
		"reply quote link email e-mail share filed under in category categories tags # view/add")
	// notNames are words after "by" that name no poster: "by the 15th",
	// "by email", "by noon".
	notNames = wordSet("the a an this that his her their its email e-mail phone mail post fax hand " +
		"noon midnight end close appointment car bus train air")
)

// isByline reports whether text is a byline: at most maxBylineTokens
// tokens, opening with stamps' words (stampToken) or nothing, then its
// mark: "by" before a name (a token that is no stamp's word nor one of
// notNames), that after posted, submitted or written, or "posted" before
// a date or a time ("posted 12/19/06", "Posted: Sun Jan 06"). The text
// holds a date or a time as isStamp counts them, and after the mark,
// besides stamps' words and bylineWords, at most maxBylineOthers other
// tokens (the name, a category). "Hosted by Mary Smith at 7 pm", "Apply
// by the 15th of May", "submitted by 5:00 pm Friday" are none.
func isByline(text string) bool {
	text = asciiDigits(text)
	if len(text) > maxBylineBytes || !strings.ContainsAny(text, "0123456789") {
		return false
	}
	tokens := strings.Fields(text)
	if len(tokens) == 0 || len(tokens) > maxBylineTokens {
		return false
	}
	lower := make([]string, len(tokens))
	words := make([]string, len(tokens)) // without brackets and punctuation
	kinds := make([]stampKind, len(tokens))
	for i, t := range tokens {
		lower[i] = strings.ToLower(t)
		words[i] = strings.Trim(lower[i], "([)]:,.;|")
		kinds[i] = stampToken(lower[i])
	}
	// name reports whether token i names a poster.
	name := func(i int) bool {
		return i < len(tokens) && kinds[i] == stampNone && words[i] != "" && !notNames[words[i]] && !bylineWords[words[i]]
	}
	// mark is the index of the first token after the byline's mark; -1
	// when the tokens before it are not all stamps' words.
	mark := -1
	for i := range tokens {
		switch {
		case words[i] == "by" && name(i+1):
			mark = i + 1
		case bylineVerbs[words[i]] && i+2 < len(tokens) && words[i+1] == "by" && name(i+2):
			mark = i + 2
		case words[i] == "posted" && (strings.HasSuffix(lower[i], ":") || i+1 < len(tokens) && kinds[i+1] != stampNone):
			mark = i + 1
		case kinds[i] != stampNone:
			continue
		}
		break
	}
	if mark < 0 {
		return false
	}
	var seen stampSeen
	prev, others := stampNone, 0
	for i := range tokens {
		k := inContext(kinds[i], prev)
		if k == stampNone {
			if i >= mark && !bylineWords[words[i]] && words[i] != "" {
				others++
			}
			prev = stampNone
			continue
		}
		seen[k], prev = true, k
	}
	return seen.dated() && others <= maxBylineOthers
}
