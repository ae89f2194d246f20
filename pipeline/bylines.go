package pipeline

import "strings"

// A byline is a time stamp with its poster's name and the links of a
// post's foot: "Posted by jamie k at 04:29 PM | Permalink | Comments (0)",
// "Posted by: Tim at Nov 24, 2004 4:33:46 AM", "Submitted by Marco on
// Tue, 17/06/2008 - 10:49am.". Like a stamp, it is never kept under the
// corpus policy and left to the model under the article policy. The
// gold of the sets annotated as CleanEval's keeps few of their words:
// CleanEval dev 240 of 841 (job titles "posted 12/19/06" and a blog's
// comment heads on two pages), CleanPortalEval none of 184, KrdWrd 3 of
// 1,151; L3S-GN1's and Dragnet's, which count an article's byline or a
// comment's head with it, keep 89% and 83% (RESULTS.md, "Bylines").
const (
	// bylineReason is NeverKept's reason for a byline.
	bylineReason = "byline"
	// maxBylineTokens is the most tokens of a byline, and
	// maxBylineOthers the most of them that are no word of stamps,
	// bylines or a post's foot (a poster's name, a category).
	maxBylineTokens = 20
	maxBylineOthers = 4
)

var (
	// bylineMarks are the words that make a stamp a byline.
	bylineMarks = wordSet("by posted submitted written")
	// bylineWords are the other words of a post's head or foot.
	bylineWords = wordSet("permalink comment comments trackback trackbacks pingback pingbacks " +
		"reply quote link email e-mail share filed under in category categories tags # view/add")
)

// isByline reports whether text is a byline: at most maxBylineTokens
// tokens, among them one of bylineMarks ("by" before a token that is no
// stamp's word) and a date or a time as isStamp
// counts them, and besides those, stamps' words (stampToken) and
// bylineWords at most maxBylineOthers others. A byline word or an other
// token between them parts a day's number from its am or pm, and
// minutes of a CJK time from their hours.
func isByline(text string) bool {
	text = asciiDigits(text)
	if len(text) > 200 || !strings.ContainsAny(text, "0123456789") {
		return false
	}
	tokens := strings.Fields(text)
	if len(tokens) == 0 || len(tokens) > maxBylineTokens {
		return false
	}
	var seen [stampKinds]bool
	prev, others, marked := stampNone, 0, false
	for i, t := range tokens {
		t = strings.ToLower(t)
		w := strings.Trim(t, "([)]:,.;|")
		if bylineMarks[w] {
			// "by" marks a byline before a name ("By Don, at 10:46 PM"),
			// not before a time ("due by 5 pm Friday").
			if w != "by" || i+1 < len(tokens) && stampToken(strings.ToLower(tokens[i+1])) == stampNone {
				marked = true
			}
			prev = stampNone
			continue
		}
		k := stampToken(t)
		if k == stampMeridiem && prev == stampDay {
			k = stampTime
		}
		if k == stampMinutes {
			k = stampNone
			if prev == stampTime {
				k = stampTime
			}
		}
		if k == stampNone {
			if !bylineWords[w] && w != "" {
				others++
			}
			prev = stampNone
			continue
		}
		seen[k], prev = true, k
	}
	dated := seen[stampDate] || seen[stampTime] || seen[stampMonth] && (seen[stampDay] || seen[stampYear])
	return marked && dated && others <= maxBylineOthers
}
