package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/internal/dom"
	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/meta"
	"github.com/fiasco-project/fiasco/preclean"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// Doc is one page carried through the stages up to the features.
type Doc struct {
	Page   *load.Page
	Meta   meta.Meta // what the page says about itself, read before preclean
	Blocks []*blocks.Block
	Table  *features.Table
	Visual []vision.Features // nil when the page was not rendered
	// Fallbacks reports a page whose only text is what its <noscript> or
	// <noframes> holds, kept (preclean.Options.KeepFallbacks) since the
	// page has no other.
	Fallbacks bool
	// Hidden reports a page whose text is next to all hidden by
	// attribute or inline style, kept (preclean.Options.KeepHidden):
	// hidden until a script, which does not run here, shows it.
	Hidden bool
	// Frames lists the addresses (src) of the page's frames, and of its
	// inline frames where it has no script, in document order, when it
	// holds no text block (frameSources): the text of a frameset is in
	// the pages its frames load, which are cleaned only when given as
	// inputs themselves. nil otherwise.
	Frames  []string
	English bool // the page's text looks English
	Timings Timings

	// URL and Resources are PrepareOptions.URL and Resources, for the
	// Visualizer.
	URL       string
	Resources func(url string) (render.Resource, bool)

	// never is NeverKept's answer, found once by Prepare (neverFound):
	// Keep reads it for every threshold an evaluation cuts at.
	never      []string
	neverFound bool
}

// RenderError is Prepare's error when the Visualizer failed on a page (the
// browser crashed, timed out or could not be started).
type RenderError struct {
	Page string // the page's name
	Err  error
}

func (e *RenderError) Error() string {
	msg := e.Err.Error()
	if !strings.HasPrefix(msg, "render") { // package render's errors say so already
		msg = "render: " + msg
	}
	return e.Page + ": " + msg
}
func (e *RenderError) Unwrap() error { return e.Err }

// Timings is the time a page spent in each stage.
type Timings struct {
	Load, Preclean, Blocks, Render, Vision, Features, Classify time.Duration
	// RenderSplit divides Render into Chromium's and our own work.
	RenderSplit render.Timings
}

// Add adds u's durations to t's (to total a batch).
func (t *Timings) Add(u Timings) {
	t.Load += u.Load
	t.Preclean += u.Preclean
	t.Blocks += u.Blocks
	t.Render += u.Render
	t.Vision += u.Vision
	t.Features += u.Features
	t.Classify += u.Classify
	t.RenderSplit.Load += u.RenderSplit.Load
	t.RenderSplit.Highlight += u.RenderSplit.Highlight
	t.RenderSplit.Measure += u.RenderSplit.Measure
	t.RenderSplit.Screenshot += u.RenderSplit.Screenshot
	t.RenderSplit.Decode += u.RenderSplit.Decode
}

// Visualizer measures the visual features of a page's blocks, one
// vision.Features per block. The implementation in this package drives
// Chromium (see NewVisualizer).
type Visualizer interface {
	Visual(ctx context.Context, d *Doc) ([]vision.Features, error)
}

// DefaultMaxBlocks is the most text blocks a page may have when
// PrepareOptions.MaxBlocks is 0 (CleanEval pages have a few hundred).
const DefaultMaxBlocks = 20000

// PrepareOptions configure the stages before classification.
type PrepareOptions struct {
	Load load.Options
	// MaxBlocks bounds the text blocks of a page (classifying costs time
	// per block): a page with more is cut where the first block beyond
	// them starts, as load cuts a page at its byte and tag limits, and
	// Page.Truncated is set. 0 means DefaultMaxBlocks.
	MaxBlocks int
	// Preclean configures the preclean stage. With a Visualizer the page's
	// style sheets are always kept, so that it renders with its own layout.
	Preclean preclean.Options
	// Visual, when set, renders the page and measures visual features.
	Visual Visualizer
	// URL is the page's original address (an absolute http or https URL,
	// e.g. its WARC-Target-URI), and Resources serves its requisites
	// (style sheets, images, fonts) from the archive it came from, by
	// URL; both are per page and used only by a Visualizer:
	// ChromeVisualizer passes them to render.RenderOptions (see there), so
	// that the page renders as when it was crawled, without network.
	// Empty and nil render the page as before, at a made-up URL with
	// every requisite blocked.
	//
	// With Resources, the page's linked style sheets (<link
	// rel=stylesheet>, which preclean drops) and its first <base href>
	// are put back into <head> after precleaning, in document order
	// among the <style> sheets that preclean keeps for rendering.
	URL       string
	Resources func(url string) (render.Resource, bool)
}

