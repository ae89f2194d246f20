package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Input is one page to process: a file, or bytes already read (standard
// input).
type Input struct {
	Name string // file path, or "-" for standard input
	Data []byte // nil: read Name from disk when the page is processed
}

// Read returns the page's bytes.
func (in Input) Read() ([]byte, error) {
	if in.Data != nil {
		return in.Data, nil
	}
	return os.ReadFile(in.Name)
}

// Inputs expands command-line arguments into pages: a file is one page, a
// directory stands for every regular, non-hidden file below it (sorted), and
// "-" reads standard input from stdin. An argument that does not exist is an
// error naming it.
func Inputs(args []string, stdin io.Reader) ([]Input, error) {
	var out []Input
	for _, a := range args {
		if a == "-" {
			data, err := io.ReadAll(stdin)
			if err != nil {
				return nil, fmt.Errorf("standard input: %w", err)
			}
			if data == nil {
				data = []byte{}
			}
			out = append(out, Input{Name: "-", Data: data})
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, Input{Name: a})
			continue
		}
		var files []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if p != a && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			out = append(out, Input{Name: f})
		}
	}
	return out, nil
}
