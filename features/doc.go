// Package features turns the text blocks of a page into numeric feature
// vectors for the classifier.
//
// # Contract
//
// [Extract] takes the blocks of one page (package blocks) and, optionally,
// what package vision measured of them (one [vision.Features] per block),
// and returns a [Table]: one row of raw (unscaled) values per block, in the
// column order of [Names], plus the word tokens of every block.
// [Table.Rows] adds the keyword columns, which depend on [Keywords] learned
// from training data ([LearnKeywords]). Scaling to [-1, 1] is not done
// here: the trainer learns the factors (package svm's scaler) and stores
// them in the model beside the feature names.
//
// Every feature has one name, defined once: the visual measurements in
// [vision.Fields], every other column in schema.go, where the full schema
// is assembled (text columns, then vision.Fields in order, then the layout
// columns and the context columns). Extract writes the columns it
// computes through constants, not names, so a misspelt column does not
// compile; the tests check that no name is empty or used twice. A model stores the names it was trained on
// and selects its columns with [Select], which fails on a name this schema
// lacks, so adding a feature never silently shifts an old model's inputs.
//
// # Adding a feature
//
//   - Visual, measured on the rendering: in package vision only. Compute it
//     into vision.Features (vision/measure.go) and add a vision.Fields
//     entry naming its column (vision/fields.go); document it in
//     vision/doc.go. Nothing here or in package pipeline changes: pipeline
//     passes vision's measurements to Extract as they are, and Extract
//     fills one column per vision.Fields entry.
//   - Linguistic, keyword or structural: a constant and a textSchema entry
//     in schema.go, and its computation in Extract (extract.go).
//   - Visual layout, computed here from the boxes: a constant and a
//     layoutSchema entry in schema.go, its computation in layout.go and its
//     line in Extract.
//   - Context: a constant and a contextSchema entry in context.go, its
//     computation in contextFeatures.
//
// The group list below says what each column means.
//
// # Groups
//
//   - Linguistic: text length, word tokens, word types, sentences, mean
//     sentence length, closed-class (stop word) share from an embedded
//     English list, unknown-word share against an embedded English word list
//     (SCOWL, see data/WORDS-LICENSE.txt), punctuation/digit/symbol/upper
//     case shares, link-text ratio, final punctuation (reference marks
//     after it, "[1]", "[citation needed]", set aside: beforeCitations).
//     Chinese and Japanese text has no spaces between words: a Chinese
//     character or kana is a token of its own ([Tokens]), and 。！？．
//     end a sentence with no space after them.
//   - Keyword: share of the block's tokens that are clean keywords, share that
//     are dirty keywords, and their mean log-odds, with keywords ranked by
//     log-likelihood keyness (Dunning's G²) between clean and dirty training
//     text.
//   - Structural: depth counted only at the ancestors where the page's
//     text divides (blocks.Block.Branch), absolute and relative to the
//     page's largest, so that the wrapper elements frameworks put around
//     a page's content or a block change nothing; tag type (heading,
//     paragraph, list item, table cell, div, other), being inside a list, table, form, header/footer/nav/aside
//     element, link and image density below the node, position in the
//     document, size relative to the page, class/id words of the ancestors
//     that signal boilerplate (nav, menu, footer, ...) or content (article,
//     content, post, ...), the length and link ratio of the neighbouring
//     blocks, and, over the three blocks on each side, the share of their
//     text inside links and in prose blocks (ten or more tokens ending in
//     sentence punctuation; window.go); and the record columns
//     (records.go; the alias "record" of fiasco's --features), which
//     describe the repeated structure around a block: its nearest
//     ancestor (or itself) with two or more siblings of the same tag and
//     first class word, and that group's share of records holding prose,
//     share of text in links, number of records and words out of links
//     per record. A short comment in a thread of them sits in a group
//     that holds prose and few links, a menu item in one of links. The
//     article models leave them out (their default: text,context,-record).
//   - Candidate: columns kept for measurement, in no default set ("all"
//     included): named one by one or as the group. They are depth and
//     depth_rel, the block's depth counting every element and relative to
//     the page's largest, which the structural group held until
//     2026-11-30, when branch_depth and branch_depth_rel replaced them
//     (RESULTS.md, "Depth where the text divides").
//   - Visual: the columns of [vision.Fields], the measurements package
//     vision makes on the rendered page and defines there: the five FIASCO
//     blob features (Solidity I-III, Relative Width, Headline), position,
//     area, font size relative to the page's median, and lines; all zero
//     with vis_found = 0 when a block was not rendered.
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
//   - Context (context.go; the article models use it): the page's
//     densest run of text, the element whose paragraphs hold most text,
//     the title's words, comment markers and the comment section.
//
// # Languages
//
// The lexicon, stop-word and keyword features are English. [Lang] reports
// whether a page looks English (its stop-word share); for other pages the
// pipeline uses a model trained on the language-independent columns only
// ([LanguageIndependent]).
package features
