package preclean

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/internal/dom"
)

func TestMediaCond(t *testing.T) {
	const met, unknown, unmet = condMet, condUnknown, condUnmet
	for _, c := range []struct {
		media string
		want  cond
	}{
		{"", met},
		{"all", met},
		{"screen", met},
		{"SCREEN", met},
		{"only screen", met},
		{"print", unmet},
		{"print, screen", met},
		{"not print", unknown},
		{"handheld", unmet},
		{"screen and (max-width: 600px)", unmet},
		{"screen and (max-width: 1280px)", met},
		{"(min-width: 768px)", met},
		{"(min-width: 90em)", unmet},
		{"(min-width:48rem) and (max-width:100em)", met},
		{"(width >= 48rem)", met},
		{"(width < 40em)", unmet},
		{"(1000px <= width)", met},
		{"(40em < width < 90em)", unknown},
		{"screen and (orientation: landscape)", unknown},
		{"(prefers-color-scheme: dark)", unknown},
		{"(min-width: calc(100px))", unknown},
		{"print, (hover: hover)", unknown},
	} {
		if got := mediaCond(c.media); got != c.want {
			t.Errorf("mediaCond(%q) = %v, want %v", c.media, got, c.want)
		}
	}
}

func TestSelectorKey(t *testing.T) {
	for _, c := range []struct{ sel, want string }{
		{"p", "p"},
		{"DIV", "div"},
		{"*", ""},
		{"#x", "#x"},
		{"div.a#b > p.c", ".c"},
		{"p#main.c", "#main"},
		{"ul li a", "a"},
		{"ul>li", "li"},
		{"h1 + p", "p"},
		{"h1 ~ .note", ".note"},
		{"a:not(.b)", "a"},
		{".a:not(.b .c)", ".a"},
		{":not(.b)", ""},
		{"[data-x~=\"y z\"]", ""},
		{"p[title=\"a b\"] .c", ".c"},
		{"a[href^='x > y']", "a"},
		{"li:nth-child(2n+1)", "li"},
		{"E\\:x", ""},
		{".é", ".é"},
	} {
		if got := selectorKey(c.sel); got != c.want {
			t.Errorf("selectorKey(%q) = %q, want %q", c.sel, got, c.want)
		}
	}
}

// TestSelectorKeyAgrees matches selectors built from the classes, ids and
// tags of the golden pages against every element of them: an element a
// selector matches always has the selector's key, so that indexing the
// rules by key loses none.
func TestSelectorKeyAgrees(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.html")
	var docs []*html.Node
	names := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
		for n := doc; n != nil; n = dom.Next(doc, n) {
			if n.Type != html.ElementNode {
				continue
			}
			names[n.Data] = true
			for _, c := range strings.Fields(dom.Attr(n, "class")) {
				names["."+c] = true
			}
			if id := dom.Attr(n, "id"); id != "" && !strings.ContainsAny(id, " ") {
				names["#"+id] = true
			}
		}
	}
	var sels []string
	for name := range names {
		sels = append(sels, name, "div "+name, "* > "+name, "p ~ "+name, name+":first-child", name+":not(.zz)", ":not(p)"+name)
	}
	tried := 0
	for _, s := range sels {
		sel, err := cascadia.Parse(s)
		if err != nil {
			continue
		}
		key := selectorKey(s)
		for _, doc := range docs {
			for n := doc; n != nil; n = dom.Next(doc, n) {
				if n.Type != html.ElementNode || !sel.Match(n) {
					continue
				}
				tried++
				if !hasKey(n, key) {
					t.Errorf("%q matches <%s class=%q id=%q>, which lacks its key %q", s, n.Data, dom.Attr(n, "class"), dom.Attr(n, "id"), key)
				}
			}
		}
	}
	if tried < 100 {
		t.Fatalf("only %d matches tried", tried)
	}
}

func hasKey(n *html.Node, key string) bool {
	switch {
	case key == "":
		return true
	case key[0] == '#':
		return dom.Attr(n, "id") == key[1:]
	case key[0] == '.':
		for _, c := range strings.Fields(dom.Attr(n, "class")) {
			if c == key[1:] {
				return true
			}
		}
		return false
	}
	return strings.ToLower(n.Data) == key
}

