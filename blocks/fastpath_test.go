package blocks

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/internal/shared"
)

// The straightforward forms of Find, Runs, Collapse and nonSpace, with
// maps keyed by node and rune-by-rune text handling, as they were before
// the node numbering and the ASCII fast paths. The fast forms must give
// the same blocks, runs and strings on every document.

func findRef(doc *html.Node) []*Block {
	f := finderRef{sub: map[*html.Node]int{}, own: map[*html.Node]int{}}
	f.count(doc)
	if f.wrapOrphans(doc) {
		f = finderRef{sub: map[*html.Node]int{}, own: map[*html.Node]int{}}
		f.count(doc)
	}
	body := findBodyRef(doc)
	var out []*Block
	var walk func(n *html.Node, depth, parent int, inLink bool)
	var cur *Block
	var text []*strings.Builder
	add := func(s string) { text[cur.ID].WriteString(s) }
	offset := 0
	walk = func(n *html.Node, depth, parent int, inLink bool) {
		switch n.Type {
		case html.TextNode:
			if cur == nil {
				return
			}
			c := nonSpaceRef(n.Data)
			if c == 0 {
				add(" ")
				return
			}
			if cur.Chars == 0 {
				cur.Offset = offset
			}
			offset += c
			add(n.Data)
			cur.Chars += c
			if inLink {
				cur.LinkChars += c
			}
			return
		case html.ElementNode:
			if n.DataAtom == atom.Head {
				return
			}
		}
		saved := cur
		isBlock := n.Type == html.ElementNode && !IsInline(n) &&
			(f.isTarget(n) || n == body && f.sub[n] > 0 && f.orphans(n))
		if isBlock {
			b := &Block{ID: len(out), Node: n, Parent: parent, Depth: depth, SubtreeChars: f.sub[n]}
			out = append(out, b)
			text = append(text, &strings.Builder{})
			parent = b.ID
			cur = b
		} else if n.Type == html.ElementNode && !IsInline(n) && cur != nil {
			add(" ")
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A && hasAttr(n, "href") {
			inLink = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && cur != nil {
				add("\n")
			}
			walk(c, depth+1, parent, inLink)
		}
		if isBlock {
			cur.Text = collapseRef(text[cur.ID].String())
			text[cur.ID] = nil
			cur = saved
		}
		if n.Type == html.ElementNode && !IsInline(n) && cur != nil {
			add(" ") // a non-inline boundary separates words
		}
	}
	walk(doc, 0, -1, false)
	holds := func(c *html.Node) bool {
		if c.Type == html.TextNode {
			return nonSpaceRef(c.Data) > 0
		}
		return f.sub[c] > 0
	}
	for _, b := range out {
		b.Links, b.Images, b.Elements = countElements(b.Node)
		for a := b.Node.Parent; a != nil; a = a.Parent {
			n := 0
			for c := a.FirstChild; c != nil; c = c.NextSibling {
				if holds(c) {
					n++
				}
			}
			if n >= 2 {
				b.Branch++
			}
		}
	}
	return out
}

type finderRef struct {
	sub map[*html.Node]int
	own map[*html.Node]int
}

func (f *finderRef) count(n *html.Node) int {
	if n.Type == html.TextNode {
		return nonSpaceRef(n.Data)
	}
	total := 0
	own := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s := f.count(c)
		total += s
		switch {
		case c.Type == html.TextNode:
			own += s
		case IsInline(c):
			own += f.own[c]
		}
	}
	f.sub[n] = total
	f.own[n] = own
	return total
}

func (f *finderRef) wrapOrphans(n *html.Node) bool {
	changed := false
	if n.Type == html.ElementNode && n.DataAtom != atom.Head && !IsInline(n) &&
		f.own[n] > 0 && !f.isTarget(n) {
		changed = wrapRunsRef(n, f)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !IsInline(c) {
			changed = f.wrapOrphans(c) || changed
		}
	}
	return changed
}

func wrapRunsRef(n *html.Node, f *finderRef) bool {
	changed := false
	c := n.FirstChild
	for c != nil {
		if !(c.Type == html.TextNode || IsInline(c)) {
			c = c.NextSibling
			continue
		}
		start, text := c, 0
		for c != nil && (c.Type == html.TextNode || IsInline(c)) {
			if c.Type == html.TextNode {
				text += nonSpaceRef(c.Data)
			} else {
				text += f.sub[c]
			}
			c = c.NextSibling
		}
		if text == 0 {
			continue
		}
		div := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div,
			Attr: []html.Attribute{{Key: AnonAttr, Val: ""}}}
		n.InsertBefore(div, start)
		for k := start; k != c; {
			next := k.NextSibling
			n.RemoveChild(k)
			div.AppendChild(k)
			k = next
		}
		changed = true
	}
	return changed
}

func (f *finderRef) isTarget(n *html.Node) bool {
	own := f.own[n]
	return own > 0 && float64(own) >= MinOwnShare*float64(f.sub[n])
}

