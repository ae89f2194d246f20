package features

import (
	"math"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/pipeline/blocks"
)

// VisualInput is what the renderer and vision stage measured for a block.
type VisualInput struct {
	Found     bool
	Solidity1 float64
	Solidity2 float64
	Solidity3 float64
	RelWidth  float64
	Headline  float64
	X, Y      float64 // centre, relative to page width and height
	Area      float64 // share of the page area
	FontSize  float64 // px
	Lines     float64
	// Left, Top, Right, Bottom bound the block's blobs, relative to the
	// page width and height (0..1).
	Left, Top, Right, Bottom float64
}

// Table holds the raw feature values of one page.
type Table struct {
	// Values has one row per block in full-schema column order; the keyword
	// columns are zero until filled by Rows.
	Values [][]float64
	// Tokens are the word tokens of every block.
	Tokens [][]string
}

// Extract computes the raw features of the blocks of one page. vis may be
// nil (page not rendered); otherwise it has one entry per block.
func Extract(bs []*blocks.Block, vis []VisualInput) *Table {
	t := &Table{Values: make([][]float64, len(bs)), Tokens: make([][]string, len(bs))}
	total, maxDepth := 0, 1
	seen := map[string]int{}
	for _, b := range bs {
		total += b.Chars
		if b.Depth > maxDepth {
			maxDepth = b.Depth
		}
		seen[b.Text]++
	}
	fontMedian := 0.0
	var lay layout
	if vis != nil {
		fontMedian = medianFont(vis)
		lay = mainLayout(bs, vis)
	}
	for i, b := range bs {
		v := make([]float64, len(schema))
		toks := Tokens(b.Text)
		t.Tokens[i] = toks
		set := func(name string, x float64) { v[index[name]] = x }

		// Linguistic.
		st := charStats(b.Text)
		nt := float64(len(toks))
		set("len_chars", math.Log1p(float64(b.Chars)))
		set("tokens", math.Log1p(nt))
		set("sentences", math.Log1p(float64(st.sentences)))
		if len(toks) > 0 {
			types := map[string]struct{}{}
			stop, unknown, alpha, wl := 0, 0, 0, 0
			for _, w := range toks {
				types[w] = struct{}{}
				wl += len([]rune(w))
				if IsStopWord(w) {
					stop++
				}
				if hasLetter(w) {
					alpha++
					if !IsKnownWord(w) {
						unknown++
					}
				}
			}
			set("type_ratio", float64(len(types))/nt)
			set("mean_sentence_len", math.Log1p(nt/math.Max(1, float64(st.sentences))))
			set("mean_word_len", float64(wl)/nt)
			set("stopword_share", float64(stop)/nt)
			if alpha > 0 {
				set("unknown_share", float64(unknown)/float64(alpha))
			}
		}
		if st.chars > 0 {
			c := float64(st.chars)
			set("punct_share", float64(st.punct)/c)
			set("digit_share", float64(st.digits)/c)
			set("symbol_share", float64(st.symbols)/c)
			set("upper_share", float64(st.upper)/math.Max(1, float64(st.letters)))
		}
		set("link_ratio", ratio(b.LinkChars, b.Chars))
		set("final_punct", bool01(st.finalPunct))

		// Structural.
		set("depth", float64(b.Depth))
		set("depth_rel", float64(b.Depth)/float64(maxDepth))
		set(tagFeature(b.Node), 1)
		anc := ancestry(b.Node)
		set("in_list", bool01(anc.list))
		set("in_table", bool01(anc.table))
		set("in_form", bool01(anc.form))
		set("in_boiler_elem", bool01(anc.boilerElem))
		set("in_content_elem", bool01(anc.contentElem))
		set("attr_boiler", bool01(anc.boilerAttr))
		set("attr_content", bool01(anc.contentAttr))
		set("links_per_word", float64(b.Links)/(nt+1))
		set("a_share", ratio(b.Links, b.Elements))
		set("img_share", ratio(b.Images, b.Elements))
		set("position", ratio(b.Offset, total))
		set("index_rel", ratio(i, len(bs)))
		set("size_rel", ratio(b.Chars, total))
		set("dup_text", math.Log(float64(seen[b.Text])))
		if i > 0 {
			p := bs[i-1]
			set("prev_len", math.Log1p(float64(p.Chars)))
			set("prev_link", ratio(p.LinkChars, p.Chars))
		}
		if i+1 < len(bs) {
			n := bs[i+1]
			set("next_len", math.Log1p(float64(n.Chars)))
			set("next_link", ratio(n.LinkChars, n.Chars))
		}

		// Visual.
		if vis != nil && i < len(vis) && vis[i].Found {
			x := vis[i]
			set("vis_found", 1)
			set("vis_solidity1", x.Solidity1)
			set("vis_solidity2", x.Solidity2)
			set("vis_solidity3", x.Solidity3)
			set("vis_relwidth", x.RelWidth)
			set("vis_headline", x.Headline)
			set("vis_x", x.X)
			set("vis_y", x.Y)
			set("vis_area", x.Area)
			if fontMedian > 0 {
				set("vis_fontsize", x.FontSize/fontMedian)
			}
			set("vis_lines", math.Log1p(x.Lines))
			if lay.ok {
				set("vis_col_overlap", lay.overlap(x))
				set("vis_col_offset", math.Min(4, lay.offset(x)))
				set("vis_outside", lay.outside(x))
				set("vis_col_density", lay.columnDensity(x))
			}
		}
		t.Values[i] = v
	}
	return t
}

