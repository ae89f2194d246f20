package preclean

import (
	"strconv"
	"strings"
)

// offscreenLimit is how far, in CSS pixels, a negative offset or text
// indent must move an element to take it out of sight: the -9999px and
// -999em of the off-left technique, not a negative margin of layout.
const offscreenLimit = 999

// offscreen returns a rule's vote on whether its element is out of
// sight, as the "visually hidden" text of screen readers is (Bootstrap's
// sr-only, WordPress's screen-reader-text: "Skip to content", "Posted
// on", "(opens in a new tab)"), and the off-left and image-replacement
// techniques: positioned absolute or fixed and clipped to nothing
// (clip: rect(0 0 0 0) or of 1px, clip-path: inset(50%)) or shrunk to
// a pixel with its overflow hidden; positioned (relative too) and moved
// offscreenLimit pixels or more to the left, or absolute or fixed and
// moved ten times as far to the top (a containing block far down the
// page could bring a lesser move back into view); or its text indented
// offscreenLimit pixels to the left, which hides the text of a block
// (one the rule floats or displays as a block or inline block too), not
// of an inline element (value "indent", for the caller to tell).
// The vote is prop "offscreen", value "yes" (or "indent"), !important
// where the position (or the indent) is. A rule that sets any of those
// properties, or width, height or overflow, without hiding votes "no",
// so that a more specific rule that puts the element back in place
// (left: 0, position: static, width: auto) wins as in a browser. ok is
// false for a rule that sets none of them.
func offscreen(decls []decl) (d decl, ok bool) {
	get := func(prop string) (decl, bool) {
		for _, d := range decls {
			if d.prop == prop {
				return d, true
			}
		}
		return decl{}, false
	}
	d = decl{prop: "offscreen", value: "no"}
	for _, p := range []string{"position", "clip", "clip-path", "left", "top", "text-indent", "width", "height", "overflow"} {
		if _, set := get(p); set {
			ok = true
		}
	}
	if ti, set := get("text-indent"); set && far(ti.value, 1) {
		v := "indent"
		if d, set := get("display"); set && d.value != "inline" && d.value != "contents" && d.value != "none" {
			v = "yes" // made a block (or inline block) by the same rule
		} else if f, set := get("float"); set && f.value != "none" {
			v = "yes" // floated: a block
		}
		return decl{prop: "offscreen", value: v, important: ti.important}, true
	}
	pos, set := get("position")
	if !set {
		return d, ok
	}
	placed := pos.value == "absolute" || pos.value == "fixed"
	if !placed && pos.value != "relative" {
		return d, ok
	}
	yes := decl{prop: "offscreen", value: "yes", important: pos.important}
	if v, set := get("left"); set && far(v.value, 1) {
		return yes, true
	}
	if !placed {
		return d, ok
	}
	if v, set := get("top"); set && far(v.value, 10) {
		return yes, true
	}
	if c, set := get("clip"); set && clippedRect(c.value) {
		return yes, true
	}
	if c, set := get("clip-path"); set && clippedInset(c.value) {
		return yes, true
	}
	w, wset := get("width")
	h, hset := get("height")
	o, oset := get("overflow")
	if wset && hset && oset && o.value == "hidden" && small(w.value) && small(h.value) {
		return yes, true
	}
	return d, ok
}

// far reports a length of times offscreenLimit pixels or more to the
// left (or top).
func far(v string, times float64) bool {
	x, ok := pixels(v)
	return ok && x <= -offscreenLimit*times
}

// small reports a length of a pixel or less.
func small(v string) bool {
	x, ok := pixels(v)
	return ok && x <= 1
}

// clippedRect reports a clip of rect() that leaves at most a pixel:
// rect(0 0 0 0), rect(0, 0, 0, 0), rect(1px, 1px, 1px, 1px). A side that
// is auto, or in a unit pixels does not read, is no clip to nothing.
func clippedRect(v string) bool {
	inner, ok := strings.CutPrefix(v, "rect(")
	if !ok || !strings.HasSuffix(inner, ")") {
		return false
	}
	parts := strings.FieldsFunc(strings.TrimSuffix(inner, ")"), func(r rune) bool { return r == ',' || r == ' ' })
	if len(parts) != 4 {
		return false
	}
	var x [4]float64
	for i, p := range parts {
		if x[i], ok = pixels(p); !ok {
			return false
		}
	}
	top, right, bottom, left := x[0], x[1], x[2], x[3]
	return right-left <= 1 && bottom-top <= 1
}

// clippedInset reports a clip-path of inset() in percentages whose
// opposite sides meet: inset(50%), inset(50% 0), inset(0 60% 0 40%).
func clippedInset(v string) bool {
	inner, ok := strings.CutPrefix(v, "inset(")
	if !ok {
		return false
	}
	inner, _, _ = strings.Cut(strings.TrimSuffix(inner, ")"), "round")
	f := strings.Fields(inner)
	if len(f) == 0 || len(f) > 4 {
		return false
	}
	var x []float64
	for _, p := range f {
		p, ok := strings.CutSuffix(p, "%")
		if !ok {
			if p != "0" {
				return false
			}
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return false
		}
		x = append(x, v)
	}
	// top, right, bottom, left as the shorthand spreads them.
	var t, r, b, l float64
	switch len(x) {
	case 1:
		t, r, b, l = x[0], x[0], x[0], x[0]
	case 2:
		t, r, b, l = x[0], x[1], x[0], x[1]
	case 3:
		t, r, b, l = x[0], x[1], x[2], x[1]
	default:
		t, r, b, l = x[0], x[1], x[2], x[3]
	}
	return t+b >= 100 || l+r >= 100
}
