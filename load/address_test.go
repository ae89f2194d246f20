package load

import "testing"

// TestAddress: the page's own address is its canonical link, else its
// og:url, else its base, wherever the parser put them; relative and
// non-web ones do not count.
func TestAddress(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{`<html><head><link rel="canonical" href="https://news.example.com/a"><meta property="og:url" content="http://og.example/a"><base href="http://base.example/"></head><body>x</body></html>`, "https://news.example.com/a"},
		{`<head><base href="http://base.example/"><meta property="OG:URL" content=" http://og.example/a "></head><p>x`, "http://og.example/a"},
		{`<head><link rel="alternate canonical" href="http://two.example/"></head><p>x`, "http://two.example/"},
		{`<base href="http://base.example/dir/"><p>x`, "http://base.example/dir/"},
		{`<head><link rel="canonical" href="/a/relative"><base href="ftp://files.example/"></head><p>x`, ""},
		{`<head><link rel="stylesheet" href="http://css.example/s.css"></head><p>x`, ""},
		{`<p>x</p><link rel="canonical" href="http://late.example/">`, "http://late.example/"},
		{`<html><head><title>t</title><div>stray</div><link REL="Canonical" href="https://early-close.example/x"></head><p>x`, "https://early-close.example/x"},
		{`<head><meta name="og:url" content="http://by-name.example/"></head><p>x`, "http://by-name.example/"},
		{`<head><link rel="canonical" href="//no-scheme.example/x"><base href="http://b.example/"></head><p>x`, "http://b.example/"},
		{`<head><base href="/relative/"></head><p>x<base href="http://second-base.example/">`, "http://second-base.example/"},
		{`<p>no address at all`, ""},
	} {
		p, err := Bytes("t.html", []byte(c.page), Options{})
		if err != nil {
			t.Fatalf("%q: %v", c.page, err)
		}
		if p.Address != c.want {
			t.Errorf("%q: address %q, want %q", c.page, p.Address, c.want)
		}
	}
}
