package corpus

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fiasco-project/fiasco/warc"
)

// Settings are what shapes a run's outputs beside its inputs (the format,
// the model and its threshold, the policy, limits), by name, as the
// command describes them. A run writes them beside its output (a hidden
// file: DIR/.fiasco-settings.json in an output directory,
// .NAME.settings.json beside an output file), and a resumed run must ask
// for the same: else its outputs would mix two runs' answers.
type Settings map[string]string

// settingsPath is where the settings of the output at path are kept.
func settingsPath(path string, dir bool) string {
	if dir {
		return filepath.Join(path, settingsName)
	}
	d, base := filepath.Split(path)
	return filepath.Join(d, "."+base+settingsSuffix)
}

// settingsName is the settings file of an output directory.
const settingsName = ".fiasco-settings.json"

// settingsSuffix ends the name of an output file's settings file.
const settingsSuffix = ".settings.json"

// CheckResume compares s with the settings of the run that wrote the
// output at path in format, as [Open] with Resume does, so that a command
// can refuse a resume before it starts anything costly (a browser). A new
// output, an empty one, the standard output or a device passes; an
// output that holds pages but no settings (moved without its settings
// file) does not.
func CheckResume(format, path string, s Settings) error {
	if path == "" || IsDevice(path) {
		return nil
	}
	return checkSettings(path, !IsStream(format), s)
}

// checkSettings compares want with the settings an earlier run wrote
// beside the output at path (a directory if dir): an error names every
// one that differs. Without them, the output must hold nothing yet.
func checkSettings(path string, dir bool, want Settings) error {
	p := settingsPath(path, dir)
	had, err := readSettings(p)
	if errors.Is(err, os.ErrNotExist) {
		held := path
		if dir {
			held = filepath.Join(path, ManifestName)
		}
		if fi, err := os.Stat(held); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			return fmt.Errorf("--resume: %s holds pages, but the settings its run wrote beside it (%s) are missing, so that a resumed run cannot tell whether it cleans as that run did: move the output with that hidden file, or rerun with --overwrite in place of --resume to start afresh", held, p)
		}
		return nil
	}
	if err != nil {
		return err
	}
	var diff []string
	for k := range union(had, want) {
		if k != errorLogKey && k != finishedKey && k != inputsKey && had[k] != want[k] {
			name := k
			if k == "model" {
				name = "model (a digest of it with the options that change it)"
			}
			diff = append(diff, fmt.Sprintf("%s %s, now %s", name, orNone(had[k]), orNone(want[k])))
		}
	}
	if len(diff) == 0 {
		return inputsDiff(had[inputsKey], want[inputsKey])
	}
	sort.Strings(diff)
	return fmt.Errorf("--resume: the output was written with other settings (%s): give the options of the earlier run, or rerun with --overwrite in place of --resume to start afresh", strings.Join(diff, "; "))
}

func union(a, b Settings) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func orNone(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}

// EarlierSettings returns the settings an earlier run wrote beside the
// output of format at path; nil where there are none.
func EarlierSettings(format, path string) Settings {
	if path == "" || IsDevice(path) {
		return nil
	}
	s, _ := readSettings(settingsPath(path, !IsStream(format)))
	return s
}

// readSettings reads the settings file p (an error wrapping
// os.ErrNotExist where there is none; one naming p where it is no JSON).
func readSettings(p string) (Settings, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return s, nil
}

// with is s with k set to v, s unchanged.
func (s Settings) with(k, v string) Settings {
	t := make(Settings, len(s)+1)
	for key, val := range s {
		t[key] = val
	}
	t[k] = v
	return t
}

// writeSettings writes s to p, through a temporary file renamed into
// place.
func writeSettings(p string, s Settings) error {
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	return writeAtomic(p, filepath.Dir(p), append(data, '\n'))
}

// HasSettings reports whether the output at path (a directory for the
// per-page formats, a file for the streams) has the settings file that a
// run writes beside its output.
func HasSettings(format, path string) bool {
	_, err := os.Stat(settingsPath(path, !IsStream(format)))
	return err == nil
}

// HoldsPages reports whether the output of format at path holds a page's
// record: a directory's manifest.jsonl with a line, a JSON Lines file with
// a byte (gzip-compressed or not), a WET file with a record after its
// warcinfo (a run killed before its first page wrote that alone).
func HoldsPages(format, path string) bool {
	if path == "" || IsDevice(path) {
		return false
	}
	if !IsStream(format) {
		fi, err := os.Stat(filepath.Join(path, ManifestName))
		return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
	}
	f := openFilled(path)
	if f == nil {
		return false
	}
	defer f.Close()
	if format == WET {
		r := warc.NewReader(f, warc.Options{Name: path})
		for n := 0; ; n++ {
			rec, err := r.Next()
			if err != nil {
				return err != io.EOF || n > 1 // damage: let the run's checks tell
			}
			if n > 0 || rec.Type != warc.TypeWarcinfo {
				return true
			}
		}
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return true // plain JSON Lines, not empty
	}
	var b [1]byte
	n, _ := io.ReadFull(zr, b[:])
	return n > 0
}

