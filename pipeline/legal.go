package pipeline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/features"
)

// A legal notice is a page's copyright line: "© 2024 Example Times",
// "Copyright 1999-2008 ACME Inc. All rights reserved.", "著作権 2024
// 地域新聞社 無断転載禁止", "版权所有 2024 城市日报". It is never kept,
// under either policy: the models learnt it from English pages, and a
// notice in another language (or one the markup does not put in a
// footer) could score clean.
const (
	// legalReason is NeverKept's reason for a legal notice.
	legalReason = "legal"
	// maxLegalTokens and maxLegalBytes bound a notice: a longer block
	// is a paragraph that mentions copyright.
	maxLegalTokens = 40
	maxLegalBytes  = 400
)

var (
	// rightsPhrases mark a notice wherever they stand in a short block.
	rightsPhrases = []string{
		"all rights reserved", "all right reserved", "alle rechte vorbehalten",
		"tous droits réservés", "todos los derechos reservados", "tutti i diritti riservati",
		"alle rechten voorbehouden", "wszelkie prawa zastrzeżone", "все права защищены",
		"版权所有", "版權所有", "無断転載", "不得转载", "무단 전재", "무단전재",
	}
	// copyrightWords mark a notice with a year at most three tokens on.
	copyrightWords = []string{"©", "(c)", "copyrights", "copyright", "著作権", "저작권"}
	// lawWords after the word "copyright" name a law or its office, not
	// a notice: "Copyright Act 1976", "Copyright Directive 2019".
	lawWords = map[string]bool{
		"act": true, "acts": true, "law": true, "laws": true, "directive": true, "office": true,
		"treaty": true, "convention": true, "reform": true, "amendment": true,
		"regulation": true, "regulations": true, "statute": true, "term": true,
	}
)

// isLegal reports whether text is a legal notice: at most maxLegalTokens
// tokens and maxLegalBytes bytes, holding a phrase of rightsPhrases, or a
// copyright mark followed closely by a year from 1900 to 2099.
//
// A mark is a word of copyrightWords at the start of a token. A mark
// that ends in a letter stands whole: alone, or followed by punctuation,
// a symbol or a digit ("Copyright:", "著作権©2024"), never by a letter
// ("Copyrighted"); "©" and "(c)" may run into a name ("©IDG 2008").
// Its year stands in the same token, after nothing but punctuation and
// symbols ("著作権©2024", not "著作権は2019年"), or in one of the next
// three tokens, with nothing between that reads as running text: a
// closed-class word ("expired in 2019") ends the search, other marks,
// "by" and names do not ("Copyright © Example Corp 2024", "© dpa 2024",
// "Copyright eLearners.com 1999 - 2008"). Marks may run together
// ("Copyright(C)2024"). The word "copyright" followed by a word of
// lawWords names a law ("Copyright Act 1976"), and "(c)" with a
// closed-class word other than "and", "or" and "to" in the two tokens
// after its year is a list letter before a sentence ("(c) 2012 figures
// were revised"): neither is a mark.
func isLegal(text string) bool {
	if len(text) > maxLegalBytes {
		return false
	}
	text = asciiDigits(text)
	tokens := strings.Fields(text)
	if len(tokens) == 0 || len(tokens) > maxLegalTokens {
		return false
	}
	lower := strings.ToLower(strings.Join(tokens, " "))
	for _, p := range rightsPhrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	for i, t := range tokens {
		lower := strings.ToLower(t)
		rest, ok := legalMark(lower)
		if !ok {
			continue
		}
		for { // marks run together: "Copyright(C)2024", "©Copyright2024"
			r, ok := legalMark(rest)
			if !ok {
				break
			}
			rest = r
		}
		if rest == "" && i+1 < len(tokens) && strings.Contains(lower, "copyright") &&
			lawWords[strings.ToLower(strings.TrimRight(tokens[i+1], ",.:;"))] {
			continue // "Copyright Act 1976"
		}
		year := -1
		if leadsToYear(rest) {
			year = i
		}
		for j := i + 1; year < 0 && j < len(tokens) && j <= i+3; j++ {
			if leadsToYear(tokens[j]) {
				year = j
				break
			}
			if proseWord(tokens[j]) {
				break
			}
		}
		if year < 0 {
			continue
		}
		if listLetter(lower) && (year+1 < len(tokens) && sentenceWord(tokens[year+1]) || year+2 < len(tokens) && sentenceWord(tokens[year+2])) {
			continue // "(c) 2012 figures were revised"
		}
		return true
	}
	return false
}

// listLetter reports whether token (in lower case) is the mark "(c)"
// alone, as a list's third item begins: "(c)", "(c)2012" are, "©" and
// "copyright(c)" are not.
func listLetter(token string) bool {
	bare := strings.TrimLeft(token, "\"'[|")
	return strings.HasPrefix(bare, "(c)") && !strings.HasPrefix(strings.TrimPrefix(bare, "(c)"), "copyright")
}

// legalMark reports whether token (in lower case) starts with a whole
// word of copyrightWords, after opening quotes or brackets, and returns
// what follows the word.
func legalMark(token string) (rest string, ok bool) {
	bare := strings.TrimLeft(token, "\"'[|")
	for _, b := range []string{bare, strings.TrimLeft(bare, "(")} {
		for _, w := range copyrightWords {
			if !strings.HasPrefix(b, w) {
				continue
			}
			rest = b[len(w):]
			last, _ := utf8.DecodeLastRuneInString(w)
			r, _ := utf8.DecodeRuneInString(rest)
			if r == '-' { // a compound: "Copyright-Reform"
				r, _ = utf8.DecodeRuneInString(rest[1:])
			}
			if rest == "" || !unicode.IsLetter(last) || !unicode.IsLetter(r) {
				return rest, true
			}
		}
	}
	return "", false
}

// leadsToYear reports whether s holds a year (holdsYear) with no letter
// before it: "2024", "©2024", ":2005", "2024年", but not "in2019" or
// "は2019年".
func leadsToYear(s string) bool {
	i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || (r < 128 && unicode.IsDigit(r)) })
	if i < 0 {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsLetter(r) {
		return false
	}
	return holdsYear(s[i:])
}

// proseWord reports whether token reads as running text between a mark
// and its year: an English closed-class word in lower case other than
// "by" and "the" ("in", "since,"; features.IsStopWord, whose words are
// in lower case). Names, in lower case too ("dpa", "heise online", "de
// Volkskrant"), marks and punctuation are not.
func proseWord(token string) bool {
	t := strings.TrimRight(strings.TrimLeft(token, "\"'(["), ",.:;")
	return t != "by" && t != "the" && features.IsStopWord(t)
}

// sentenceWord reports whether token, after a year, reads as a sentence
// going on: a proseWord other than those that join years ("(c) 2010
// and 2012 Foo Inc.", "2010 to 2012").
func sentenceWord(token string) bool {
	t := strings.TrimRight(strings.TrimLeft(token, "\"'(["), ",.:;")
	return t != "and" && t != "or" && t != "to" && proseWord(t)
}

// holdsYear reports whether token holds a run of exactly four digits from
// 1900 to 2099 ("2024", "©2024", "1999-2008", "2024年").
func holdsYear(token string) bool {
	run := 0
	start := 0
	check := func(end int) bool {
		if run != 4 {
			return false
		}
		y := token[start:end]
		return y[:2] == "19" || y[:2] == "20"
	}
	for i, r := range token {
		if r < 128 && unicode.IsDigit(r) {
			if run == 0 {
				start = i
			}
			run++
			continue
		}
		if check(i) {
			return true
		}
		run = 0
	}
	return check(len(token))
}
