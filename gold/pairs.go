package gold

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Format is the format of a gold file.
type Format int

// The gold formats found in the data sets.
const (
	Unknown   Format = iota
	CleanEval        // CleanEval text: "URL:" line, segments opened by <p>, <h>, <l>
	Plain            // plain text (Dragnet), comments after a marker line
	L3S              // L3S-GN1 annotated HTML: span.x-nc-selN
	KrdWrd           // KrdWrd CANOLA annotated DOM: kw.krdwrd-tag-N
)

var formatNames = [...]string{"unknown", "cleaneval", "plain", "l3s", "krdwrd"}

func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// Pair is one page of a data set and its gold file.
type Pair struct {
	ID     string // the file name without extension, e.g. "12" or "R427"
	HTML   string // path of html/<ID>.html
	Gold   string // path of gold/<ID>.*
	Format Format // format of the gold file
}

// Pairs lists the pages of the data set in dir (a directory with html/ and
// gold/ subdirectories, e.g. /work/shared/data/cleaneval-en-dev) that have a
// gold file, sorted by ID. The format of each gold file is detected from its
// content (see Detect).
func Pairs(dir string) ([]Pair, error) {
	htmlDir := filepath.Join(dir, "html")
	goldDir := filepath.Join(dir, "gold")
	hs, err := os.ReadDir(htmlDir)
	if err != nil {
		return nil, err
	}
	gs, err := os.ReadDir(goldDir)
	if err != nil {
		return nil, err
	}
	golds := map[string]string{}
	for _, g := range gs {
		if g.IsDir() || hidden(g.Name()) {
			continue
		}
		id := strings.TrimSuffix(g.Name(), filepath.Ext(g.Name()))
		if _, dup := golds[id]; !dup { // the first by name; Unpaired reports the others
			golds[id] = filepath.Join(goldDir, g.Name())
		}
	}
	var out []Pair
	for _, h := range hs {
		name := h.Name()
		if h.IsDir() || hidden(name) || !strings.HasSuffix(name, ".html") {
			continue
		}
		id := strings.TrimSuffix(name, ".html")
		g, ok := golds[id]
		if !ok {
			continue
		}
		f, err := Detect(g)
		if err != nil {
			return nil, err
		}
		out = append(out, Pair{ID: id, HTML: filepath.Join(htmlDir, name), Gold: g, Format: f})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Unpaired lists the files of the data set in dir that Pairs leaves out
// (hidden files aside): pages (html/<id>.html) without a gold file, gold
// files without a page, and gold files beyond the first of one ID, each
// with why.
func Unpaired(dir string) ([]Orphan, error) {
	hs, err := os.ReadDir(filepath.Join(dir, "html"))
	if err != nil {
		return nil, err
	}
	gs, err := os.ReadDir(filepath.Join(dir, "gold"))
	if err != nil {
		return nil, err
	}
	pages := map[string]bool{}
	for _, h := range hs {
		if !h.IsDir() && !hidden(h.Name()) && strings.HasSuffix(h.Name(), ".html") {
			pages[strings.TrimSuffix(h.Name(), ".html")] = true
		}
	}
	golds := map[string]string{}
	var out []Orphan
	for _, g := range gs {
		if g.IsDir() || hidden(g.Name()) {
			continue
		}
		id := strings.TrimSuffix(g.Name(), filepath.Ext(g.Name()))
		path := filepath.Join(dir, "gold", g.Name())
		switch first, dup := golds[id]; {
		case dup:
			out = append(out, Orphan{Path: path, Why: "a second gold file for html/" + id + ".html, which has " + filepath.Base(first)})
		case !pages[id]:
			out = append(out, Orphan{Path: path, Why: "a gold file without a page html/" + id + ".html"})
		}
		if _, dup := golds[id]; !dup {
			golds[id] = path
		}
	}
	for _, h := range hs {
		id := strings.TrimSuffix(h.Name(), ".html")
		if pages[id] && golds[id] == "" {
			out = append(out, Orphan{Path: filepath.Join(dir, "html", h.Name()), Why: "a page without a gold file gold/" + id + ".*"})
		}
	}
	return out, nil
}

// An Orphan is a file of a data set that Pairs leaves out.
type Orphan struct {
	Path string
	Why  string
}

// hidden reports a file name that starts with a dot (.DS_Store, an
// editor's backup): not part of a data set.
func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// Detect reads the start of a gold file and tells its format: a first line
// "URL:" is CleanEval, an HTML file with x-nc-sel classes is L3S-GN1, one
// with krdwrd-tag classes is KrdWrd, and any other text is Plain.
func Detect(path string) (Format, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Unknown, err
	}
	return DetectBytes(data), nil
}

// DetectBytes is Detect on the content of a gold file.
func DetectBytes(data []byte) Format {
	s := bytes.TrimPrefix(data, []byte("\ufeff"))
	s = bytes.TrimLeft(s, " \t\r\n")
	switch {
	case bytes.HasPrefix(s, []byte("URL:")):
		return CleanEval
	case bytes.Contains(data, []byte("krdwrd-tag-")):
		return KrdWrd
	case bytes.Contains(data, []byte("x-nc-sel")):
		return L3S
	}
	return Plain
}
