package render

import "testing"

// TestUsableURL: the URLs a page may render at are the absolute http and
// https URLs that Chromium navigates to; url.Parse takes more.
func TestUsableURL(t *testing.T) {
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"", true},
		{"http://example.org/a?b=1#c", true},
		{"https://[::1]:8443/", true},
		{"http://example.org:65535/", true},
		{"http://[::1]:99999/", false},
		{"http://example.org:0/", false},
		{"http://:80/", false},
		{"ftp://example.org/", false},
		{"dns:example.org", false},
		{"/relative/page.html", false},
	} {
		if got := UsableURL(c.url); got != c.want {
			t.Errorf("UsableURL(%q) = %v, want %v", c.url, got, c.want)
		}
	}
}
