package preclean

import (
	"strconv"
	"strings"
)

// mediaCond says whether a media query list applies to a screen
// ViewportWidth pixels wide: condMet where one of its queries does,
// condUnknown where none does but one may, condUnmet where none can. A
// query applies when its media type is absent, all or screen and each of
// its conditions is met; a width condition (min-width, max-width, and
// the range syntax "width >= 48rem", in px, em or rem) is met or not;
// any other (orientation, resolution, hover, colour scheme), and a
// negated query, is unknown.
func mediaCond(list string) cond {
	list = strings.ToLower(strings.TrimSpace(list))
	if list == "" {
		return condMet
	}
	best := condUnmet
	for _, q := range splitTop(list, ',') {
		best = min(best, queryCond(strings.TrimSpace(q)))
	}
	return best
}

func queryCond(q string) cond {
	switch {
	case q == "":
		return condUnmet
	case strings.HasPrefix(q, "not "):
		return condUnknown
	}
	q = strings.TrimPrefix(q, "only ")
	c := condMet
	for _, part := range splitTop(q, ' ') {
		part = strings.TrimSpace(part)
		switch {
		case part == "" || part == "and" || part == "all" || part == "screen":
		case strings.HasPrefix(part, "(") && strings.HasSuffix(part, ")"):
			c = max(c, featureCond(part[1:len(part)-1]))
		case nameByte(part[0]) && !strings.ContainsAny(part, "()"):
			return condUnmet // print, speech, a media type not the screen
		default:
			c = max(c, condUnknown)
		}
	}
	return c
}

// featureCond evaluates one media feature: "min-width: 768px",
// "max-width:60em", "width >= 48rem", "40em < width".
func featureCond(f string) cond {
	f = strings.TrimSpace(f)
	if name, value, ok := strings.Cut(f, ":"); ok {
		w, ok := pixels(value)
		if !ok {
			return condUnknown
		}
		switch strings.TrimSpace(name) {
		case "min-width", "min-device-width":
			return met(ViewportWidth >= w)
		case "max-width", "max-device-width":
			return met(ViewportWidth <= w)
		case "width", "device-width":
			return met(ViewportWidth == w)
		}
		return condUnknown
	}
	// The range syntax: width OP value, or value OP width.
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		left, right, ok := strings.Cut(f, op)
		if !ok {
			continue
		}
		left, right = strings.TrimSpace(left), strings.TrimSpace(right)
		if strings.ContainsAny(right, "<>=") {
			return condUnknown // a < width < b
		}
		if right == "width" {
			left, right, op = right, left, flip(op)
		}
		w, ok := pixels(right)
		if left != "width" || !ok {
			return condUnknown
		}
		switch op {
		case ">=":
			return met(ViewportWidth >= w)
		case "<=":
			return met(ViewportWidth <= w)
		case ">":
			return met(ViewportWidth > w)
		case "<":
			return met(ViewportWidth < w)
		}
		return met(ViewportWidth == w)
	}
	return condUnknown
}

func met(b bool) cond {
	if b {
		return condMet
	}
	return condUnmet
}

// flip returns the operator that says the same with its sides swapped.
func flip(op string) string {
	switch op {
	case ">=":
		return "<="
	case "<=":
		return ">="
	case ">":
		return "<"
	case "<":
		return ">"
	}
	return op
}

// pixels reads a length in px, em or rem (16px), or a bare 0.
func pixels(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	scale := 1.0
	switch {
	case strings.HasSuffix(v, "px"):
		v = v[:len(v)-2]
	case strings.HasSuffix(v, "rem"):
		v, scale = v[:len(v)-3], 16
	case strings.HasSuffix(v, "em"):
		v, scale = v[:len(v)-2], 16
	case v != "0" && v != "-0":
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, false
	}
	return x * scale, true
}
