package export

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/pipeline/blocks"
)

// Run is a stretch of page text, in reading order, that belongs to one
// block. A block whose text is interrupted by a nested block (a <td> with a
// <blockquote> inside) has several runs, while Block.Text joins them.
type Run struct {
	Block int    // index into the blocks slice
	Text  string // white space collapsed, line breaks from <br> kept
}

// Runs returns the text of the page in document order, cut into runs at
// block boundaries. The words of all runs of block i are the words of
// bs[i].Text; a run never starts or ends inside a word. bs must come from
// blocks.Find on the document that contains their nodes.
func Runs(bs []*blocks.Block) []Run {
	if len(bs) == 0 {
		return nil
	}
	owner := make(map[*html.Node]int, len(bs))
	for i, b := range bs {
		owner[b.Node] = i
	}
	root := bs[0].Node
	for root.Parent != nil {
		root = root.Parent
	}
	var out []Run
	var buf strings.Builder
	cur := -1
	flush := func() {
		if cur >= 0 {
			if t := blocks.Collapse(buf.String()); t != "" {
				out = append(out, Run{Block: cur, Text: t})
			}
		}
		buf.Reset()
	}
	var walk func(n *html.Node, blk int)
	walk = func(n *html.Node, blk int) {
		switch n.Type {
		case html.TextNode:
			if blk < 0 {
				return
			}
			if blk != cur {
				flush()
				cur = blk
			}
			buf.WriteString(n.Data)
			return
		case html.ElementNode:
			if n.DataAtom == atom.Head {
				return
			}
			if i, ok := owner[n]; ok {
				blk = i
			}
		}
		boundary := n.Type == html.ElementNode && !blocks.IsInline(n)
		if boundary && blk == cur {
			buf.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Br && blk == cur {
				buf.WriteByte('\n')
			}
			walk(c, blk)
		}
		if boundary && blk == cur {
			buf.WriteByte(' ')
		}
	}
	walk(root, -1)
	flush()
	return out
}
