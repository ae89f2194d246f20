package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// appendFile is an output written as a sequence of whole entries (lines,
// WARC records), each with one write to a file opened for appending, so
// that a process killed at any moment leaves whole entries and at most a
// part of the last one, which a resumed run cuts off. A write that fails
// is undone (the file is cut back to its last whole entry) and every later
// write fails with the same error.
type appendFile struct {
	path string
	f    *os.File
	size int64 // bytes of whole entries
	err  error
}

// ErrLocked says that an output is being written by another run: each
// output file (and a directory's manifest) is locked while a run writes it
// (flock, on systems that have it; released when the run ends, also when
// it is killed).
var ErrLocked = errors.New("another run is writing it (wait for that run to end, or choose another -o)")

// Claim takes the lock of the output of format at path (the file of a
// stream format, a directory's manifest) for the time a run spends
// starting (Chromium, say) before Open, so that a second run started
// meanwhile is refused at once, with an error wrapping ErrLocked, and
// starts nothing. release gives the lock up (Open takes it again, a moment
// later); with keep false it also removes what Claim made, if it is still
// empty (the run ends without writing). Standard output, a device or a
// pipe is not claimed.
func Claim(format, path string) (release func(keep bool), err error) {
	none := func(bool) {}
	if path == "" || IsDevice(path) {
		return none, nil
	}
	lock, dir := path, ""
	if IsStream(format) {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() || namesDir(path) {
			return none, nil // Open names the mistake, having made nothing
		}
	} else {
		if isFile(path) {
			return none, nil // Open names the mistake
		}
		lock = filepath.Join(path, ManifestName)
		if _, err := os.Stat(path); err != nil {
			dir = path
		}
	}
	_, statErr := os.Stat(lock)
	made := statErr != nil
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func(keep bool) {
		if !keep && made {
			if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
				// Removed while locked, so that no other run claims the
				// file in between; where an open file cannot be removed
				// (Windows), once closed.
				if os.Remove(lock) != nil {
					f.Close()
					os.Remove(lock)
				}
				if dir != "" {
					os.Remove(dir) // only if empty
				}
			}
		}
		f.Close()
	}, nil
}

