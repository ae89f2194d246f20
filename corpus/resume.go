package corpus

import (
	"errors"
	"fmt"
	"iter"

	"github.com/fiasco-project/fiasco/pipeline"
)

// A doneLog is the identities (see Identity) of the inputs an earlier run
// finished, in input order, as one of its outputs records them.
type doneLog struct {
	name string // the output, for messages
	// failures are the entries that record a failed input (for an
	// output that holds them: jsonl's error lines, a manifest's).
	failures []ErrorRecord
	// next reads the next entry, opening the log at its first call;
	// stop closes it (see lineIDs).
	next func() (string, bool, error)
	stop func()
	head string
	has  bool
	n    int // entries read
	// ahead marks a log that a crash of the machine may leave ahead of the
	// output it goes with: a WET file's error log, a file of its own whose
	// writes reach the disk apart from the output's.
	ahead bool
}

func (l *doneLog) advance() error {
	id, ok, err := l.next()
	if err != nil {
		return err
	}
	l.head, l.has = sameID(id), ok
	if ok {
		l.n++
	}
	return nil
}

// Resume skips the inputs an earlier run of the same command finished.
// Outputs are written in input order and a killed run leaves whole entries
// only (a partial last one is cut off when the output is opened), so what
// an earlier run finished is a prefix of the inputs, recorded in one or
// more logs (a JSONL file; a WET file and the error log; a manifest).
// Resume walks the inputs and the logs in step: it needs no memory per
// page, and it notices when the inputs are not those the outputs were
// written from.
type Resume struct {
	logs    []*doneLog
	skipped int
	err     error
}

// Skipped returns the number of inputs skipped as done.
func (r *Resume) Skipped() int {
	if r == nil {
		return 0
	}
	return r.skipped
}

// Err returns why resuming failed: an output that does not match the
// inputs, or cannot be read. The filtered stream ends at such an error.
func (r *Resume) Err() error {
	if r == nil {
		return nil
	}
	return r.err
}

// Filter returns inputs without those done before. skip, if not nil, is
// called for each input skipped, in order.
func (r *Resume) Filter(inputs iter.Seq[pipeline.Input], skip func(pipeline.Input)) iter.Seq[pipeline.Input] {
	if r == nil || len(r.logs) == 0 {
		return inputs
	}
	return func(yield func(pipeline.Input) bool) {
		// A log read to its end is closed already; one the filtering
		// stops in (at an error, or when the caller stops) is not.
		defer func() {
			for _, l := range r.logs {
				l.stop()
			}
		}()
		for _, l := range r.logs {
			if err := l.advance(); err != nil {
				r.err = err
				return
			}
		}
		active := true
		for in := range inputs {
			if active {
				done, err := r.done(in)
				if err != nil {
					r.err = err
					return
				}
				if done {
					r.skipped++
					if skip != nil {
						skip(in)
					}
					continue
				}
				if errors.Is(in.Err, ErrNoRecord) && r.pending() {
					// A WARC file with no record, amid inputs done: a run
					// before 2026-12-03 gave it no error record. Passed
					// over, as that run did.
					continue
				}
				next := in.Name
				if in.RecordID != "" {
					// The logs name a WARC record by its ID: say it, as
					// the name alone may be the entry's (a file
					// compressed as a whole gives all its records one
					// offset).
					next += " (record " + in.RecordID + ")"
				}
				if err := r.exhausted(next); err != nil {
					r.err = err
					return
				}
				active = false
			}
			if !yield(in) {
				return
			}
		}
		if active {
			r.err = r.exhausted("")
		}
	}
}

// pending reports whether a log holds entries not yet matched.
func (r *Resume) pending() bool {
	for _, l := range r.logs {
		if l.has {
			return true
		}
	}
	return false
}

// done reports whether in is the next entry of one of the logs, and moves
// that log on.
func (r *Resume) done(in pipeline.Input) (bool, error) {
	id, legacy := sameID(Identity(in)), oneLine(Identity(in))
	for _, l := range r.logs {
		if l.has && (l.head == id || l.head == legacy) {
			return true, l.advance()
		}
	}
	return false, nil
}

// sameID is an input's identity as every output records it: a byte that
// is not UTF-8 as %XX (RecordedName), and in a WET header a line break or
// other control character as a space (oneLine). Resume compares
// identities so, so that a run over files whose names are not UTF-8 (a
// mirror of a Latin-1 site) or hold line breaks resumes. Outputs written
// before 2026-12-02 held such a byte as U+FFFD (oneLine alone, which
// done compares too).
func sameID(id string) string { return oneLine(RecordedName(id)) }

// exhausted checks that every log has been matched to its end at the
// first input not done (named by next, "" at the end of the inputs). When
// the only log left is one that may run ahead of its output (doneLog.ahead)
// and earlier entries matched, the error says how to cut it back: a crash
// of the machine may have kept the log's last entries and lost the
// output's. It is not cut here: other inputs than the earlier run's look
// the same, and their failure records would be lost.
func (r *Resume) exhausted(next string) error {
	matched, behind := false, false
	for _, l := range r.logs {
		consumed := l.n
		if l.has {
			consumed--
		}
		matched = matched || consumed > 0
		behind = behind || l.has && !l.ahead
	}
	for _, l := range r.logs {
		if !l.has {
			continue
		}
		where := "the inputs end"
		if next != "" {
			where = fmt.Sprintf("the next input is %s", next)
		}
		if l.ahead && matched && !behind && next != "" {
			keep := fmt.Sprintf("keep the log's first %d lines (head -n %d)", l.n-1, l.n-1)
			switch l.n {
			case 1:
				keep = "remove the log"
			case 2:
				keep = "keep the log's first line (head -n 1)"
			}
			return fmt.Errorf("--resume: entry %d of %s is for %s, but the output ends before the next input, %s: if the machine crashed during the run, the log kept entries its output lost; %s and resume again to clean the inputs from %s on; otherwise the inputs are not those the output was written from (same arguments, same order?)",
				l.n, l.name, l.head, next, keep, next)
		}
		why := "the inputs are not those the output was written from (same arguments, same order? a folder that gained a file sorting before those done reads it first: move the new files out until the run is done, and clean them into another output)"
		if ext := pageExt(l.head); ext == ".jsonl" || ext == ".ndjson" {
			// Walks skip JSON Lines since 2026-11-29; earlier versions
			// cleaned them as pages.
			why = "folder walks skip JSON Lines (.jsonl, .ndjson) and earlier runs' outputs since 2026-11-29, and the run that wrote the output, older, cleaned such a file as a page"
		} else if ext == ".md" || ext == ".markdown" || ext == ".csv" || ext == ".tsv" {
			// Walks skip these since a later session of 2026-11-29.
			why = "folder walks skip Markdown and CSV files (.md, .markdown, .csv, .tsv) since 2026-11-29 (a later version), and the run that wrote the output, older, cleaned such a file as a page"
		} else if notPageExt[ext] {
			// Logs, pid files, models and the like since 2026-12-02.
			why = fmt.Sprintf("folder walks skip files named %s (no page: logs, pid files, compiled code, models) since 2026-12-02, and the run that wrote the output, older, cleaned such a file as a page", ext)
		}
		return fmt.Errorf("--resume: entry %d of %s is for %s, but %s: %s; rerun with --overwrite in place of --resume to start afresh",
			l.n, l.name, l.head, where, why)
	}
	return nil
}