func (f *finderRef) orphans(body *html.Node) bool {
	var has func(n *html.Node) bool
	has = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if nonSpaceRef(c.Data) > 0 {
					return true
				}
			case c.Type == html.ElementNode && (IsInline(c) || !f.isTarget(c)):
				if has(c) {
					return true
				}
			}
		}
		return false
	}
	return has(body)
}

func findBodyRef(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if b := findBodyRef(c); b != nil {
			return b
		}
	}
	return nil
}

func nonSpaceRef(s string) int {
	n, shown := 0, false
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
			shown = shown || !blankRune(r)
		}
	}
	if !shown {
		return 0
	}
	return n
}

func collapseRef(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space, nl := false, false
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = true
			nl = nl || r == '\n'
			continue
		}
		if space && b.Len() > 0 {
			if nl {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		space, nl = false, false
		b.WriteRune(r)
	}
	return b.String()
}

// collapsePreRef is collapsePreInto, line by line: the lines that hold
// more than white space, less the indentation they share, each without
// trailing white space.
func collapsePreRef(s string) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\u00a0", " "), "\n") {
		if l = strings.TrimRight(l, " \t\r\f\v"); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	shared := lines[0][:len(lines[0])-len(strings.TrimLeft(lines[0], " \t"))]
	for _, l := range lines[1:] {
		for !strings.HasPrefix(l, shared) {
			shared = shared[:len(shared)-1]
		}
	}
	for i := range lines {
		lines[i] = lines[i][len(shared):]
	}
	return strings.Join(lines, "\n")
}

// inPreRef reports whether n has a preformatted element among its
// ancestors, looked up through Parent.
func inPreRef(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.Data == "pre" || p.Data == "listing" ||
			p.Data == "plaintext" || p.Data == "xmp" || p.Data == "textarea") {
			return true
		}
	}
	return false
}

// sourceTextRef is the text of text node n with the source's line breaks
// turned into spaces outside preformatted elements.
func sourceTextRef(n *html.Node) string {
	if inPreRef(n) {
		return n.Data
	}
	return strings.ReplaceAll(n.Data, "\n", " ")
}

func runsRef(bs []*Block) []Run {
	if len(bs) == 0 {
		return nil
	}
	owner := make(map[*html.Node]int, len(bs))
	for i, b := range bs {
		owner[b.Node] = i
	}
	root := bs[0].Node
	for root.Parent != nil {
		root = root.Parent
	}
	var out []Run
	var buf strings.Builder
	cur, bufPre := -1, false
	flush := func() {
		if cur >= 0 {
			collapse := collapseRef
			if bufPre {
				collapse = collapsePreRef
			}
			if t := collapse(buf.String()); t != "" {
				out = append(out, Run{Block: cur, Text: t})
			}
		}
		buf.Reset()
	}
	var walk func(n *html.Node, blk int)
	walk = func(n *html.Node, blk int) {
		switch n.Type {
		case html.TextNode:
			if blk < 0 {
				return
			}
			if blk != cur || inPreRef(n) != bufPre {
				flush()
				cur = blk
			}
			bufPre = inPreRef(n)
			buf.WriteString(sourceTextRef(n))
			return
		case html.ElementNode:
			if n.DataAtom == atom.Head {
				return
			}
			if i, ok := owner[n]; ok {
				blk = i
			}
		}
		boundary := n.Type == html.ElementNode && !IsInline(n)
		if boundary && blk == cur {
			buf.WriteByte('\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && blk == cur {
				buf.WriteByte('\n')
			}
			walk(c, blk)
		}
		if boundary && blk == cur {
			buf.WriteByte('\n')
		}
	}
	walk(root, -1)
	flush()
	return out
}

// textInputs are strings at the borders of the fast paths.
var textInputs = []string{
	"", " ", "a", "  a  b  ", "a\nb", " \n a \t\n b \r\n", "a\u00a0b", "a\u0085b", "a\u2028\u3000b",
	"\xff", "a \xff b", "\xe2\x80", "\xe2\x80 x", "x \xe2\x80\x99 y", "é  ü\n\nß", "\v\f",
	"日本 語", "\u200b zero width", "tab\tand\vvt", "\xc3\xa9\xc3", "  \u00a0 ",
}

func randomText(r *rand.Rand) string {
	pieces := []string{"a", "Z", "9", " ", " ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u0085", "\u2028",
		"\u3000", "é", "ß", "日", "\xff", "\xe2", "\x80", "\xc3", ".", "word", "x y"}
	var b strings.Builder
	for n := r.Intn(12); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func TestTextFastPaths(t *testing.T) {
	check := func(s string) {
		if got, want := nonSpace(s), nonSpaceRef(s); got != want {
			t.Errorf("nonSpace(%q) = %d, want %d", s, got, want)
		}
		if got, want := Collapse(s), collapseRef(s); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", s, got, want)
		}
		if got, want := string(collapseInto([]byte("x"), []byte(s))), "x"+collapseRef(s); got != want {
			t.Errorf("collapseInto(x, %q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range textInputs {
		check(s)
	}
	for c := 0; c < 256; c++ {
		check(string([]byte{byte(c)}))
		check("a " + string([]byte{byte(c)}) + " b")
	}
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		check(randomText(r))
	}
}

func FuzzCollapse(f *testing.F) {
	for _, s := range textInputs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Collapse(s), collapseRef(s); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", s, got, want)
		}
		if got, want := nonSpace(s), nonSpaceRef(s); got != want {
			t.Errorf("nonSpace(%q) = %d, want %d", s, got, want)
		}
	})
}

