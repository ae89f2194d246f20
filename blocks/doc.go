// Package blocks finds the target nodes of a precleaned HTML document: the
// text blocks that fiasco classifies as clean or dirty.
//
// # The rule
//
// FIASCO (Bauer et al., CLEANEVAL 2007) calls a node a target node when at
// least 10% of the text in its subtree sits in its own child text nodes.
// Applied literally, every inline element (<a>, <b>, <span>, ...) is a target
// node, since all its text is its own, and a paragraph with a link in it falls
// apart into pieces. fiasco therefore treats inline elements as transparent:
//
//   - The own text of an element is the text of its child text nodes plus the
//     text of inline descendants reached through inline elements only.
//     Elements that HTML does not define count as inline, as browsers
//     display them (KrdWrd's <kw> wrappers around every text node).
//   - Only non-inline elements (div, p, li, td, h1, ...) can be target nodes.
//   - An element is a target node when its own text holds at least
//     [MinOwnShare] (10%) of the text of its subtree, counted in non-space
//     characters, and is not empty.
//   - The own text of an element that is not a target node would otherwise
//     fall to a far ancestor (a subheading <span> among the <p>s of a story
//     <div>, scattered over the page). Find gives it blocks of its own
//     instead: every run of inline content with text between the element's
//     block children is wrapped in a <div data-fiasco-anon> — what a
//     browser does anyway with such runs (anonymous block boxes), so the
//     rendering does not change. (On CleanEval and CleanPortalEval this
//     leaves the oracle and cross-validated F unchanged within 0.05 points;
//     it keeps the geometry of such blocks meaningful for package vision.)
//   - Every text node belongs to exactly one block: the nearest target node
//     among its ancestors. Text with no target ancestor goes to the <body>
//     element, which then becomes a block too.
//
// So blocks partition the visible text of the page: joining the text of all
// blocks in document order gives back all of it, and dropping a block drops
// exactly its text. Block.Text is that text with white space collapsed,
// line breaks kept (the source's and the <br>s'): the text the features
// read, as the embedded models were trained on it (it glues the words on
// either side of a nested block where no white space separates them).
// [Runs] cut the page's text as a browser shows it, for output: each run
// of white space is one space, or one line break where it holds a <br>, a
// line break inside <pre> (and <listing>, <plaintext>, <xmp>, <textarea>),
// or a non-inline element (an <hr>, an empty <div>); a paragraph that the
// page's source wraps over several lines is one line. The text of a <pre>
// is a run of its own that keeps its lines' indentation and the spaces
// inside them (a poem's, a program's), less the indentation all its lines
// share; its empty lines and trailing spaces go.
//
// # Marking
//
// [Mark] sets the attribute [Attr] (data-fiasco-block="N") on every block's
// element so that a browser rendering the document (package render) can find
// them again: a text node belongs to block N when its closest ancestor
// carrying Attr has the value N.
//
// # Example
//
// The examples find the blocks of a page, show the [Runs] of a block
// interrupted by a nested block, and mark block elements with [Mark].
package blocks
