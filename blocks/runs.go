package blocks

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Run is a stretch of page text, in reading order, that belongs to one
// block. A block whose text is interrupted by a nested block (a <td> with a
// <blockquote> inside) has several runs, while Block.Text joins them.
type Run struct {
	Block int    // index into the blocks slice
	Text  string // white space collapsed as a browser shows it (see the package doc)
}

// Runs returns the text of the page in document order, cut into runs at
// block boundaries. The words of all runs of block i are the words of
// bs[i].Text (but where Block.Text glues two around a nested block); a
// run never starts or ends inside a word. bs must come from
// Find on the document that contains their nodes.
func Runs(bs []*Block) []Run {
	if len(bs) == 0 {
		return nil
	}
	root := bs[0].Node
	for root.Parent != nil {
		root = root.Parent
	}
	// Blocks from Find come in document order, so the walk meets them in
	// turn; only if it does not (blocks out of order, repeated or from
	// another tree) does it need a map from node to block.
	if out, ok := runs(bs, root, nil); ok {
		return out
	}
	owner := make(map[*html.Node]int, len(bs))
	for i, b := range bs {
		owner[b.Node] = i
	}
	out, _ := runs(bs, root, owner)
	return out
}

// runs is Runs, with owner mapping nodes to blocks, or, when owner is nil,
// expecting to meet bs[0].Node, bs[1].Node, ... in document order; then ok
// reports whether it met them all (else the result is wrong).
func runs(bs []*Block, root *html.Node, owner map[*html.Node]int) (out []Run, ok bool) {
	next := 0 // without owner: the block the walk meets next
	var raw, text []byte
	cur := -1
	rawPre := false // raw holds preformatted text
	flush := func() {
		if cur >= 0 {
			if rawPre {
				text = collapsePreInto(text[:0], raw)
			} else {
				text = collapseInto(text[:0], raw)
			}
			if len(text) > 0 {
				out = append(out, Run{Block: cur, Text: string(text)})
			}
		}
		raw = raw[:0]
	}
	var walk func(n *html.Node, blk int, pre bool)
	walk = func(n *html.Node, blk int, pre bool) {
		switch n.Type {
		case html.TextNode:
			if blk < 0 {
				return
			}
			if blk != cur || pre != rawPre {
				// A preformatted stretch is a run of its own, which
				// keeps its lines' indentation.
				flush()
				cur = blk
			}
			rawPre = pre
			raw = appendText(raw, n.Data, pre)
			return
		case html.ElementNode:
			if n.DataAtom == atom.Head {
				return
			}
			if owner != nil {
				if i, ok := owner[n]; ok {
					blk = i
				}
			} else if next < len(bs) && n == bs[next].Node {
				blk = next
				next++
			}
		}
		pre = pre || preformatted(n)
		boundary := n.Type == html.ElementNode && !IsInline(n)
		if boundary && blk == cur {
			raw = append(raw, '\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && blk == cur {
				raw = append(raw, '\n')
			}
			walk(c, blk, pre)
		}
		if boundary && blk == cur {
			raw = append(raw, '\n')
		}
	}
	walk(root, -1, false)
	flush()
	return out, owner != nil || next == len(bs)
}

// appendText appends the text s of a text node to dst. A line break in the
// page source is white space like any other, so outside preformatted
// elements (pre is set) each '\n' becomes ' ': only <br>, which the walk
// adds as '\n', and the source lines of a <pre> break the text's lines.
func appendText(dst []byte, s string, pre bool) []byte {
	start := len(dst)
	dst = append(dst, s...)
	if pre {
		return dst
	}
	for i := bytes.IndexByte(dst[start:], '\n'); i >= 0; i = bytes.IndexByte(dst[start:], '\n') {
		dst[start+i] = ' '
		start += i + 1
	}
	return dst
}

// collapsePreInto appends to dst the preformatted text s as a browser
// shows it (white-space: pre), for output: its lines, without the
// indentation all of them share (the page source's, mostly), without
// trailing white space and without empty lines; a line's own
// indentation and the white space inside it are kept (a poem's, a
// program's). No-break spaces count as spaces; other white space is
// kept as it is.
func collapsePreInto(dst, s []byte) []byte {
	lines := bytes.Split(s, []byte("\n"))
	shared := -1 // the shared indentation's length, in bytes of spaces and tabs
	var first []byte
	for i, l := range lines {
		l = bytes.TrimRight(bytes.ReplaceAll(l, []byte("\u00a0"), []byte(" ")), " \t\r\f\v")
		lines[i] = l
		if len(l) == 0 {
			continue
		}
		ind := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		switch {
		case shared < 0:
			shared, first = len(ind), ind
		default:
			n := 0
			for n < shared && n < len(ind) && ind[n] == first[n] {
				n++
			}
			shared = n
		}
	}
	start := len(dst)
	for _, l := range lines {
		if len(l) == 0 {
			continue
		}
		if len(dst) > start {
			dst = append(dst, '\n')
		}
		dst = append(dst, l[shared:]...)
	}
	return dst
}

// preformatted reports whether n is an element whose source line breaks a
// browser shows (white-space: pre in the default style sheet).
func preformatted(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Pre, atom.Listing, atom.Plaintext, atom.Xmp, atom.Textarea:
		return true
	}
	return false
}
