package features

import (
	"fmt"

	"github.com/fiasco-project/fiasco/vision"
)

// Group is a family of features.
type Group int

// The feature groups.
const (
	Linguistic Group = 1 << iota
	Keyword
	Structural
	Visual
	Context
	// Candidate holds columns kept for measurement: in no default set
	// ("all" included), they are named one by one or as the group
	// "candidate" (fiasco's --features, --candidate-features). Since
	// 2026-11-30 they are depth and depth_rel, which branch_depth and
	// branch_depth_rel replaced in the structural group.
	Candidate
)

// Feature describes one column.
type Feature struct {
	Name  string
	Group Group
	// English marks features that only make sense for English text (lexicon,
	// stop words, keywords).
	English bool
}

// The columns this package computes, by constant: Extract writes
// v[colTokens], not v[index["tokens"]], so a misspelt column does not
// compile. The full schema is textSchema (columns 0..numText-1), then one
// column per vision.Fields entry (the measurements package vision exports),
// then layoutSchema, the layout features computed here from the blocks'
// boxes (layout.go); layoutCol gives their columns; then contextSchema,
// the context features (context.go), at contextCol.
const (
	colLenChars = iota
	colTokens
	colTypeRatio
	colSentences
	colMeanSentenceLen
	colMeanWordLen
	colStopwordShare
	colUnknownShare
	colPunctShare
	colDigitShare
	colSymbolShare
	colUpperShare
	colLinkRatio
	colFinalPunct
	colKwClean
	colKwDirty
	colKwOdds
	colDepth
	colDepthRel
	colTagHeading
	colTagP
	colTagLi
	colTagTd
	colTagDiv
	colTagOther
	colInList
	colInTable
	colInForm
	colInBoilerElem
	colInContentElem
	colAttrBoiler
	colAttrContent
	colLinksPerWord
	colAShare
	colImgShare
	colPosition
	colIndexRel
	colSizeRel
	colDupText
	colPrevLen
	colPrevLink
	colNextLen
	colNextLink
	colWinLink
	colWinProse
	colBranchDepth
	colBranchDepthRel
	colRecProse
	colRecLink
	colRecCount
	colRecWords
	numText
)

// textSchema names the linguistic, keyword, structural and candidate
// columns.
var textSchema = [numText]Feature{
	colLenChars:        {"len_chars", Linguistic, false},
	colTokens:          {"tokens", Linguistic, false},
	colTypeRatio:       {"type_ratio", Linguistic, false},
	colSentences:       {"sentences", Linguistic, false},
	colMeanSentenceLen: {"mean_sentence_len", Linguistic, false},
	colMeanWordLen:     {"mean_word_len", Linguistic, false},
	colStopwordShare:   {"stopword_share", Linguistic, true},
	colUnknownShare:    {"unknown_share", Linguistic, true},
	colPunctShare:      {"punct_share", Linguistic, false},
	colDigitShare:      {"digit_share", Linguistic, false},
	colSymbolShare:     {"symbol_share", Linguistic, false},
	colUpperShare:      {"upper_share", Linguistic, false},
	colLinkRatio:       {"link_ratio", Linguistic, false},
	colFinalPunct:      {"final_punct", Linguistic, false},
	colKwClean:         {"kw_clean", Keyword, true},
	colKwDirty:         {"kw_dirty", Keyword, true},
	colKwOdds:          {"kw_odds", Keyword, true},
	colDepth:           {"depth", Candidate, false},
	colDepthRel:        {"depth_rel", Candidate, false},
	colTagHeading:      {"tag_heading", Structural, false},
	colTagP:            {"tag_p", Structural, false},
	colTagLi:           {"tag_li", Structural, false},
	colTagTd:           {"tag_td", Structural, false},
	colTagDiv:          {"tag_div", Structural, false},
	colTagOther:        {"tag_other", Structural, false},
	colInList:          {"in_list", Structural, false},
	colInTable:         {"in_table", Structural, false},
	colInForm:          {"in_form", Structural, false},
	colInBoilerElem:    {"in_boiler_elem", Structural, false},
	colInContentElem:   {"in_content_elem", Structural, false},
	colAttrBoiler:      {"attr_boiler", Structural, false},
	colAttrContent:     {"attr_content", Structural, false},
	colLinksPerWord:    {"links_per_word", Structural, false},
	colAShare:          {"a_share", Structural, false},
	colImgShare:        {"img_share", Structural, false},
	colPosition:        {"position", Structural, false},
	colIndexRel:        {"index_rel", Structural, false},
	colSizeRel:         {"size_rel", Structural, false},
	colDupText:         {"dup_text", Structural, false},
	colPrevLen:         {"prev_len", Structural, false},
	colPrevLink:        {"prev_link", Structural, false},
	colNextLen:         {"next_len", Structural, false},
	colNextLink:        {"next_link", Structural, false},
	colWinLink:         {"win_link", Structural, false},
	colWinProse:        {"win_prose", Structural, false},
	colBranchDepth:     {"branch_depth", Structural, false},
	colBranchDepthRel:  {"branch_depth_rel", Structural, false},
	colRecProse:        {"rec_prose", Structural, false},
	colRecLink:         {"rec_link", Structural, false},
	colRecCount:        {"rec_count", Structural, false},
	colRecWords:        {"rec_words", Structural, false},
}

// The layout features, in their order after the vision columns.
const (
	layColOverlap = iota
	layColOffset
	layOutside
	layColDensity
	numLayout
)

// layoutSchema names the layout columns.
var layoutSchema = [numLayout]Feature{
	layColOverlap: {"vis_col_overlap", Visual, false},
	layColOffset:  {"vis_col_offset", Visual, false},
	layOutside:    {"vis_outside", Visual, false},
	layColDensity: {"vis_col_density", Visual, false},
}

// visionFields are the vision columns, as vision.Fields was at start-up.
var visionFields = append([]vision.Field(nil), vision.Fields...)

// visualCol is the column of visionFields[0]; layoutCol(k) that of
// layoutSchema[k].
const visualCol = numText

func layoutCol(k int) int { return numText + len(visionFields) + k }

// contextCol(k) is the column of contextSchema[k].
func contextCol(k int) int { return numText + len(visionFields) + numLayout + k }

// schema is the full schema in column order.
var schema = func() []Feature {
	s := append([]Feature(nil), textSchema[:]...)
	for _, f := range visionFields {
		s = append(s, Feature{f.Name, Visual, false})
	}
	s = append(s, layoutSchema[:]...)
	return append(s, contextSchema[:]...)
}()

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

// IsVisual reports whether the named column is a visual one, measured on
// the rendered page (group Visual); false for an unknown name.
func IsVisual(name string) bool {
	i, ok := index[name]
	return ok && schema[i].Group == Visual
}

// IsStyle reports whether the named column is one of the vision.Fields
// marked Style (read from the computed style, not measured on the
// screenshot; not in a trainer's default set).
func IsStyle(name string) bool {
	for _, f := range visionFields {
		if f.Name == name {
			return f.Style
		}
	}
	return false
}
