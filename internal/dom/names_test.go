package dom

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
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

func TestIsInline(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<p>a<span>b</span><map name="m"></map><spacer>c</spacer><command>d</command><picture></picture><kw>e</kw><x-tag>f</x-tag><div>g</div><table><tr><td>h</td></tr></table><object>i</object></p>`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"span": true, "map": true, "spacer": true, "command": true, "picture": true,
		"kw": true, "x-tag": true, "div": false, "td": false, "table": false, "object": true, "p": false}
	seen := map[string]bool{}
	for n := doc; n != nil; n = Next(doc, n) {
		if n.Type != html.ElementNode {
			continue
		}
		w, ok := want[n.Data]
		if !ok {
			continue
		}
		seen[n.Data] = true
		if got := IsInline(n); got != w {
			t.Errorf("IsInline(<%s>) = %v, want %v", n.Data, got, w)
		}
		if got := IsInlineAtom(n.DataAtom); got != w {
			t.Errorf("IsInlineAtom(%s) = %v, want %v", n.Data, got, w)
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("<%s> not in the test page", k)
		}
	}
}
