// Package preclean removes from a parsed page what a reader does not see,
// and splits paragraphs that are written as runs of <br>, so that package
// blocks finds one block per visible paragraph.
//
// # Removed
//
// [Clean] works in place on a document from html.Parse (package load) and
// removes:
//
//   - comments, and in <head> everything but <title> (and, with
//     Options.KeepStyles, the page's <style> sheets, moved into <head>
//     from wherever they stood, so that a browser drawing the document
//     shows the page's own layout: package pipeline asks for it when it
//     renders); a <meta charset="utf-8"> is put first in <head>, since
//     the document is UTF-8 now and the render stage hands it to a
//     browser;
//   - <title> outside <head> (markup before it closed the head early, and
//     the parser put it in the body, where browsers do not show it); the
//     first moves into a <head> that has no title;
//   - script, style (but with Options.KeepStyles), noscript, template; iframe, frame, frameset, noframes,
//     embed, noembed, param, svg, canvas, audio, video, source, track
//     (embedded content and fallbacks a browser does not show; noembed's
//     content is raw text, markup included); an <object> or <applet> that
//     embeds what a browser displays itself (an image, a text or
//     document, a PDF, a video it plays), and one holding nothing once
//     cleaned (a video player's box); one that needs a plugin (Flash,
//     Java, ActiveX, QuickTime) stays, inline, without the attributes
//     naming what it embeds, for the fallback content browsers show since
//     they no longer run plugins (a Flash video's caption: 18
//     CleanPortalEval pages hold 686 such words, 424 of them in the
//     gold); with
//     Options.KeepFallbacks, what noscript and noframes hold stays, parsed
//     as markup (a noframes of a frameset document moves into a body), as
//     a browser with scripts off or without frames shows it;
//   - form controls whose text is a label or choice list, not prose:
//     select, option, optgroup, datalist, input, textarea, button, keygen
//     (on the CleanEval, CleanPortalEval, Dragnet, L3S-GN1 and KrdWrd pages,
//     buttons hold 398 words in all, every one boilerplate: "Search", "Go",
//     "SIGN UP"). label, legend and fieldset text stays;
//   - link, meta and base elements in the body;
//   - the readings of ruby annotations, rt, and their fallback
//     parentheses, rp: the furigana above 東京 are a gloss, not text of
//     the sentence (ruby and rb are inline, so 今年も東京で stays one
//     run);
//   - elements hidden by attribute or inline style: the hidden attribute,
//     style declaring display:none or visibility:hidden|collapse (any case,
//     spacing, !important), and <dialog> without open. aria-hidden="true"
//     is kept: it hides from screen readers, not from sighted readers (it
//     occurs on one page of all the data sets). Options.KeepHidden keeps
//     hidden elements: on the Dragnet, L3S-GN1 and KrdWrd pages a few hidden
//     elements hold gold text, on CleanEval and CleanPortalEval none
//     (counts in RESULTS.md);
//   - cookie and consent notices, which a reader sees but which are never
//     the page's text: an element whose class or id names a consent
//     manager (OneTrust, Cookiebot, Usercentrics, Didomi, Quantcast's
//     qc-cmp2, Sourcepoint's sp_message_container, ...), or, holding at
//     most MaxConsentWords words, names the notice in common words
//     ("cookie-banner", "cookie-law-info-bar", "gdpr-consent": cookie,
//     cookies, consent or gdpr with a second such word or one such as
//     banner, notice, bar, popup, modal, dialog), or is a dialog whose
//     aria-label speaks of cookies or consent. A post's taxonomy classes
//     ("category-cookies", "tag-cookie-law": what it is about), a study's
//     "informed-consent" section and the skeleton and main elements
//     (html, body, main, article) are no notice; nor is an empty
//     placeholder a script fills. None of the five
//     data sets' 2,339 pages holds a notice with a word in it: the 2007 to
//     2012 pages have none, and the models never learnt to drop them.
//
// # Style sheets
//
// The page's own style sheets, the text of its <style> elements (a
// browser rendering the page offline has no other), hide elements too:
// display:none, and visibility:hidden or collapse where no element
// below is made visible again. The cascade decides between the rules
// that set the property and the element's inline style (!important,
// then inline over sheet, then specificity, then the later rule), so a
// class that hides, overridden by an id's rule or an inline style that
// shows, does not hide. Media queries are evaluated for a screen
// ViewportWidth pixels wide: width conditions in px, em and rem are met
// or not, any other condition (orientation, resolution, hover, colour
// scheme) is taken as unmet; print sheets and sheets of another type
// than text/css are skipped. Dynamic pseudo-classes (:hover, :focus)
// never match, as in a page no one points at, so the submenu a hover
// opens is hidden; pseudo-elements and selectors that
// github.com/andybalholm/cascadia cannot parse are not applied.
//
// Text a sheet or an inline style moves out of sight goes too: the
// "visually hidden" text for screen readers (Bootstrap's sr-only,
// WordPress's screen-reader-text: "Skip to content", "Posted on",
// "(opens in a new tab)"), positioned and clipped to nothing or shrunk to
// a pixel with its overflow hidden, and the off-left and image
// replacement techniques, positioned 999px or more to the left or top or
// indented as far (see offscreen). A more specific rule that puts the
// element back (left: 0, position: static) wins, as in a browser.
//
// Options.KeepHidden keeps these elements too. What is read is capped
// (maxSheetBytes, maxSheetSelectors, maxSheetWork): past a cap the rules
// read so far apply. On the 2,339 pages of the five data sets, sheets
// and offscreen styles hide text on 183 pages (7,795 words; none on
// CleanEval's development set); a hostile page of 20,000 rules that
// every element meets costs about 0.4 s (BenchmarkSheets).
//
// # Web components
//
// A declarative shadow root, <template shadowrootmode="open"> (or
// "closed"; the attribute's earlier name shadowroot too) as the first such
// child of its host, is opened as a browser draws it before anything is
// removed: the host's children become the shadow tree, each <slot> in it
// replaced by the host's children assigned to it (elements by their slot
// attribute; the unnamed slot takes the text and the elements without
// one) or by its own fallback content; children assigned to no slot are
// not drawn and go. Any other <template> is dropped with its content.
// An <iframe srcdoc="..."> (a frame whose document the page writes in
// the attribute) becomes a <div> holding that document's body, as it is
// drawn in place of the frame; other frames are dropped.
//
// A custom element (a name HTML leaves to pages, with a hyphen:
// <story-dek>, <fact-box>) that holds an element that is not inline, or
// stands beside one with no text of its own beside it, is taken for a
// <div> (its DataAtom is atom.Div, its name stays in Data, which the
// render stage writes out for the page's styles): pages built of web
// components style their containers as blocks, which browsers would
// otherwise draw inline. One in running text (<relative-time>) stays
// inline. A custom element's name is read as a class for the consent
// notices above (<cookie-banner>, <consent-manager>).
//
// The text that stays is first repaired where it is UTF-8 that was read
// once more as windows-1252 or ISO-8859-1, or windows-1252 read as
// ISO-8859-1 ("Israelâ€™s" is "Israel’s", "RÃ©sumÃ©" "Résumé",
// "Britain\u0092s" "Britain’s"; package internal/mojibake says when
// exactly), so that a spacer "Â&nbsp;" is white space and no block.
// Then characters that show nothing are removed: control characters
// (but those that are white space: tab, line feed, vertical tab, form
// feed, carriage return; U+0085, next line, the repair reads as
// windows-1252's "…"), the soft hyphen, the zero-width space (but between letters of Thai,
// Lao, Khmer and Myanmar, where it marks a word break), the word joiner
// and U+FEFF, so that "ban&shy;ner" is the word "banner" and a paragraph
// of &#8203; no paragraph. Zero-width joiners and non-joiners stay (they
// shape Arabic, Persian and Indic scripts and emoji).
//
// An inline element that its inline style draws as a box of its own
// (float, position absolute or fixed, display block and the like) gets a
// space on either side where none parts it from its neighbours, so that
// "<a style="float:right">RSS</a><a>Follow</a>" is two words, as a
// reader sees them; it stays inline. Not spaced: a floated or positioned
// box without text (an image), a drop cap (a floated letter or two
// before the rest of its word), and preformatted text.
//
// # Runs of <br>
//
// Two or more sibling <br> elements separated only by white space (no-break
// spaces included) are a paragraph break:
//
//   - inside a p, h1-h6 or pre holding inline content only, the element is
//     split in two at the run (a second p, h2, ... with the same attributes
//     but no id); inline elements crossing the split are copied into both
//     halves, as a browser's parser does for misnested tags;
//   - otherwise the inline content around the run (bounded by elements
//     that hold blocks) is wrapped in a new <p>, which is then split the
//     same way: the run's parent's content, or, where the run lies in
//     inline elements that hold inline content only (<div>LOS ANGELES
//     (UPI) -- <span>Josh ...<br><br>Elvis ...</span></div>), the content
//     of the first element above them that is not inline, so that the
//     dateline before the span starts the first paragraph, as a browser
//     draws it, rather than making a block of its own.
//
// The run itself is removed, and halves left without text or image are
// dropped. A run inside a p that also holds a block element (possible in
// quirks mode) is left alone (Stats.Kept): splitting it would make a
// document that a browser parses differently. A single <br> stays a line
// break within its paragraph.
//
// The cleaned document is stable under html.Render and html.Parse (the
// tests check this on every golden page and on the CleanEval dev and
// CleanPortalEval pages), and its text is a subsequence of the original's
// but for the spaces put around boxes (and where a shadow root's slots
// take the host's children: their words, not their order).
//
// # Example
//
// The examples clean a loaded page before package blocks finds its
// paragraphs, show what [CleanStats] reports and the cleaned document, and
// keep hidden elements with [Options.KeepHidden].
package preclean
