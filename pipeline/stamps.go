package pipeline

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/dom"
)

// A time stamp is a block whose whole text dates something: "05-06-2005,
// 05:41 PM" above a forum post, "Posted: Thu Jul 26, 2007 5:12 pm",
// "Last updated at 13:25 GMT", an archive's "April 2005". Under the
// corpus policy (CleanEval's) such a block is never kept, as the gold of
// CleanEval's own annotators drops it: of the words of stamps that are
// no heading, CleanEval dev's gold keeps 9% (98 of 1,074; 60 of them on
// one forum page), CleanPortalEval's none of 486 and KrdWrd's none of
// 1,099. A heading that is a date (a blog's "December 26, 2006" above the
// day's posts), a table's header cell or an element in the role of a
// heading is left to the model: the gold keeps most of those.
// The article policy leaves stamps to its models too: L3S-GN1's and
// Dragnet's gold keep an article's dateline about half the time
// (RESULTS.md, "Time stamps").
const (
	// stampReason is NeverKept's reason for a time stamp.
	stampReason = "stamp"
	// maxStampTokens is the most white-space separated tokens a stamp has.
	maxStampTokens = 12
)

// stampKind is what a token of a stamp is.
type stampKind uint8

const (
	stampNone     stampKind = iota // not a word of stamps
	stampOther                     // a connecting word, separator, weekday, zone, a count in brackets
	stampMeridiem                  // am, pm, a.m., p.m.
	stampDay                       // a day's number, 1 to 31, or its ordinal (9th)
	stampYear                      // 1900 to 2099
	stampMonth                     // a month's name or its abbreviation
	stampDate                      // three numbers: 05-06-2005, 2012-11-08, 15.01.08
	stampTime                      // 5:12, 12:59am, 22:15:03
	stampMinutes                   // minutes or seconds of a CJK time in a token of their own (15분 after 3시), a time only after hours
	stampKinds
)

var (
	stampMonths = wordSet("jan feb mar apr may jun jul aug sep sept oct nov dec " +
		"january february march april june july august september october november december")
	stampOthers = wordSet("mon tue tues wed thu thur thurs fri sat sun " +
		"monday tuesday wednesday thursday friday saturday sunday today yesterday " +
		"gmt utc edt est cdt cst mdt mst pdt pst bst cet cest et ct pt " +
		"date posted updated published modified last on at | - – — · • @ , " +
		// Chinese, Japanese and Korean weekdays, written out or in brackets
		// after a date (cjkStamp takes the brackets off).
		"日曜日 月曜日 火曜日 水曜日 木曜日 金曜日 土曜日 日 月 火 水 木 金 土 " +
		"星期日 星期一 星期二 星期三 星期四 星期五 星期六 周日 周一 周二 周三 周四 周五 周六 " +
		"일요일 월요일 화요일 수요일 목요일 금요일 토요일 일 월 화 수 목 금 토 " +
		"投稿日 投稿日時 更新日 更新日時 发布时间 发表于 작성일")
	stampMeridiems = wordSet("am pm a.m. p.m. 午前 午後 上午 下午 오전 오후")
	// meridiemSuffixes are am and pm glued to a time: 12:59am, 6:19a.m., 5pm.
	meridiemSuffixes = []string{"am", "pm", "a.m", "p.m"}
)

// wordSet returns the set of the white-space separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isStamp reports whether text is a time stamp: at most maxStampTokens
// tokens, each a word of stamps (stampKind, without the brackets around
// it or the punctuation after it), among them a numeric date, a time
// (a day's number before am or pm is one: "5 pm"), or a month's name
// with a day or a year. Its words are English, or the numbers and units
// of a Chinese, Japanese or Korean date (cjkStamp): "2024年2月4日（日）",
// "2024년 2월 4일", "午後3時15分".
func isStamp(text string) bool {
	text = asciiDigits(text)
	if len(text) > 120 || !strings.ContainsAny(text, "0123456789") {
		return false
	}
	tokens := strings.Fields(text)
	if len(tokens) == 0 || len(tokens) > maxStampTokens {
		return false
	}
	var seen stampSeen
	prev := stampNone
	for _, t := range tokens {
		k := inContext(stampToken(strings.ToLower(t)), prev)
		if k == stampNone {
			return false
		}
		seen[k], prev = true, k
	}
	return seen.dated()
}

