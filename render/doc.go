// Package render renders a precleaned page in headless Chromium with every
// target node (text block) painted as solid bars in a colour of its own, and
// measures where each block landed. It is FIASCO's eyes: package vision
// turns the screenshot into blob geometry.
//
// # Contract
//
// Input: the page as UTF-8 HTML bytes in which every block element carries
// data-fiasco-block="N", N = 0..n-1 (see pipeline/blocks: a text node belongs
// to block N when its closest ancestor carrying the attribute has value N),
// and a palette []color.RGBA with one colour per block (alpha ignored). The
// palette comes from the caller (package vision); render does not choose
// colours and does not import vision.
//
// Output ([Result]): the full-page screenshot as *image.RGBA, and per block
// its box (the union of the client rects of its text), the font size and the
// line height. All lengths are image pixels = CSS px × [Options].Scale, origin
// at the top left of the page. The image is Options.Width CSS px wide (content
// beyond is cut off, boxes are clipped to the image) and as tall as the page,
// up to Options.MaxHeight. With RenderOptions.Highlight at scale 1 the
// screenshot holds exactly two kinds of pixel: white, and the exact colours
// of the palette, each spanning its block's box within 2 px (tested on
// testdata/blocks.html, and on 12 CleanEval pages: no other pixel). Below
// scale 1 the edges of the bars blend with white.
//
// # Tutorial
//
// [New] starts Chromium (or fails with [ErrNoChromium]); [Browser.Render]
// draws one page (html.Render of the precleaned page after blocks.Mark)
// with one colour per block from package vision, and returns the image, the
// blocks' boxes, font sizes and line heights and the time split; a page
// that fails leaves the browser working. The package example renders a
// two-block page.
//
// Render may be called from several goroutines at once: each call works in
// a tab of its own. Documents over 64 KB render at once only while their
// bytes together stay under Options.MaxInflightBytes (a larger one
// alone); the others wait their turn, in arrival order, as long as their
// ctx allows. A Browser is one Chromium process; if it dies (crash,
// kill), the next Render starts a new one transparently, and every page
// that was being rendered when it died is rendered once more on the new
// one, with its timeout afresh. A page whose retry fails too gets an error
// wrapping [ErrBrowserDied]. A page whose renderer process crashes (the
// kernel ends one that runs out of memory; the browser lives on) is
// noticed at once, by the tab's crash event, and rendered once more in a
// new tab; a second failure gets an error wrapping [ErrPageCrashed]. A
// reused or spare tab whose renderer crashed while it waited is not used.
// A page that otherwise fails or times out by itself (the browser alive)
// is not retried. Close waits for running calls, ends the
// process and removes its profile directory.
//
// # Options
//
// In [Options] and [RenderOptions] a zero value means the default that the
// field documents (Width 0 is [DefaultWidth], Scale 0 is 1, Timeout 0 is
// [DefaultTimeout] ...). [New] and Render refuse every other value that is
// not meaningful, with an error naming the field: negative sizes and
// durations, a Scale that is negative, NaN or infinite, sizes whose largest
// screenshot exceeds [MaxImageBytes], a RenderOptions.URL that is not an
// absolute http or https URL. No value is silently replaced by another;
// commands check their flags before they get here.
//
// # The browser
//
// [New] starts [FindChromium]'s binary (or Options.ExecPath) with exactly
// [Flags] (--headless --no-sandbox --disable-gpu --disable-background-networking
// --disable-component-update --disable-sync --no-first-run --disable-quic;
// --font-render-hinting=none for glyphs that do not depend on the machine's
// hinting settings; --host-resolver-rules="MAP * ~NOTFOUND" and
// --disable-features=HttpsUpgrades,AutoupgradeMixedContent, see below) and
// a fresh temporary --user-data-dir, talking DevTools over a pipe. Debian's
// /usr/bin/chromium is a launcher script that adds flags of its own (GPU
// rasterization, extensions, dev-shm), so when it is one, FindChromium picks
// the real binary /usr/lib/chromium/chromium behind it. Scrollbars are
// hidden with Emulation.setScrollbarsHidden. Options.RemoteURL attaches to a
// browser that runs elsewhere (a Chromium container) instead; that browser
// should run with the same flags.
//
// Starting is bounded: a browser that has not answered over DevTools
// within Options.StartTimeout ([DefaultStartTimeout] when 0), in New or in
// a restart after a death, is killed and the start fails with an error
// naming the binary and the option (the ctx given to New can end it
// sooner). A restart runs once for all the Render calls that need it; each
// waits for it no longer than its own timeout. The browser runs as the
// leader of a process group of its own: when it is ended (Close, a failed
// start, a death) every process left in that group or carrying its
// --user-data-dir is killed, and its profile directory removed; the kernel
// kills the browser if our process dies.
//
// Each page gets a new tab, closed after. Opening a tab costs Chromium a new
// renderer process, so one spare tab is opened ahead in the background.
// Options.ReuseTabs instead loads the next page into a tab whose last page
// succeeded, which saves Chromium much of its CPU per page (figures in
// RESULTS.md); every page is a new document and the tab's settings are set
// again, and a test checks that a reused tab renders pixel-identical
// results, but the pages then share a renderer process. A reused tab is
// closed after Options.TabPages pages, so that a long batch's renderer
// processes do not grow without bound.
//
// # Loading without network
//
// The page is served by the browser's own request interception, not from a
// file or a server: the tab navigates to a made-up URL
// http://fiasco.invalid/<seq>/page.html, the Fetch domain pauses every request
// (pattern "*"), the page's request is fulfilled with doc, a later
// navigation of the page's frame (meta refresh, which works without scripts)
// is answered "204 No Content" so that the page stays, and every other
// request fails at once with BlockedByClient. Why: it works unchanged with a
// remote browser (a browser in a container sees neither our temporary files
// nor our loopback), relative URLs resolve against the made-up origin and are
// blocked like any other, and a page served over http cannot read local
// files (file:// pages can read file:// subresources). data: URLs and
// setDocumentContent were excluded by the issue; inline data: resources
// (no network) still load. The test page testdata/network.html references
// http and loopback stylesheets, images, fonts, an iframe, a video, an
// @import and file:///etc/hostname: all 13 requests fail with
// net::ERR_BLOCKED_BY_CLIENT at once, and a loopback server that would hang
// every request sees no request and no connection (tested).
//
// Interception covers requests, not what Chromium does on its own as a
// page loads, such as opening connections ahead of time to the origins it
// expects to use. --host-resolver-rules="MAP * ~NOTFOUND" makes every host
// name and address resolve to nothing, so that no DNS query and no
// connection leaves the browser (without it, the loopback server above saw
// a connection).
//
// # Rendering from an archive
//
// RenderOptions.URL serves the page at its own address instead of the
// made-up one (the fragment dropped), so that its relative URLs resolve
// as when it was crawled; it is intercepted like the made-up URL and never
// fetched. (If Chromium writes the URL differently, the first document
// request of the tab's main frame is the page's.) RenderOptions.Resources
// then serves the page's requisites from the archive the page came from:
// a GET request for an http or https URL that Resources knows is answered
// with status 200, the [Resource]'s body and Content-Type, Cache-Control:
// no-store (nothing carries over to the next page) and
// Access-Control-Allow-Origin: * (web fonts from another origin load as
// they did when crawled); every other request is blocked as without it,
// and the page's own navigations still get 204. Resources is asked with
// the URL as Chromium requests it: absolute, without fragment, in
// Chromium's canonical form (lower-case scheme and host, dot segments
// resolved, percent-encoding). --disable-features=HttpsUpgrades,
// AutoupgradeMixedContent keeps Chromium from turning an http page or its
// http images into https requests, which an archive of http URLs would
// not know. Page scripts stay off, so archived scripts do nothing. A test
// writes a WARC (package warc) holding a page and its style sheet, which
// sets the page's two blocks side by side, and renders the page from it:
// two columns; without Resources, one.
//
// Page scripts are off (Emulation.setScriptExecutionDisabled): inline
// scripts, onload/onerror handlers and javascript: URLs do nothing (tested).
// Runtime.evaluate, which runs our highlight script, works regardless. With
// scripts off, <noscript> content renders; package preclean removes it.
//
// # Highlighting and measuring
//
// highlight.js (embedded) runs in two calls, all DOM changes first, then all
// layout reads. The first wraps the text of every text node that belongs to
// a block in a <fiasco-hl> element: a custom element, not a span, so that
// author rules for span do not apply to it and the layout stays as it was
// (white-space-only nodes are wrapped only between two inline elements, so
// that "<b>x</b> <i>y</i>" makes one bar). With Highlight on it gives each
// wrapper the background of its block's colour and transparent text, and adds
// a style sheet that, without changing any layout box, blanks everything
// else: background colours and images, border, outline, column-rule and text
// decoration colours transparent; box and text shadows, filters, blend modes
// and masks off; list markers and ::before/::after/::first-letter text
// transparent; img, video, audio, iframe, svg, canvas, embed, an object that
// embeds something (one that does not shows its fallback content) and form
// controls visibility:hidden; text outside every block transparent; opacity
// forced to 1 (it would blend the colours) except where it was 0. Boxes
// measured with and without Highlight agree within 1 px (tested).
//
// Then the viewport is set to the full page: width Options.Width, height the
// document's scroll height (twice when the height depends on the viewport,
// as with 100vh). The second call measures: per block the union of the
// wrappers' client rects in page coordinates, and from the computed style of
// the parent of the block's longest wrapper the font size and the line
// height ("normal" line height: the height of that wrapper's first rect).
// Before anything is written, the highlighting step reads the computed
// style of the parent of each block's longest text node: the font weight,
// the contrast ratio (WCAG 2) of the text colour, composited over the
// first opaque ancestor background (white if none; unknown, 0, when a
// background image comes first), and whether an ancestor is fixed or
// sticky (Result.Style). Result.Screen is the first
// screen's height (Options.Height).
//
// # Screenshot
//
// Page.captureScreenshot in PNG (lossless, exact colours) with
// optimizeForSpeed (faster capture; Chromium then filters every row with Up,
// zlib level 1). Pages are captured in strips of Options.TileHeight image px
// stitched into one image: with --disable-gpu (software compositing) a page
// taller than 16,384 px also captures in one piece, but strips are faster.
// Content below Options.MaxHeight ([DefaultMaxHeight] CSS px when 0) is
// cropped: Result.Cropped is set and Result.PageHeight gives the full
// height. The PNG is decoded by a decoder specialised for Chromium's output
// (pngdec.go: no checksum, Up filter eight bytes at a time, repeated rows
// copied, pixels written straight into the stitched image; other PNGs go
// through image/png), about twice as fast as image/png (BenchmarkDecodePNG).
//
// # Timings
//
// Timings.Load is from taking the tab to the load event (tab set-up and
// navigation), Highlight the first script call, Measure the viewport change,
// layout and measuring call, Screenshot Chromium's capture calls (PNG
// encoding and transfer included), Decode our PNG decoding and stitching.
// BenchmarkRender reports them per page; RESULTS.md keeps the figures.
package render
