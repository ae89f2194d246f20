package load

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func countNodes(n *html.Node) int {
	c := 1
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c += countNodes(k)
	}
	return c
}

// TestFormattingBomb: formatting elements left open in numbers that the
// parser would reopen after every block lose their tags, the text kept;
// pages that close theirs, or hold such tags in scripts and comments,
// are parsed as written.
func TestFormattingBomb(t *testing.T) {
	var bomb, fonts strings.Builder
	bomb.WriteString("<html><body>")
	for i := range 400 {
		fmt.Fprintf(&bomb, "<b class=c%d>", i) // distinct: the parser's limit of three alike does not apply
	}
	for range 3000 {
		bomb.WriteString("<p>x</p>")
	}
	// A forum whose every post opens a <font> of its own colour.
	fonts.WriteString("<html><body>")
	for i := range 520 {
		fmt.Fprintf(&fonts, "<p><font color=#%06x>Post %d says something.", i, i)
	}
	var closed, scripted strings.Builder
	closed.WriteString("<html><body>")
	scripted.WriteString("<html><head><script>")
	for range 3000 {
		closed.WriteString("<p><b>bold</b> <i>and</i> <font color=red>red</font></p>")
		scripted.WriteString(`document.write("<b class=x>");`)
	}
	scripted.WriteString("</script></head><body><!-- " + strings.Repeat("<i>", 500) + " -->" + strings.Repeat("<p><b>x</b></p>", 100))

	for _, c := range []struct {
		name     string
		page     string
		dropped  bool
		maxNodes int
		text     string
	}{
		{"400 open <b>", bomb.String(), true, 20000, "x"},
		{"520 open <font>", fonts.String(), true, 5000, "Post 519 says something."},
		{"closed", closed.String(), false, 40000, "bold and red"},
		{"in a script and a comment", scripted.String(), false, 1000, "x"},
	} {
		p, err := Bytes(c.name, []byte(c.page), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if p.FormattingDropped != c.dropped {
			t.Errorf("%s: FormattingDropped %v, want %v", c.name, p.FormattingDropped, c.dropped)
		}
		if n := countNodes(p.Doc); n > c.maxNodes {
			t.Errorf("%s: %d nodes, want at most %d", c.name, n, c.maxNodes)
		}
		if !strings.Contains(docText(p.Doc), c.text) {
			t.Errorf("%s: text lacks %q", c.name, c.text)
		}
	}
}

// TestFormattingBombsHidden: bombs whose end tags the parser ignores, a
// </b> inside an <object> (a scope it does not reach past) or under more
// than eight elements (where its adoption agency gives up and a copy of
// the <b> stays active), are caught as well: an estimate that took
// every </b> for an end kept them, and a page of 340 KB made 19 million
// elements.
func TestFormattingBombsHidden(t *testing.T) {
	var object, deep strings.Builder
	object.WriteString("<html><body><div>")
	deep.WriteString("<html><body>")
	for i := range 480 {
		fmt.Fprintf(&object, "<b class=c%d><object></b></object>", i)
		fmt.Fprintf(&deep, "<b class=c%d>%s</b>%s", i, strings.Repeat("<div>", 10), strings.Repeat("</div>", 10))
	}
	object.WriteString("</div>")
	for range 3000 {
		object.WriteString("<p>x</p>")
		deep.WriteString("<p>x</p>")
	}
	for name, page := range map[string]string{"object": object.String(), "deep": deep.String()} {
		p, err := Bytes(name, []byte(page), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if n := countNodes(p.Doc); !p.FormattingDropped || n > 50000 {
			t.Errorf("%s: FormattingDropped %v, %d nodes", name, p.FormattingDropped, n)
		}
	}
	// Alike tags, which the parser keeps three of, are no bomb: 500
	// unclosed <b>s as written alike leave three active.
	alike := "<html><body>" + strings.Repeat("<b>", 500) + strings.Repeat("<p>x</p>", 2000)
	if p, err := Bytes("alike", []byte(alike), Options{}); err != nil || p.FormattingDropped {
		t.Errorf("alike: %v, FormattingDropped %v", err, p != nil && p.FormattingDropped)
	}
}