// stampSeen records the kinds of a text's stamp words.
type stampSeen [stampKinds]bool

// dated reports whether the kinds seen date something: a numeric date, a
// time, or a month's name with a day or a year.
func (seen *stampSeen) dated() bool {
	return seen[stampDate] || seen[stampTime] || seen[stampMonth] && (seen[stampDay] || seen[stampYear])
}

// inContext is the kind k of a token after a token of kind prev: a day's
// number before am or pm is a time ("5 pm"), and so are minutes after
// hours (15분 after 3시, cjkStamp); minutes alone are a duration, no
// stamp's word.
func inContext(k, prev stampKind) stampKind {
	switch {
	case k == stampMeridiem && prev == stampDay:
		return stampTime
	case k == stampMinutes && prev == stampTime:
		return stampTime
	case k == stampMinutes:
		return stampNone
	}
	return k
}

// stampToken is the kind of a lower-cased token.
func stampToken(t string) stampKind {
	if stampOthers[t] {
		return stampOther // before the trimming: "-", ","
	}
	if stampMeridiems[t] {
		return stampMeridiem // before the trimming: "a.m."
	}
	if len(t) > 2 && t[0] == '(' && t[len(t)-1] == ')' && allDigits(t[1:len(t)-1]) {
		return stampOther // an archive's count of posts: "November 2010 (32)"
	}
	t = strings.TrimLeft(t, "([")
	t = strings.TrimRight(t, ")],.:;")
	switch {
	case t == "":
		return stampNone
	case stampOthers[t]:
		return stampOther
	case stampMeridiems[t] || stampMeridiems[t+"."]:
		return stampMeridiem
	case stampMonths[t]:
		return stampMonth
	}
	if k := stampNumber(t); k != stampNone {
		return k
	}
	for _, s := range meridiemSuffixes {
		if rest, ok := strings.CutSuffix(t, s); ok {
			if k := stampNumber(rest); k == stampTime || k == stampDay && allDigits(rest) && atoi(rest) <= 12 {
				return stampTime
			}
		}
	}
	// ISO 8601's date and time: 2012-11-08t10:00 (lower-cased).
	if d, tm, ok := strings.Cut(t, "t"); ok && stampNumber(d) == stampDate && stampNumber(tm) == stampTime {
		return stampDate
	}
	// A label glued to its date by a colon: 发布时间:2024-02-04 (a
	// full-width colon made ASCII by isStamp), posted:2012-11-08.
	if label, rest, ok := strings.Cut(t, ":"); ok && rest != "" && stampOthers[label] {
		return stampToken(rest)
	}
	return cjkStamp(t)
}

// stampNumber is the kind of a token of digits: a day (1 to 31, or its
// ordinal), a year (1900 to 2099), a date of three numbers parted by -,
// / or . (year, month, day; or day and month either way round, then the
// year), or a time of two or three numbers parted by colons (hours to 24,
// minutes and seconds to 59).
func stampNumber(t string) stampKind {
	if suffix := ordinalSuffix(t); suffix != "" {
		if n := atoi(t[:len(t)-len(suffix)]); n >= 1 && n <= 31 {
			return stampDay
		}
		return stampNone
	}
	parts, sep := splitDigits(t)
	switch {
	case len(parts) == 1:
		p := parts[0]
		if n := atoi(p); len(p) <= 2 && n >= 1 && n <= 31 {
			return stampDay
		}
		if isYear(p) {
			return stampYear
		}
	case sep == ':' && (len(parts) == 2 || len(parts) == 3):
		if len(parts[0]) <= 2 && atoi(parts[0]) <= 24 && minutes(parts[1]) && (len(parts) == 2 || minutes(parts[2])) {
			return stampTime
		}
	case sep != ':' && len(parts) == 3:
		if numericDate(parts[0], parts[1], parts[2]) {
			return stampDate
		}
	}
	return stampNone
}

