package dom

import (
	"slices"
	"testing"
)

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"CybotCookiebotDialog", []string{"cybot", "cookiebot", "dialog"}},
		{"cookie-law-info-bar", []string{"cookie", "law", "info", "bar"}},
		{"sp_message_container_1234", []string{"sp", "message", "container", "1234"}},
		{"__docusaurus_skipToContent_fallback", []string{"docusaurus", "skip", "to", "content", "fallback"}},
		{"HTML5", []string{"html5"}},
		{"GDPRBanner", []string{"gdpr", "banner"}},
		{"myGDPR", []string{"my", "gdpr"}},
		{"a\xffB", []string{"a", "b"}},
		{"", nil},
	} {
		if got := NameWords(c.in); !slices.Equal(got, c.want) {
			t.Errorf("NameWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
