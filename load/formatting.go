package load

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Formatting elements left open (a forum's <font color> that no post
// closes, 400 <b class=…> that a page never ends) are reopened by the
// parser wherever text or an element follows a block's end (the HTML
// standard's "reconstruct the active formatting elements"): a page of
// 1.2 MB made tens of millions of elements and ran fiasco out of memory,
// and 520 open <font>s nested the document past the parser's 512
// open elements. Browsers build such trees too; the text of a page does
// not need its formatting elements, so where they would multiply the
// document, their tags are dropped and their text kept.

// Limits of the reopening, as estimated by formattingLoad: more open
// formatting elements at once than maxActiveFormatting, or more
// reopened elements in all than maxReopened, and the formatting tags go.
const (
	maxActiveFormatting = 100
	maxReopened         = 1 << 21
)

// formattingElem reports the formatting elements the parser reopens,
// but for <a>, whose start tag closes an open one (a link's tags stay:
// links are features) and <nobr>, treated the same way.
func formattingElem(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S,
		atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		return true
	}
	return false
}

// formattingLoad estimates, from the tags, the most formatting elements
// active at once and the elements the parser would make reopening them.
// It follows the parser's stack of open elements and its list of active
// formatting elements closely enough to be an upper bound:
//   - a start tag or a text reopens every active element that a block's
//     end closed (the parser does so for text and most start tags);
//   - an end tag of another element closes the elements above it, the
//     formatting ones among them staying active;
//   - a formatting end tag ends its element only where the parser
//     certainly does: the element within 8 of the top of the stack with
//     no table cell, caption, object, applet, marquee or template above
//     it; if it is no longer open, the parser forgets it too;
//   - cells, captions, objects, applets, marquees and templates are
//     markers: what is active before them is not reopened inside them,
//     and what became active inside is forgotten at their end;
//   - three alike (the same start tag as written) are active at most,
//     as the parser's "Noah's Ark" clause keeps them.
//
// Scripts, styles and comments are the tokenizer's raw text and count
// for nothing. It stops counting once either figure is over its limit.
func formattingLoad(text string) (maxActive int, reopened int64) {
	type active struct {
		a    atom.Atom
		id   string // the start tag as written: Noah's Ark's "alike"
		open bool
	}
	type elem struct {
		a      atom.Atom
		f      *active // the active entry of a formatting element
		marker int     // for a marker element: len(list) when it opened; else -1
	}
	const maxStack = 1024 // deeper, the parser flattens the page (guard.go)
	var (
		stack []elem
		list  []*active
		marks []int // the markers on the stack, as len(list) when each opened
	)
	lastMarker := func() int {
		if len(marks) == 0 {
			return 0
		}
		return min(marks[len(marks)-1], len(list))
	}
	push := func(e elem) {
		if len(stack) < maxStack {
			stack = append(stack, e)
			if e.marker >= 0 {
				marks = append(marks, e.marker)
			}
		}
	}
	reconstruct := func() {
		for _, f := range list[lastMarker():] {
			if !f.open {
				f.open = true
				push(elem{a: f.a, f: f, marker: -1})
				reopened++
			}
		}
	}
	forget := func(f *active) {
		for i := len(list) - 1; i >= 0; i-- {
			if list[i] == f {
				list = append(list[:i], list[i+1:]...)
				return
			}
		}
	}
	popTo := func(i int) {
		for _, e := range stack[i:] {
			if e.f != nil {
				e.f.open = false
			}
			if e.marker >= 0 {
				list = list[:min(e.marker, len(list))]
				marks = marks[:len(marks)-1]
			}
		}
		stack = stack[:i]
	}
	z := html.NewTokenizer(strings.NewReader(text))
	for maxActive <= maxActiveFormatting && reopened <= maxReopened {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return maxActive, reopened
		case html.TextToken:
			if len(strings.TrimSpace(string(z.Text()))) > 0 {
				reconstruct()
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			reconstruct()
			switch {
			case formattingElem(a):
				f := &active{a: a, id: string(z.Raw()), open: true}
				alike, first := 0, -1
				for i := len(list) - 1; i >= lastMarker(); i-- {
					if list[i].id == f.id {
						alike++
						first = i
					}
				}
				if alike >= 3 {
					list = append(list[:first], list[first+1:]...)
				}
				list = append(list, f)
				push(elem{a: a, f: f, marker: -1})
				maxActive = max(maxActive, len(list))
			case markerElem(a) && tt == html.StartTagToken:
				push(elem{a: a, marker: len(list)})
			case tt == html.StartTagToken && !voidElem(a):
				push(elem{a: a, marker: -1})
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if formattingElem(a) {
				var f *active
				for i := len(list) - 1; i >= lastMarker() && i >= 0; i-- {
					if list[i].a == a {
						f = list[i]
						break
					}
				}
				if f == nil {
					continue
				}
				if !f.open {
					forget(f) // not in the stack: the parser drops it from the list
					continue
				}
				for i := len(stack) - 1; i >= 0 && len(stack)-i <= 8; i-- {
					if stack[i].f == f {
						popTo(i)
						forget(f)
						break
					}
					if markerElem(stack[i].a) || scopeElem(stack[i].a) {
						break // out of scope: the parser keeps it
					}
				}
				continue
			}
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].a == a && stack[i].f == nil {
					popTo(i)
					break
				}
			}
		}
	}
	return maxActive, reopened
}

