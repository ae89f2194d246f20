package features

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/vision"
)

// Table holds the raw feature values of one page.
type Table struct {
	// Values has one row per block in full-schema column order; the keyword
	// columns are zero until filled by Rows.
	Values [][]float64
	// Tokens are the word tokens of every block.
	Tokens [][]string
}

// Extract computes the raw features of the blocks of one page. vis, what
// package vision measured, may be nil (page not rendered); otherwise it has
// one entry per block. Its vision.Fields fill the visual columns.
func Extract(bs []*blocks.Block, vis []vision.Features) *Table {
	return ExtractTitled(bs, vis, "")
}

// ExtractTitled is Extract with the page's title given (e.g. the
// og:title or <title> that package meta read before preclean dropped the
// head's meta elements); "" means the <title> element found in the
// blocks' document, if any.
func ExtractTitled(bs []*blocks.Block, vis []vision.Features, title string) *Table {
	t := &Table{Values: make([][]float64, len(bs)), Tokens: make([][]string, len(bs))}
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	total, maxDepth, maxBranch, textLen := 0, 1, 1, 0
	seen := sc.seen
	for _, b := range bs {
		total += b.Chars
		maxDepth = max(maxDepth, b.Depth)
		maxBranch = max(maxBranch, b.Branch)
		seen[b.Text]++
		textLen += len(b.Text)
	}
	var lay layout
	if vis != nil {
		lay = mainLayout(bs, vis)
	}
	lc := layoutCol(0)
	ns := len(schema)
	values := make([]float64, len(bs)*ns)
	// The tokens of all blocks share one backing array (each block's slice
	// capped at its own end); about one token per 5 bytes of text. ids
	// holds each token's number in voc, the page's distinct words.
	toks := make([]string, 0, textLen/5+1)
	tz := &sc.tz
	for i, b := range bs {
		n0 := len(toks)
		toks = tz.appendTokens(toks, b.Text)
		if len(toks) > n0 {
			t.Tokens[i] = toks[n0:len(toks):len(toks)]
		}
	}
	voc := &sc.voc
	ids := slices.Grow(sc.ids[:0], len(toks))[:len(toks)]
	sc.ids = ids
	for k, w := range toks {
		ids[k] = voc.id(w)
	}
	voc.classify()
	anc := &sc.anc
	prose := slices.Grow(sc.prose[:0], len(bs))[:len(bs)] // every entry set below
	sc.prose = prose
	next := 0 // ids of block i start here
	for i, b := range bs {
		v := values[i*ns : (i+1)*ns : (i+1)*ns]
		bt := t.Tokens[i]
		bids := ids[next : next+len(bt)]
		next += len(bt)

		// Linguistic.
		st := charStats(b.Text)
		nt := float64(len(bt))
		v[colLenChars] = math.Log1p(float64(b.Chars))
		v[colTokens] = math.Log1p(nt)
		v[colSentences] = math.Log1p(float64(st.sentences))
		if len(bt) > 0 {
			types, stop, unknown, alpha, wl := 0, 0, 0, 0, 0
			for _, id := range bids {
				e := &voc.words[id]
				if e.block != int32(i) { // first time in this block
					e.block = int32(i)
					types++
				}
				wl += int(e.runes)
				if e.kind&kindStop != 0 {
					stop++
				}
				if e.kind&kindLetter != 0 {
					alpha++
					if e.kind&kindKnown == 0 {
						unknown++
					}
				}
			}
			v[colTypeRatio] = float64(types) / nt
			v[colMeanSentenceLen] = math.Log1p(nt / math.Max(1, float64(st.sentences)))
			v[colMeanWordLen] = float64(wl) / nt
			v[colStopwordShare] = float64(stop) / nt
			if alpha > 0 {
				v[colUnknownShare] = float64(unknown) / float64(alpha)
			}
		}
		if st.chars > 0 {
			c := float64(st.chars)
			v[colPunctShare] = float64(st.punct) / c
			v[colDigitShare] = float64(st.digits) / c
			v[colSymbolShare] = float64(st.symbols) / c
			v[colUpperShare] = float64(st.upper) / math.Max(1, float64(st.letters))
		}
		v[colLinkRatio] = ratio(b.LinkChars, b.Chars)
		v[colFinalPunct] = bool01(st.finalPunct)
		prose[i] = isProse(len(bt), st.finalPunct)

		// Candidate: the depth counting every element (structural until
		// 2026-11-30).
		v[colDepth] = float64(b.Depth)
		v[colDepthRel] = float64(b.Depth) / float64(maxDepth)
		// Structural.
		// The depth counted only at the ancestors where the text divides:
		// wrapper elements around a page's content or a block's (as
		// frameworks write them) change nothing.
		v[colBranchDepth] = float64(b.Branch)
		v[colBranchDepthRel] = float64(b.Branch) / float64(maxBranch)
		v[tagFeature(b.Node)] = 1
		a := anc.of(b.Node)
		v[colInList] = bool01(a.list)
		v[colInTable] = bool01(a.table)
		v[colInForm] = bool01(a.form)
		v[colInBoilerElem] = bool01(a.boilerElem)
		v[colInContentElem] = bool01(a.contentElem)
		v[colAttrBoiler] = bool01(a.boilerAttr)
		v[colAttrContent] = bool01(a.contentAttr)
		v[colLinksPerWord] = float64(b.Links) / (nt + 1)
		v[colAShare] = ratio(b.Links, b.Elements)
		v[colImgShare] = ratio(b.Images, b.Elements)
		v[colPosition] = ratio(b.Offset, total)
		v[colIndexRel] = ratio(i, len(bs))
		v[colSizeRel] = ratio(b.Chars, total)
		v[colDupText] = math.Log(float64(seen[b.Text]))
		if i > 0 {
			p := bs[i-1]
			v[colPrevLen] = math.Log1p(float64(p.Chars))
			v[colPrevLink] = ratio(p.LinkChars, p.Chars)
		}
		if i+1 < len(bs) {
			n := bs[i+1]
			v[colNextLen] = math.Log1p(float64(n.Chars))
			v[colNextLink] = ratio(n.LinkChars, n.Chars)
		}

		// Visual.
		if vis != nil && i < len(vis) && vis[i].Found {
			x := &vis[i]
			for k, f := range visionFields {
				v[visualCol+k] = f.Get(x)
			}
			if lay.ok {
				v[lc+layColOverlap] = lay.overlap(x)
				v[lc+layColOffset] = math.Min(4, lay.offset(x))
				v[lc+layOutside] = lay.outside(x)
				v[lc+layColDensity] = lay.columnDensity(x)
			}
		}
		t.Values[i] = v
	}
	windowFeatures(bs, prose, t.Values)
	recordFeatures(bs, t.Tokens, prose, t.Values)
	contextFeatures(bs, t.Tokens, t.Values, title)
	return t
}

