package preclean

import (
	"fmt"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/dom"
)

// The page's own style sheets, the text of its <style> elements, are read
// for the properties that hide an element, display and visibility, and
// for those that move it out of sight (see offscreen and sheetHidden). A browser drawing the page for package render
// applies them too, and with no network it has no other sheet.

// Limits on the work of reading a page's sheets: past them, what was
// read so far is applied and the rest is not (an element the rest would
// hide stays).
const (
	// maxSheetBytes is the most text of <style> elements read.
	maxSheetBytes = 4 << 20
	// maxSheetSelectors is the most selectors kept of rules that hide
	// or show (hidingDecls).
	maxSheetSelectors = 20000
	// maxSheetWork is the most matches of a selector against an element
	// tried on one page, each weighed by the element's depth (a
	// descendant selector may walk every ancestor).
	maxSheetWork = 50000000
)

// ViewportWidth is the width, in CSS pixels, at which the media queries
// of a page's sheets are evaluated: package render's default width.
const ViewportWidth = 1280

// decl is one declaration of display or visibility in a style sheet, or
// a rule's vote on offscreen (see offscreen), for the selectors of its
// rule.
type decl struct {
	prop      string // "display", "visibility" or "offscreen"
	value     string // lower case, without !important
	important bool
}

// rule is one selector of a rule of a sheet, with the declarations that
// hide or show the rule holds (hidingDecls).
type rule struct {
	sel     cascadia.Sel
	spec    cascadia.Specificity
	order   int  // the rule's place among all rules of the page
	layered bool // inside an @layer block
	decls   []decl
	key     string // the id, class or tag the selector's last compound needs: "#id", ".class", "tag" or "" (any)
	fan     int    // descendant and general sibling combinators: matching costs up to depth^fan
}

// pageRules reads the rules that hide or show (hidingDecls) from the
// <style> elements of doc, in document order, but those inside a
// <template> (a declarative shadow root's among them: its sheet applies
// to its own tree alone). A sheet whose media attribute says it is not
// for the screen, or whose type is not CSS, is skipped.
func pageRules(doc *html.Node) []rule {
	r := &sheetReader{}
	budget := maxSheetBytes
	for n := doc; n != nil; {
		if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Template {
			n = dom.NextAfter(doc, n)
			continue
		}
		style := n.Type == html.ElementNode && n.DataAtom == atom.Style && n.Namespace == ""
		if !style {
			n = dom.Next(doc, n)
			continue
		}
		c := condMet
		if t := strings.ToLower(strings.TrimSpace(dom.Attr(n, "type"))); t != "" && t != "text/css" {
			c = condUnmet
		}
		if m, ok := dom.LookupAttr(n, "media"); ok && c == condMet {
			c = mediaCond(m)
		}
		if c != condUnmet {
			var b strings.Builder
			for t := n.FirstChild; t != nil; t = t.NextSibling {
				if t.Type == html.TextNode {
					b.WriteString(t.Data)
				}
			}
			text := b.String()
			if len(text) > budget {
				text = text[:budget]
			}
			budget -= len(text)
			r.read(stripComments(text), nil, c, false, 0)
		}
		if budget <= 0 || len(r.rules) >= maxSheetSelectors {
			break
		}
		n = dom.Next(doc, n)
	}
	if len(r.rules) > maxSheetSelectors {
		r.rules = r.rules[:maxSheetSelectors]
	}
	return r.rules
}

// cond is what the media queries and other conditions around a rule say
// of it at ViewportWidth.
type cond int

const (
	condMet     cond = iota // it applies
	condUnknown             // it may apply: only its votes that show are counted
	condUnmet               // it does not apply
)

// maxSheetDepth is the deepest nesting of blocks read (rules and
// at-rules inside rules and at-rules).
const maxSheetDepth = 12

// sheetReader reads the rules of a page's sheets.
type sheetReader struct {
	rules []rule
	order int
}

