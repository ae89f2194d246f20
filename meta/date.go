package meta

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// zoned are the layouts of dates with a time and a zone offset (or a zone
// abbreviation); ParseDate writes them in RFC 3339.
var zoned = []string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04Z0700",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05Z07",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 MST",
	"2006/01/02T15:04:05Z07:00",
	time.RFC1123,
	time.RFC1123Z,
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 -0700",
	"January 2, 2006 15:04:05 MST",
	"January 2, 2006 3:04 PM MST",
	time.UnixDate,
	time.RubyDate,
	time.RFC850,
}

// dated are the layouts of dates without a zone (or without a time);
// ParseDate writes them as YYYY-MM-DD.
var dated = []string{
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006-1-2 15:04:05",
	"2006-1-2 15:04",
	"2006-1-2",
	"2006/01/02 15:04:05",
	"2006/01/02",
	"2006.01.02",
	"20060102",
	"200601021504",
	"02.01.2006",
	"2.1.2006",
	"January 2, 2006",
	"January 2 2006",
	"Jan 2, 2006",
	"Jan 2 2006",
	"2 January 2006",
	"2 Jan 2006",
	"Monday, January 2, 2006",
	"Monday, January 2, 2006, 3:04 PM",
	"Monday, January 2, 2006 3:04 PM",
	"Monday, 2 January 2006",
	"Monday 2 January 2006",
	"Monday, 2 January, 2006",
	"Mon, Jan 2, 2006",
	"Mon, 2 Jan 2006",
	"January 2, 2006 3:04 PM",
	"January 2, 2006 15:04",
	"Jan 2, 2006 3:04 PM",
	"Jan 2, 2006 15:04",
}

// ParseDate reads a date as pages write it (ISO 8601 and RFC 3339, RFC
// 1123, "January 2, 2006", "2.1.2006" and others; see date.go). It
// returns the date in RFC 3339 when s gives a time and a known zone
// offset, else as YYYY-MM-DD (a time without a zone, or with a zone
// abbreviation other than UTC or GMT, keeps its day only); ok is false
// when s is none of these or its year is not between 1900 and 2199.
func ParseDate(s string) (date string, ok bool) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || len(s) > 64 {
		return "", false
	}
	// "Jan. 2, 2006", "Sept 2" and "2nd" are common; the layouts want
	// "Jan 2".
	s = strings.Replace(s, ". ", " ", 1)
	s = strings.Replace(s, "Sept ", "Sep ", 1)
	s = ordinal.ReplaceAllString(s, "$1")
	if d, ok := slashDate(s); ok {
		return d, true
	}
	for _, l := range zoned {
		t, err := time.ParseInLocation(l, s, time.UTC)
		if err != nil || !plausible(t) {
			continue
		}
		name, off := t.Zone()
		if off == 0 && name != "UTC" && name != "GMT" && name != "UT" && name != "Z" {
			return t.Format(time.DateOnly), true // an abbreviation Go does not know
		}
		return t.Format(time.RFC3339), true
	}
	for _, l := range dated {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil && plausible(t) {
			return t.Format(time.DateOnly), true
		}
	}
	return "", false
}

// ordinal matches a day with its English ordinal suffix.
var ordinal = regexp.MustCompile(`\b([0-9]{1,2})(?:st|nd|rd|th)\b`)

// slashed matches a date written D/M/YYYY or M/D/YYYY, maybe followed by
// a time.
var slashed = regexp.MustCompile(`^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})(?:[ T,]|$)`)

// slashDate reads a date written with slashes and a four-digit year when
// the order of day and month is plain: one of the two is above 12, or both
// are the same.
func slashDate(s string) (string, bool) {
	m := slashed.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	switch {
	case a > 12 && b <= 12:
		a, b = b, a // day first
	case a <= 12 && b > 12, a == b:
	default:
		return "", false
	}
	t, err := time.Parse(time.DateOnly, fmt.Sprintf("%s-%02d-%02d", m[3], a, b))
	if err != nil || !plausible(t) {
		return "", false
	}
	return t.Format(time.DateOnly), true
}

func plausible(t time.Time) bool {
	return t.Year() >= 1900 && t.Year() < 2200
}
