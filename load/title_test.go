package load

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// titleAndBody returns the text of the first HTML <title> and of <body>.
func titleAndBody(doc *html.Node) (title, body string) {
	var walk func(n *html.Node)
	found := false
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "title" && !found {
			title, found = docText(n), true
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			body = docText(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return title, body
}

// TestTitleRepair loads pages whose <title> is or is not closed and checks
// what the title and the body hold, and Page.TitleClosed.
func TestTitleRepair(t *testing.T) {
	long := strings.Repeat("x ", minSwallowed)
	for _, c := range []struct {
		name, in     string
		closed       bool
		title, body  string // the title's text; a piece of the body's
		bodyLacks    string // text the body must not hold
		sameAsParsed bool   // the document is html.Parse's own
	}{
		{name: "closed", in: "<title>A</title><p>body text", title: "A", body: "body text", sameAsParsed: true},
		{name: "upper case end tag", in: "<TITLE>A</TITLE ><p>body text", title: "A", body: "body text", sameAsParsed: true},
		{name: "no title", in: "<p>body text", body: "body text", sameAsParsed: true},
		{name: "unclosed", in: "<title>A<p>body text", closed: true, title: "A", body: "body text"},
		{name: "attributes and a newline", in: "<title lang=en>A\n<p>body text", closed: true, title: "A\n", body: "body text"},
		{name: "misspelt end tag", in: "<title>A</titel><p>body text", closed: true, title: "A", body: "body text"},
		{name: "end tag run into a word", in: "<title>A</titlevalue=x><p>body text", closed: true, title: "A", body: "body text"},
		{name: "end tag cut at the end", in: "<html><head><title>A<p>body text</title", closed: true, title: "A", body: "body text"},
		{name: "a second title in the body", in: "<title>A</title><p>one<title>B<p>body text", closed: true, title: "A", body: "body text"},
		{name: "a long swallow ended by an svg title", in: "<title>A<p>body text " + long + "<svg><title>icon</title></svg><p>after", closed: true, title: "A", body: "body text"},
		{name: "self-closing", in: "<html><head><title/></head><body><h1>Heading</h1><p>body text", closed: true, body: "body text"},
		{name: "self-closing with attributes", in: "<title lang=en /><p>body text", closed: true, body: "body text"},
		{name: "self-closing, then text and an end tag", in: "<title/>A</title><p>body text", title: "A", body: "body text", sameAsParsed: true},
		{name: "self-closing in a script string", in: "<title>A</title><script>var t = '<title/>';</script><p>body text", title: "A", body: "body text", sameAsParsed: true},
		{name: "nothing after", in: "<title>A", title: "A", sameAsParsed: true},
		{name: "no markup after", in: "<title>A and b", title: "A and b", sameAsParsed: true},
		{name: "a short title showing a tag", in: "<title>Use <b> for bold</title><p>body text", title: "Use <b> for bold", body: "body text", sameAsParsed: true},
		{name: "svg title without end tag", in: "<p>body text<svg><title>icon</svg><p>more", body: "more", sameAsParsed: true},
		{name: "title in a comment", in: "<!-- <title> --><p>body text", body: "body text", sameAsParsed: true},
		{name: "title in a script string", in: "<title>A</title><script>var t = '<title>';</script><p>body text", title: "A", body: "body text", sameAsParsed: true},
		{name: "title in JSON-LD", in: `<title>A</title><script type="application/ld+json">{"headline":"<title>"}</script><p>body text`, title: "A", body: "body text", sameAsParsed: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Bytes(c.name, []byte(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.TitleClosed != c.closed {
				t.Errorf("TitleClosed = %v, want %v", p.TitleClosed, c.closed)
			}
			title, body := titleAndBody(p.Doc)
			if title != c.title {
				t.Errorf("title %q, want %q", title, c.title)
			}
			if !strings.Contains(body, c.body) {
				t.Errorf("body %q lacks %q", body, c.body)
			}
			if c.sameAsParsed {
				want, err := html.Parse(strings.NewReader(c.in))
				if err != nil {
					t.Fatal(err)
				}
				var a, b strings.Builder
				html.Render(&a, p.Doc)
				html.Render(&b, want)
				if a.String() != b.String() {
					t.Errorf("document changed:\n%s\nwant\n%s", a.String(), b.String())
				}
			}
		})
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
	title, body := titleAndBody(p.Doc)
	if title != "Storm closes the harbour - Coast News" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(body, "The harbour was closed on Sunday") || !strings.Contains(body, "reopen once divers") {
		t.Errorf("the body lacks the article: %q", body)
	}
	// Spliced into a script: the title keeps the script's text up to its
	// first tag, but the article is back in the body.
	p, err = File("testdata/title/spliced-script.html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	title, body = titleAndBody(p.Doc)
	if !p.TitleClosed || !strings.HasPrefix(title, "Gale to drive Nation") {
		t.Errorf("spliced into a script: TitleClosed %v, title %q", p.TitleClosed, title)
	}
	if !strings.Contains(body, "ending weeks of talk") || !strings.Contains(body, "proud to be chosen") {
		t.Errorf("spliced into a script: the body lacks the article: %q", body)
	}
}
