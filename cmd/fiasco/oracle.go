package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/pipeline/blocks"
	"github.com/fiasco-project/fiasco/pipeline/evaluate"
	"github.com/fiasco-project/fiasco/pipeline/export"
	"github.com/fiasco-project/fiasco/pipeline/gold"
	"github.com/fiasco-project/fiasco/pipeline/load"
	"github.com/fiasco-project/fiasco/pipeline/preclean"
)

func init() {
	register(&command{
		name:    "oracle",
		summary: "score the output of gold-labelled blocks (the oracle) and of keeping all blocks",
		run:     runOracle,
	})
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func runOracle(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("oracle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var dirs multiFlag
	fs.Var(&dirs, "data", "data set directory with html/ and gold/ (repeatable)")
	limit := fs.Int("limit", 0, "score at most this many pages per set, evenly spread (0: all)")
	threshold := fs.Float64("threshold", gold.Threshold, "share of gold words that makes a block clean")
	fold := fs.Bool("fold", gold.DefaultAlign.Fold, "lowercase tokens for alignment")
	strip := fs.Bool("strip", gold.DefaultAlign.Strip, "keep only letters and digits of tokens for alignment")
	minRun := fs.Int("minrun", gold.DefaultAlign.MinRun, "discard matched runs shorter than this unless they cover whole blocks")
	autoJunk := fs.Bool("autojunk", gold.DefaultAlign.AutoJunk, "difflib's popular-word rule in the alignment")
	comments := fs.Bool("comments", false, "Dragnet: count user comments as content")
	uncertain := fs.Bool("uncertain", false, "KrdWrd: count tag 2 (uncertain) as content")
	unwrapKW := fs.Bool("unwrap-kw", false, "replace <kw> elements by their children before finding blocks")
	unlabelled := fs.Bool("unlabelled", false, "score segment markers without their type (all <p>)")
	outDir := fs.String("o", "", "write each page's oracle output (CleanEval format) to this directory as <set>/<id>.txt")
	mixed := fs.Int("mixed", 0, "report the words in blocks whose gold share is between 0.1 and 0.9, with N examples")
	splitBR := fs.Bool("split-br", false, "experiment: wrap each <br>-separated line of a non-inline element in a <div> before finding blocks")
	entities := fs.Bool("entities", false, "decode HTML character references in output and gold before scoring")
	dice := fs.Bool("dice", false, "label blocks by FIASCO's Dice overlap of gold segments and subtrees instead of the word alignment")
	worst := fs.Int("worst", 0, "list the N pages with the lowest oracle F")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(dirs) == 0 {
		fmt.Fprintln(stderr, "oracle: --data DIR is required")
		return 2
	}
	aopt := gold.AlignOptions{Fold: *fold, Strip: *strip, MinRun: *minRun, AutoJunk: *autoJunk, AutoJunkAbove: gold.DefaultAlign.AutoJunkAbove}
	gopt := gold.Options{Comments: *comments, Uncertain: *uncertain}
	status := 0
	fmt.Fprintf(stdout, "%-18s %5s %-9s %6s %6s %6s | %6s %6s %6s | %6s %6s\n",
		"set", "pages", "output", "microP", "microR", "microF", "macroP", "macroR", "macroF", "F+tags", "tagF")
	for _, dir := range dirs {
		pairs, err := gold.Pairs(dir)
		if err != nil {
			fmt.Fprintf(stderr, "oracle: %v\n", err)
			status = 1
			continue
		}
		pairs = spread(pairs, *limit)
		var orc, orcT, all, allT []evaluate.Result
		type pageF struct {
			id string
			f  float64
		}
		var pf []pageF
		var mixedWords, allWords int
		var mixedEx []string
		for _, p := range pairs {
			o, a, text, err := oraclePage(p, aopt, gopt, *threshold, *unwrapKW, *splitBR, *unlabelled, *entities, *dice, func(b *blocks.Block, s float64) {
				n := len(strings.Fields(b.Text))
				allWords += n
				if s > 0.1 && s < 0.9 {
					mixedWords += n
					if len(mixedEx) < *mixed {
						t := b.Text
						if len(t) > 160 {
							t = t[:160] + "..."
						}
						mixedEx = append(mixedEx, fmt.Sprintf("%s block %d <%s> %.2f %q", p.ID, b.ID, b.Node.Data, s, t))
					}
				}
			})
			if err == nil && *outDir != "" {
				d := filepath.Join(*outDir, filepath.Base(filepath.Clean(dir)))
				if err = os.MkdirAll(d, 0o755); err == nil {
					err = os.WriteFile(filepath.Join(d, p.ID+".txt"), []byte(text), 0o644)
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "oracle: %s: %v\n", p.ID, err)
				status = 1
				continue
			}
			orc, orcT = append(orc, o[0]), append(orcT, o[1])
			all, allT = append(all, a[0]), append(allT, a[1])
			pf = append(pf, pageF{p.ID, o[0].F})
		}
		name := filepath.Base(filepath.Clean(dir))
		row := func(label string, rs, rt []evaluate.Result) {
			mi, ma, mt := evaluate.Micro(rs), evaluate.Macro(rs), evaluate.Micro(rt)
			fmt.Fprintf(stdout, "%-18s %5d %-9s %6.2f %6.2f %6.2f | %6.2f %6.2f %6.2f | %6.2f %6.2f\n",
				name, len(rs), label, 100*mi.P, 100*mi.R, 100*mi.F, 100*ma.P, 100*ma.R, 100*ma.F, 100*mt.F, 100*mt.TagF)
		}
		row("oracle", orc, orcT)
		row("keep-all", all, allT)
		if *mixed > 0 {
			fmt.Fprintf(stdout, "  mixed blocks hold %d of %d words (%.2f%%)\n", mixedWords, allWords, 100*float64(mixedWords)/float64(max(allWords, 1)))
			for _, e := range mixedEx {
				fmt.Fprintf(stdout, "    %s\n", e)
			}
		}
		if *worst > 0 {
			for k := 0; k < *worst && k < len(pf); k++ {
				m := k
				for j := k + 1; j < len(pf); j++ {
					if pf[j].f < pf[m].f {
						m = j
					}
				}
				pf[k], pf[m] = pf[m], pf[k]
				fmt.Fprintf(stdout, "  worst %-40s F %6.2f\n", pf[k].id, 100*pf[k].f)
			}
		}
	}
	return status
}

// spread picks n pairs evenly spread over ps (all if n <= 0).
func spread(ps []gold.Pair, n int) []gold.Pair {
	if n <= 0 || n >= len(ps) {
		return ps
	}
	out := make([]gold.Pair, n)
	for i := range out {
		out[i] = ps[i*len(ps)/n]
	}
	return out
}

// oraclePage scores one page: [0] without and [1] with segment tags as
// tokens, for the oracle output and for keeping all blocks.
func oraclePage(p gold.Pair, aopt gold.AlignOptions, gopt gold.Options, threshold float64, unwrapKW, splitBR, unlabelled, entities, dice bool, visit func(*blocks.Block, float64)) (orc, all [2]evaluate.Result, text string, err error) {
	page, err := load.File(p.HTML, load.Options{})
	if err != nil {
		return orc, all, text, err
	}
	if err := preclean.Clean(page.Doc); err != nil {
		return orc, all, text, err
	}
	if unwrapKW {
		unwrap(page.Doc, "kw")
	}
	if splitBR {
		splitLines(page.Doc)
	}
	bs := blocks.Find(page.Doc)
	g, err := gold.ReadOptions(p.Gold, p.Format, gopt)
	if err != nil {
		return orc, all, text, err
	}
	goldText := g.Reference()
	scores := gold.LabelOptions(bs, g, aopt)
	if dice {
		scores = gold.LabelDice(bs, g)
	}
	for i, b := range bs {
		visit(b, scores[i])
	}
	keep := gold.Labels(scores, threshold)
	score := func(keep []bool) (r [2]evaluate.Result, err error) {
		var buf bytes.Buffer
		if err := export.Write(&buf, export.CleanEval, page, bs, keep, nil); err != nil {
			return r, err
		}
		text = buf.String()
		r[0] = evaluate.Score(buf.String(), goldText, evaluate.Options{Unlabelled: unlabelled, Entities: entities})
		r[1] = evaluate.Score(buf.String(), goldText, evaluate.Options{Tags: true, Unlabelled: unlabelled, Entities: entities})
		return r, nil
	}
	if all, err = score(nil); err != nil {
		return orc, all, text, err
	}
	orc, err = score(keep)
	return orc, all, text, err
}

// unwrap replaces every element named name by its children.
func unwrap(n *html.Node, name string) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		unwrap(c, name)
		if c.Type == html.ElementNode && c.Data == name {
			for k := c.FirstChild; k != nil; {
				kn := k.NextSibling
				c.RemoveChild(k)
				n.InsertBefore(k, c)
				k = kn
			}
			n.RemoveChild(c)
		}
		c = next
	}
}

// splitLines wraps the <br>-separated lines of every non-inline element
// that has <br> children in <div> elements.
func splitLines(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		splitLines(c)
	}
	if n.Type != html.ElementNode || blocks.IsInline(n) {
		return
	}
	hasBR := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Br {
			hasBR = true
		}
	}
	if !hasBR {
		return
	}
	var line *html.Node
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (c.DataAtom == atom.Br || !blocks.IsInline(c)) {
			line = nil
		} else {
			if line == nil {
				line = &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
				n.InsertBefore(line, c)
			}
			n.RemoveChild(c)
			line.AppendChild(c)
		}
		c = next
	}
}