// Rows returns the full-schema rows with the keyword columns filled from kw
// (zero when kw is nil). The table itself is not modified.
func (t *Table) Rows(kw *Keywords) [][]float64 {
	out := make([][]float64, len(t.Values))
	ic, id, io := index["kw_clean"], index["kw_dirty"], index["kw_odds"]
	for i, v := range t.Values {
		r := append([]float64(nil), v...)
		r[ic], r[id], r[io] = kw.score(t.Tokens[i])
		out[i] = r
	}
	return out
}

// Columns returns the rows reduced to the columns cols (see Select), with
// the keyword columns filled from kw: Project(t.Rows(kw), cols) without
// the full-width copy, for classifying a page.
func (t *Table) Columns(kw *Keywords, cols []int) [][]float64 {
	ic, id, io := index["kw_clean"], index["kw_dirty"], index["kw_odds"]
	out := make([][]float64, len(t.Values))
	for i, v := range t.Values {
		r := make([]float64, len(cols))
		scored := false
		var kc, kd, ko float64
		for j, c := range cols {
			switch c {
			case ic, id, io:
				if !scored {
					kc, kd, ko = kw.score(t.Tokens[i])
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

func tagFeature(n *html.Node) string {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return "tag_heading"
	case atom.P, atom.Blockquote, atom.Pre:
		return "tag_p"
	case atom.Li, atom.Dd, atom.Dt:
		return "tag_li"
	case atom.Td, atom.Th:
		return "tag_td"
	case atom.Div, atom.Section, atom.Article, atom.Main:
		return "tag_div"
	}
	return "tag_other"
}

type ancestors struct {
	list, table, form, boilerElem, contentElem, boilerAttr, contentAttr bool
}

var (
	boilerWords  = []string{"nav", "menu", "footer", "header", "sidebar", "side-bar", "breadcrumb", "banner", "copyright", "social", "share", "widget", "advert", "sponsor", "promo", "related", "login", "signup", "subscribe", "toolbar", "masthead", "cookie", "skip", "tags", "pagination", "pager"}
	contentWords = []string{"article", "content", "post", "entry", "story", "text", "body", "main", "blog", "news"}
)

func ancestry(n *html.Node) ancestors {
	var a ancestors
	for p := n; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
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

func medianFont(vis []VisualInput) float64 {
	var fs []float64
	for _, v := range vis {
		if v.Found && v.FontSize > 0 {
			fs = append(fs, v.FontSize)
		}
	}
	if len(fs) == 0 {
		return 0
	}
	sort.Float64s(fs)
	return fs[len(fs)/2]
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
