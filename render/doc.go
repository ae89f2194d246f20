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
//	b, err := render.New(ctx, render.Options{}) // starts Chromium
//	if err != nil {
//		return err // render.ErrNoChromium: install chromium or skip rendering
//	}
//	defer b.Close()
//	// doc: html.Render of the precleaned page after blocks.Mark;
//	// colors: one per block, from package vision.
//	res, err := b.Render(ctx, doc, colors, render.RenderOptions{Highlight: true})
//	if err != nil {
//		return err // this page failed (bad page, time-out); b still works
//	}
//	// res.Image, res.Boxes[i], res.LineHeight[i], res.Timings ...
//
// Render may be called from several goroutines at once: each call works in
// a tab of its own. A Browser is one Chromium process; if it dies (crash,
// kill), the next Render starts a new one transparently. Close waits for
// running calls, ends the process and removes its profile directory.
//
// # The browser
//
// [New] starts [FindChromium]'s binary (or Options.ExecPath) with exactly
// [Flags] (--headless --no-sandbox --disable-gpu --disable-background-networking
// --disable-component-update --disable-sync --no-first-run --disable-quic, plus
// --font-render-hinting=none for glyphs that do not depend on the machine's
// hinting settings) and a fresh temporary --user-data-dir, talking DevTools
// over a pipe. Debian's /usr/bin/chromium is a launcher script that adds flags
// of its own (GPU rasterization, extensions, dev-shm), so when it is one,
// FindChromium picks the real binary /usr/lib/chromium/chromium behind it.
// Scrollbars are hidden with Emulation.setScrollbarsHidden. Options.RemoteURL
// attaches to a browser that runs elsewhere (a Chromium container) instead.
//
// Each page gets a new tab, closed after. Opening a tab costs Chromium about
// 250 ms of CPU (a new renderer process), so one spare tab is opened ahead in
// the background. Options.ReuseTabs instead loads the next page into a tab
// whose last page succeeded, which halves Chromium's CPU per page (see
// figures below); every page is a new document and the tab's settings are
// set again, and a test checks that a reused tab renders pixel-identical
// results, but the pages then share a renderer process.
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
// net::ERR_BLOCKED_BY_CLIENT within milliseconds, a loopback server that
// would hang every request sees none, and the load completes in about the
// time of a page without them.
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
// transparent; img, video, audio, iframe, svg, canvas, object, embed and form
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
//
// # Screenshot
//
// Page.captureScreenshot in PNG (lossless, exact colours) with
// optimizeForSpeed (measured: capture about 3 times faster, and Chromium
// then filters every row with Up, zlib level 1). Pages are captured in
// strips of Options.TileHeight (8192) image px stitched into one image.
// Chromium's capture limit: with --disable-gpu (software compositing) a
// 40,000 px page captures correctly in one piece — no 16,384 px texture
// limit — but strips are faster (40,000 px page: 1.4 s capture + 0.36 s
// decode in strips, 5.2 s + 2.3 s in one piece). Content below
// Options.MaxHeight (30,000 CSS px) is cropped: Result.Cropped is set and
// Result.PageHeight gives the full height. The PNG is decoded by a decoder
// specialised for Chromium's output (pngdec.go: no checksum, Up filter eight
// bytes at a time, repeated rows copied, pixels written straight into the
// stitched image; other PNGs go through image/png): 8.8 ns/px against 18.5
// for image/png.
//
// # Timings and figures
//
// Timings.Load is from taking the tab to the load event (tab set-up and
// navigation), Highlight the first script call, Measure the viewport change,
// layout and measuring call, Screenshot Chromium's capture calls (PNG
// encoding and transfer included), Decode our PNG decoding and stitching.
//
// BenchmarkRender over the 58 CleanEval dev pages (pipeline load, preclean,
// blocks.Mark; 6.5 Mpx per page at scale 1, 1.6 at 0.5), on a 2-core
// machine shared with other jobs (load average 6 to 12), mean per page:
//
//	tabs   scale workers pages/s est.idle chromium-cpu  load  shot  highlight decode ours/chromium
//	new    1     1       1.87    1.97     988 ms        207   174   29        35 ms  0.17
//	new    1     2       2.72    2.75     700 ms        265   210   33        46 ms  0.17
//	new    0.5   2       3.15    3.19     613 ms        258   123   42        19 ms  0.16
//	reuse  1     1       3.80    6.15     302 ms         63   128   14        20 ms  0.18
//	reuse  1     2       2.57    5.09     368 ms        228   253   56        73 ms  0.27
//	reuse  0.5   2       6.29    6.70     288 ms        103    99   25        13 ms  0.19
//
// (go test ./render -run XXX -bench Render -benchtime 58x; times in ms.)
// est.idle is 2 s over the CPU time per page (Chromium's process tree plus
// ours), the rate two idle cores would reach. ours/chromium is
// (Highlight+Decode)/(Load+Screenshot); Measure (Chromium laying out and
// painting the full-height viewport, plus our measuring call) is in
// neither. Opening a tab is about half of Chromium's CPU per page, hence
// ReuseTabs.
package render