// numericDate reports whether a, b, c are a date: year, month, day; or
// day and month in either order, then a year of two or four digits.
func numericDate(a, b, c string) bool {
	month := func(s string) bool { n := atoi(s); return len(s) <= 2 && n >= 1 && n <= 12 }
	day := func(s string) bool { n := atoi(s); return len(s) <= 2 && n >= 1 && n <= 31 }
	if isYear(a) {
		return month(b) && day(c)
	}
	return (len(c) == 2 || isYear(c)) && (month(a) && day(b) || day(a) && month(b))
}

// ordinalSuffix is the suffix of the ordinal of the number t begins with
// (1st, 2nd, 3rd, 4th, 11th, 21st), or "" where t is not so spelt.
func ordinalSuffix(t string) string {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 2 || len(t)-i != 2 {
		return ""
	}
	n := atoi(t[:i])
	want := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			want = "st"
		case 2:
			want = "nd"
		case 3:
			want = "rd"
		}
	}
	if t[i:] != want {
		return ""
	}
	return want
}

// isYear reports whether p is a year from 1900 to 2099.
func isYear(p string) bool {
	return len(p) == 4 && allDigits(p) && (p[:2] == "19" || p[:2] == "20")
}

// minutes reports whether p is two digits from 00 to 59.
func minutes(p string) bool {
	return len(p) == 2 && allDigits(p) && p[0] <= '5'
}

// allDigits reports whether p is ASCII digits only, at least one.
func allDigits(p string) bool {
	if p == "" {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
	}
	return true
}

// atoi is the value of a string of at most four digits (allDigits), -1
// for anything else.
func atoi(p string) int {
	if len(p) > 4 || !allDigits(p) {
		return -1
	}
	n, _ := strconv.Atoi(p)
	return n
}

// splitDigits splits t at one kind of separator (-, /, . or :) into its
// parts, each of one or more digits; nil when t is anything else.
func splitDigits(t string) (parts []string, sep byte) {
	start := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
		case c == '-' || c == '/' || c == '.' || c == ':':
			if sep != 0 && c != sep || i == start {
				return nil, 0
			}
			sep = c
			parts = append(parts, t[start:i])
			start = i + 1
		default:
			return nil, 0
		}
	}
	if start == len(t) {
		return nil, 0
	}
	return append(parts, t[start:]), sep
}

// headingLike reports whether n is a heading, a table's header cell or
// an element in the role of a heading: a time stamp there is left to the
// model.
func headingLike(n *html.Node) bool {
	if n == nil {
		return false
	}
	if dom.IsHeading(n) || n.Type == html.ElementNode && n.DataAtom == atom.Th {
		return true
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == "role" && strings.EqualFold(strings.TrimSpace(a.Val), "heading") {
			return true
		}
	}
	return false
}

// neverFor is NeverKept(d) as it holds for m: a time stamp or a byline is
// never kept under the corpus policy only (a model whose policy is empty was trained
// under the default one, the corpus policy).
func neverFor(m *classify.Model, d *Doc) []string {
	never := NeverKept(d)
	if never == nil || m == nil || !strings.EqualFold(m.Info.Policy, classify.PolicyArticle) {
		return never
	}
	var out []string
	for i, r := range never {
		if r == "" || r == stampReason || r == bylineReason {
			continue
		}
		if out == nil {
			out = make([]string, len(never))
		}
		out[i] = r
	}
	return out
}
