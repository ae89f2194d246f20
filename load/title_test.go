package load

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestCloseTitle(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		changed        bool
	}{
		{"closed", "<title>A</title><p>b", "<title>A</title><p>b", false},
		{"upper case end tag", "<TITLE>A</TITLE ><p>b", "<TITLE>A</TITLE ><p>b", false},
		{"end tag with slash", "<title>A</title/><p>b", "<title>A</title/><p>b", false},
		{"no title", "<p>a</p>", "<p>a</p>", false},
		{"unclosed", "<title>A<p>b", "<title>A</title><p>b", true},
		{"attributes", "<title lang=en>A\n<p>b", "<title lang=en>A\n</title><p>b", true},
		{"misspelt end tag", "<title>A</titel><p>b", "<title>A</title></titel><p>b", true},
		{"end tag run into a word", "<title>A</titlevalue=x><p>b", "<title>A</title></titlevalue=x><p>b", true},
		{"nothing after", "<title>A", "<title>A", false},
		{"no markup after", "<title>A and b", "<title>A and b", false},
		{"titles elsewhere", "<p><titled>x</p>", "<p><titled>x</p>", false},
		{"start tag cut", "<title", "<title", false},
	} {
		got, changed := closeTitle(c.in)
		if got != c.want || changed != c.changed {
			t.Errorf("%s: closeTitle(%q) = %q, %v; want %q, %v", c.name, c.in, got, changed, c.want, c.changed)
		}
	}
}

// TestUnclosedTitlePage loads a page whose </title> its crawler spliced
// away: without the repair its whole text is the title's and its body is
// empty.
func TestUnclosedTitlePage(t *testing.T) {
	p, err := File("testdata/title/spliced.html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.TitleClosed {
		t.Error("TitleClosed not set")
	}
	var title, body string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "title" {
			title = docText(n)
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			body = docText(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(p.Doc)
	if title != "Storm closes the harbour - Coast News" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(body, "The harbour was closed on Sunday") || !strings.Contains(body, "reopen once divers") {
		t.Errorf("the body lacks the article: %q", body)
	}
	// A page with its title closed is left alone.
	p, err = Bytes("ok.html", []byte("<title>T</title><p>Text."), Options{})
	if err != nil || p.TitleClosed {
		t.Errorf("a closed title: TitleClosed %v, err %v", p.TitleClosed, err)
	}
}