// scratch holds Extract's working memory, kept from page to page in
// scratchPool (cleared, so that no page's text or nodes stay reachable).
type scratch struct {
	seen  map[string]int // block texts seen, with their counts
	tz    tokenizer
	voc   vocab
	ids   []int32
	prose []bool // per block: isProse
	anc   ancestryMemo
}

var scratchPool = sync.Pool{New: func() any {
	return &scratch{
		seen: map[string]int{},
		voc:  vocab{ids: map[string]int32{}},
		anc:  ancestryMemo{memo: map[*html.Node]ancestors{}},
	}
}}

// maxScratch bounds the entries of a pooled scratch's maps and slices;
// the memory of a larger page is left to the collector.
const maxScratch = 1 << 15

func (sc *scratch) release() {
	if len(sc.seen) > maxScratch || len(sc.voc.strs) > maxScratch || len(sc.anc.memo) > maxScratch ||
		cap(sc.ids) > 8*maxScratch || cap(sc.prose) > maxScratch || cap(sc.tz.buf) > 64*maxScratch {
		return
	}
	clear(sc.seen)
	clear(sc.voc.ids)
	clear(sc.voc.strs)
	sc.voc.strs = sc.voc.strs[:0]
	sc.voc.words = sc.voc.words[:0]
	sc.ids = sc.ids[:0]
	clear(sc.anc.memo)
	clear(sc.anc.path[:cap(sc.anc.path)])
	sc.anc.path = sc.anc.path[:0]
	clear(sc.tz.pend)
	sc.tz.buf, sc.tz.pend = sc.tz.buf[:0], sc.tz.pend[:0]
	scratchPool.Put(sc)
}

// vocab holds what Extract needs of each distinct token of a page, so that
// the lexicon is consulted once per word type and page, not per token.
type vocab struct {
	ids   map[string]int32
	strs  []string
	words []vocabWord
}

type vocabWord struct {
	block int32 // the last block that counted this word as a type
	runes int32 // utf8.RuneCountInString
	kind  uint8
}

const (
	kindStop   = 1 << iota // IsStopWord
	kindLetter             // hasLetter
	kindKnown              // IsKnownWord
)

// id returns the number of w, adding it on first sight.
func (v *vocab) id(w string) int32 {
	if id, ok := v.ids[w]; ok {
		return id
	}
	id := int32(len(v.strs))
	v.ids[w] = id
	v.strs = append(v.strs, w)
	return id
}

// classify fills words (reusing its memory). The lexicon lookups, the costly part (its table is
// larger than the CPU caches), run back to back, which lets the CPU
// overlap their memory accesses.
func (v *vocab) classify() {
	v.words = slices.Grow(v.words[:0], len(v.strs))[:len(v.strs)]
	clear(v.words)
	for k, w := range v.strs {
		// One lexicon lookup answers both IsStopWord and IsKnownWord.
		stop, known := wordKind(w)
		e := &v.words[k]
		if stop {
			e.kind |= kindStop
		}
		if known {
			e.kind |= kindKnown
		}
	}
	for k, w := range v.strs {
		e := &v.words[k]
		e.block = -1
		e.runes = int32(utf8.RuneCountInString(w))
		if hasLetter(w) {
			e.kind |= kindLetter
		}
	}
}

