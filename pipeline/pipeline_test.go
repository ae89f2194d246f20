package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/vision"
)

func defaultText(t *testing.T) *classify.Model {
	t.Helper()
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCleanArticle cleans a page written for the tests: a news article
// between a header, a menu, a "most read" box and a footer.
func TestCleanArticle(t *testing.T) {
	c := &Cleaner{Model: defaultText(t)}
	data, err := os.ReadFile("../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), "article.html", data)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := export.Write(&out, export.Text, res.Page, res.Blocks, res.Keep, res.Score); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"More than forty thousand people", "The mayor, who opened", "Police closed two streets"} {
		if !strings.Contains(text, want) {
			t.Errorf("clean text lacks %q:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"Log in", "Weather", "Copyright", "School wins chess title", "tracking"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("clean text keeps boilerplate %q:\n%s", unwanted, text)
		}
	}
}

// TestBatchBadInputs checks that every input of a batch of bad pages
// yields exactly one outcome, and that errors name the file.
func TestBatchBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, _ := os.ReadFile("../testdata/article.html")
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7919 % 251)
	}
	files := []string{
		write("good.html", good),
		write("empty.html", nil),
		write("blank.html", []byte(" \n\t ")),
		write("binary.html", binary),
		write("truncated.html", good[:len(good)/2]),
		write("nested.html", []byte(strings.Repeat("<div>", 100000)+"deep"+strings.Repeat("</div>", 100000))),
		write("wrongcharset.html", []byte(`<meta charset="shift_jis"><p>Caf`+"\xe9"+` cr`+"\xe8"+`me br`+"\xfb"+`l`+"\xe9"+`e</p>`)),
		write("huge.html", bytes.Repeat([]byte("<p>word word word word word word word.</p>\n"), DefaultMaxBlocks+1)),
	}
	var inputs []Input
	for _, f := range append(files, filepath.Join(dir, "missing.html")) {
		inputs = append(inputs, Input{Name: f})
	}
	c := &Cleaner{Model: defaultText(t)}
	seen := map[int]int{}
	var errs []string
	err := c.Batch(context.Background(), inputs, 2, func(o Outcome) {
		seen[o.Index]++
		if (o.Err == nil) == (o.Result == nil) {
			t.Errorf("%s: outcome with result %v and error %v", o.Input.Name, o.Result != nil, o.Err)
		}
		if o.Err != nil {
			errs = append(errs, o.Err.Error())
			if !strings.Contains(o.Err.Error(), filepath.Base(o.Input.Name)) {
				t.Errorf("error %q does not name %s", o.Err, o.Input.Name)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range inputs {
		if seen[i] != 1 {
			t.Errorf("input %s reported %d times", inputs[i].Name, seen[i])
		}
	}
	if len(errs) < 4 { // empty, blank, binary and missing at least
		t.Errorf("only %d errors for a batch of bad pages: %q", len(errs), errs)
	}
}

func TestBatchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := &Cleaner{Model: defaultText(t)}
	inputs := []Input{{Name: "a", Data: []byte("<p>a</p>")}, {Name: "b", Data: []byte("<p>b</p>")}, {Name: "c", Data: []byte("<p>c</p>")}}
	n := 0
	err := c.Batch(ctx, inputs, 1, func(o Outcome) {
		n++
		if o.Err == nil {
			t.Errorf("%s cleaned after cancellation", o.Input.Name)
		}
	})
	if err == nil || n != len(inputs) {
		t.Errorf("Batch = %v with %d outcomes, want the context error and %d", err, n, len(inputs))
	}
}

// TestNonEnglishFallback cleans a German page: the language-independent
// classifier of the default model handles it.
func TestNonEnglishFallback(t *testing.T) {
	page := `<html><body><ul><li><a href="/">Startseite</a></li><li><a href="/k">Kontakt</a></li></ul>
<p>Die Stadt hat am Samstag das größte Sommerfest ihrer Geschichte gefeiert. Mehr als vierzigtausend Menschen kamen an das Ufer des Flusses, um die Konzerte und die Bootsparade zu sehen.</p>
<p>Die Bürgermeisterin dankte den freiwilligen Helfern, die eine Woche lang Bühnen gebaut und die Wege am Wasser gereinigt hatten.</p>
<div id="footer">Impressum | Datenschutz</div></body></html>`
	m := defaultText(t)
	if m.Other == nil {
		t.Fatal("the default model has no language-independent classifier")
	}
	c := &Cleaner{Model: m}
	res, err := c.Clean(context.Background(), "de.html", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if res.English {
		t.Fatal("German page taken for English")
	}
	// The article's paragraphs are kept and score above every link block.
	minPara, maxLink := 1e9, -1e9
	for i, b := range res.Blocks {
		if strings.Contains(b.Text, "Sommerfest") || strings.Contains(b.Text, "Bürgermeisterin") {
			if !res.Keep[i] {
				t.Errorf("paragraph dropped: %q (value %.3f)", b.Text, res.Score[i])
			}
			minPara = min(minPara, res.Score[i])
		} else {
			maxLink = max(maxLink, res.Score[i])
		}
	}
	if minPara <= maxLink {
		t.Errorf("a link block scores %.3f, a paragraph only %.3f", maxLink, minPara)
	}
}

// TestBlockLimit: a page with more text blocks than PrepareOptions.MaxBlocks
// is cut where the block beyond the limit starts, as load cuts a page at its
// byte limit: it is cleaned, reported truncated, and nothing after the
// cut is output, as text or as cleaned HTML.
func TestBlockLimit(t *testing.T) {
	var page strings.Builder
	for i := range 40 {
		fmt.Fprintf(&page, "<p>Paragraph number %d of the long page, a sentence of running text that goes on.</p>\n", i)
		if i == 30 {
			page.WriteString(`<img src="after.png" alt="">`)
		}
	}
	c := &Cleaner{Model: defaultText(t), Prepare: PrepareOptions{MaxBlocks: 25}}
	r, err := c.Clean(context.Background(), "long.html", []byte(page.String()))
	if err != nil {
		t.Fatalf("a page over the block limit: %v", err)
	}
	if len(r.Blocks) != 25 || !r.Page.Truncated || r.Page.Cut != load.CutBlocks {
		t.Fatalf("%d blocks, truncated %v, cut %q; want 25, true and %q", len(r.Blocks), r.Page.Truncated, r.Page.Cut, load.CutBlocks)
	}
	text := r.Text()
	if !strings.Contains(text, "number 24 ") || strings.Contains(text, "number 25 ") || strings.Contains(text, "number 39 ") {
		t.Errorf("the text does not end at the cut:\n%s", text)
	}
	var h bytes.Buffer
	if err := export.WriteMeta(&h, export.HTML, r.Page, r.Meta, r.Blocks, r.Keep, r.Score); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.String(), "number 25 ") || strings.Contains(h.String(), "after.png") {
		t.Errorf("the cleaned HTML goes on after the cut:\n%s", h.String())
	}
	c.Prepare.MaxBlocks = 40
	if r, err := c.Clean(context.Background(), "long.html", []byte(page.String())); err != nil || r.Page.Truncated || len(r.Blocks) != 40 {
		t.Errorf("at the limit: %v, truncated %v", err, r != nil && r.Page.Truncated)
	}
}

// TestFallbackText: a page whose only text is in <noscript> (a page a
// script fills) or <noframes> (a frameset) is that text, as a browser
// with scripts off or without frames shows it; a page with text of its
// own keeps dropping its <noscript>.
func TestFallbackText(t *testing.T) {
	article := "<p>The river festival drew record crowds on Saturday, the largest since the event began.</p><p>Organisers thanked the volunteers who built the stages and cleaned the paths.</p>"
	for _, c := range []struct {
		name, page string
		want       bool // the article is in the output
	}{
		{"noscript", `<html><head><title>App</title><script>load()</script></head><body><div id="app"></div><noscript>` + article + `</noscript></body></html>`, true},
		{"noscript in head", `<html><head><title>App</title><noscript>` + article + `</noscript></head><body><div id="app"></div></body></html>`, true},
		{"frameset", `<html><head><title>Frames</title></head><frameset cols="20%,80%"><frame src="nav.html"><frame src="main.html"><noframes>` + article + `</noframes></frameset></html>`, true},
		{"text of its own", `<html><body>` + article + `<noscript><p>Please enable JavaScript to see the comments on this article.</p></noscript></body></html>`, false},
		{"noscript in noscript", `<html><body><div id="app"></div><noscript><noscript>` + article + `</noscript></noscript></body></html>`, true},
		{"noscript with markup and text", `<html><body><noscript>The festival, reported: <b>` + article + `</b></noscript></body></html>`, true},
		{"app shell's splash beside the noscript", `<html><body><div id="app"><div class="splash">Loading…</div></div><noscript>` + strings.Repeat(article, 4) + `</noscript></body></html>`, true},
		{"noframes after the frameset", `<html><head><title>Frames</title></head><frameset cols="20%,80%"><frame src="nav.html"></frameset><noframes>` + article + `</noframes></html>`, true},
	} {
		c0 := &Cleaner{Model: defaultText(t)}
		r, err := c0.Clean(context.Background(), c.name, []byte(c.page))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		text := strings.Join(strings.Fields(r.Text()), " ")
		if got := strings.Contains(text, "river festival drew record crowds"); !got {
			if c.want {
				t.Errorf("%s: the article is not in the output %q", c.name, text)
			} else {
				t.Errorf("%s: the page's own text is lost: %q", c.name, text)
			}
		}
		if r.Fallbacks != c.want {
			t.Errorf("%s: Fallbacks %v, want %v", c.name, r.Fallbacks, c.want)
		}
		if !c.want && strings.Contains(text, "enable JavaScript") {
			t.Errorf("%s: the noscript text is kept: %q", c.name, text)
		}
	}
	// A short page of its own whose noscript is a paragraph asking for
	// JavaScript (prose, but fewer than MinFallbackProse words) keeps its
	// own text only.
	short := `<html><body><h1>Summer fete gallery</h1><noscript><p>Please enable JavaScript in your browser to see the photographs of this year's summer fete. Without it the gallery cannot load the pictures, their captions or the slideshow, and the page stays empty apart from this note.</p></noscript></body></html>`
	if r, err := (&Cleaner{Model: defaultText(t)}).Clean(context.Background(), "short.html", []byte(short)); err != nil {
		t.Errorf("a short page with a noscript notice: %v", err)
	} else if r.Fallbacks || strings.Contains(r.Text(), "enable JavaScript") {
		t.Errorf("a short page with a noscript notice: Fallbacks %v, text %q; want its own text only", r.Fallbacks, r.Text())
	}
	// A page a script fills whose noscript says only that: no text.
	shell := `<html><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`
	r, err := (&Cleaner{Model: defaultText(t)}).Clean(context.Background(), "shell.html", []byte(shell))
	if err != nil || len(r.Blocks) != 0 || r.Fallbacks {
		t.Errorf("an app shell: %v, %d blocks, Fallbacks %v; want no text", err, len(r.Blocks), r.Fallbacks)
	}
}

// TestHiddenPage: a page whose text is all hidden by attribute or inline
// style (kept hidden until a script shows it) is that text; a page with
// text of its own still loses what it hides.
func TestHiddenPage(t *testing.T) {
	article := "<p>The river festival drew record crowds on Saturday, the largest since the event began.</p><p>Organisers thanked the volunteers who built the stages and cleaned the paths.</p>"
	menu := `<ul style="display:none"><li>Secret menu entry one</li><li>Secret menu entry two</li></ul>`
	for _, c := range []struct {
		name, page string
		want       bool // Hidden, and the article in the output
	}{
		{"body display none", `<html><head><title>T</title></head><body style="display:none">` + article + `</body></html>`, true},
		{"html visibility hidden", `<html style="visibility:hidden"><head><title>T</title></head><body>` + article + `</body></html>`, true},
		{"body hidden attribute", `<html><body hidden>` + article + `</body></html>`, true},
		{"wrapper", `<html><body><div id="page" style="display: none !important">` + article + `</div></body></html>`, true},
		{"wrapper with a line of its own", `<html><body><p>Loading…</p><div style="display:none">` + article + `</div></body></html>`, true},
		{"text of its own", `<html><body>` + article + menu + `</body></html>`, false},
		// A short page (a photo and its caption) with a hidden menu: the
		// menu is no prose, and stays dropped.
		{"short page, hidden menu", `<html><body><nav><a href="/">Shop</a><ul style="display:none">` +
			strings.Repeat(`<li><a href="/k">Kitchen appliances on sale today now</a></li>`, 7) +
			`</ul></nav><h1>Sunset over the bay</h1><p>Photo by Ann Lee, 2019.</p></body></html>`, false},
		// A short page with a hidden cookie notice in sentences: less
		// than nine tenths of the page, it stays dropped.
		{"short page, hidden notice", `<html><body><h1>Page moved</h1><p>This page has moved to a new address.</p><div style="display:none">` +
			strings.Repeat(`<p>We use cookies to improve your experience and to show you offers you may like.</p>`, 3) + `</div></body></html>`, false},
	} {
		r, err := (&Cleaner{Model: defaultText(t)}).Clean(context.Background(), c.name, []byte(c.page))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Hidden != c.want {
			t.Errorf("%s: Hidden %v, want %v", c.name, r.Hidden, c.want)
		}
		all := ""
		for _, b := range r.Blocks {
			all += " " + b.Text
		}
		if !strings.HasPrefix(c.name, "short page") && !strings.Contains(all, "river festival drew record crowds") {
			t.Errorf("%s: the article is not among the blocks: %q", c.name, all)
		}
		if strings.Contains(all, "Kitchen appliances") || strings.Contains(all, "We use cookies") {
			t.Errorf("%s: the hidden menu is among the blocks: %q", c.name, all)
		}
		if strings.Contains(all, "Secret menu") {
			t.Errorf("%s: the hidden menu of a page with text of its own is kept: %q", c.name, all)
		}
	}
}

// wrongCount is a Visualizer that gives n measurements whatever the page.
type wrongCount int

func (w wrongCount) Visual(ctx context.Context, d *Doc) ([]vision.Features, error) {
	return make([]vision.Features, int(w)), nil
}

// TestCleanerContracts: a Visualizer that gives another number of
// measurements than blocks is an error, a cancelled context's error names
// the page, and Smooth and FloorShare out of range are refused as the
// model's own would be.
func TestCleanerContracts(t *testing.T) {
	page := []byte(`<html><body><ul><li><a href="/">Home</a></li></ul><p>The river festival drew record crowds on Saturday, the largest since the event began.</p></body></html>`)
	vm, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 100} {
		c := &Cleaner{Model: vm, Prepare: PrepareOptions{Visual: wrongCount(n)}}
		if _, err := c.Clean(context.Background(), "p.html", page); err == nil || !strings.Contains(err.Error(), "measurements for") {
			t.Errorf("%d measurements: %v", n, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Cleaner{Model: defaultText(t)}).Clean(ctx, "p.html", page); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "p.html") {
		t.Errorf("cancelled: %v, want context.Canceled naming p.html", err)
	}
	bad := []float64{-1, 5, math.NaN(), math.Inf(1)}
	for _, v := range bad {
		v := v
		if _, err := (&Cleaner{Model: defaultText(t), Smooth: &v}).Clean(context.Background(), "p.html", page); err == nil {
			t.Errorf("Smooth %g accepted", v)
		}
		if _, err := (&Cleaner{Model: defaultText(t), FloorShare: &v}).Clean(context.Background(), "p.html", page); err == nil {
			t.Errorf("FloorShare %g accepted", v)
		}
	}
}

// TestOpenNoReader: an Input whose Open gives neither a reader nor an
// error is that page's error.
func TestOpenNoReader(t *testing.T) {
	in := Input{Name: "x.html", Open: func() (io.ReadCloser, error) { return nil, nil }}
	if _, err := in.ReadMax(100); err == nil || !strings.Contains(err.Error(), "x.html") {
		t.Errorf("ReadMax: %v", err)
	}
}
