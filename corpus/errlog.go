package corpus

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrorRecord is one line of an error log: an input that failed, or, with
// Interrupted, one that a signal kept from being cleaned (a resumed run
// cleans it).
type ErrorRecord struct {
	Input        string `json:"input"`
	URL          string `json:"url,omitempty"`
	WARCRecordID string `json:"warc_record_id,omitempty"`
	// WARCDate is the record's WARC-Date, as JSONL output gives it
	// (WARCDate).
	WARCDate    string `json:"warc_date,omitempty"`
	HTTPStatus  int    `json:"http_status,omitempty"` // a WARC response's HTTP status code
	Error       string `json:"error"`
	Interrupted bool   `json:"interrupted,omitempty"`
	// Damage marks the record of damage in a WARC file, not of a page
	// (DamageError, Damaged).
	Damage bool `json:"damage,omitempty"`
}

// ErrorLog is a JSON Lines file of error records, each appended with one
// write as it happens, so that a killed run keeps every record but at most
// a part of the last. The file is created with the first record: a run
// without errors leaves none.
type ErrorLog struct {
	path    string
	f       *appendFile
	n       int
	earlier int      // failures an earlier run recorded, kept on resume
	damaged int      // of them, records of damage in WARC files (ErrorRecord.Damage)
	lock    *os.File // the run's lock of the log (lockLog); nil: none
}

// openErrorLog prepares the error log at path for a run. Without resume a
// stale log of an earlier run is removed. With resume the records of
// pages that were interrupted (which this run cleans) and a partial last
// line are dropped, and the remaining records are returned as a log of
// inputs done, for outputs that hold no record of failed pages.
//
// keep >= 0 keeps only the first keep failure records: the output (jsonl,
// a manifest) records keep failed inputs in its kept part, and the log
// follows it, so that a failure cut from the output with its entry is
// not logged twice when it is cleaned again; Earlier is then keep.
//
// lock is the run's lock of the log (lockLog), nil for a device or a
// pipe; the log owns it from then on, also where openErrorLog fails.
//
// failed are the output's records of failed inputs (len(failed) == keep):
// where the log holds fewer, a run was killed between writing a failure
// to the output and to the log, and the log gets the ones it lacks, as an
// uninterrupted run would have written them.
func openErrorLog(path string, resume bool, keep int, failed []ErrorRecord, lock *os.File) (*ErrorLog, *doneLog, error) {
	l := &ErrorLog{path: path, lock: lock}
	ok := false
	defer func() {
		if !ok {
			l.unlock()
		}
	}()
	fi, err := os.Stat(path)
	switch {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, nil, err
	case err == nil && fi.IsDir():
		return nil, nil, fmt.Errorf("%s is a directory, not an error log", path)
	case err == nil && !fi.Mode().IsRegular():
		ok = true
		return l, nil, nil // a device or a pipe: written as it is
	}
	if !resume {
		// An earlier run's log, or a link to none (probeErrorLog saw
		// that a log can be made where there is none).
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("removing the error log of an earlier run: %w", err)
		}
		ok = true
		return l, nil, nil
	}
	size, err := l.keepFailures(keep)
	if err != nil {
		return nil, nil, err
	}
	if keep >= 0 {
		for _, r := range failed[min(l.earlier, len(failed)):] {
			if err := l.write(r); err != nil {
				return nil, nil, err
			}
		}
		l.earlier = keep // the output's count: its entry is written before the log's
		l.damaged = 0
		for _, r := range failed[:min(keep, len(failed))] {
			if r.Damage {
				l.damaged++
			}
		}
	}
	ok = true
	if size == 0 && l.f == nil {
		// No failure recorded: a log an interrupted run left with only
		// interrupted inputs in it goes, as a run without errors leaves
		// none.
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, nil, err
		}
		return l, nil, nil // none to skip
	}
	log := &doneLog{name: path, ahead: true}
	log.next, log.stop = lineIDs(path, size, jsonlID)
	return l, log, nil
}

