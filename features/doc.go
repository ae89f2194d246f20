// Package features turns the text blocks of a page into numeric feature
// vectors for the classifier.
//
// # Contract
//
// [Extract] takes the blocks of one page (package pipeline/blocks) and,
// optionally, their visual measurements, and returns a [Table]: one row of
// raw (unscaled) values per block, in the column order of [Names], plus the
// word tokens of every block. [Table.Rows] adds the keyword columns, which
// depend on [Keywords] learned from training data ([LearnKeywords]). Scaling
// to [-1, 1] is not done here: the trainer learns the factors (package svm's
// scaler) and stores them in the model beside the feature names.
//
// Every feature has one name, defined once in schema.go; a model stores the
// names it was trained on and selects its columns with [Select], so adding a
// feature never silently shifts an old model's inputs.
//
// # Groups
//
//   - Linguistic: text length, word tokens, word types, sentences, mean
//     sentence length, closed-class (stop word) share from an embedded
//     English list, unknown-word share against an embedded English word list
//     (SCOWL, see data/WORDS-LICENSE.txt), punctuation/digit/symbol/upper
//     case shares, link-text ratio, final punctuation.
//   - Keyword: share of the block's tokens that are clean keywords, share that
//     are dirty keywords, and their mean log-odds, with keywords ranked by
//     log-likelihood keyness (Dunning's G²) between clean and dirty training
//     text.
//   - Structural: depth, tag type (heading, paragraph, list item, table cell,
//     div, other), being inside a list, table, form, header/footer/nav/aside
//     element, link and image density below the node, position in the
//     document, size relative to the page, class/id words of the ancestors
//     that signal boilerplate (nav, menu, footer, ...) or content (article,
//     content, post, ...), and the length and link ratio of the neighbouring
//     blocks.
//   - Visual: the five FIASCO blob features (Solidity I-III, Relative Width,
//     Headline) and position/size on the rendered page, given by the caller
//     (package vision measures them); zero with vis_found = 0 when a block
//     was not rendered.
//   - Visual layout, computed here from the blocks' boxes: where the block
//     sits relative to the page's main text. The main column is the page's
//     densest text column: every rendered block spreads its characters
//     evenly over the 1/256-wide bins of page width its box covers, and the
//     column is the run of bins around the peak whose density is at least
//     half the peak's. vis_col_overlap is the share of the block's width
//     inside that column, vis_col_offset the distance of its centre from
//     the column's centre in column widths (at most 4), and vis_outside how
//     far its centre lies above (negative) or below (positive) the span
//     holding the middle 90% of the characters of the blocks mostly inside
//     the column, in page heights (0 within it); vis_col_density is the
//     density of the bin under the block's centre over the peak's. A
//     sidebar sits beside the column, a header above and a footer below the
//     span, wherever their markup puts them.
//
// # Languages
//
// The lexicon, stop-word and keyword features are English. [Lang] reports
// whether a page looks English (its stop-word share); for other pages the
// pipeline uses a model trained on the language-independent columns only
// ([LanguageIndependent]).
package features
