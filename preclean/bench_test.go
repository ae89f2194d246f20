package preclean

import (
	"bytes"
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
