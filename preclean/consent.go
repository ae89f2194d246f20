package preclean

import (
	"strings"

	"github.com/fiasco-project/fiasco/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxConsentWords is the most words an element that names a cookie notice
// only by common words ("cookie-banner", "consent") may hold to be dropped
// as one: a page about cookies or about informed consent whose content
// element is so named keeps it. Elements of a consent manager named by
// its vendor (OneTrust, Cookiebot, ...) are dropped whatever they hold:
// their preference centres run to hundreds of words.
const MaxConsentWords = 300

// consentVendors are the class and id words of consent managers' banners
// and preference centres (after splitting at punctuation and case
// changes: "CybotCookiebotDialog" is cybot, cookiebot, dialog).
var consentVendors = map[string]bool{
	"onetrust": true, "cookiebot": true, "usercentrics": true, "didomi": true,
	"iubenda": true, "osano": true, "tarteaucitron": true, "cookiefirst": true,
	"cookieyes": true, "cmplz": true, "borlabs": true, "termly": true,
	"truste": true, "trustarc": true, "cookielaw": true, "cookieconsent": true,
}

// consentExact are whole class or id values of consent banners whose
// words alone say too little ("cc-window": Osano's cookieconsent;
// "qc-cmp2-container": Quantcast; "fc-consent-root": Google's).
var consentExact = map[string]bool{
	"cc-window": true, "cc-banner": true, "qc-cmp2-container": true, "qc-cmp2-ui": true,
	"fc-consent-root": true, "sp_message_container": true,
}

// cookieWith are the words that make an element named "cookie",
// "cookies", "consent" or "gdpr" a notice ("cookie-banner",
// "cookie-law-info-bar", "gdpr-consent": two of those words do as well)
// rather than a recipe's category ("category-cookies") or a study's
// "informed-consent" section.
var cookieWith = map[string]bool{
	"banner": true, "notice": true, "bar": true, "popup": true, "pop": true,
	"modal": true, "dialog": true, "overlay": true, "law": true, "wall": true,
	"notification": true, "alert": true, "message": true, "disclaimer": true,
	"warning": true, "prompt": true, "accept": true, "settings": true,
	"preferences": true, "manager": true, "toast": true,
}

// consentNotice reports whether n is a cookie or consent notice by its
// class, id or accessible name: by a consent manager's name (consentVendors,
// consentExact), or by common words (cookieWith: "cookie-banner", "gdpr-notice",
// role="dialog" aria-label="Cookie consent") when it holds at most
// MaxConsentWords words; in either case only when it holds a word. A
// post's taxonomy classes ("tag-cookie-law", "category-cookies") name
// what it is about and are not read; the document's skeleton and its
// main content elements (<html>, <body>, <main>, <article>) are never
// one.
func consentNotice(n *html.Node) bool {
	if n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Body, atom.Main, atom.Article:
		return false
	}
	vendor, common := false, false
	dialog := false
	var label string
	// names reads a class or id value, or a custom element's name
	// (<cookie-banner>, <consent-manager>), which names it as a class
	// does.
	names := func(val string) {
		for _, v := range strings.Fields(val) {
			lv := strings.ToLower(v)
			if strings.HasPrefix(lv, "tag-") || strings.HasPrefix(lv, "category-") {
				continue // a post's taxonomy (WordPress's tag-cookie-law): what it is about
			}
			if consentExact[lv] || strings.HasPrefix(lv, "sp_message_container_") {
				vendor = true
			}
			subjects, with := 0, false
			for _, w := range dom.NameWords(v) {
				switch {
				case consentVendors[w]:
					vendor = true
				case w == "cookie" || w == "cookies" || w == "consent" || w == "gdpr":
					subjects++
				case cookieWith[w]:
					with = true
				}
			}
			if subjects >= 2 || subjects == 1 && with {
				common = true
			}
		}
	}
	if customName(n) {
		names(n.Data)
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "id":
			names(a.Val)
		case "role":
			dialog = a.Val == "dialog" || a.Val == "alertdialog"
		case "aria-label":
			label = strings.ToLower(a.Val)
		}
	}
	if dialog && (strings.Contains(label, "cookie") || strings.Contains(label, "consent")) {
		common = true
	}
	if !vendor && !common {
		return false
	}
	// An empty placeholder, which a script fills, is left as it is: it
	// shows nothing.
	words := wordCount(n, MaxConsentWords+1)
	return words > 0 && (vendor || words <= MaxConsentWords)
}

// wordCount returns the number of white-space separated words of the
// text below n (a script's or a style's aside), counting up to limit.
func wordCount(n *html.Node, limit int) int {
	return dom.Words(n, limit, func(e *html.Node) bool {
		return e.Namespace == "" && dropped[e.DataAtom] || isObject(e) && !pluginObject(e)
	})
}