// read reads the items of text (comments stripped): at the top level
// (parents nil) rules and at-rules; inside a rule (parents the source
// texts of its selectors) its declarations, nested rules and nested
// at-rules, as CSS nesting writes them. c is what the enclosing
// conditions say; layered tells a rule inside an @layer block, which
// loses to an unlayered one (and wins where both are !important).
//
// As in a browser, a rule with a selector that cannot be parsed is
// dropped whole, and a ';' or a stray '}' at the top level belongs to
// the next rule's selector, which it makes invalid. @media blocks are
// read under their condition (an unmet one skipped, one that cannot be
// evaluated read as condUnknown), @supports and @container blocks under
// condUnknown, @layer blocks as layered; other at-rules are skipped.
func (r *sheetReader) read(text string, parents []string, c cond, layered bool, depth int) {
	if depth > maxSheetDepth {
		return
	}
	var decls []string
	order := 0
	if parents != nil {
		r.order++
		order = r.order
	}
	for text != "" && len(r.rules) < maxSheetSelectors {
		text = strings.TrimLeft(text, " \t\r\n\f")
		if text == "" {
			break
		}
		if text[0] == '@' {
			i := indexTop(text, ";{")
			if i < 0 {
				break
			}
			if text[i] == ';' { // @import, @charset, @namespace, @layer a, b;
				text = text[i+1:]
				continue
			}
			prelude, body, rest := block(text, i)
			text = rest
			name, cond := atRule(prelude)
			switch name {
			case "media":
				if mc := mediaCond(cond); mc != condUnmet {
					r.read(body, parents, max(c, mc), layered, depth+1)
				}
			case "supports", "container":
				r.read(body, parents, condUnknown, layered, depth+1)
			case "layer":
				r.read(body, parents, c, true, depth+1)
			}
			continue
		}
		if parents == nil {
			i := indexTop(text, "{")
			if i < 0 {
				break
			}
			prelude, body, rest := block(text, i)
			text = rest
			if sels := selectorList(prelude, nil); sels != nil {
				r.read(body, sels, c, layered, depth+1)
			}
			continue
		}
		i := indexTop(text, ";{")
		if i < 0 {
			decls = append(decls, text)
			break
		}
		if text[i] == ';' {
			decls = append(decls, text[:i])
			text = text[i+1:]
			continue
		}
		prelude, body, rest := block(text, i)
		text = rest
		if sels := selectorList(prelude, parents); sels != nil {
			r.read(body, sels, c, layered, depth+1)
		}
	}
	if parents != nil && len(decls) > 0 {
		r.add(parents, hidingDecls(strings.Join(decls, ";")), order, c, layered)
	}
}

// add appends a rule for each of sels that is no pseudo-element's, with
// decls (under condUnknown, only those that show).
func (r *sheetReader) add(sels []string, decls []decl, order int, c cond, layered bool) {
	if c == condUnknown {
		shows := decls[:0:0]
		for _, d := range decls {
			if !d.hides() {
				shows = append(shows, d)
			}
		}
		decls = shows
	}
	if len(decls) == 0 {
		return
	}
	for _, s := range sels {
		sel, err := compileSelector(s)
		if err != nil || sel.sel.PseudoElement() != "" {
			continue
		}
		sel.order, sel.decls, sel.layered = order, decls, layered
		r.rules = append(r.rules, sel)
	}
}

// hides reports whether d hides its element, if it wins.
func (d decl) hides() bool {
	switch d.prop {
	case "display":
		return d.value == "none"
	case "visibility":
		return d.value == "hidden" || d.value == "collapse"
	}
	return d.value != "no"
}

// block returns, for the block whose '{' is at text[open], the text before
// it (trimmed), the text inside it and the text after it.
func block(text string, open int) (prelude, body, rest string) {
	end := closeBrace(text, open)
	prelude, body = strings.TrimSpace(text[:open]), text[open+1:end]
	if end < len(text) {
		rest = text[end+1:]
	}
	return prelude, body, rest
}

// atRule returns the lower-case name of an at-rule's prelude ("@media
// screen", "@media(min-width:1px)") and the rest of it.
func atRule(prelude string) (name, rest string) {
	i := 1
	for i < len(prelude) && nameByte(prelude[i]) {
		i++
	}
	return strings.ToLower(prelude[1:i]), strings.TrimSpace(prelude[i:])
}

// maxNested is the most selectors a nested rule's list may make of its
// parents' (their product).
const maxNested = 256