// Rows returns the full-schema rows with the keyword columns filled from kw
// (zero when kw is nil). The table itself is not modified.
func (t *Table) Rows(kw *Keywords) [][]float64 {
	out := make([][]float64, len(t.Values))
	ic, id, io := colKwClean, colKwDirty, colKwOdds
	f := kw.filter()
	for i, v := range t.Values {
		r := append([]float64(nil), v...)
		r[ic], r[id], r[io] = kw.scoreWith(f, t.Tokens[i])
		out[i] = r
	}
	return out
}

// Columns returns the rows reduced to the columns cols (see Select), with
// the keyword columns filled from kw: Project(t.Rows(kw), cols) without
// the full-width copy, for classifying a page.
func (t *Table) Columns(kw *Keywords, cols []int) [][]float64 {
	ic, id, io := colKwClean, colKwDirty, colKwOdds
	out := make([][]float64, len(t.Values))
	all := make([]float64, len(t.Values)*len(cols))
	var f *kwFilter
	for i, v := range t.Values {
		r := all[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		scored := false
		var kc, kd, ko float64
		for j, c := range cols {
			switch c {
			case ic, id, io:
				if !scored {
					if f == nil {
						f = kw.filter()
					}
					kc, kd, ko = kw.scoreWith(f, t.Tokens[i])
					scored = true
				}
				switch c {
				case ic:
					r[j] = kc
				case id:
					r[j] = kd
				default:
					r[j] = ko
				}
			default:
				r[j] = v[c]
			}
		}
		out[i] = r
	}
	return out
}

func tagFeature(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return colTagHeading
	case atom.P, atom.Blockquote, atom.Pre:
		return colTagP
	case atom.Li, atom.Dd, atom.Dt:
		return colTagLi
	case atom.Td, atom.Th:
		return colTagTd
	case atom.Div, atom.Section, atom.Article, atom.Main:
		return colTagDiv
	}
	return colTagOther
}

type ancestors struct {
	list, table, form, boilerElem, contentElem, boilerAttr, contentAttr bool
}

var (
	boilerWords  = []string{"nav", "menu", "footer", "header", "sidebar", "side-bar", "breadcrumb", "banner", "copyright", "social", "share", "widget", "advert", "sponsor", "promo", "related", "login", "signup", "subscribe", "toolbar", "masthead", "cookie", "skip", "tags", "pagination", "pager"}
	contentWords = []string{"article", "content", "post", "entry", "story", "text", "body", "main", "blog", "news"}
)

// ancestryMemo computes the ancestry of the blocks of one page (what
// ownAncestry says of the node and of every ancestor, or-ed), taking
// each element once: memo holds the ancestry of every node seen so far.
type ancestryMemo struct {
	memo map[*html.Node]ancestors
	path []*html.Node
}

// of returns the ancestry of n, the same as or-ing ownAncestry(p) for p
// from n to the root.
func (m *ancestryMemo) of(n *html.Node) ancestors {
	var a ancestors
	m.path = m.path[:0]
	for p := n; p != nil; p = p.Parent {
		if x, ok := m.memo[p]; ok {
			a = x
			break
		}
		m.path = append(m.path, p)
	}
	for k := len(m.path) - 1; k >= 0; k-- {
		p := m.path[k]
		a = a.or(ownAncestry(p))
		m.memo[p] = a
	}
	return a
}

func (a ancestors) or(b ancestors) ancestors {
	return ancestors{
		list: a.list || b.list, table: a.table || b.table, form: a.form || b.form,
		boilerElem: a.boilerElem || b.boilerElem, contentElem: a.contentElem || b.contentElem,
		boilerAttr: a.boilerAttr || b.boilerAttr, contentAttr: a.contentAttr || b.contentAttr,
	}
}

// ownAncestry is what node p itself adds to the ancestry of the nodes
// below it.
func ownAncestry(p *html.Node) ancestors {
	var a ancestors
	if p.Type != html.ElementNode {
		return a
	}
	switch p.DataAtom {
	case atom.Ul, atom.Ol, atom.Dl, atom.Menu:
		a.list = true
	case atom.Table:
		a.table = true
	case atom.Form:
		a.form = true
	case atom.Nav, atom.Header, atom.Footer, atom.Aside:
		a.boilerElem = true
	case atom.Article, atom.Main:
		a.contentElem = true
	}
	for _, at := range p.Attr {
		if at.Key != "class" && at.Key != "id" && at.Key != "role" {
			continue
		}
		val := strings.ToLower(at.Val)
		if containsAny(val, boilerWords) {
			a.boilerAttr = true
		}
		if containsAny(val, contentWords) {
			a.contentAttr = true
		}
	}
	return a
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func hasLetter(w string) bool {
	for _, r := range w {
		if r >= 'a' && r <= 'z' || r > 127 {
			return true
		}
	}
	return false
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
