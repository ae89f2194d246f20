// Package gold reads the gold standards of the data sets in ../shared/data
// and turns them into clean/dirty labels on target nodes (package blocks).
//
// # Data sets and formats
//
// A data set directory holds html/<id>.html and gold/<id>.*; [Pairs] lists
// the pages that have both, and [Detect] tells the format of a gold file:
//
//   - [CleanEval] (CleanEval, CleanPortalEval): a first line "URL: ...",
//     then text whose segments are opened by <p>, <h> or <l>. A byte-order
//     mark, CRLF line ends, HTML comments and character entities are
//     handled; a file with only the URL line has no clean text. A file
//     without the URL line whose text opens with a segment tag is CleanEval
//     too. A UTF-16 file is decoded before its format is told.
//   - [Plain] (Dragnet): plain lines of main content; a line like
//     "!@#$%^&*()  COMMENTS" starts the user comments, which are not clean
//     unless Options.Comments is set.
//   - [L3S] (L3S-GN1): the annotated page; text in span.x-nc-selN is clean
//     for the N of Options.L3SClasses, by default 1 (headline), 2 (full
//     text), 3 (supplemental), as in Bevendorff et al. 2023 (4 is related
//     content, 5 comments, 0 not content); the innermost span decides;
//     elements of class x-nc-invisible (and script, style, head) are
//     invisible.
//   - [KrdWrd] (KrdWrd CANOLA): the page DOM with every text node wrapped in
//     <kw class="krdwrd-tag-N">; tag 3 (good) is clean, tag 1 (bad), 7 and
//     undefined are not, and tag 2 (annotators uncertain) is not clean
//     unless Options.Uncertain is set (it is rare: 1,599 of 44,717 nodes;
//     the Corpus policy sets it, the Article policy does not).
//
// [Read] returns a [Gold]: the clean Segments and their Words, and for the
// annotated formats also Page, every visible word of the annotated page
// with its label. Bytes that are not UTF-8 are decoded as a page's are
// (load.Text), but for a guess of another Latin charset than
// windows-1252, which is taken as windows-1252. Mojibake is undone as
// package preclean undoes it in a page's text (internal/mojibake: "Israelâ€™s"
// is "Israel’s"), so that output and gold hold the same words.
//
// # Policies
//
// Each data set annotates in its own terms; a [Policy] says what counts as
// clean whatever the set, and [Policy.Options] maps every set's labels to
// it (Options is the per-format label map; Options.Mapping describes it):
//
//   - [Corpus], CleanEval's policy (running text, headings and list items
//     of the page's own content, comments and forum posts included):
//     CleanEval and CleanPortalEval gold as is; L3S-GN1 headline, full
//     text, supplemental and comments; Dragnet content and comments;
//     KrdWrd good and uncertain.
//   - [Article], the main article only: CleanEval and CleanPortalEval gold
//     as is; L3S-GN1 headline and full text; Dragnet content without the
//     comments; KrdWrd good.
//
// The zero Options is the mapping used before policies existed (L3S 1-3,
// Dragnet without comments, KrdWrd good), which is neither.
//
// # Alignment
//
// [Label] gives each block the share of its words that are gold content.
// The words of the page in reading order ([blocks.Runs]: a block whose
// text is interrupted by a nested block contributes its words where they
// appear) are aligned with the gold words by difflib's algorithm
// ([difflib.Matcher]: the longest common run first, then recursively on
// both sides), which anchors on long runs, so common words such as "the"
// in the navigation do not match text far away. For text gold a page word
// is clean when it is matched; for annotated gold the page is aligned with
// all words of the annotated page and a word is clean when its partner is.
// Tokens are compared lower-cased with only their letters and digits
// ([AlignOptions]); matched runs shorter than MinRun (2) count only when
// they cover whole blocks. [Labels] applies the [Threshold] (0.5).
// difflib's popular-word rule (AutoJunk) is used only when page tokens
// times gold tokens exceed 20 million: it barely changes the oracle F but
// makes very long pages much faster (BenchmarkLabel20k; figures in
// RESULTS.md).
//
// The options barely matter (oracle F within 0.1 point for fold, strip,
// MinRun 1-3, autojunk, threshold 0.4-0.6); reading order matters a lot
// (CleanEval oracle F 96.5 -> 98.3 when it replaced block order). The
// oracle (every block carries its gold label) is measured by
// "fiasco oracle --data DIR".
//
// [LabelDice] is FIASCO's method for comparison: each gold segment goes to
// the block whose subtree text has the highest Dice coefficient with it
// (at least [MinDice]), and everything below that block is clean. Its
// oracle F is lower (RESULTS.md, "gold"): a segment that is only part of
// a block, or a block holding several segments, defeats it.
//
// # Words joined at line feeds
//
// CleanEval's annotators worked on a text in which every line feed not
// preceded by a carriage return had been dropped, so the gold of a page
// wrapped by hand in lines ending in LF alone joins the last word of each
// line to the first of the next ("andhotly"). No output that shows the
// page's words can match them. [Gold.SplitLineFeedJoins] finds them from
// the page's source and gives the gold with them split; fiasco eval
// scores against it beside the gold as written (CleanEval dev: 829 words
// on 5 pages, 817 of them on pages 7, 9 and 54; L3S-GN1 and KrdWrd
// CANOLA: one word on one page each; CleanPortalEval and Dragnet: none).
//
// # Example
//
// The examples walk a small data set with [Pairs] and label its blocks, parse
// a CleanEval gold text from memory, and show the word shares that [Label]
// gives to blocks.
package gold
