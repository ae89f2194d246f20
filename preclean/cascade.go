package preclean

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// vote is the declaration of display or visibility (or the offscreen
// vote) that wins for one element so far, ranked as the cascade ranks
// them: !important first, then an inline style over a sheet, then a rule
// outside @layer over one inside (the other way round for !important
// ones), then specificity, then the later rule.
type vote struct {
	value     string
	important bool
	inline    bool
	layered   bool
	spec      cascadia.Specificity
	order     int
	set       bool
}

// beats reports whether a wins over b.
func (a vote) beats(b vote) bool {
	switch {
	case !b.set:
		return true
	case a.important != b.important:
		return a.important
	case a.inline != b.inline:
		return a.inline
	case a.layered != b.layered:
		return a.layered == a.important
	case a.spec != b.spec:
		return b.spec.Less(a.spec)
	}
	return a.order > b.order
}

// votes are the winning votes on display, visibility and offscreen.
type votes [3]vote

// cast counts v, for declaration d, in the votes.
func (votes *votes) cast(d decl, v vote) {
	i := 0
	switch d.prop {
	case "visibility":
		i = 1
	case "offscreen":
		i = 2
	}
	if v.beats(votes[i]) {
		votes[i] = v
	}
}

// sheetHidden returns the elements of doc that its own style sheets (its
// <style> elements, see pageRules) hide: display:none, or
// visibility:hidden or collapse where no element below is made visible
// again, once the cascade has weighed every rule that sets the property
// and the element's inline style (a class that hides, overridden by an
// id or an inline style that shows, does not hide). The element hidden,
// not each element below it, is in the set. Dynamic pseudo-classes
// (:hover, :focus) never match, as in a page no one points at: the
// submenu a hover opens is hidden. Rules whose selectors cascadia cannot
// parse, and pseudo-elements, are not applied. An element that its
// sheets or inline style move out of sight (offscreen: the "visually
// hidden" text for screen readers, the off-left technique) is hidden as
// well.
func sheetHidden(doc *html.Node, rules []rule) map[*html.Node]bool {
	byKey := make(map[string][]int)
	for i, r := range rules {
		byKey[r.key] = append(byKey[r.key], i)
	}
	hidden := make(map[*html.Node]bool)
	var byVisibility []*html.Node // hidden by visibility, if nothing below shows again
	visible := make(map[*html.Node]bool)
	work := 0
	var cands []int
	for n := doc; n != nil; {
		if n.Type != html.ElementNode {
			n = dom.Next(doc, n)
			continue
		}
		if n.DataAtom == atom.Head && n.Namespace == "" {
			n = dom.NextAfter(doc, n) // hidden by every browser; its <title> is the page's
			continue
		}
		cands = append(cands[:0], byKey[""]...)
		cands = append(cands, byKey[strings.ToLower(n.Data)]...)
		for _, a := range n.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "id" && a.Val != "":
				cands = append(cands, byKey["#"+a.Val]...)
			case a.Key == "class":
				for _, c := range uniqueFields(a.Val) {
					cands = append(cands, byKey["."+c]...)
				}
			}
		}
		depth := 1
		for p := n.Parent; p != nil; p = p.Parent {
			depth++
		}
		var votes votes
		for _, i := range cands {
			r := &rules[i]
			if work += cost(depth, r.fan); work > maxSheetWork {
				break
			}
			if !r.sel.Match(n) {
				continue
			}
			for _, d := range r.decls {
				votes.cast(d, vote{value: d.value, important: d.important, layered: r.layered, spec: r.spec, order: r.order, set: true})
			}
		}
		if work > maxSheetWork {
			// What is found so far is applied, but for visibility: an
			// element below one it hides, not reached, might show again.
			byVisibility = nil
			break
		}
		if style, ok := dom.LookupAttr(n, "style"); ok && strings.Contains(style, ":") {
			for _, d := range hidingDecls(style) {
				votes.cast(d, vote{value: d.value, important: d.important, inline: true, set: true})
			}
		}
		display, visibility := votes[0], votes[1]
		// A text indent hides the text of a block: an element not inline
		// by its tag, or displayed otherwise by the rules that win.
		block := !dom.IsInline(n) || display.set && display.value != "inline" && display.value != "contents"
		off := votes[2].value == "yes" || votes[2].value == "indent" && block
		if display.value == "none" || off {
			hidden[n] = true
			n = dom.NextAfter(doc, n)
			continue
		}
		switch visibility.value {
		case "hidden", "collapse":
			byVisibility = append(byVisibility, n)
		case "visible", "initial":
			visible[n] = true
		}
		n = dom.Next(doc, n)
	}
	for _, n := range byVisibility {
		if !showsBelow(n, visible) {
			hidden[n] = true
		}
	}
	return hidden
}

// showsBelow reports whether an element below n is made visible again.
func showsBelow(n *html.Node, visible map[*html.Node]bool) bool {
	if len(visible) == 0 {
		return false
	}
	for m := dom.Next(n, n); m != nil; m = dom.Next(n, m) {
		if visible[m] {
			return true
		}
	}
	return false
}

// uniqueFields returns the space-separated words of s, each once.
func uniqueFields(s string) []string {
	f := strings.Fields(s)
	if len(f) < 2 {
		return f
	}
	seen := make(map[string]bool, len(f))
	out := f[:0]
	for _, w := range f {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// cost is what matching a selector of fan descendant combinators may
// cost at depth: depth^fan steps (capped past maxSheetWork).
func cost(depth, fan int) int {
	c := 1
	for range fan {
		if c *= depth; c > maxSheetWork {
			return maxSheetWork + 1
		}
	}
	return c
}