// Orphaned reports whether the output of format at path holds what a run
// of fiasco wrote (a directory's manifest.jsonl with entries, a JSON Lines
// file whose first line starts as fiasco's do, {"input":, a WET file whose
// warcinfo record names fiasco as its software, and a record after it)
// without the settings file
// that run wrote beside it (moved without it: mv DIR/* skips hidden
// files; or written by a version before settings files). Whether that
// run finished cannot be told, nor can it be resumed.
func Orphaned(format, path string) bool {
	if HasSettings(format, path) || !HoldsPages(format, path) {
		return false
	}
	if !IsStream(format) {
		return true
	}
	own, _ := startsAsOwn(format, path)
	return own
}

// recordStart is how every JSON Lines record of fiasco's, page or error,
// begins.
const recordStart = `{"input":`

// startsAsOwn reports whether the file path, gzip-compressed or not,
// begins as fiasco's output of the stream format does (fileStart.own).
func startsAsOwn(format, path string) (own, partial bool) {
	st, ok := readOutputStart(path)
	if !ok {
		return false, false
	}
	return st.own(format)
}

// fileStart is what a file begins with: up to 4 KiB of it, decompressed
// where it is gzip data.
type fileStart struct {
	head    []byte
	ended   bool // the file ends within them
	gzipCut bool // the file is a gzip header cut short
}

// readOutputStart reads the start of the file at path; ok is false where it
// cannot be read.
func readOutputStart(path string) (st fileStart, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return st, false
	}
	defer f.Close()
	raw := make([]byte, 10) // a gzip header's length
	nr, _ := io.ReadFull(f, raw)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return st, false
	}
	var r io.Reader = f
	if zr, err := gzip.NewReader(f); err == nil {
		r = zr
	} else {
		if nr > 0 && nr < len(raw) && raw[0] == 0x1f && (nr == 1 || raw[1] == 0x8b) {
			return fileStart{gzipCut: true}, true
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return st, false
		}
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(r, head)
	return fileStart{head: head[:n], ended: n < len(head)}, true
}

// own reports whether st begins as fiasco's output of the stream format
// does: a JSON Lines record (recordStart), or a WET file's warcinfo record
// that names fiasco as its software. partial reports a file that holds
// only the start of such a first entry, cut short before it could say
// whose it is (a gzip header, a JSON Lines file shorter than recordStart,
// a WARC file that ends before its warcinfo names a software): an own
// output whose first write did not reach the disk whole.
func (st fileStart) own(format string) (own, partial bool) {
	head := st.head
	switch {
	case st.gzipCut:
		return false, true
	case format == JSONL:
		return bytes.HasPrefix(head, []byte(recordStart)), len(head) < len(recordStart) && strings.HasPrefix(recordStart, string(head))
	case !startsWARC(head):
		return false, len(head) < len(warcMagic) && bytes.HasPrefix(warcMagic, head)
	case bytes.Contains(head, []byte("WARC-Type: warcinfo")) && bytes.Contains(head, []byte("\r\nsoftware: fiasco")):
		return true, false
	}
	return false, st.ended && cutWarcinfo(head)
}

// cutWarcinfo reports whether head, a whole file that begins as a WARC
// record, is the start of the warcinfo record fiasco writes first, cut
// short before it could name fiasco: its header not ended, or a
// warcinfo header whose block is shorter than its Content-Length and
// begins as fiasco's (software: fiasco, the first field). A whole record,
// or another tool's, is none.
func cutWarcinfo(head []byte) bool {
	rec, err := warc.NewReader(bytes.NewReader(head), warc.Options{}).Next()
	if err != nil {
		return errors.Is(err, warc.ErrTruncated) // the header cut short
	}
	if rec.Type != warc.TypeWarcinfo {
		return false
	}
	b, err := io.ReadAll(rec.Block())
	if !errors.Is(err, warc.ErrTruncated) {
		return false // a whole record
	}
	const own = "software: fiasco"
	return strings.HasPrefix(own, string(b)) || strings.HasPrefix(string(b), own)
}

// openFilled opens path for reading if it is a regular file that holds a
// byte; else it returns nil.
func openFilled(path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		f.Close()
		return nil
	}
	return f
}

// EarlierErrorLog returns the error log that an earlier run of format
// at path recorded in its settings file, when it differs from the log a
// run without --errors would have: what a resumed run given no --errors
// should continue. It is "" where the settings name none, or the default
// log, or a device or pipe (/dev/fd/63 of a shell's >(...), which a later
// run cannot open again), or where there are no settings. found is false
// where the log named is no regular file (moved, or removed): log then
// says where it was looked for.
func EarlierErrorLog(format, path string) (log string, found bool) {
	if path == "" || IsDevice(path) {
		return "", false
	}
	dir := !IsStream(format)
	s, err := readSettings(settingsPath(path, dir))
	if err != nil {
		return "", false
	}
	log, ok := s[errorLogKey]
	if !ok || log == "" {
		return "", false
	}
	log = filepath.FromSlash(log)
	if !filepath.IsAbs(log) {
		log = filepath.Join(filepath.Dir(settingsPath(path, dir)), log)
	}
	if IsDevice(absPath(log)) || absPath(log) == absPath(defaultErrorLog(OutputOptions{Format: format, Path: path})) {
		return "", false
	}
	fi, err := os.Stat(log)
	return log, err == nil && fi.Mode().IsRegular()
}
