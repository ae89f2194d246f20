package pipeline

import (
	"strings"
	"testing"
)

func TestIsLegal(t *testing.T) {
	long := "The council said that all rights reserved to residents under the old charter " + strings.Repeat("would stay as they were ", 8)
	for _, c := range []struct {
		text string
		want bool
	}{
		{"© 2024 Example Times", true},
		{"©2024 Example Times", true},
		{"Copyright 1999-2008 ACME Inc. All rights reserved.", true},
		{"Copyright © 2007 The Associated Press. All rights reserved. This material may not be published, broadcast, rewritten or redistributed.", true},
		{"(c) 2003 Foo Bar Ltd", true},
		{"Copyright: 2005", true},
		{"Tous droits réservés", true},
		{"著作権 2024 地域新聞社 無断転載禁止", true},
		{"版权所有 2024 城市日报", true},
		{"Copyright ２０２４ 全角", true}, // full-width digits
		{"Copyright © Example Corp 2024", true},
		{"© by Beispiel-Verlag 2019", true},
		{"著作権©2024 地域新聞社", true},
		{"(c)2003 Foo", true},
		{"All contents ©IDG 2008 by IDG Network", true},
		{"Copyright (C) eCanadaNow 2006-2008", true},
		{"Copyright eLearners.com 1999 - 2008", true},
		{"Copyright(C)2024 Nikkei Inc.", true},
		{"著作権(C)2024 地域新聞社", true},
		{"©Copyright2024 X", true},
		{"© dpa 2024", true},
		{"© heise online 2024", true},
		{"© de Volkskrant 2024", true},
		{"Copyrights 2020 Example Inc", true},
		{"Die Copyright-Reform 2019 ist umstritten.", false},
		{"© Reuters", false}, // a credit, no year
		{"Copyright law dates from 1710.", false},
		{"Copyright reform is due in 2025, the minister said.", false},
		{"In 2024 the festival drew record crowds.", false},
		{"Call 2024-555-0101 for tickets (c) now", false},
		{"The copyright expired in 2019, so the film is free to show.", false},
		{"Copyrighted in 1923, the song is now in the public domain.", false},
		{"(c) in 2012 the board met twice", false},
		{"Copyright Act 1976 explained", false},
		{"The Copyright Directive 2019: what changes", false},
		{"(c) 2012 figures were revised upward", false},
		{"(c)2012 figures were revised upward", false},
		{"(c) 2012 by Foo Press", true},
		{"(c) 2012 The Times", true},
		{"Copyright(C)2012 is ours", true}, // not a list letter: the word leads
		{"Copyright 2012 Act Media Ltd", true},
		{"Copyright Bill Smith 2012", true},
		{"Copyright Code Inc. 2019", true},
		{"(c) 2010 and 2012 Foo Inc.", true},
		{"著作権は2019年に失効しました。", false}, // unspaced: the year is in the sentence
		{long, false}, // a paragraph
		{"", false},
	} {
		if got := isLegal(c.text); got != c.want {
			t.Errorf("isLegal(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestHoldsYear(t *testing.T) {
	for _, c := range []struct {
		token string
		want  bool
	}{
		{"2024", true}, {"©1999", true}, {"1999-2008", true}, {"2024年", true}, {"(2001)", true},
		{"1710", false}, {"20245", false}, {"824", false}, {"2100", false}, {"", false},
	} {
		if got := holdsYear(c.token); got != c.want {
			t.Errorf("holdsYear(%q) = %v, want %v", c.token, got, c.want)
		}
	}
}
