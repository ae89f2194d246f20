package pipeline

import (
	"strings"
	"unicode"
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
	copyrightWords = []string{"©", "(c)", "copyright", "著作権", "저작권"}
)

// isLegal reports whether text is a legal notice: at most maxLegalTokens
// tokens and maxLegalBytes bytes, holding a phrase of rightsPhrases, or
// a word of copyrightWords (at the start of a token: "©2024",
// "Copyright:") with a year from 1900 to 2099 in the same token or the
// next three ("Copyright © 2007 The Associated Press").
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
		t = strings.ToLower(t)
		bare := strings.TrimLeft(t, "\"'[|")
		marked := false
		for _, w := range copyrightWords {
			if strings.HasPrefix(bare, w) || strings.HasPrefix(strings.TrimLeft(bare, "("), w) {
				marked = true
				break
			}
		}
		if !marked {
			continue
		}
		for j := i; j < len(tokens) && j <= i+3; j++ {
			if holdsYear(tokens[j]) {
				return true
			}
		}
	}
	return false
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
