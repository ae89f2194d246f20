package preclean

import (
	"bytes"
	"fmt"
	"github.com/fiasco-project/fiasco/internal/shared"
	"os"
	"path/filepath"
	"testing"

	"github.com/fiasco-project/fiasco/load"
	"golang.org/x/net/html"
)

// BenchmarkCleanEvalDev measures pages per second on the CleanEval dev
// pages for: html.Parse of the raw bytes alone (the reference), load.Bytes
// (charset chain, wrapper, guards, parse), and load.Bytes plus Clean.
func BenchmarkCleanEvalDev(b *testing.B) {
	root := shared.Path(b, "")
	files, _ := filepath.Glob(filepath.Join(root, "cleaneval-en-dev", "html", "*.html"))
	if len(files) == 0 {
		b.Skip("no pages")
	}
	pages := make([][]byte, len(files))
	size := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages[i] = data
		size += len(data)
	}
	run := func(b *testing.B, f func(name string, data []byte) error) {
		b.SetBytes(int64(size / len(pages)))
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if err := f(files[n%len(pages)], pages[n%len(pages)]); err != nil {
				b.Fatal(err)
			}
			n++
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
	}
	b.Run("parse", func(b *testing.B) {
		run(b, func(_ string, data []byte) error {
			_, err := html.Parse(bytes.NewReader(data))
			return err
		})
	})
	b.Run("load", func(b *testing.B) {
		run(b, func(name string, data []byte) error {
			_, err := load.Bytes(name, data, load.Options{})
			return err
		})
	})
	b.Run("load+preclean", func(b *testing.B) {
		run(b, func(name string, data []byte) error {
			p, err := load.Bytes(name, data, load.Options{})
			if err != nil {
				return err
			}
			return Clean(p.Doc)
		})
	})
}

// BenchmarkBreaks: a paragraph of n lines parted by <br><br>, beside the
// same lines as n paragraphs (the reference, with no run to split): the
// ratio stays flat as n grows where each split costs the stretch before
// it (it grew with n when a split moved the rest of the paragraph).
func BenchmarkBreaks(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		var runs, paras bytes.Buffer
		runs.WriteString("<body><p>")
		paras.WriteString("<body>")
		for range n {
			runs.WriteString("Some words of text here<br><br>")
			paras.WriteString("<p>Some words of text here</p>")
		}
		for name, src := range map[string][]byte{"runs": runs.Bytes(), "paragraphs": paras.Bytes()} {
			b.Run(fmt.Sprintf("%s-%d", name, n), func(b *testing.B) {
				for b.Loop() {
					doc, err := html.Parse(bytes.NewReader(src))
					if err != nil {
						b.Fatal(err)
					}
					if err := Clean(doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
