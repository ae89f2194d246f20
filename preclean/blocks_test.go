package preclean

import (
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/blocks"
	"golang.org/x/net/html"
)

// TestBreaksMakeBlocks checks what the <br> splitting is for: each
// paragraph separated by a run of <br> becomes a block of its own.
func TestBreaksMakeBlocks(t *testing.T) {
	cases := map[string][]string{
		"testdata/golden/br-div.html": {
			"First paragraph, line one\nstill the first paragraph.",
			"Second paragraph with a link.",
			"Third paragraph.",
			"A block child.",
			"Tail text",
		},
		"testdata/golden/br-inline.html": {"Cell one", "cell two italic", "more", "Item start", "item end", "Body-level font text", "next part"},
		// A run inside a span cuts the div's paragraph, not the span's
		// edge: the dateline before the span starts the first half.
		"testdata/golden/br-inline-line.html": {
			"LOS ANGELES, Dec. 27 (UPI) -- Josh Groban's \"Noel\" topped the chart.",
			"Elvis came second. Both sold well.",
			"Premier League",
			"Sunday\nWigan 1-2 Everton\nMan City 1-1 West Ham",
			"Saturday\nFulham 0-3 Arsenal",
			"Before a span holding a block",
			"one", "two", "inside",
		},
		// Floated and block-styled inline elements keep their words
		// apart (not a drop cap, a floated image, preformatted text, or
		// a float the style takes back); map, spacer and command are
		// inline; a plugin's object or applet shows its fallback, inline,
		// unless hidden; an SVG's, a PDF's or a script's does not, nor
		// does a video player's empty box.
		"testdata/golden/boxes.html": {
			"RSS Follow us, or read on.",
			"Already spaced words stay as they are.",
			"An image map and a spacer stay in their sentence.",
			"The drop cap stays in its word, as do “L’homme and International.",
			"Feed About and nobox, but this, a B c, Follow us.",
			"keeppreas is",
			"keeppretoo",
			"Video:",
			"The minister speaks at the summit.",
			"Get the Flash player.",
			"Your browser does not run Java.",
			"Before after.",
		},
		"testdata/golden/br-p.html": {"Alpha bold", "still bold beta", "gamma", "Heading part", "second heading part", "Leading run"},
		// Ruby and MathML inside a sentence leave it one block: the
		// readings go, the base text and the formula stay in place.
		"testdata/golden/ruby-math.html": {"今年も東京で春祭りが開かれた。", "The formula E=mc2 was shown."},
		// A custom element that holds blocks or stands among them is a
		// block; one in running text stays inline; <consent-manager> is
		// a notice by its name.
		"testdata/golden/custom-elements.html": {
			"The night train is back",
			"Sleeper services are returning to European rails after decades of decline.",
			"By Léa Marchand 18 January 2025",
			"Posted two days ago by the desk: the inline custom element stays in its sentence.",
			"\"Many assumed the night train was finished.\"",
			"The second paragraph.",
			"Text beside a custom element * keeps it inline.",
			"Oatmeal cookies: a recipe card is no consent notice.",
		},
		// Declarative shadow roots are drawn with their slots filled.
		"testdata/golden/shadow-root.html": {
			"Longhaul Subscribe",
			"Travel Rail",
			"Night trains in numbers",
			"1.5 million passengers a year",
			"€4 million a carriage",
			"Light text the unnamed slot takes.",
			"A slot's fallback, drawn where nothing is assigned to it.",
			"Inner shadow: Inner light text",
			"Outer light paragraph.",
			"A div can host a shadow root too.",
			"First root.",
			"Light text the first root shows.",
			"In a paragraph:",
			"a shadow block",
			"and after.",
		},
	}
	for file, want := range cases {
		in, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got := cleanBlocks(t, string(in))
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: blocks\n%q\nwant\n%q", file, got, want)
		}
	}
}

// cleanBlocks parses page, cleans it and returns its blocks' texts.
func cleanBlocks(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if err := Clean(doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks.Find(doc) {
		got = append(got, b.Text)
	}
	return got
}

// TestOpenShadowRootsTwice: opening a page's shadow roots again changes
// nothing (pipeline opens them before it takes the style sheets, Clean
// after): a shadow-root template left inert by the first opening (nested
// in a shadow tree, in a slot's fallback) is no root the second time.
func TestOpenShadowRootsTwice(t *testing.T) {
	for _, page := range []string{
		`<div><template shadowrootmode=open><template shadowrootmode=open><p>inner</p></template><p>Shadow text</p></template></div>`,
		`<my-el><template shadowrootmode=open><slot><template shadowrootmode=open><p>inner</p></template><p>Fallback text</p></slot></template></my-el>`,
	} {
		once, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		twice, _ := html.Parse(strings.NewReader(page))
		OpenShadowRoots(once)
		OpenShadowRoots(twice)
		OpenShadowRoots(twice)
		if a, b := render(t, once), render(t, twice); a != b {
			t.Errorf("%s:\nonce  %s\ntwice %s", page, a, b)
		}
		if err := Clean(twice); err != nil {
			t.Fatal(err)
		}
		if got := render(t, twice); !strings.Contains(got, " text</p>") || strings.Contains(got, "inner") {
			t.Errorf("%s: cleaned to %s", page, got)
		}
	}
}

// TestBreaksKeepFirstID: a paragraph split at its <br> runs keeps its id
// in the first part only, and its other attributes in every part, down
// to the inline elements the splits cross (the output of the code that
// split first to last, moving what followed each run).
func TestBreaksKeepFirstID(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<body><p id=x class=c>one<br><br><b id=y class=d>two<br><br>three</b><br><br>four</p></body>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := Clean(doc); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	html.Render(&b, doc)
	want := `<p id="x" class="c">one</p><p class="c"><b class="d" id="y">two</b></p><p class="c"><b class="d">three</b></p><p class="c">four</p>`
	if !strings.Contains(b.String(), want) {
		t.Errorf("got %s\nwant %s", b.String(), want)
	}
}