// TestReadSheet reads sheets with the syntax that trips a naive reader:
// braces and semicolons in strings, nested at-rules, nested rules,
// comments, and a sheet cut off.
func TestReadSheet(t *testing.T) {
	for _, c := range []struct {
		css  string
		want []string // the selectors kept with their display or visibility value
	}{
		{`.a{display:none}`, []string{".a display none"}},
		{`.a{color:red}.b{DISPLAY : None !IMPORTANT}`, []string{".b display none!"}},
		{`.a:after{content:"}{;"}.b{display:none}`, []string{".b display none"}},
		{`.a{display:none;display:block}.b{display:none!important;display:block}`, []string{".a display block", ".b display none!"}},
		{`@media screen{@media (min-width:100px){.a{display:none}}}.b{visibility:hidden}`, []string{".a display none", ".b visibility hidden"}},
		{`@media print{.a{display:none}}@import url("x.css");.b{display:none}`, []string{".b display none"}},
		{`@keyframes k{from{display:none}to{display:block}}.b{display:none}`, []string{".b display none"}},
		{`.a{display:none; .b{display:block}}`, []string{".a .b display block", ".a display none"}},
		{`.card{.badge{color:red;display:none;font-size:12px}}`, []string{".card .badge display none"}},
		{`.a{display:none;&.open{display:block}}`, []string{".a.open display block", ".a display none"}},
		{`.m{@media (width>=48rem){display:block}}`, []string{".m display block"}},
		{`@media (orientation:landscape){.a{display:none;visibility:visible}}`, []string{".a visibility visible"}},
		{`.a{color:red}; .b{display:none} .c{display:none}`, []string{".c display none"}},
		{`.a{color:red}} .b{display:none} .c{display:none}`, []string{".c display none"}},
		{`.a, input::-ms-clear{display:none} p:contains("x"){display:none}`, nil},
		{`.a, .b::before, p:hover, .c{display:none}`, []string{".a display none", "p:hover display none", ".c display none"}},
		{"/* .x{display:none} */.a{display:none}/* unclosed", []string{".a display none"}},
		{`.a{display:none`, []string{".a display none"}},
		{`}}} .a{display:none}`, nil},
		{`<!-- .a{display:none} -->`, []string{".a display none"}},
		{`.a/**/.b{display:none}`, []string{".a.b display none"}},
		{`.a b c d e f{display:none}`, nil},
		{`[title="a,b"], .c{display:none}`, []string{`[title="a,b"] display none`, ".c display none"}},
	} {
		r := &sheetReader{}
		r.read(stripComments(c.css), nil, condMet, false, 0)
		var got []string
		for _, r := range r.rules {
			for _, d := range r.decls {
				s := fmt.Sprintf("%s %s %s", r.sel, d.prop, d.value)
				if d.important {
					s += "!"
				}
				got = append(got, s)
			}
		}
		// cascadia's String of a selector is not its source text; compare
		// by parsing the wanted selectors the same way.
		var want []string
		for _, w := range c.want {
			i := strings.Index(w, " display ")
			if i < 0 {
				i = strings.Index(w, " visibility ")
			}
			sel, err := cascadia.Parse(w[:i])
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprint(sel)+w[i:])
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\ngot  %q\nwant %q", c.css, got, want)
		}
	}
}

// TestSheetLimits: a sheet past the limits is applied as far as it was
// read, and no further; an element below them is still found.
func TestSheetLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("<style>.first{display:none}")
	for i := range maxSheetSelectors {
		fmt.Fprintf(&b, ".r%d{display:none}", i)
	}
	b.WriteString(".last{display:none}</style><p class=first>a</p><p class=r7>b</p><p class=last>c</p>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	st, err := CleanStats(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(textOf(doc, 100)), " "); got != "c" || st.Sheet != 2 {
		t.Errorf("text %q, %d hidden by sheets; want \"c\", 2", got, st.Sheet)
	}
}

