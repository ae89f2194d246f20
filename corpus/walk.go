package corpus

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fiasco-project/fiasco/pipeline"
)

// walker walks one directory argument.
type walker struct {
	s     *Source
	ctx   context.Context
	yield func(pipeline.Input) bool
	seen  map[fileKey]bool // directories entered: each once, so cycles end
}

type entry struct {
	name string
	fi   os.FileInfo // the target's, for a symbolic link
	err  error       // a broken link
}

// key sorts entries so that the walk visits files in the order of their
// sorted full paths: a directory compares as its name and a slash.
func (e entry) key() string {
	if e.fi != nil && e.fi.IsDir() {
		return e.name + "/"
	}
	return e.name
}

// maxDepth bounds the nesting of directories walked (a guard where files
// cannot be identified, so that cycles are not seen).
const maxDepth = 256

// dir yields the pages below dir, whose path relative to the argument is
// rel. It reports false when the consumer stopped.
func (w *walker) dir(dir, rel string) bool {
	if strings.Count(rel, "/") >= maxDepth {
		return w.yield(pipeline.Input{Name: dir, Err: fmt.Errorf("%s: more than %d directories deep", dir, maxDepth)})
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return w.yield(pipeline.Input{Name: dir, Err: err})
	}
	entries := make([]entry, 0, len(des))
	var outputs map[string]bool // files beside their runs' settings: earlier runs' outputs
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			if out, ok := strings.CutSuffix(name[1:], settingsSuffix); ok && out != "" {
				if outputs == nil {
					outputs = map[string]bool{}
				}
				outputs[out] = true
			}
			continue
		}
		p := filepath.Join(dir, name)
		fi, err := de.Info()
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			fi, err = os.Stat(p)
			if err != nil {
				err = statErr(p, err)
			}
		}
		if err != nil {
			entries = append(entries, entry{name: name, err: err})
			continue
		}
		entries = append(entries, entry{name: name, fi: fi})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].key() < entries[j].key() })
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		r := path.Join(rel, e.name)
		switch {
		case e.err != nil:
			if !w.yield(pipeline.Input{Name: p, Err: e.err}) {
				return false
			}
		case w.s.excluded(e.fi):
			if !slices.Contains(w.s.stats.OwnOutputs, p) { // the run's own output
				w.s.stats.OwnOutputs = append(w.s.stats.OwnOutputs, p)
			}
		case e.fi.IsDir() && isOutputDir(p):
			w.s.stats.OutputDirs++ // an earlier run's output: its files are no pages
		case e.fi.Mode().IsRegular() && outputs[e.name] && ownStream(p):
			w.s.stats.OutputFiles++ // an earlier run's JSONL or WET output
		case e.fi.IsDir():
			k, ok := keyOf(e.fi)
			if ok {
				if w.seen[k] {
					continue // a cycle, or a second link to a directory walked already
				}
				w.seen[k] = true
			}
			if !w.dir(p, r) {
				return false
			}
		case e.fi.Mode().IsRegular() && notPageExt[pageExt(e.name)]:
			if w.s.stats.NotPages == nil {
				w.s.stats.NotPages = map[string]int{}
			}
			w.s.stats.NotPages[pageExt(e.name)]++
		case e.fi.Mode().IsRegular():
			if !w.s.file(w.ctx, p, r, e.fi, w.yield) {
				return false
			}
		default:
			w.s.stats.Special++
		}
	}
	return true
}

// notPageExt are the extensions of files that a directory walk skips:
// what a site's mirror (wget -r, httrack) holds beside its pages, and
// JSON Lines (an earlier run's output or error log, moved without its
// settings), text and data files (.md, .csv: a README, a gold
// standard's list), and what a working folder holds beside (logs, a pid
// file, compiled code, fiasco's own model files). Names that may hold a
// page stay: .gz and .zst (a compressed page or WARC), .txt, .xml, .php,
// the scripts a mirror saves a CGI page under (.pl, .py, .rb, .sh, .cgi)
// and names without an extension.
var notPageExt = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`.css .js .mjs .map .json .jsonl .ndjson .wasm
		.png .jpg .jpeg .gif .webp .avif .svg .ico .bmp .tif .tiff
		.woff .woff2 .ttf .otf .eot
		.mp3 .mp4 .m4a .webm .ogg .ogv .wav .avi .mov .flv .swf
		.pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .rtf .epub .md .markdown .csv .tsv
		.zip .tar .tgz .7z .rar .bz2 .xz .jar .apk .exe .dll .iso .bin
		.pyc .go .c .h .o .so .log .err .pid .lock .db .sqlite .fiasco`) {
		notPageExt[e] = true
	}
}

// pageExt is the lower-case extension of a file's name, that of the
// name a .gz or .zst suffix compresses (style.css.gz: .css).
func pageExt(name string) string {
	name = strings.ToLower(name)
	for _, c := range []string{".gz", ".zst"} {
		if t, ok := strings.CutSuffix(name, c); ok && t != "" {
			name = t
			break
		}
	}
	return filepath.Ext(name)
}

// isOutputDir reports whether dir is the output directory of a fiasco
// clean run (it holds the run's settings file).
func isOutputDir(dir string) bool {
	_, err := os.Stat(settingsPath(dir, true))
	return err == nil
}

// ownStream reports whether the file at path, beside a run's settings
// file, begins as fiasco's JSONL or WET output does (or as the start of
// one cut short): a crawl copied over an earlier output keeps that
// output's settings file beside it, and is read.
func ownStream(path string) bool {
	st, ok := readOutputStart(path)
	if !ok {
		return false
	}
	for _, format := range []string{JSONL, WET} {
		if own, partial := st.own(format); own || partial {
			return true
		}
	}
	return false
}