// randomDoc builds a document of nested block, inline and unknown
// elements, text with every kind of white space and invalid UTF-8 (set on
// the nodes directly, as a parser would not produce it), <br>s, links,
// images, a head with text, and sometimes no body.
func randomDoc(r *rand.Rand) *html.Node {
	doc := &html.Node{Type: html.DocumentNode}
	root := &html.Node{Type: html.ElementNode, Data: "html", DataAtom: atom.Html}
	doc.AppendChild(root)
	head := &html.Node{Type: html.ElementNode, Data: "head", DataAtom: atom.Head}
	head.AppendChild(&html.Node{Type: html.TextNode, Data: "head text"})
	root.AppendChild(head)
	parent := root
	if r.Intn(5) > 0 {
		body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
		root.AppendChild(body)
		parent = body
	}
	tags := []atom.Atom{atom.Div, atom.P, atom.Span, atom.B, atom.A, atom.Li, atom.Ul, atom.Td, atom.Br, atom.Img, atom.Section, atom.Em, atom.Pre}
	var grow func(n *html.Node, depth int)
	grow = func(n *html.Node, depth int) {
		for k := r.Intn(5); k > 0; k-- {
			if depth > 6 || r.Intn(3) == 0 {
				n.AppendChild(&html.Node{Type: html.TextNode, Data: randomText(r)})
				continue
			}
			if r.Intn(10) == 0 {
				n.AppendChild(&html.Node{Type: html.ElementNode, Data: "kw"}) // unknown: inline
				continue
			}
			a := tags[r.Intn(len(tags))]
			c := &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
			if a == atom.A && r.Intn(2) == 0 {
				c.Attr = []html.Attribute{{Key: "href", Val: "/x"}}
			}
			n.AppendChild(c)
			if a != atom.Br && a != atom.Img {
				grow(c, depth+1)
			}
		}
	}
	grow(parent, 0)
	return doc
}

func cloneTree(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, Data: n.Data, DataAtom: n.DataAtom, Namespace: n.Namespace,
		Attr: append([]html.Attribute(nil), n.Attr...)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(cloneTree(k))
	}
	return c
}

// render is the document as text, for comparing trees.
func render(t *testing.T, n *html.Node) string {
	var b strings.Builder
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sameBlocks checks Find on a copy of doc against findRef on another
// copy, and Runs against runsRef: the same blocks, text, counts, runs and
// the same tree after wrapping.
func sameBlocks(t *testing.T, name string, doc *html.Node) {
	t.Helper()
	a, b := cloneTree(doc), cloneTree(doc)
	got, want := Find(a), findRef(b)
	if ra, rb := render(t, a), render(t, b); ra != rb {
		t.Fatalf("%s: trees differ after Find:\n%s\nwant:\n%s", name, ra, rb)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d blocks, want %d", name, len(got), len(want))
	}
	for i := range got {
		g, w := *got[i], *want[i]
		g.Node, w.Node = nil, nil
		if g != w {
			t.Fatalf("%s: block %d = %+v, want %+v", name, i, g, w)
		}
		if got[i].Node.Data != want[i].Node.Data {
			t.Fatalf("%s: block %d is <%s>, want <%s>", name, i, got[i].Node.Data, want[i].Node.Data)
		}
	}
	if gr, wr := Runs(got), runsRef(want); !reflect.DeepEqual(gr, wr) {
		t.Fatalf("%s: runs %+v, want %+v", name, gr, wr)
	}
	// Runs of blocks out of document order, repeated or a subset take the
	// map.
	if len(got) > 2 {
		sub := []*Block{got[2], got[0], got[1], got[0]}
		if gr, wr := Runs(sub), runsRef(sub); !reflect.DeepEqual(gr, wr) {
			t.Fatalf("%s: runs of %v: %+v, want %+v", name, sub, gr, wr)
		}
		sub = []*Block{got[0], got[len(got)-1]}
		if gr, wr := Runs(sub), runsRef(sub); !reflect.DeepEqual(gr, wr) {
			t.Fatalf("%s: runs of first and last: %+v, want %+v", name, gr, wr)
		}
	}
}

func TestFindMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := range 3000 {
		sameBlocks(t, "random "+strconv.Itoa(i), randomDoc(r))
	}
	files, _ := filepath.Glob("testdata/*.html")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		sameBlocks(t, f, doc)
	}
}

// TestFindMatchesReferenceRealData compares on the CleanEval dev and
// CleanPortalEval pages (parsed as they are, without preclean).
func TestFindMatchesReferenceRealData(t *testing.T) {
	root := shared.Path(t, "")
	for _, set := range []string{"cleaneval-en-dev", "cleanportaleval"} {
		files, _ := filepath.Glob(filepath.Join(root, set, "html", "*.html"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := html.Parse(strings.NewReader(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			sameBlocks(t, f, doc)
		}
	}
}
