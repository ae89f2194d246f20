package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Names of the files a directory output keeps beside the pages.
const (
	ManifestName = "manifest.jsonl"
	ErrorsName   = "errors.jsonl"
)

// ManifestLine is one line of a directory output's manifest: which output
// file an input went to, or why it has none.
type ManifestLine struct {
	Input        string `json:"input"`
	URL          string `json:"url,omitempty"`
	WARCRecordID string `json:"warc_record_id,omitempty"`
	WARCDate     string `json:"warc_date,omitempty"`
	HTTPStatus   int    `json:"http_status,omitempty"` // a WARC response's HTTP status code
	Output       string `json:"output,omitempty"`      // relative to the directory
	Truncated    bool   `json:"truncated,omitempty"`
	RenderError  string `json:"render_error,omitempty"`  // cleaned by the text model: rendering failed
	UnseenBlocks int    `json:"unseen_blocks,omitempty"` // blocks the rendering could not show, decided by the text model
	Floored      bool   `json:"floored,omitempty"`       // the prose floor kept blocks
	Error        string `json:"error,omitempty"`
	Damage       bool   `json:"damage,omitempty"` // Error is of damage in a WARC file, not of a page (Damaged)
}

// dirSink writes one file per page into a directory, each through a
// temporary file renamed into place, and appends a manifest line per input
// after it.
type dirSink struct {
	dir      string
	format   export.Format
	names    *namer
	manifest *appendFile
	// listed holds the outputs the manifest listed when the run began.
	// A page whose file would replace one that is not listed, not a
	// fiasco output then, fails instead; but for the first page a
	// resumed run puts (mayReplace).
	listed     map[string]bool
	mayReplace bool
}

func openDir(dir string, format export.Format, keepDirs, resume bool) (*dirSink, *doneLog, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	mpath := filepath.Join(dir, ManifestName)
	// What the last run wrote, read before a new run's manifest starts
	// afresh: the files it lists may be written again; any other file
	// in the way of a page is left alone, and the page fails (Put).
	listed, err := manifestOutputs(mpath)
	if err != nil {
		return nil, nil, err
	}
	// The manifest's lock first: the temporary files may be another
	// run's, in flight. It is opened as for a resume, kept as it is:
	// a run starting afresh empties it once the files it lists are
	// gone (below).
	m, err := openAppend(mpath, true, true, goodLines)
	if err != nil {
		return nil, nil, err
	}
	if err := removeTemps(dir); err != nil {
		m.close()
		return nil, nil, err
	}
	if !resume {
		// A run starting afresh over an earlier one's output: that
		// run's pages go with its manifest, so that none is left
		// behind unlisted, to be taken for this run's. Should it stop
		// on the way, the manifest still lists those left.
		if err := removeListed(dir, listed); err != nil {
			m.close()
			return nil, nil, err
		}
		if err := m.reset(); err != nil {
			m.close()
			return nil, nil, err
		}
		listed = nil
	}
	var log *doneLog
	if resume {
		log = &doneLog{name: mpath}
		log.next, log.stop = lineIDs(mpath, m.size, jsonlID)
		if log.failures, err = readFailures(mpath, m.size, false); err != nil {
			m.close()
			return nil, nil, err
		}
	}
	s := &dirSink{dir: dir, format: format, manifest: m, listed: listed,
		// A resumed run's first page may find its own file: the run it
		// resumes wrote it and was killed before it listed it.
		mayReplace: resume && len(listed) > 0,
		names: &namer{ext: format.Ext(), keepDirs: keepDirs,
			used: map[string]bool{ErrorsName: true, ManifestName: true, settingsName: true}}}
	return s, log, nil
}

func (s *dirSink) Encode(o *pipeline.Outcome) {
	if o.Err == nil && o.Result == nil { // a caller's mistake: as JSONLine says
		o.Err = emptyOutcome(o.Input.Name)
	}
	if o.Err != nil {
		o.Result, o.Value = nil, &Encoded{}
		return
	}
	r := o.Result
	var b bytes.Buffer
	if err := r.Write(&b, s.format); err != nil {
		o.Result, o.Err, o.Value = nil, fmt.Errorf("%s: %w", o.Input.Name, err), &Encoded{}
		return
	}
	e := encoded(r)
	e.Data = b.Bytes()
	o.Result, o.Value = nil, &e
}

