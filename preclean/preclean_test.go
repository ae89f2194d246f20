package preclean

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func render(t testing.TB, n *html.Node) string {
	var b bytes.Buffer
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGolden cleans every testdata/golden/*.html page and compares the
// rendered result with the matching .golden file (-update rewrites them).
// The cleaned document must also survive rendering and parsing again
// unchanged, as the render stage relies on.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.html")
	if len(files) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := html.Parse(bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			if err := Clean(doc); err != nil {
				t.Fatal(err)
			}
			got := render(t, doc)
			golden := strings.TrimSuffix(f, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			assertStable(t, got)
		})
	}
}

// assertStable checks that parsing the rendered document gives it back.
func assertStable(t testing.TB, rendered string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(rendered))
	if err != nil {
		t.Fatal(err)
	}
	if again := render(t, doc); again != rendered {
		t.Errorf("not stable under render and parse:\n%s\nbecame\n%s", rendered, again)
	}
}