// selectorList returns the source texts of the selectors of a rule's
// prelude, each nested in parents where there are some ("&.open" in
// ".menu li" is ".menu li.open"; ".badge" is ".menu li .badge"), or nil
// where one of them is not a selector compileSelector takes: the rule
// is then dropped whole, as a browser drops it.
func selectorList(prelude string, parents []string) []string {
	var out []string
	for _, s := range splitTop(prelude, ',') {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
		if parents == nil {
			out = append(out, s)
		}
		for _, p := range parents {
			if strings.Contains(s, "&") {
				out = append(out, strings.ReplaceAll(s, "&", p))
			} else {
				out = append(out, p+" "+s)
			}
		}
		if len(out) > maxNested {
			return nil
		}
	}
	for _, s := range out {
		if _, err := compileSelector(s); err != nil {
			return nil
		}
	}
	return out
}

// maxFan is the most descendant and general sibling combinators (" ",
// "~") a selector may hold: each multiplies what matching it may cost by
// the depth of the tree.
const maxFan = 4

// unsupported are pseudo-classes and an attribute operator that cascadia
// knows and browsers do not, or whose matching costs a walk of the
// subtree (:has): a rule that uses them is dropped.
var unsupported = []string{":has(", ":contains", ":matches", ":input", ":haschild", "#="}

// compileSelector parses one selector into a rule (its selector,
// specificity, key and fan; pseudo-elements parsed, for the caller to
// leave out).
func compileSelector(s string) (rule, error) {
	low := strings.ToLower(s)
	for _, u := range unsupported {
		if strings.Contains(low, u) {
			return rule{}, fmt.Errorf("unsupported selector %q", s)
		}
	}
	sel, err := cascadia.ParseWithPseudoElement(s)
	if err != nil {
		return rule{}, err
	}
	fan := 0
	for rest := strings.TrimSpace(s); ; {
		i := indexTop(rest, " \t\n\r\f>+~")
		if i < 0 {
			break
		}
		j := i
		for j < len(rest) && strings.IndexByte(" \t\n\r\f>+~", rest[j]) >= 0 {
			j++
		}
		if comb := strings.TrimSpace(rest[i:j]); comb == "" || comb == "~" {
			fan++
		}
		rest = rest[j:]
	}
	if fan > maxFan {
		return rule{}, fmt.Errorf("selector %q: more than %d descendant combinators", s, maxFan)
	}
	return rule{sel: sel, spec: sel.Specificity(), key: selectorKey(s), fan: fan}, nil
}

// hidingDecls returns the declarations of display and visibility in a
// rule's body or an inline style, the one that wins of each, and the
// rule's vote on whether it moves its element out of sight (offscreen;
// nested rules, as CSS nesting writes them, are skipped).
func hidingDecls(body string) []decl {
	all := ruleDecls(body)
	var out []decl
	for _, d := range all {
		if d.prop == "display" || d.prop == "visibility" {
			out = append(out, d)
		}
	}
	if d, ok := offscreen(all); ok {
		out = append(out, d)
	}
	return out
}

// watched are the properties ruleDecls reads.
var watched = map[string]bool{
	"display": true, "visibility": true,
	"position": true, "clip": true, "clip-path": true, "left": true, "top": true,
	"width": true, "height": true, "overflow": true, "text-indent": true, "float": true,
}

// ruleDecls returns the declarations of the watched properties in a
// rule's body, the one that wins of each: within one rule the later
// declaration wins, unless only the earlier is !important.
func ruleDecls(body string) []decl {
	var out []decl
	for _, d := range splitTop(body, ';') {
		if strings.ContainsAny(d, "{}") {
			continue
		}
		k, v, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if !watched[k] {
			continue
		}
		v = strings.ToLower(strings.TrimSpace(v))
		imp := false
		if j := strings.LastIndexByte(v, '!'); j >= 0 && strings.TrimSpace(v[j+1:]) == "important" {
			v, imp = strings.TrimSpace(v[:j]), true
		}
		d := decl{prop: k, value: v, important: imp}
		replaced := false
		for i := range out {
			if out[i].prop == k {
				if imp || !out[i].important {
					out[i] = d
				}
				replaced = true
			}
		}
		if !replaced {
			out = append(out, d)
		}
	}
	return out
}
