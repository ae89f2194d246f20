// highlight.js: injected by package render with Runtime.evaluate (it runs
// although page scripts are disabled). It defines window.__fiasco with three
// functions; Go calls them in this order:
//
//   __fiasco.highlight(colors, on)  DOM changes only, no layout reads.
//   __fiasco.height()               the document's scroll height (CSS px).
//   __fiasco.measure()              layout reads only.
//
// Every text node with non-white-space text whose closest ancestor carries
// data-fiasco-block="N" is wrapped in a <fiasco-hl> element (white space at
// the start or end of a line collapses and gets no background). A custom element and not
// a <span>, so that author rules for span do not change the layout. With
// on=true the wrapper gets background colors[N] and transparent text, and a
// style sheet blanks everything else; with on=false nothing visible changes
// but one thing done in both modes, so that the layout is the same: every
// <marquee> is replaced by a <div> with its attributes (the scrolling ones
// dropped) and children. A marquee scrolls its content whether or not
// scripts run, so at screenshot time its text sits anywhere in or outside
// its clipped box (one CleanEval page keeps its whole article in one).
window.__fiasco = (function () {
  "use strict";
  var ATTR = "data-fiasco-block";
  var TAG = "fiasco-hl";
  var SKIP = { SCRIPT: 1, STYLE: 1, TEXTAREA: 1, OPTION: 1, OPTGROUP: 1, SELECT: 1,
    TITLE: 1, NOSCRIPT: 1, TEMPLATE: 1, HEAD: 1 };
  var spans = [];   // the wrappers, in document order
  var blockOf = []; // block index of each wrapper
  var nblocks = 0;
  // Per block, read in highlight before anything is written, from the
  // computed style of the parent of its longest text node: font weight
  // (100..900), the contrast ratio of the text colour against the first
  // opaque background below it (WCAG 2, 1..21; white when no ancestor has
  // one; 0 when a background image comes first or a colour cannot be
  // read), and whether it sits in a fixed or sticky container (1) or
  // not (0).
  var weight = [], contrast = [], fixed = [];

  var SHEET = [
    // Blank every element but the wrappers; keep every layout box.
    "*:not(" + TAG + "), *::before, *::after, *::marker, *::first-letter, *::first-line, *::placeholder {" +
      "background-color: transparent !important; background-image: none !important;" +
      "border-color: transparent !important; box-shadow: none !important;" +
      "outline-color: transparent !important; text-shadow: none !important;" +
      "color: transparent !important; -webkit-text-fill-color: transparent !important;" +
      "-webkit-text-stroke-color: transparent !important;" +
      "text-decoration-color: transparent !important; column-rule-color: transparent !important;" +
      "caret-color: transparent !important; list-style-image: none !important;" +
      "filter: none !important; backdrop-filter: none !important; mix-blend-mode: normal !important;" +
      "mask: none !important; -webkit-mask: none !important; }",
    // Opacity would blend the block colours; opacity 0 stays (see below).
    "*:not([data-fiasco-o0]) { opacity: 1 !important; }",
    // Replaced and embedded content: invisible, layout box kept. (An
    // object that embeds nothing, as package preclean keeps them, shows
    // its fallback content, which is drawn.)
    "img, video, audio, iframe, frame, svg, svg *, canvas, embed, picture, " +
      "object[data], object[type], object[classid], " +
      "input, select, textarea, meter, progress { visibility: hidden !important; }",
    TAG + " { display: inline !important; color: transparent !important;" +
      "-webkit-text-fill-color: transparent !important; text-shadow: none !important;" +
      "outline: none !important; border: 0 !important; box-shadow: none !important;" +
      "margin: 0 !important; padding: 0 !important; text-decoration: none !important;" +
      "background-image: none !important; filter: none !important; opacity: 1 !important; }"
  ].join("\n");

  var INLINE = { A: 1, ABBR: 1, B: 1, BDI: 1, BDO: 1, BIG: 1, CITE: 1, CODE: 1, DFN: 1,
    EM: 1, FONT: 1, I: 1, KBD: 1, LABEL: 1, MARK: 1, NOBR: 1, Q: 1, S: 1, SAMP: 1,
    SMALL: 1, SPAN: 1, STRIKE: 1, STRONG: 1, SUB: 1, SUP: 1, TIME: 1, TT: 1, U: 1,
    VAR: 1, INS: 1, DEL: 1, ACRONYM: 1 };
  INLINE[TAG.toUpperCase()] = 1;

  function inline(n) {
    return n && n.nodeType === 1 && INLINE[n.tagName] === 1;
  }

  function highlight(colors, on) {
    nblocks = colors.length;
    // 1. Collect (reads of the DOM tree only, no layout).
    var nodes = [], blocks = [];
    var w = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    for (var t = w.nextNode(); t; t = w.nextNode()) {
      var p = t.parentElement;
      if (!p || SKIP[p.tagName]) continue;
      // White space only: kept when it separates two inline elements (as
      // in "<b>x</b> <i>y</i>"), so that the bar has no gap there.
      if (!/\S/.test(t.data) && !(inline(t.previousSibling) && inline(t.nextSibling))) continue;
      var holder = p.closest("[" + ATTR + "]");
      if (!holder) continue;
      var n = parseInt(holder.getAttribute(ATTR), 10);
      if (!(n >= 0 && n < nblocks)) continue;
      nodes.push(t);
      blocks.push(n);
    }
    readStyles(nodes, blocks);
    var zero = [];
    if (on) {
      // Elements with opacity 0 stay invisible; all others get opacity 1.
      // Computed style only (no layout).
      var all = document.getElementsByTagName("*");
      for (var i = 0; i < all.length; i++) {
        if (getComputedStyle(all[i]).opacity === "0") zero.push(all[i]);
      }
    }
    // 2. Write.
    freezeMarquees();
    for (var i = 0; i < zero.length; i++) zero[i].setAttribute("data-fiasco-o0", "");
    for (var i = 0; i < nodes.length; i++) {
      var t = nodes[i];
      var el = document.createElement(TAG);
      t.parentNode.insertBefore(el, t);
      el.appendChild(t);
      if (on) {
        var c = colors[blocks[i]];
        el.style.setProperty("background-color", c, "important");
      }
      spans.push(el);
      blockOf.push(blocks[i]);
    }
    if (on) {
      var st = document.createElement("style");
      st.textContent = SHEET;
      (document.head || document.documentElement).appendChild(st);
    }
    return spans.length;
  }

  function readStyles(nodes, blocks) {
    var longest = new Array(nblocks), len = new Array(nblocks);
    for (var i = 0; i < nblocks; i++) { longest[i] = null; len[i] = -1; weight[i] = 0; contrast[i] = 0; fixed[i] = 0; }
    for (var i = 0; i < nodes.length; i++) {
      var l = nodes[i].data.trim().length;
      if (l > len[blocks[i]]) { len[blocks[i]] = l; longest[blocks[i]] = nodes[i].parentElement; }
    }
    var fixedCache = new Map();
    for (var n = 0; n < nblocks; n++) {
      var el = longest[n];
      if (!el) continue;
      var cs = getComputedStyle(el);
      weight[n] = parseInt(cs.fontWeight, 10) || 400;
      contrast[n] = contrastOf(el, cs.color);
      fixed[n] = inFixed(el, fixedCache) ? 1 : 0;
    }
  }

  // rgba parses a computed colour into [r, g, b, alpha] (0..255, 0..1).
  // Computed colours are rgb()/rgba() unless written in another colour
  // space (oklch(), lab(), color(...)); those are drawn on a 1x1 canvas
  // and read back in sRGB.
  var canvasCtx = null;
  function rgba(s) {
    var m = /^rgba?\(([^)]*)\)$/.exec(s || "");
    if (m) {
      var p = m[1].split(/[\s,\/]+/).filter(function (x) { return x !== ""; }).map(parseFloat);
      if (p.length >= 3 && !p.some(isNaN)) return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    if (!s || s === "transparent") return null;
    try {
      if (!canvasCtx) {
        var c = document.createElement("canvas");
        c.width = c.height = 1;
        canvasCtx = c.getContext("2d", { willReadFrequently: true });
      }
      canvasCtx.clearRect(0, 0, 1, 1);
      canvasCtx.fillStyle = "rgba(0, 0, 0, 0)";
      canvasCtx.fillStyle = s;
      canvasCtx.fillRect(0, 0, 1, 1);
      var d = canvasCtx.getImageData(0, 0, 1, 1).data;
      return [d[0], d[1], d[2], d[3] / 255];
    } catch (e) {
      return null;
    }
  }

  function luminance(c) {
    function ch(v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2]);
  }

  // contrastOf composites the text colour over the first ancestor
  // background that is opaque (white where none is; 0 when a background
  // image comes first: its colour is unknown).
  function contrastOf(el, color) {
    var fg = rgba(color);
    if (!fg) return 0;
    var bg = [255, 255, 255, 1];
    for (var e = el; e && e.nodeType === 1; e = e.parentElement) {
      var cs = getComputedStyle(e);
      if (cs.backgroundImage && cs.backgroundImage !== "none") return 0;
      var c = rgba(cs.backgroundColor);
      if (c && c[3] >= 0.99) { bg = c; break; }
    }
    var a = fg[3];
    var t = [fg[0] * a + bg[0] * (1 - a), fg[1] * a + bg[1] * (1 - a), fg[2] * a + bg[2] * (1 - a)];
    var l1 = luminance(t), l2 = luminance(bg);
    return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  }

  function inFixed(el, cache) {
    var path = [], v = false;
    for (var e = el; e && e.nodeType === 1; e = e.parentElement) {
      if (cache.has(e)) { v = cache.get(e); break; }
      path.push(e);
      var p = getComputedStyle(e).position;
      if (p === "fixed" || p === "sticky") { v = true; break; }
    }
    for (var i = 0; i < path.length; i++) cache.set(path[i], v);
    return v;
  }

  var MARQUEE_ONLY = { behavior: 1, direction: 1, scrollamount: 1, scrolldelay: 1,
    loop: 1, truespeed: 1, height: 1, hspace: 1, vspace: 1 };

  function freezeMarquees() {
    var ms = Array.prototype.slice.call(document.getElementsByTagName("marquee"));
    for (var i = 0; i < ms.length; i++) {
      var m = ms[i], d = document.createElement("div");
      for (var j = 0; j < m.attributes.length; j++) {
        var a = m.attributes[j];
        if (!MARQUEE_ONLY[a.name.toLowerCase()]) d.setAttribute(a.name, a.value);
      }
      while (m.firstChild) d.appendChild(m.firstChild);
      m.parentNode.replaceChild(d, m);
    }
  }

  function height() {
    var d = document.documentElement, b = document.body;
    return Math.ceil(Math.max(d.scrollHeight, b ? b.scrollHeight : 0, d.getBoundingClientRect().height));
  }

  // measure returns, per block, the union of the client rects of its
  // wrappers in page coordinates [x0, y0, x1, y1] (null when none has a
  // rect), and the font size and line height (CSS px) from the computed
  // style of the parent of its longest wrapper; a line height of "normal"
  // is the height of that wrapper's first rect (its content area); and
  // the weight, contrast and fixed flags highlight read.
  function measure() {
    var sx = window.scrollX, sy = window.scrollY;
    var boxes = new Array(nblocks), font = new Array(nblocks), line = new Array(nblocks);
    var best = new Array(nblocks);
    for (var i = 0; i < nblocks; i++) { boxes[i] = null; font[i] = 0; line[i] = 0; best[i] = -1; }
    for (var i = 0; i < spans.length; i++) {
      var n = blockOf[i], rs = spans[i].getClientRects(), bx = boxes[n];
      var first = null;
      for (var j = 0; j < rs.length; j++) {
        var r = rs[j];
        if (r.width <= 0 || r.height <= 0) continue;
        if (!first) first = r;
        var x0 = r.left + sx, y0 = r.top + sy, x1 = r.right + sx, y1 = r.bottom + sy;
        if (!bx) { bx = [x0, y0, x1, y1]; boxes[n] = bx; continue; }
        if (x0 < bx[0]) bx[0] = x0;
        if (y0 < bx[1]) bx[1] = y0;
        if (x1 > bx[2]) bx[2] = x1;
        if (y1 > bx[3]) bx[3] = y1;
      }
      var len = spans[i].textContent.length;
      if (first && len > best[n]) {
        best[n] = len;
        var cs = getComputedStyle(spans[i].parentElement);
        font[n] = parseFloat(cs.fontSize) || 0;
        var lh = parseFloat(cs.lineHeight);
        line[n] = lh > 0 ? lh : first.height;
      }
    }
    return { boxes: boxes, font: font, line: line, height: height(),
      weight: weight, contrast: contrast, fixed: fixed };
  }

  return { highlight: highlight, height: height, measure: measure };
})();
