package pipeline

import (
	"strings"
	"unicode/utf8"
)

// cjkUnits are the units a Chinese, Japanese or Korean date writes after
// its numbers: 2024年2月4日, 15時30分, 2024년 2월 4일, 오후 3시 15분.
var cjkUnits = map[string]stampKind{
	"年": stampYear, "년": stampYear,
	"月": stampMonth, "월": stampMonth,
	"日": stampDay, "일": stampDay, "号": stampDay,
	"時": stampTime, "时": stampTime, "시": stampTime,
	"分": stampTime, "분": stampTime,
	"秒": stampTime, "초": stampTime,
}

// cjkStamp is the kind of a token that is a Chinese, Japanese or Korean
// date or time, numbers each followed by its unit (cjkUnits), a weekday
// in brackets after it ("2024年2月4日（日）", "(월)"): one number and unit
// is a year (1900 to 2099), a month (1 to 12), a day (1 to 31) or a time;
// several are a date where a month is among them with a day or a year,
// and a time where they are hours and minutes. stampNone for anything
// else.
func cjkStamp(t string) stampKind {
	// A weekday in brackets, after the date or on its own; its closing
	// bracket may be gone (stampToken trims an ASCII one).
	for _, open := range []string{"（", "("} {
		i := strings.LastIndex(t, open)
		if i < 0 {
			continue
		}
		inner := strings.TrimSuffix(strings.TrimSuffix(t[i+len(open):], "）"), ")")
		if !stampOthers[inner] {
			break
		}
		if i == 0 {
			return stampOther
		}
		t = t[:i]
		if k := stampNumber(t); k == stampDate {
			return k // 2024.02.04(일)
		}
		break
	}
	var seen [stampKinds]bool
	for _, m := range []string{"午前", "午後", "上午", "下午", "오전", "오후"} {
		if rest, ok := strings.CutPrefix(t, m); ok && rest != "" {
			t = rest // 午後3時15分: the hours then count as a time
			seen[stampMeridiem] = true
			break
		}
	}
	n, hours, minutesOnly := 0, false, false
	for t != "" {
		i := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i > 4 {
			return stampNone
		}
		num := t[:i]
		r, size := utf8.DecodeRuneInString(t[i:])
		if r == utf8.RuneError {
			return stampNone
		}
		unit := t[i : i+size]
		k, ok := cjkUnits[unit]
		if !ok {
			return stampNone
		}
		v := atoi(num)
		hour := k == stampTime && cjkHours[unit]
		switch {
		case k == stampYear && !isYear(num),
			k == stampMonth && (len(num) > 2 || v < 1 || v > 12),
			k == stampDay && (len(num) > 2 || v < 1 || v > 31),
			hour && (len(num) > 2 || v > 24),
			k == stampTime && !hour && (len(num) > 2 || v > 59):
			return stampNone
		}
		if k == stampTime && !hour && !hours {
			if n > 0 {
				return stampNone // minutes before the hours
			}
			minutesOnly = true
		}
		hours = hours || hour
		seen[k] = true
		n++
		t = t[i+size:]
	}
	switch {
	case n == 0:
		return stampNone
	case minutesOnly:
		// 15분, 30秒: minutes or seconds whose hours, if any, stand in
		// the token before ("3시 15분"); isStamp decides.
		if n > 1 || seen[stampMeridiem] {
			return stampNone
		}
		return stampMinutes
	case seen[stampTime] && !seen[stampYear] && !seen[stampMonth] && !seen[stampDay]:
		return stampTime // 3時, 15時30分, 午後3時
	case seen[stampMeridiem]:
		return stampNone // 午後 before a date
	case n == 1:
		for _, k := range []stampKind{stampYear, stampMonth, stampDay} {
			if seen[k] {
				return k
			}
		}
	case seen[stampMonth] && (seen[stampDay] || seen[stampYear]):
		return stampDate
	}
	return stampNone
}

// cjkHours are the units of cjkUnits that count hours.
var cjkHours = map[string]bool{"時": true, "时": true, "시": true}

// asciiDigits returns s with its full-width digits (０ to ９) and colons,
// as Chinese and Japanese pages write dates and times, made ASCII.
func asciiDigits(s string) string {
	if !strings.ContainsAny(s, "０１２３４５６７８９：") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return '0' + (r - '０')
		case r == '：':
			return ':'
		}
		return r
	}, s)
}