// openAppend opens path for a run. Without resume, it starts the file
// afresh. With resume, it keeps the whole entries of an existing file:
// good, given the file, returns the length of its whole entries, and
// the rest is cut off. With lock, the file is this run's until it closes
// (lockFile): a second run writing it would interleave its entries with
// ours, or cut them off; it is truncated only once locked.
func openAppend(path string, resume, lock bool, good func(f *os.File, size int64) (int64, error)) (*appendFile, error) {
	// A device's name (/dev/stdout, /dev/fd/N: IsDevice) may lead to a
	// file the shell opened, with >> to append: it is never truncated.
	dev := IsDevice(path)
	truncLocked := !resume && lock && canLock && !dev // else O_TRUNC truncates at opening
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if !resume && !truncLocked && !dev {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, err
	}
	if lock {
		if err := lockFile(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	if truncLocked {
		if err := truncateRegular(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	a := &appendFile{path: path, f: f}
	if resume {
		r, err := os.Open(path)
		if err != nil {
			f.Close()
			return nil, err
		}
		fi, err := r.Stat()
		if err == nil {
			a.size, err = good(r, fi.Size())
		}
		r.Close()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if a.size < fi.Size() {
			if err := f.Truncate(a.size); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	return a, nil
}

// write appends one whole entry.
func (a *appendFile) write(p []byte) error {
	if a.err != nil {
		return a.err
	}
	n, err := a.f.Write(p)
	if err != nil {
		if n > 0 {
			// Undo the part written; if even that fails, the next run
			// with --resume cuts it.
			a.f.Truncate(a.size)
		}
		a.err = fmt.Errorf("writing %s: %w", a.path, err)
		return a.err
	}
	a.size += int64(n)
	return nil
}

// reset empties the file.
func (a *appendFile) reset() error {
	if err := truncateRegular(a.f); err != nil {
		return fmt.Errorf("emptying %s: %w", a.path, err)
	}
	a.size = 0
	return nil
}

func (a *appendFile) close() error {
	err := a.f.Close()
	if a.err != nil {
		return a.err
	}
	if err != nil {
		return fmt.Errorf("closing %s: %w", a.path, err)
	}
	return nil
}

// truncateRegular empties f where it is a regular file (a device or a
// pipe, an output too, cannot be truncated and need not be).
func truncateRegular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return err
	}
	return f.Truncate(0)
}

// goodLines returns the length of the whole lines of a file: up to and
// including its last newline.
func goodLines(f *os.File, size int64) (int64, error) {
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for end := size; end > 0; {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// lineIDs returns the identities of the lines of the first size bytes of
// the file at path, in order, read as they are asked for; id extracts one
// from a line ("" and false to skip it). The file is opened at the first
// call of next and closed at its end, at an error, or by stop, whichever
// comes first; next is not called after stop.
func lineIDs(path string, size int64, id func(line []byte) (string, bool, error)) (next func() (string, bool, error), stop func()) {
	return readLineIDs(path, size, false, id)
}

// readLineIDs is lineIDs, of a file of gzip members (one or more lines
// each) with gz.
func readLineIDs(path string, size int64, gz bool, id func(line []byte) (string, bool, error)) (next func() (string, bool, error), stop func()) {
	var f *os.File
	var br *bufio.Reader
	lineNo := 0
	stop = func() {
		if f != nil {
			f.Close()
			f = nil
		}
	}
	next = func() (string, bool, error) {
		if br == nil {
			var err error
			if f, err = os.Open(path); err != nil {
				return "", false, err
			}
			var r io.Reader = io.NewSectionReader(f, 0, size)
			if gz && size > 0 {
				zr, err := gzip.NewReader(bufio.NewReaderSize(r, 64<<10))
				if err != nil {
					stop()
					return "", false, fmt.Errorf("%s: %w", path, err)
				}
				r = zr
			}
			br = bufio.NewReaderSize(r, 64<<10)
		}
		for {
			line, err := br.ReadBytes('\n')
			if len(line) == 0 && err == io.EOF {
				stop()
				return "", false, nil
			}
			if err != nil && err != io.EOF {
				stop()
				return "", false, err
			}
			lineNo++
			s, ok, perr := id(line)
			if perr != nil {
				stop()
				return "", false, fmt.Errorf("%s, line %d: %w", path, lineNo, perr)
			}
			if ok {
				return s, true, nil
			}
		}
	}
	return next, stop
}

// gzipEntries writes each entry as a gzip member of its own to out, so
// that the file is whole gzip members at any moment (as a WET file's
// records are) and reads as one gzip stream.
type gzipEntries struct {
	out entryWriter
	buf bytes.Buffer
	zw  *gzip.Writer
}

func newGzipEntries(out entryWriter) *gzipEntries {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	return &gzipEntries{out: out, zw: zw}
}

func (g *gzipEntries) write(p []byte) error {
	g.buf.Reset()
	g.zw.Reset(&g.buf)
	if _, err := g.zw.Write(p); err != nil {
		return err
	}
	if err := g.zw.Close(); err != nil {
		return err
	}
	return g.out.write(g.buf.Bytes())
}

func (g *gzipEntries) close() error { return g.out.close() }

// goodMembers returns the length of the whole gzip members of a file that
// end with a line end: up to the first member that cannot be read to its
// end (a killed run's last).
func goodMembers(f *os.File, size int64) (int64, error) {
	sr := io.NewSectionReader(f, 0, size)
	br := bufio.NewReaderSize(sr, 64<<10)
	if m, _ := br.Peek(2); len(m) == 2 && (m[0] != 0x1f || m[1] != 0x8b) {
		return 0, errors.New("not gzip-compressed, as a name ending in .gz says (an output of an older fiasco, which wrote plain lines?): rerun with --overwrite in place of --resume, or rename it")
	}
	var zr gzip.Reader
	buf := make([]byte, 32<<10)
	good := int64(0)
	for {
		if _, err := br.Peek(1); err == io.EOF {
			return good, nil
		}
		if err := zr.Reset(br); err != nil {
			return good, nil
		}
		zr.Multistream(false)
		last := byte(0)
		for {
			n, err := zr.Read(buf)
			if n > 0 {
				last = buf[n-1]
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return good, nil
			}
		}
		if last != '\n' {
			return good, nil
		}
		read, _ := sr.Seek(0, io.SeekCurrent)
		good = read - int64(br.Buffered())
	}
}

// tempPrefix starts the names of the temporary files outputs are written
// to before they are renamed into place; hidden, so that no walk reads
// them as input.
const tempPrefix = ".fiasco-tmp-"

// writeAtomic writes data to path through a temporary file in tmpDir
// (which must be on the same file system) renamed into place: a reader,
// or a run killed at any moment, sees the old file or the new one, never
// a part.
func writeAtomic(path, tmpDir string, data []byte) error {
	f, err := os.CreateTemp(tmpDir, tempPrefix+"*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil { // CreateTemp's 0600 would make the output private
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// removeTemps removes what killed runs left of their temporary files in
// dir.
func removeTemps(dir string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, de := range des {
		if strings.HasPrefix(de.Name(), tempPrefix) && de.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, de.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
