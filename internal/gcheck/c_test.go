package gcheck

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/train"
	"golang.org/x/net/html"
)

var commentRE = regexp.MustCompile(`(?i)comment|reply|respon|discuss|forum|post-?\d|postbody|message`)

func inComment(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		for _, a := range n.Attr {
			if (a.Key == "class" || a.Key == "id") && commentRE.MatchString(a.Val) {
				return true
			}
		}
	}
	return false
}

func TestComments(t *testing.T) {
	for _, set := range []string{"cleaneval-en-dev", "cleanportaleval"} {
		ex, err := train.LoadData(context.Background(), []string{"/work/shared/data/" + set}, train.DataOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var cw, cclean, ow, oclean float64
		pages := map[string][2]float64{}
		for _, e := range ex {
			for i, b := range e.Doc.Blocks {
				w := float64(len(strings.Fields(b.Text)))
				if inComment(b.Node) {
					cw += w
					cclean += w * e.Share[i]
					p := pages[e.ID]
					p[0] += w
					p[1] += w * e.Share[i]
					pages[e.ID] = p
				} else {
					ow += w
					oclean += w * e.Share[i]
				}
			}
		}
		fmt.Printf("%s: comment-like containers %0.f words, %.1f%% clean; other %0.f words, %.1f%% clean\n", set, cw, 100*cclean/cw, ow, 100*oclean/ow)
		for id, p := range pages {
			if p[0] >= 100 {
				fmt.Printf("   %s %0.f words %.0f%% clean\n", id, p[0], 100*p[1]/p[0])
			}
		}
	}
}