func (s *dirSink) Put(o pipeline.Outcome) (string, error) {
	replace := s.mayReplace
	s.mayReplace = false
	name := s.names.name(o.Input)
	in := o.Input
	line := ManifestLine{Input: RecordedName(in.Name), URL: in.URL, WARCRecordID: in.RecordID, WARCDate: WARCDate(in), HTTPStatus: in.HTTPStatus}
	where := ""
	failed := o.Err != nil
	if _, ok := o.Value.(*Encoded); !ok && !failed {
		s.Encode(&o)
	}
	if o.Err != nil {
		line.Error, line.Damage = o.Err.Error(), IsDamage(o.Err)
		if !failed {
			// Encode was not called first, and failed here: the page
			// fails, and only Put can tell (o is its own copy).
			if _, err := s.putLine(line, ""); err != nil {
				return "", err
			}
			return "", &PageError{o.Err}
		}
	} else {
		e := o.Value.(*Encoded)
		p := filepath.Join(s.dir, filepath.FromSlash(name))
		if _, err := os.Lstat(p); err == nil && !s.listed[name] && !replace {
			// Not a file of fiasco's: the page fails, the file stays.
			perr := &PageError{fmt.Errorf("%s: not written: %s is in %s, and no run of fiasco listed it in %s (move it, or give -o another directory)", in.Name, name, s.dir, ManifestName)}
			line.Error = perr.Error()
			if _, err := s.putLine(line, ""); err != nil {
				return "", err
			}
			return "", perr
		}
		err, named := error(nil), false
		if d := filepath.Dir(p); d != s.dir {
			err = os.MkdirAll(d, 0o755)
			named = err != nil && nameError(err) // a folder of the page's name
		}
		if err == nil {
			err = writeAtomic(p, s.dir, e.Data)
			var le *os.LinkError // the rename to the page's name, not the temporary file
			named = errors.As(err, &le) && le.New == p && nameError(le.Err)
		}
		if err != nil {
			if !named {
				return "", err
			}
			// The page's name cannot be a file here (a folder of an
			// input named as another input's output): the page fails,
			// the run goes on.
			perr := &PageError{fmt.Errorf("%s: not written: %w", in.Name, err)}
			line.Error = perr.Error()
			if _, err := s.putLine(line, ""); err != nil {
				return "", err
			}
			return "", perr
		}
		line.Output, line.Truncated, line.RenderError, line.UnseenBlocks, line.Floored, where = name, e.Truncated, e.RenderError, e.Unseen, e.Floored, p
	}
	return s.putLine(line, where)
}

// PageError is what a Sink's Put returns where the page itself could not
// be written or encoded, and the output could (it records the page as
// failed with this error, as its format records failed pages): the run
// goes on, counting the page as failed.
type PageError struct{ Err error }

func (e *PageError) Error() string { return e.Err.Error() }
func (e *PageError) Unwrap() error { return e.Err }

// putLine appends line to the manifest; where is the page's file.
func (s *dirSink) putLine(line ManifestLine, where string) (string, error) {
	data, err := encodeLine(line)
	if err != nil {
		return "", err
	}
	return where, s.manifest.write(data)
}

func (s *dirSink) Skip(in pipeline.Input) { s.names.name(in) }

func (s *dirSink) Close() error { return s.manifest.close() }

// namer gives every input a distinct output name (slash-separated,
// relative to the output directory), in input order: its base name (or,
// mirroring the input folders, its Rel) with the extension replaced, and
// -2, -3, ... added on collisions. A WARC record is named after its
// archive and its page number in it: crawl-000001.txt, or
// crawl/000001.txt when mirroring.
type namer struct {
	ext      string
	keepDirs bool
	used     map[string]bool
	dirs     map[string]bool // the folders below the output that names lie in
}

func (n *namer) name(in pipeline.Input) string {
	rel := in.Rel
	if rel == "" && in.Name != "-" {
		rel = filepath.Base(in.Name)
	}
	dir, base := "", ""
	if archive, page, ok := SplitRecord(rel); ok && len(page) >= 6 { // a record's page number: %06d
		a := stripExts(path.Base(archive))
		if archive == "" {
			a = "stdin"
		}
		if n.keepDirs {
			dir, base = path.Join(path.Dir(archive), a), page
		} else {
			base = a + "-" + page
		}
	} else {
		base = stripExts(path.Base(rel))
		if rel == "" {
			base = "stdin"
		}
		if n.keepDirs {
			dir = path.Dir(rel)
		}
	}
	if dir == "." || !filepath.IsLocal(filepath.FromSlash(dir)) {
		dir = ""
	}
	dir, base = escapeInvalid(dir), escapeInvalid(base)
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i, p := range parts {
			parts[i] = cutName(p, maxNameBytes)
		}
		dir = path.Join(parts...)
	}
	// Within a file system's limit, with the extension (and a -k).
	name := path.Join(dir, cutName(base, maxNameBytes-len(n.ext))+n.ext)
	for k := 2; n.used[name] || n.dirs[name]; k++ {
		suffix := fmt.Sprintf("-%d%s", k, n.ext)
		name = path.Join(dir, cutName(base, maxNameBytes-len(suffix))+suffix)
	}
	n.used[name] = true
	if n.dirs == nil {
		n.dirs = map[string]bool{}
	}
	for d := path.Dir(name); d != "." && !n.dirs[d]; d = path.Dir(d) {
		n.dirs[d] = true // no page is named as a folder another lies in
	}
	return name
}

