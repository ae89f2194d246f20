package load

import "testing"

// TestAddress: the page's own address is its canonical link, else its
// og:url, else its base, wherever the parser put them; relative and
// non-web ones do not count. BaseHref is the first <base href> as
// written, also after a canonical link.
func TestAddress(t *testing.T) {
	for _, c := range []struct{ page, want, base string }{
		{`<html><head><link rel="canonical" href="https://news.example.com/a"><meta property="og:url" content="http://og.example/a"><base href="http://base.example/"></head><body>x</body></html>`, "https://news.example.com/a", "http://base.example/"},
		{`<head><base href="http://base.example/"><meta property="OG:URL" content=" http://og.example/a "></head><p>x`, "http://og.example/a", "http://base.example/"},
		{`<head><link rel="alternate canonical" href="http://two.example/"></head><p>x`, "http://two.example/", ""},
		{`<base href="http://base.example/dir/"><p>x`, "http://base.example/dir/", "http://base.example/dir/"},
		{`<head><link rel="canonical" href="/a/relative"><base href="ftp://files.example/"></head><p>x`, "", "ftp://files.example/"},
		{`<head><link rel="stylesheet" href="http://css.example/s.css"></head><p>x`, "", ""},
		{`<p>x</p><link rel="canonical" href="http://late.example/">`, "http://late.example/", ""},
		{`<html><head><title>t</title><div>stray</div><link REL="Canonical" href="https://early-close.example/x"></head><p>x`, "https://early-close.example/x", ""},
		{`<head><meta name="og:url" content="http://by-name.example/"></head><p>x`, "http://by-name.example/", ""},
		{`<head><link rel="canonical" href="//no-scheme.example/x"><base href="http://b.example/"></head><p>x`, "http://b.example/", "http://b.example/"},
		{`<head><base href="/relative/"></head><p>x<base href="http://second-base.example/">`, "http://second-base.example/", "/relative/"},
		{`<head><link rel="canonical" href="http://c.example/"><base href="x/"></head><p>x`, "http://c.example/", "x/"},
		{`<p>no address at all`, "", ""},
	} {
		p, err := Bytes("t.html", []byte(c.page), Options{})
		if err != nil {
			t.Fatalf("%q: %v", c.page, err)
		}
		if p.Address != c.want || p.BaseHref != c.base {
			t.Errorf("%q: address %q and base %q, want %q and %q", c.page, p.Address, p.BaseHref, c.want, c.base)
		}
	}
}