// BenchmarkSheets cleans a page of 2,000 paragraphs under a hostile sheet
// (20,000 rules that set display, each a descendant selector that every
// paragraph's last compound meets and whose ancestor no element has),
// beside the same page without it, the reference.
func BenchmarkSheets(b *testing.B) {
	var body, sheet strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&body, "<div><div><div><p class=c%d>Some words of text here</p></div></div></div>", i%10)
	}
	sheet.WriteString("<style>")
	for i := range maxSheetSelectors {
		fmt.Fprintf(&sheet, "section.s%d :not(b){display:none}", i)
	}
	sheet.WriteString("</style>")
	for name, src := range map[string]string{"plain": body.String(), "hostile": sheet.String() + body.String()} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				doc, err := html.Parse(strings.NewReader(src))
				if err != nil {
					b.Fatal(err)
				}
				if err := Clean(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestOffscreen(t *testing.T) {
	for _, c := range []struct {
		rule string
		want string // the vote: "yes", "no", or "" for none
	}{
		{"position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)", "yes"},
		{"position:absolute !important;clip:rect(1px, 1px, 1px, 1px)", "yes!"},
		{"position:fixed;clip-path:inset(50%)", "yes"},
		{"position:absolute;clip-path:inset(10%)", "no"},
		{"position:absolute;clip:rect(0 auto auto 0)", "no"},
		{"position:absolute;left:-9999px", "yes"},
		{"position:relative;left:-999em", "yes"},
		{"position:relative;top:-999em", "no"},
		{"position:absolute;top:-1000px", "no"},
		{"position:absolute;top:-10000px", "yes"},
		{"position:absolute;clip:rect(auto,auto,auto,auto)", "no"},
		{"position:absolute;clip:rect(0pt,300pt,100pt,10pt)", "no"},
		{"position:absolute;clip-path:inset(50% 0 0 0)", "no"},
		{"position:absolute;clip-path:inset(0 60% 0 40%)", "yes"},
		{"position:static;left:-9999px", "no"},
		{"left:-9999px", "no"},
		{"position:absolute;left:-20px", "no"},
		{"text-indent:-9999px", "indent"},
		{"display:block;text-indent:-9999px", "yes"},
		{"float:left;text-indent:-9999px", "yes"},
		{"display:inline;text-indent:-9999px", "indent"},
		{"text-indent:-2em", "no"},
		{"position:absolute;width:1px;height:1px;overflow:hidden", "yes"},
		{"position:absolute;width:1px;height:1px", "no"},
		{"position:absolute;width:0;height:0;overflow:hidden", "yes"},
		{"position:absolute;width:1%;height:1px;overflow:hidden", "no"},
		{"position:absolute;left:-9999px;left:0", "no"},
		{"color:red;width:1px", "no"},
		{"color:red", ""},
		{"position:static", "no"},
	} {
		d, ok := offscreen(ruleDecls(c.rule))
		got := ""
		if ok {
			got = d.value
			if d.important {
				got += "!"
			}
		}
		if got != c.want {
			t.Errorf("offscreen(%q) = %q, want %q", c.rule, got, c.want)
		}
	}
}

// FuzzSheet reads an arbitrary sheet over a small page: no panic, and
// every element it hides is an element of the page.
func FuzzSheet(f *testing.F) {
	f.Add(`.a{display:none}`)
	f.Add(`@media screen{#b p{visibility:hidden}} .c{position:absolute;clip:rect(0 0 0 0)}`)
	f.Add(`div:not(.x) > p:nth-child(2n+1)[title="}"]{display:none!important}`)
	f.Add(`@supports (x:y){@layer l{.a{display:none;.b{display:block}}}`)
	f.Fuzz(func(t *testing.T, css string) {
		doc, err := html.Parse(strings.NewReader("<style>" + css + "</style><div class=a id=b><p class=c>x</p><p style='text-indent:-9999px'>y</p></div>"))
		if err != nil {
			return
		}
		in := map[*html.Node]bool{}
		for n := doc; n != nil; n = dom.Next(doc, n) {
			in[n] = n.Type == html.ElementNode
		}
		for n := range sheetHidden(doc, pageRules(doc)) {
			if !in[n] {
				t.Fatalf("hid a node that is no element of the page: %v", n)
			}
		}
	})
}