// maxNameBytes is the longest name of a file or folder that common file
// systems take (NAME_MAX: ext4, XFS, btrfs, APFS, NTFS in UTF-16 units).
// A name of 255 bytes may reach it once its extension changes, or once
// its invalid bytes are written %XX (escapeInvalid).
const maxNameBytes = 255

// cutName cuts name to at most max bytes, at a character's start.
func cutName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	i := max
	for i > 0 && !utf8.RuneStart(name[i]) {
		i--
	}
	return name[:i]
}

// nameError reports whether err, from making a page's folder or renaming
// its file into place, comes from the name rather than from the output
// as a whole (a full disk, a folder not writable): a name too long, or a
// path through a file. (Windows gives other errors for these: there the
// run stops, as for any failure to write.)
func nameError(err error) bool {
	return errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR)
}

// RecordedName is an input's name as the outputs record it (JSON Lines'
// and the error log's "input", the manifest's, WET's Fiasco-Input): each
// byte that is not part of valid UTF-8 written %XX, as --keep-dirs names
// its output (escapeInvalid), where JSON would hold U+FFFD and two files
// of a Latin-1 site's mirror, "caf\xe9.html" and "caf\xe8.html", would
// be recorded alike. A name that is valid UTF-8 is recorded as it is.
func RecordedName(name string) string { return escapeInvalid(name) }

// escapeInvalid writes each byte of s that is not part of valid UTF-8 as
// %XX: an output's name is recorded in JSON (the manifest), which holds
// such a byte as U+FFFD, and the name on disk must be the one recorded
// (a page of a Latin-1 site's mirror, "caf\xe9.html", is caf%E9.txt).
func escapeInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// SplitRecord splits the name of a WARC record's input (NAME#NNNNNN, a
// record of the file NAME, or NAME#OFFSET, its damage) at its last '#',
// where digits follow it; ok is false for any other name, a page file
// whose name holds a '#' ("a#b.html") among them.
func SplitRecord(name string) (archive, record string, ok bool) {
	i := strings.LastIndexByte(name, '#')
	if i < 0 || i == len(name)-1 {
		return name, "", false
	}
	for _, c := range []byte(name[i+1:]) {
		if (c < '0' || c > '9') && c != '+' {
			return name, "", false
		}
	}
	return name[:i], name[i+1:], true
}

// stripExts removes a file name's extension, and first a compression
// suffix and for archives .warc.
func stripExts(name string) string {
	for _, s := range []string{".gz", ".zst", ".zstd"} {
		if t, ok := strings.CutSuffix(name, s); ok && t != "" {
			name = t
			break
		}
	}
	if t := strings.TrimSuffix(name, filepath.Ext(name)); t != "" {
		return t
	}
	return name
}

// removeListed removes from dir the files an earlier run's manifest
// listed, and the folders below dir that held them where they are left
// empty. A name is taken within dir only (os.Root: no "..", no symbolic
// link out of it), and only a regular file is removed; the manifest,
// the error log and the settings file are never.
func removeListed(dir string, listed map[string]bool) error {
	if len(listed) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	names := make([]string, 0, len(listed))
	for name := range listed {
		names = append(names, path.Clean(name))
	}
	slices.Sort(names)
	folders := map[string]bool{}
	for _, name := range names {
		if !filepath.IsLocal(filepath.FromSlash(name)) || name == ManifestName || name == ErrorsName || name == settingsName {
			continue
		}
		fi, err := root.Lstat(filepath.FromSlash(name))
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone, or no file of fiasco's (a link through which it lay)
		}
		if err := root.Remove(filepath.FromSlash(name)); err != nil {
			return fmt.Errorf("removing the earlier run's %s: %w", filepath.Join(dir, filepath.FromSlash(name)), err)
		}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			folders[d] = true
		}
	}
	// Deepest first; a folder that still holds anything stays, and so
	// does a symbolic link (Lstat).
	ds := make([]string, 0, len(folders))
	for d := range folders {
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range ds {
		if fi, err := root.Lstat(filepath.FromSlash(d)); err == nil && fi.IsDir() {
			root.Remove(filepath.FromSlash(d)) // fails, as it should, where the folder is not empty
		}
	}
	return nil
}

// manifestOutputs returns the outputs that the manifest at path lists (nil
// when there is none). Lines that do not parse are passed over: a run
// killed mid-line leaves one.
func manifestOutputs(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Output string `json:"output"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Output != "" {
			out[l.Output] = true
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
