package preclean

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestConsentLength: an element named a cookie notice by common words
// is dropped up to MaxConsentWords words and kept beyond (a page about
// cookies whose content is so named); one named by a consent manager is
// dropped whatever it holds.
func TestConsentLength(t *testing.T) {
	for _, c := range []struct {
		attr  string
		words int
		drop  bool
	}{
		{`class="cookie-notice"`, MaxConsentWords, true},
		{`class="cookie-notice"`, MaxConsentWords + 1, false},
		{`id="onetrust-pc-sdk"`, 3 * MaxConsentWords, true},
		{`class="cookie-notice"`, 0, false},
		// What a page is about, not a notice: a post's taxonomy classes,
		// a region (not a dialog) named for cookies, a study's consent
		// text.
		{`class="post tag-cookie-consent tag-cookie-law category-cookieconsent"`, 30, false},
		{`role="region" aria-label="Cookie recipes"`, 30, false},
		{`role="dialog" aria-label="Cookie recipes"`, 30, true},
		{`id="consent-box"`, 30, false},
		{`class="GDPRBanner"`, 30, true},
	} {
		page := `<html><body><div ` + c.attr + `><p>` + strings.Repeat("word ", c.words) + `<script>var a = "not words a reader sees";</script></p></div><p>After.</p></body></html>`
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		st, err := CleanStats(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Consent == 1; got != c.drop {
			t.Errorf("<div %s> of %d words: dropped %v, want %v", c.attr, c.words, got, c.drop)
		}
	}
}
