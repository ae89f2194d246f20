package features

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
)

// column returns the value of the named column for the block whose text
// starts with prefix.
func column(t *testing.T, bs []*blocks.Block, tab *Table, prefix, name string) float64 {
	t.Helper()
	c, err := Select([]string{name})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bs {
		if strings.HasPrefix(b.Text, prefix) {
			return tab.Values[i][c[0]]
		}
	}
	t.Fatalf("no block starts with %q", prefix)
	return 0
}

// parseFile returns the blocks of the page in file name.
func parseFile(t *testing.T, name string) []*blocks.Block {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return parseString(t, string(data))
}

// parseString returns the blocks of the page src.
func parseString(t *testing.T, src string) []*blocks.Block {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return blocks.Find(doc)
}
