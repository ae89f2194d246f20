package preclean

import "testing"

func TestStripInvisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"ban\u00adner", "banner"},
		{"zero\u200bwidth\u2060joined\ufeff", "zerowidthjoined"},
		{"ctrl\x01\x1b\x7f end\t\n\v\f\r", "ctrl end\t\n\v\f\r"},
		{"c1 \u0080\u009f ok \u00a0\u00e9", "c1  ok \u00a0\u00e9"},
		{"one\u0085two", "one\u0085two"}, // white space: stays a word break
		{"\u200d\u200c joiners stay", "\u200d\u200c joiners stay"},
		{"bad \xc2 byte \xe2\x80", "bad \xc2 byte \xe2\x80"},
		{"\u200b", ""},
		{"ภาษา\u200bไทย and\u200bmore", "ภาษา\u200bไทย andmore"}, // a Thai word break stays
	} {
		if got := stripInvisible(c.in); got != c.want {
			t.Errorf("stripInvisible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestInvisibleParagraphs: a paragraph that holds only invisible
// characters is no block, and the words of the others lose them.
func TestInvisibleParagraphs(t *testing.T) {
	got := cleanBlocks(t, `<body><p>&#8203;</p><p>&shy;</p><p>&#xFEFF;&#x2060;</p><p>The ban&shy;ner said zero&#8203;width.</p></body>`)
	if len(got) != 1 || got[0] != "The banner said zerowidth." {
		t.Errorf("blocks %q, want one: %q", got, "The banner said zerowidth.")
	}
}
