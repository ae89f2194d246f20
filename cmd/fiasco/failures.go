package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/pipeline"
)

// maxRepeats is how many pages failing with the same error are named on
// stderr; the rest are counted (and all are in the error log).
const maxRepeats = 3

// errRecord is a line of errors.jsonl.
type errRecord = corpus.ErrorRecord

// failureLog reports the failures of a batch on stderr, each distinct
// error (the message without the page's name) at most maxRepeats times,
// and appends their records to the error log as they happen. It is used
// from one goroutine (the batch's emit).
type failureLog struct {
	w      io.Writer
	prefix string // "fiasco clean"
	status *status
	log    *corpus.ErrorLog // nil: no error log
	count  map[string]int   // per error with the page's name cut out
	order  []string
	// unlogged counts the interrupted pages without an error log.
	unlogged int
}

func newFailureLog(w io.Writer, prefix string, st *status, log *corpus.ErrorLog) *failureLog {
	return &failureLog{w: w, prefix: prefix, status: st, log: log, count: map[string]int{}}
}

func record(in pipeline.Input, err error, msg string, interrupted bool) errRecord {
	return errRecord{Input: corpus.RecordedName(in.Name), URL: in.URL, WARCRecordID: in.RecordID, WARCDate: corpus.WARCDate(in), HTTPStatus: in.HTTPStatus, Error: msg, Interrupted: interrupted, Damage: corpus.IsDamage(err)}
}

// interrupted records that a signal kept in from being cleaned: in the
// error log, without a message on stderr; where there is no log
// (standard output), on stderr, the first maxRepeats named. An error
// means the log cannot be written.
func (l *failureLog) interrupted(in pipeline.Input, msg string) error {
	if l.log != nil {
		return l.log.Add(record(in, nil, msg, true))
	}
	l.unlogged++
	if l.unlogged <= maxRepeats {
		line := shownName(in.Name) + ": " + msg
		if in.URL != "" {
			line += " (" + in.URL + ")"
		}
		l.status.message(fmt.Sprintf("%s: %s", l.prefix, line))
	}
	return nil
}

// fail records that in failed with err and reports it on stderr unless
// the same error was reported maxRepeats times. An error means the log
// cannot be written.
func (l *failureLog) fail(in pipeline.Input, err error) error {
	msg := err.Error()
	var werr error
	if l.log != nil {
		werr = l.log.Add(record(in, err, msg, false))
	}
	// A name with a line break in it (a file may be called so) would
	// cut the message at firstLine: it is shown quoted, and so is the
	// path of a WARC record's archive (NAME#OFFSET), which its errors
	// name alone.
	name := shownName(in.Name)
	shown := strings.ReplaceAll(msg, in.Name, name)
	if path, _, ok := corpus.SplitRecord(in.Name); ok && path != shownName(path) {
		shown = strings.ReplaceAll(shown, path, shownName(path))
	}
	line := firstLine(shown)
	key := line
	if name != "" {
		key = strings.ReplaceAll(line, name, "PAGE")
	}
	if l.count[key] == 0 {
		l.order = append(l.order, key)
	}
	l.count[key]++
	if l.count[key] <= maxRepeats {
		if !strings.Contains(line, name) {
			line = name + ": " + line
		}
		if in.URL != "" && !strings.Contains(line, in.URL) {
			line += " (" + in.URL + ")" // a WARC record is named by its offset
		}
		l.status.message(fmt.Sprintf("%s: %s", l.prefix, line))
	}
	return werr
}

// shownName is name as messages on stderr show it: quoted (Go syntax)
// when it holds control characters, as it is otherwise.
func shownName(name string) string {
	if strings.ContainsFunc(name, unicode.IsControl) {
		return strconv.Quote(name)
	}
	return name
}

// summary reports the errors that were not all named.
func (l *failureLog) summary() {
	for _, key := range l.order {
		if n := l.count[key] - maxRepeats; n > 0 {
			fmt.Fprintf(l.w, "%s: %d more pages failed the same way (%q); the error records list all\n", l.prefix, n, key)
		}
	}
	if n := l.unlogged - maxRepeats; n > 0 {
		fmt.Fprintf(l.w, "%s: %s interrupted before they were cleaned, not named (the run has no error log)\n", l.prefix, plural(n, "more page"))
	}
}