// probeErrorLog checks, for a run that does not resume and before any
// output is opened, that the error log at path can be made where there is
// none yet (a file is made in its directory and removed again), so that
// a log that cannot be written stops the run before it leaves an empty
// output. An earlier run's log, or a device, is left to openErrorLog.
func probeErrorLog(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot make the error log's directory: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".probe-*")
	if err != nil {
		return fmt.Errorf("cannot create the error log: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// lockLog takes an exclusive lock (lockFile) on a hidden file beside the
// error log at path, .NAME.lock, for the time of a run, before the log is
// cut or removed: a log that two outputs' runs share (one --errors for
// both, or NAME.jsonl and NAME.jsonl.gz side by side) would mix their
// records, and a WET output's log is its record of the inputs done, which
// another run's fresh start would remove. The log itself is
// rewritten on resume and created with its first record, so it cannot
// carry the lock. The lock file is removed when the run ends (unlock); a
// killed run leaves it, unlocked, for the next to take.
//
// Where lockFile cannot lock (canLock false), or the lock file cannot be
// made (a read-only directory, whose log an earlier run may have left
// writable), it returns nil: the run goes on unguarded, as before locks.
func lockLog(path string) (*os.File, error) {
	if !canLock {
		return nil, nil
	}
	lp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	if err := os.MkdirAll(filepath.Dir(lp), 0o755); err != nil {
		return nil, err
	}
	for range 10 {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o644)
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if err := lockFile(f); err != nil {
			f.Close()
			if errors.Is(err, ErrLocked) {
				return nil, fmt.Errorf("another run is writing this error log (wait for that run to end, or give --errors another file): %w", ErrLocked)
			}
			return nil, err
		}
		// A run that held the lock removes the file as it ends: where it
		// did so between our opening and locking it, ours is a removed
		// file, and the lock is taken again on the new one.
		a, err1 := f.Stat()
		b, err2 := os.Stat(lp)
		if err1 == nil && err2 == nil && os.SameFile(a, b) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("%s: could not be locked", lp)
}

// ClaimErrorLog takes the lock of the error log that Open would open for
// the output of format at path (errors: OutputOptions.Errors), as Claim
// takes the output's, for the time a run spends starting, so that a run
// sharing another's log is refused before it starts Chromium. release
// gives it up; Open takes it again.
func ClaimErrorLog(format, path, errors string) (release func(), err error) {
	opt := OutputOptions{Format: format, Path: path, Errors: errors}
	p := errorLogPath(opt)
	none := func() {}
	if p == "" || IsDevice(p) {
		return none, nil
	}
	if err := sharedLog(opt, p); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() {
		return none, nil // Open makes the directory, or names the mistake
	}
	f, err := lockLog(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	l := &ErrorLog{lock: f}
	return l.unlock, nil
}

// unlock removes the lock file and gives the lock up.
func (l *ErrorLog) unlock() {
	if l.lock != nil {
		os.Remove(l.lock.Name()) // removed while locked: no other run takes the removed file (lockLog checks)
		l.lock.Close()
		l.lock = nil
	}
}

// keepFailures rewrites the log without its interrupted records and its
// partial last line, and past keep failure records if keep >= 0, and
// returns its new size.
func (l *ErrorLog) keepFailures(keep int) (int64, error) {
	f, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	tmp, err := os.CreateTemp(filepath.Dir(l.path), tempPrefix+"*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is none
	bw := bufio.NewWriter(tmp)
	var size int64
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			break // a partial last line, or none
		}
		if err != nil {
			tmp.Close()
			return 0, err
		}
		var r ErrorRecord
		if json.Unmarshal(line, &r) != nil {
			tmp.Close()
			return 0, fmt.Errorf("%s: not an error log (line %q)", l.path, firstLine(line))
		}
		if !r.Interrupted && (keep < 0 || l.earlier < keep) {
			bw.Write(line)
			size += int64(len(line))
			l.earlier++
			if r.Damage {
				l.damaged++
			}
		}
	}
	err = bw.Flush()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil { // the log's own mode, not CreateTemp's 0600
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			err = os.Chmod(tmp.Name(), fi.Mode().Perm())
		}
	}
	if err == nil {
		err = os.Rename(tmp.Name(), l.path)
	}
	if err != nil {
		return 0, fmt.Errorf("rewriting %s: %w", l.path, err)
	}
	return size, nil
}

func firstLine(b []byte) string {
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}

// Path returns the log's file name.
func (l *ErrorLog) Path() string { return l.path }

// Len returns the number of records this run added.
func (l *ErrorLog) Len() int { return l.n }

// Earlier returns the number of failures an earlier run recorded that a
// resumed run kept (its interrupted pages aside, which it cleans); 0 for
// a nil log.
func (l *ErrorLog) Earlier() int {
	if l == nil {
		return 0
	}
	return l.earlier
}

// EarlierDamage returns how many of the records Earlier counts are of
// damage in WARC files, not of pages (ErrorRecord.Damage); 0 for a nil
// log.
func (l *ErrorLog) EarlierDamage() int {
	if l == nil {
		return 0
	}
	return l.damaged
}

// Add appends a record. An error means the log cannot be written.
func (l *ErrorLog) Add(r ErrorRecord) error {
	if err := l.write(r); err != nil {
		return err
	}
	l.n++
	return nil
}

// write appends r to the log, creating it with its first record.
func (l *ErrorLog) write(r ErrorRecord) error {
	if l.f == nil {
		f, err := openAppend(l.path, true, false, goodLines) // locked beside it (lockLog)
		if err != nil {
			return fmt.Errorf("error log: %w", err)
		}
		l.f = f
	}
	data, err := encodeLine(r)
	if err != nil {
		return err
	}
	return l.f.write(data)
}

// Close closes the log and gives its lock up.
func (l *ErrorLog) Close() error {
	if l == nil {
		return nil
	}
	defer l.unlock()
	if l.f == nil {
		return nil
	}
	return l.f.close()
}
