package features

import "fmt"

// Group is a family of features.
type Group int

// The feature groups.
const (
	Linguistic Group = 1 << iota
	Keyword
	Structural
	Visual
)

// Feature describes one column.
type Feature struct {
	Name  string
	Group Group
	// English marks features that only make sense for English text (lexicon,
	// stop words, keywords).
	English bool
}

// schema is the one place where feature names and order are defined.
var schema = []Feature{
	{"len_chars", Linguistic, false},
	{"tokens", Linguistic, false},
	{"type_ratio", Linguistic, false},
	{"sentences", Linguistic, false},
	{"mean_sentence_len", Linguistic, false},
	{"mean_word_len", Linguistic, false},
	{"stopword_share", Linguistic, true},
	{"unknown_share", Linguistic, true},
	{"punct_share", Linguistic, false},
	{"digit_share", Linguistic, false},
	{"symbol_share", Linguistic, false},
	{"upper_share", Linguistic, false},
	{"link_ratio", Linguistic, false},
	{"final_punct", Linguistic, false},
	{"kw_clean", Keyword, true},
	{"kw_dirty", Keyword, true},
	{"kw_odds", Keyword, true},
	{"depth", Structural, false},
	{"depth_rel", Structural, false},
	{"tag_heading", Structural, false},
	{"tag_p", Structural, false},
	{"tag_li", Structural, false},
	{"tag_td", Structural, false},
	{"tag_div", Structural, false},
	{"tag_other", Structural, false},
	{"in_list", Structural, false},
	{"in_table", Structural, false},
	{"in_form", Structural, false},
	{"in_boiler_elem", Structural, false},
	{"in_content_elem", Structural, false},
	{"attr_boiler", Structural, false},
	{"attr_content", Structural, false},
	{"links_per_word", Structural, false},
	{"a_share", Structural, false},
	{"img_share", Structural, false},
	{"position", Structural, false},
	{"index_rel", Structural, false},
	{"size_rel", Structural, false},
	{"dup_text", Structural, false},
	{"prev_len", Structural, false},
	{"prev_link", Structural, false},
	{"next_len", Structural, false},
	{"next_link", Structural, false},
	{"vis_found", Visual, false},
	{"vis_solidity1", Visual, false},
	{"vis_solidity2", Visual, false},
	{"vis_solidity3", Visual, false},
	{"vis_relwidth", Visual, false},
	{"vis_headline", Visual, false},
	{"vis_x", Visual, false},
	{"vis_y", Visual, false},
	{"vis_area", Visual, false},
	{"vis_fontsize", Visual, false},
	{"vis_lines", Visual, false},
	{"vis_col_overlap", Visual, false},
	{"vis_col_offset", Visual, false},
	{"vis_outside", Visual, false},
	{"vis_col_density", Visual, false},
}

var index = func() map[string]int {
	m := make(map[string]int, len(schema))
	for i, f := range schema {
		m[f.Name] = i
	}
	return m
}()

// All returns the full schema in column order.
func All() []Feature { return append([]Feature(nil), schema...) }

// Names returns the names of the features in the given groups, in column
// order. With englishOnly false, English-only features are left out.
func Names(groups Group, english bool) []string {
	var out []string
	for _, f := range schema {
		if f.Group&groups != 0 && (english || !f.English) {
			out = append(out, f.Name)
		}
	}
	return out
}

// LanguageIndependent returns names with the English-only features removed.
func LanguageIndependent(names []string) []string {
	var out []string
	for _, n := range names {
		if i, ok := index[n]; ok && !schema[i].English {
			out = append(out, n)
		}
	}
	return out
}

// Select returns the column of each name in the full schema, or an error
// naming the first unknown feature.
func Select(names []string) ([]int, error) {
	cols := make([]int, len(names))
	for i, n := range names {
		c, ok := index[n]
		if !ok {
			return nil, fmt.Errorf("features: unknown feature %q (this fiasco knows %d features)", n, len(schema))
		}
		cols[i] = c
	}
	return cols, nil
}

// Project picks the columns cols from each full-schema row.
func Project(rows [][]float64, cols []int) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		v := make([]float64, len(cols))
		for j, c := range cols {
			v[j] = r[c]
		}
		out[i] = v
	}
	return out
}