// PrepareFile reads the page at path and runs it through Prepare.
func PrepareFile(ctx context.Context, path string, opt PrepareOptions) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Prepare(ctx, path, data, opt)
}

// Prepare loads, precleans and segments a page and computes its features.
// name is used in errors.
func Prepare(ctx context.Context, name string, data []byte, opt PrepareOptions) (*Doc, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d := &Doc{URL: opt.URL, Resources: opt.Resources}
	t0 := time.Now()
	p, err := load.Bytes(name, data, opt.Load)
	if err != nil {
		return nil, err
	}
	d.Page = p
	d.Meta = meta.FromPage(p, opt.URL)
	if err := ctx.Err(); err != nil { // between stages: a deadline bounds the text model's work too
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t1 := time.Now()
	pc := opt.Preclean
	var links []*html.Node
	if opt.Visual != nil {
		pc.KeepStyles = true
		if opt.Resources != nil {
			// Shadow roots first: opening them parses the page again,
			// and the style sheets are taken from the tree that stays.
			preclean.OpenShadowRoots(p.Doc)
			links = styleLinks(p.Doc)
		}
	}
	pst, err := preclean.CleanWith(p.Doc, pc)
	if err != nil {
		return nil, fmt.Errorf("%s: preclean: %w", name, err)
	}
	restoreLinks(p.Doc, links)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t2 := time.Now()
	d.Blocks = blocks.Find(p.Doc)
	if n := words(d.Blocks); n < MinFallbackWords && !pc.KeepFallbacks && hasFallback(data) {
		// Next to no text but what <noscript> or <noframes> holds (a
		// page a script fills, a frameset; an app shell's "Loading…"
		// beside it): that is what a browser with scripts off (as the
		// renderer's) shows, so the page is that text, if it is text to
		// read and not a one-line "enable JavaScript". Beside text of the
		// page's own, the fallback must hold nine tenths of the page's
		// words or more and MinFallbackProse words of prose: a short
		// page's paragraph-long "please enable JavaScript" stays dropped.
		fpc := pc
		fpc.KeepFallbacks = true
		if fp, bs, ok := again(name, data, opt, fpc); ok && (n == 0 || 10*n <= words(bs) && proseWords(bs)-proseWords(d.Blocks) >= MinFallbackProse) {
			p, d.Page, d.Blocks = fp, fp, bs
			d.Fallbacks = true
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if pst.Hidden > 0 && !pc.KeepHidden && words(d.Blocks) < MinFallbackWords {
		// Next to no text but what is hidden by attribute or inline
		// style, and that is prose and nine tenths of the page: a page
		// kept hidden until a script shows it (an anti-flicker <body
		// style="display:none">). A reader sees it, so the page is that
		// text; as with a body hidden by a style sheet, its rendering
		// shows too little, and the text model decides its blocks. A
		// short page's hidden menu (no prose) or cookie notice (less
		// than nine tenths) stays dropped.
		hpc := pc
		hpc.KeepHidden = true
		hpc.KeepFallbacks = d.Fallbacks
		if hp, bs, ok := again(name, data, opt, hpc); ok && proseWords(bs)-proseWords(d.Blocks) >= MinFallbackWords && 10*words(d.Blocks) <= words(bs) {
			p, d.Page, d.Blocks = hp, hp, bs
			d.Hidden = true
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if len(d.Blocks) == 0 {
		d.Frames = frameSources(name, data, opt)
	}
	t3 := time.Now()
	maxBlocks := opt.MaxBlocks
	if maxBlocks <= 0 {
		maxBlocks = DefaultMaxBlocks
	}
	if len(d.Blocks) > maxBlocks {
		cutFrom(d.Blocks[maxBlocks].Node)
		d.Page.MarkCut(load.CutBlocks)
		d.Blocks = blocks.Find(p.Doc)
		if len(d.Blocks) > maxBlocks { // an ancestor that the cut left with more own text than the rest of its subtree
			d.Blocks = d.Blocks[:maxBlocks:maxBlocks]
		}
	}
	d.never, d.neverFound = findNeverKept(d), true
	d.Timings.Load, d.Timings.Preclean, d.Timings.Blocks = t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
	if opt.Visual != nil && len(d.Blocks) > 0 {
		vis, err := opt.Visual.Visual(ctx, d)
		if err != nil {
			return nil, &RenderError{Page: name, Err: err}
		}
		if len(vis) != len(d.Blocks) {
			return nil, &RenderError{Page: name, Err: fmt.Errorf("the Visualizer gave %d measurements for %d blocks", len(vis), len(d.Blocks))}
		}
		d.Visual = vis
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t4 := time.Now()
	d.Table = features.ExtractTitled(d.Blocks, d.Visual, d.Meta.Title)
	d.English, _ = d.Table.Lang()
	d.Timings.Features = time.Since(t4)
	return d, nil
}

// frameSources loads the page again, as preclean drops frames, and
// returns the src of each <frame> it holds that names a page (not
// about:, javascript: or data:), and of each <iframe> where the page has
// no script, resolved against its <base href> where that is absolute;
// nil for none.
func frameSources(name string, data []byte, opt PrepareOptions) []string {
	p, err := load.Bytes(name, data, opt.Load)
	if err != nil {
		return nil
	}
	var frames, iframes []string
	scripts := false
	var base *url.URL
	for n := range p.Doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.DataAtom {
		case atom.Script:
			scripts = true
		case atom.Base:
			if u, err := url.Parse(strings.TrimSpace(dom.Attr(n, "href"))); err == nil && u.IsAbs() && base == nil {
				base = u
			}
		case atom.Frame, atom.Iframe:
			v := strings.TrimSpace(dom.Attr(n, "src"))
			low := strings.ToLower(v)
			if v == "" || strings.HasPrefix(low, "about:") || strings.HasPrefix(low, "javascript:") || strings.HasPrefix(low, "data:") {
				continue
			}
			if n.DataAtom == atom.Frame {
				frames = append(frames, v)
			} else {
				iframes = append(iframes, v)
			}
		}
	}
	if !scripts {
		// An inline frame holds the text of a page without scripts; on
		// a page a script fills it is more likely an advertisement or
		// an embedded video, and the text is the script's.
		frames = append(frames, iframes...)
	}
	if base != nil {
		for i, f := range frames {
			if u, err := base.Parse(f); err == nil {
				frames[i] = u.String()
			}
		}
	}
	return frames
}

// MinFallbackWords is the least number of words the <noscript> and
// <noframes> of a page without other text must hold to be its text: a
// page a script fills often holds only "You need to enable JavaScript to
// run this app.", which is no text for a corpus.
const MinFallbackWords = 25

// MinFallbackProse is the least number of words of prose (ten words or
// more ending like a sentence) that the <noscript> of a page with a few
// words of its own (fewer than MinFallbackWords: an app shell's
// "Loading…") must add to be its text; a notice asking for JavaScript
// seldom runs to a hundred words, a page's article does.
const MinFallbackProse = 100

// proseWords counts the words (features.WordCount: a character of
// Chinese or Japanese each) of the blocks that are prose, as the window
// columns and the floor count it (features.Table.Prose): ten words or
// more, ending like a sentence.
func proseWords(bs []*blocks.Block) int {
	n := 0
	for _, b := range bs {
		k := features.WordCount(b.Text)
		if k >= 10 && features.EndsSentence(b.Text) {
			n += k
		}
	}
	return n
}

func words(bs []*blocks.Block) int {
	n := 0
	for _, b := range bs {
		n += features.WordCount(b.Text)
	}
	return n
}

// again loads and precleans the page anew with other preclean options, and
// reports its blocks when they hold at least MinFallbackWords words.
func again(name string, data []byte, opt PrepareOptions, pc preclean.Options) (*load.Page, []*blocks.Block, bool) {
	p, err := load.Bytes(name, data, opt.Load)
	if err != nil {
		return nil, nil, false
	}
	var links []*html.Node
	if opt.Visual != nil && opt.Resources != nil {
		preclean.OpenShadowRoots(p.Doc) // as Prepare does: the style sheets of the tree that stays
		links = styleLinks(p.Doc)
	}
	if _, err := preclean.CleanWith(p.Doc, pc); err != nil {
		return nil, nil, false
	}
	restoreLinks(p.Doc, links)
	bs := blocks.Find(p.Doc)
	if words(bs) < MinFallbackWords {
		return nil, nil, false
	}
	return p, bs, true
}

// hasFallback reports whether a page's bytes hold a <noscript> or a
// <noframes> element (the bytes of any charset that keeps ASCII).
func hasFallback(data []byte) bool {
	for i := 0; i+9 <= len(data); i++ {
		if j := bytes.IndexByte(data[i:], '<'); j < 0 {
			return false
		} else {
			i += j
		}
		if i+9 <= len(data) && (bytes.EqualFold(data[i+1:i+9], []byte("noscript")) || bytes.EqualFold(data[i+1:i+9], []byte("noframes"))) {
			return true
		}
	}
	return false
}

// cutFrom cuts the document at n, as load cuts a page at its byte
// limit: n and everything after it in document order go; its ancestors
// stay with what comes before it.
func cutFrom(n *html.Node) {
	for p := n; p.Parent != nil; p = p.Parent {
		for s := p.NextSibling; s != nil; {
			next := s.NextSibling
			p.Parent.RemoveChild(s)
			s = next
		}
	}
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}

// styleLinks returns, in document order, the elements of doc that bring
// style sheets or set the base URL: <link> with "stylesheet" among its
// rel tokens, <style>, and <base> with href.
func styleLinks(doc *html.Node) []*html.Node {
	var out []*html.Node
	for n := doc; n != nil; n = dom.Next(doc, n) {
		if n.Type != html.ElementNode || n.Namespace != "" {
			continue
		}
		switch n.DataAtom {
		case atom.Link:
			if hasRelToken(nodeAttr(n, "rel"), "stylesheet") && nodeAttr(n, "href") != "" {
				out = append(out, n)
			}
		case atom.Style:
			out = append(out, n)
		case atom.Base:
			if nodeAttr(n, "href") != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// restoreLinks puts the style sheet links and the first base element of
// nodes (from styleLinks, before precleaning) back into the precleaned
// document's <head>: the base first after the charset, then the links and
// the <style> sheets that preclean kept there, in their document order.
func restoreLinks(doc *html.Node, nodes []*html.Node) {
	if len(nodes) == 0 {
		return
	}
	head := dom.Head(doc)
	if head == nil {
		return
	}
	detach := func(n *html.Node) {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	base := false
	for _, n := range nodes {
		switch n.DataAtom {
		case atom.Base:
			if base {
				continue
			}
			base = true
			detach(n)
			after := head.FirstChild // the charset, which preclean puts first
			if after != nil && after.DataAtom == atom.Meta {
				head.InsertBefore(n, after.NextSibling)
			} else {
				head.InsertBefore(n, head.FirstChild)
			}
		case atom.Style:
			if n.Parent == head { // kept by preclean; elsewhere it was dropped
				detach(n)
				head.AppendChild(n)
			}
		default:
			detach(n)
			head.AppendChild(n)
		}
	}
}

// nodeAttr returns the value of n's attribute key (ASCII case ignored).
func nodeAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// hasRelToken reports whether the space-separated list s holds tok,
// ignoring ASCII case.
func hasRelToken(s, tok string) bool {
	for _, f := range strings.Fields(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}
