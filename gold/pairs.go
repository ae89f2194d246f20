package gold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

// SetName is the name of the data set in dir: the last element of its
// absolute path, so that "." and "../x/.." name the directory they stand
// for (the cleaned path's last element where the working directory cannot
// be read).
func SetName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(filepath.Clean(dir))
}

// Pairs lists the pages of the data set in dir (a directory with html/ and
// gold/ subdirectories, e.g. /work/shared/data/cleaneval-en-dev) that have a
// gold file, sorted by ID. The format of each gold file is detected from its
// content (see Detect).
func Pairs(dir string) ([]Pair, error) {
	htmlDir := filepath.Join(dir, "html")
	goldDir := filepath.Join(dir, "gold")
	hs, gs, err := readSet(dir)
	if err != nil {
		return nil, err
	}
	golds := map[string]string{}
	for id, name := range chooseGolds(gs) { // Unpaired reports the others
		golds[id] = filepath.Join(goldDir, name)
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
// files without a page, gold files beyond the one chosen for an ID,
// editor's backups, and files or directories in html/ that are no page,
// each with why.
func Unpaired(dir string) ([]Orphan, error) {
	hs, gs, err := readSet(dir)
	if err != nil {
		return nil, err
	}
	pages := map[string]bool{}
	for _, h := range hs {
		if !h.IsDir() && !hidden(h.Name()) && strings.HasSuffix(h.Name(), ".html") {
			pages[strings.TrimSuffix(h.Name(), ".html")] = true
		}
	}
	golds := chooseGolds(gs)
	var out []Orphan
	for _, g := range gs {
		name := g.Name()
		if g.IsDir() || hidden(name) {
			continue
		}
		path := filepath.Join(dir, "gold", name)
		if backup(name) {
			out = append(out, Orphan{Path: path, Why: "an editor's backup, not read"})
			continue
		}
		id := goldID(name)
		switch first := golds[id]; {
		case first != name:
			out = append(out, Orphan{Path: path, Why: "a second gold file for html/" + id + ".html, which has " + first})
		case !pages[id]:
			out = append(out, Orphan{Path: path, Why: "a gold file without a page html/" + id + ".html"})
		}
	}
	for _, h := range hs {
		name := h.Name()
		switch {
		case hidden(name):
			continue
		case h.IsDir():
			out = append(out, Orphan{Path: filepath.Join(dir, "html", name), Why: "a directory: a data set's pages are html/<id>.html, not in subdirectories"})
			continue
		case !strings.HasSuffix(name, ".html"):
			out = append(out, Orphan{Path: filepath.Join(dir, "html", name), Why: "not named <id>.html, so not read as a page"})
			continue
		}
		id := strings.TrimSuffix(name, ".html")
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

// readSet lists the html/ and gold/ directories of the data set in dir;
// an error says which is missing.
func readSet(dir string) (hs, gs []os.DirEntry, err error) {
	read := func(sub string) ([]os.DirEntry, error) {
		es, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if fi, serr := os.Stat(dir); serr != nil {
				return nil, fmt.Errorf("%s: no such directory", dir)
			} else if !fi.IsDir() {
				return nil, fmt.Errorf("%s: not a directory (a data set is a directory with html/ and gold/)", dir)
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no %s/ directory (a data set holds html/<id>.html and gold/<id>.*)", dir, sub)
		}
		return es, err
	}
	if hs, err = read("html"); err != nil {
		return nil, nil, err
	}
	if gs, err = read("gold"); err != nil {
		return nil, nil, err
	}
	return hs, gs, nil
}

// chooseGolds picks the gold file of each ID among the entries of a gold/
// directory (hidden files, directories and backups aside): <id>.txt where
// there is one, else <id>.TXT (any case), else the first by name. It maps
// ID to file name.
func chooseGolds(gs []os.DirEntry) map[string]string {
	golds := map[string]string{}
	for _, g := range gs { // os.ReadDir sorts by name
		name := g.Name()
		if g.IsDir() || hidden(name) || backup(name) {
			continue
		}
		id := goldID(name)
		if first, dup := golds[id]; !dup || txtRank(name) > txtRank(first) {
			golds[id] = name
		}
	}
	return golds
}

// txtRank ranks a gold file name by its extension: 2 for .txt, 1 for
// .txt in other case (.TXT), 0 for any other.
func txtRank(name string) int {
	switch ext := filepath.Ext(name); {
	case ext == ".txt":
		return 2
	case strings.EqualFold(ext, ".txt"):
		return 1
	}
	return 0
}

// goldID is the ID of a gold file name: the name without its extension.
func goldID(name string) string { return strings.TrimSuffix(name, filepath.Ext(name)) }

// backup reports a file name an editor or a patch leaves beside the file it
// keeps a copy of (name~, name.bak, .orig, .old, .swp, .rej): not gold.
func backup(name string) bool {
	if strings.HasSuffix(name, "~") {
		return true
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".bak", ".orig", ".old", ".swp", ".rej":
		return true
	}
	return false
}

// hidden reports a file name that starts with a dot (.DS_Store, an
// editor's backup): not part of a data set.
func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// Detect reads the start of a gold file and tells its format: a first line
// "URL:" is CleanEval (as is one without it whose text opens with a
// segment tag, <p>, <h> or <l>), an HTML file with x-nc-sel classes is L3S-GN1, one
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
	data = decodeUTF16(data)
	s := bytes.TrimPrefix(data, []byte("\ufeff"))
	s = bytes.TrimLeft(s, " \t\r\n")
	switch {
	case bytes.HasPrefix(s, []byte("URL:")):
		return CleanEval
	case bytes.Contains(data, []byte("krdwrd-tag-")):
		return KrdWrd
	case bytes.Contains(data, []byte("x-nc-sel")):
		return L3S
	case startsWithSegmentTag(s):
		return CleanEval
	}
	return Plain
}

// startsWithSegmentTag tells whether s opens with a CleanEval segment tag:
// <p>, <h> or <l>, any case.
func startsWithSegmentTag(s []byte) bool {
	if len(s) < 3 || s[0] != '<' || s[2] != '>' {
		return false
	}
	switch s[1] {
	case 'p', 'P', 'h', 'H', 'l', 'L':
		return true
	}
	return false
}