// markerElem reports the elements that put a marker in the list of
// active formatting elements.
func markerElem(a atom.Atom) bool {
	switch a {
	case atom.Td, atom.Th, atom.Caption, atom.Object, atom.Applet, atom.Marquee, atom.Template:
		return true
	}
	return false
}

// scopeElem reports the other elements a formatting end tag does not
// reach past.
func scopeElem(a atom.Atom) bool {
	return a == atom.Table || a == atom.Html || a == atom.Svg || a == atom.Math
}

// voidElem reports the elements that have no end tag.
func voidElem(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// formattingTags counts, from the bytes alone, the '<'s of text (t) and
// those followed by a formatting element's name and the end of a tag
// name (f): upper bounds of the start tags and of the formatting ones.
func formattingTags(text string) (f, t int) {
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			return f, t
		}
		i += j + 1
		t++
		var name [6]byte // the longest formatting element's name: strike, strong
		n := 0
		for k := i; k < len(text); k++ {
			c := text[k] | 0x20
			if c < 'a' || c > 'z' {
				if '0' <= text[k] && text[k] <= '9' {
					n = 0 // h1: no formatting element
				}
				break
			}
			if n == len(name) {
				n = 0
				break
			}
			name[n] = c
			n++
		}
		if n > 0 && formattingElem(atom.Lookup(name[:n])) {
			f++
		}
	}
}

// dropFormatting returns text without the start and end tags of the
// formatting elements (formattingElem) and whether it dropped any,
// where formattingLoad says the parser would multiply them.
func dropFormatting(text string) (string, bool) {
	// Most pages are let through by a count of bytes: with f formatting
	// start tags among t tags, no more than f are open at once and no
	// more than f*t are reopened.
	if f, t := formattingTags(text); f <= maxActiveFormatting && int64(f)*int64(t) <= maxReopened {
		return text, false
	}
	if maxActive, reopened := formattingLoad(text); maxActive <= maxActiveFormatting && reopened <= maxReopened {
		return text, false
	}
	var b strings.Builder
	b.Grow(len(text))
	z := html.NewTokenizer(strings.NewReader(text))
	for {
		tt := z.Next()
		raw := z.Raw()
		if tt == html.ErrorToken {
			b.Write(raw) // what the tokenizer read but made no token of
			return b.String(), true
		}
		if tt == html.StartTagToken || tt == html.EndTagToken || tt == html.SelfClosingTagToken {
			name, _ := z.TagName()
			if formattingElem(atom.Lookup(name)) {
				continue
			}
		}
		b.Write(raw)
	}
}
