package gold

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Policy is an annotation policy: what counts as clean text, whatever the
// data set. Each data set annotates in its own terms; [Policy.Options]
// maps every set's labels to the policy.
type Policy int

const (
	// Corpus is CleanEval's policy: the running text, headings and list
	// items of the page's own content, user comments and forum posts
	// included; navigation, link lists, headers, footers, copyright
	// notices, ads and material repeated across a site are not clean.
	Corpus Policy = iota + 1
	// Article keeps the main article only: its headline and text, without
	// comments, supplemental or related material.
	Article
)

var policyNames = map[Policy]string{Corpus: "corpus", Article: "article"}

func (p Policy) String() string {
	if s, ok := policyNames[p]; ok {
		return s
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy reads a policy name: "corpus" or "article".
func ParsePolicy(s string) (Policy, error) {
	for p, n := range policyNames {
		if strings.EqualFold(s, n) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("gold: unknown policy %q (corpus or article)", s)
}

// The x-nc-selN classes of L3S-GN1's annotated pages.
const (
	L3SNone         = 0 // not content
	L3SHeadline     = 1
	L3SFullText     = 2
	L3SSupplemental = 3 // captions, author lines, fact boxes beside the article
	L3SRelated      = 4 // links and teasers to related articles
	L3SComments     = 5 // user comments
)

var l3sNames = [...]string{"none", "headline", "full text", "supplemental", "related", "comments"}

// The krdwrd-tag-N labels of KrdWrd CANOLA (the annotators' majority vote).
const (
	KrdWrdBad       = 1
	KrdWrdUncertain = 2
	KrdWrdGood      = 3
)

// Options returns the label mapping of the policy for every format:
//
//   - CleanEval and CleanPortalEval (format CleanEval): the gold text as
//     it is, under both policies (its annotators followed CleanEval's
//     guidelines; there is no finer label to drop comments by).
//   - L3S-GN1: Corpus counts headline, full text, supplemental and
//     comments as clean (related content is a list of links to other
//     pages, which CleanEval drops); Article counts headline and full
//     text.
//   - Dragnet: Corpus counts the content and the comments after the
//     marker line; Article the content only.
//   - KrdWrd CANOLA: Corpus counts good and uncertain (of the two
//     mappings, the one whose pages, added to training, did better on
//     CleanEval-policy pages); Article counts good only.
//
// The zero Options is neither policy: it is the mapping used before
// policies existed (L3S 1-3 as in Bevendorff et al. 2023, Dragnet without
// comments, KrdWrd good only).
func (p Policy) Options() Options {
	switch p {
	case Corpus:
		return Options{Comments: true, Uncertain: true, L3SClasses: []int{L3SHeadline, L3SFullText, L3SSupplemental, L3SComments}}
	case Article:
		return Options{L3SClasses: []int{L3SHeadline, L3SFullText}}
	}
	return Options{}
}

// l3sClasses returns the clean L3S classes of o, sorted.
func (o Options) l3sClasses() []int {
	if o.L3SClasses == nil {
		return []int{L3SHeadline, L3SFullText, L3SSupplemental}
	}
	c := slices.Clone(o.L3SClasses)
	slices.Sort(c)
	return slices.Compact(c)
}

// Validate reports L3S classes outside 0-5.
func (o Options) Validate() error {
	for _, c := range o.L3SClasses {
		if c < L3SNone || c > L3SComments {
			return fmt.Errorf("gold: L3S class %d is not one of 0-5", c)
		}
	}
	return nil
}

// Mapping describes in words which labels of format f count as clean
// under o, e.g. "headline+full text+comments" for L3S.
func (o Options) Mapping(f Format) string {
	switch f {
	case CleanEval:
		return "gold text as is"
	case Plain:
		if o.Comments {
			return "content+comments"
		}
		return "content"
	case L3S:
		var names []string
		for _, c := range o.l3sClasses() {
			if c >= 0 && c < len(l3sNames) {
				names = append(names, l3sNames[c])
			} else {
				names = append(names, strconv.Itoa(c))
			}
		}
		return strings.Join(names, "+")
	case KrdWrd:
		if o.Uncertain {
			return "good+uncertain"
		}
		return "good"
	}
	return "?"
}

// String describes the mapping of o for every annotated format.
func (o Options) String() string {
	return fmt.Sprintf("l3s=%s dragnet=%s krdwrd=%s", o.Mapping(L3S), o.Mapping(Plain), o.Mapping(KrdWrd))
}
