package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// This file holds what every command shares: flag parsing with help, the
// errors a command returns and how main turns them into one message and an
// exit status, and the signals that end a run.
//
// Exit status:
//
//	0    success, or help asked for (-h, --help)
//	1    the command failed: refused, stopped, or its output not written
//	2    the command line is wrong
//	3    the command ran to the end, but some pages (or WARC stretches,
//	     model files) failed: each was reported, and the output holds the
//	     rest. clean of one input to standard output in a page format
//	     (cleanOne), whose page fails or that holds none, fails with it: 1. A wrapper that retries on failure must not retry on
//	     3, as a resumed run ends as the whole run would have.
//	130  interrupted by SIGINT  (128 + 2)
//	141  standard output closed by its reader (SIGPIPE, 128 + 13)
//	143  terminated by SIGTERM  (128 + 15)

// usageError is a wrong command line: main prints it with a pointer to the
// command's help and exits 2.
type usageError struct {
	cmd   string // the command whose help to point to, e.g. "svm train"
	err   error
	shown bool // the usage was printed already: no message
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usageError for cmd.
func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, args...)}
}

// failedError says that a command ran to the end but some of its items
// (pages) failed. They were reported one by one already, so main prints
// nothing more and exits exitFailedItems.
type failedError struct {
	n    int
	what string // "pages"
}

// exitFailedItems is the exit status of a run that ended with failedError.
const exitFailedItems = 3

func (e *failedError) Error() string { return fmt.Sprintf("%d %s failed", e.n, e.what) }

// cmdError names the command (e.g. "svm train") that an error comes from,
// for main's message.
type cmdError struct {
	cmd string
	err error
}

func (e *cmdError) Error() string { return e.err.Error() }
func (e *cmdError) Unwrap() error { return e.err }

// signalError is the cause of a run's context when a signal ended it.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return s.String()
}

// interrupted returns the signal that cancelled ctx, or nil.
func interrupted(ctx context.Context) *signalError {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		return se
	}
	return nil
}

// forceAfter is how long after the first SIGINT or SIGTERM another one
// ends the process at once, without cleaning up. Earlier ones are taken
// for the same request: timeout(1), for one, sends a signal both to its
// child and to the child's process group, so fiasco gets it twice.
const forceAfter = 2 * time.Second

// withSignals returns a context that SIGINT or SIGTERM cancels with a
// *signalError cause (signal.NotifyContext's cause does not say which
// signal arrived, and the exit status depends on it). The run then stops
// taking work and cleans up (Chromium and its profile); a further signal
// forceAfter later ends the process at once. withSignals also stops Go
// from killing the process when a write to a closed pipe raises SIGPIPE:
// such writes fail with EPIPE instead, so that a run ends through its
// error path and closes Chromium (see pipeWriter). stop releases the
// signals.
func withSignals(parent context.Context, stderr io.Writer) (ctx context.Context, cancel context.CancelCauseFunc, stop func()) {
	ctx, cancel = context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	pipe := make(chan os.Signal, 1) // never read: Notify drops what does not fit
	signal.Notify(pipe, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		var first time.Time
		for {
			select {
			case s := <-sigs:
				ss, _ := s.(syscall.Signal)
				if first.IsZero() {
					first = time.Now()
					cancel(&signalError{ss})
					continue
				}
				if time.Since(first) >= forceAfter {
					fmt.Fprintf(stderr, "fiasco: %s again: quitting without cleaning up\n", signalName(ss))
					os.Exit(128 + int(ss))
				}
				fmt.Fprintf(stderr, "fiasco: %s again within %v of the first: taken for the same request (one %v or more after it quits at once)\n", signalName(ss), forceAfter, forceAfter)
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(done)
			signal.Stop(sigs)
			signal.Stop(pipe)
		})
	}
	return ctx, cancel, stop
}

// pipeWriter is standard output. A write that fails because the reader
// has gone (EPIPE: fiasco clean page.html | head -1) cancels the run with
// a SIGPIPE cause, so that it stops, closes Chromium and exits 141. Any
// other failed write (a full disk, /dev/full) is kept (writeErr), so that
// a command whose report could not be written fails (runMain) although it
// wrote the report without checking each write.
type pipeWriter struct {
	w      io.Writer
	cancel context.CancelCauseFunc

	mu  sync.Mutex
	err error // the first failed write's error, EPIPE aside
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil {
		if errors.Is(err, syscall.EPIPE) {
			p.cancel(&signalError{syscall.SIGPIPE})
		} else {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
		}
	}
	return n, err
}

// writeErr returns the first error of a failed write to p, EPIPE aside.
func (p *pipeWriter) writeErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// exitCode reports err, the outcome of running command name (args[0]), on
// stderr in one message and returns the process's exit status.
func exitCode(ctx context.Context, name string, err error, stderr io.Writer) int {
	prefix := "fiasco"
	var ce *cmdError
	var ue *usageError
	if errors.As(err, &ce) {
		name = ce.cmd
	} else if errors.As(err, &ue) && ue.cmd != "" {
		name = ue.cmd
	}
	if name != "" {
		prefix += " " + name
	}
	if se := interrupted(ctx); se != nil {
		if se.sig == syscall.SIGPIPE {
			return 128 + int(se.sig) // the reader is gone: nobody to tell
		}
		if err != nil && !errors.Is(err, context.Canceled) && !isQuiet(err) {
			fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
		}
		fmt.Fprintf(stderr, "%s: %v\n", prefix, se)
		return 128 + int(se.sig)
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		if ue.shown {
			return 2
		}
		fmt.Fprintf(stderr, "%s: %v\n", prefix, err)
		help := "fiasco help"
		if ue.cmd != "" {
			help = "fiasco " + ue.cmd + " -h"
		}
		fmt.Fprintf(stderr, "Run %q for usage.\n", help)
		return 2
	case isQuiet(err):
		return exitFailedItems
	}
	fmt.Fprintf(stderr, "%s: %s\n", prefix, errMessage(name, err))
	return 1
}

// errMessage is err's message; of train and eval, which train models
// through package train, without its prefix, which the command's name
// stands for ("fiasco train: train: ..."). Other commands' errors may
// start with a file named train (svm-train's data file, often).
func errMessage(cmd string, err error) string {
	msg := err.Error()
	if cmd != "train" && cmd != "eval" {
		return msg
	}
	if rest, ok := strings.CutPrefix(msg, "--grid: train: "); ok {
		return "--grid: " + rest
	}
	return strings.TrimPrefix(msg, "train: ")
}

func isQuiet(err error) bool {
	var fe *failedError
	return errors.As(err, &fe)
}

// flagSet is a command's flags with its help text. Help (-h, -help,
// --help) goes to standard output and is not an error (exit 0); a wrong
// flag is a usageError. The flag package prints nothing itself.
type flagSet struct {
	*flag.FlagSet
	cmd  string // "clean", "svm train"
	text string // synopsis and description, printed before the options
}

func newFlagSet(cmd, text string) *flagSet {
	fs := flag.NewFlagSet("fiasco "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, cmd: cmd, text: text}
}

// flagName spells a flag as its help does: -c, -w1 (svm-train's
// letters), --features.
func flagName(name string) string {
	if len(name) == 1 || name == "w1" || name == "w-1" {
		return "-" + name
	}
	return "--" + name
}

// given returns the first of names set on the command line, or "".
func (f *flagSet) given(names ...string) string {
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	for _, n := range names {
		if set[n] {
			return n
		}
	}
	return ""
}

// help writes the command's help: its text and its options.
func (f *flagSet) help(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nOptions:\n", strings.TrimRight(f.text, "\n"))
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}

// parse parses flags placed anywhere among the positional arguments
// (fiasco inspect PAGE -o PAGE.png), as LIBSVM's tools and most users
// expect; "--" ends the flags. It returns the positional arguments. On
// -h, -help or --help it writes the help to stdout and returns
// flag.ErrHelp. Where -h is a flag of the command's own (LIBSVM's
// shrinking option in the commands that mirror LIBSVM), a -h without a
// value (alone or last) still asks for help.
func (f *flagSet) parse(args []string, stdout io.Writer) ([]string, error) {
	if err := f.shrinkingH(args); err != nil {
		return nil, err
	}
	if f.Lookup("h") != nil && len(args) > 0 && args[len(args)-1] == "-h" {
		f.help(stdout)
		return nil, flag.ErrHelp
	}
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				f.help(stdout)
				return nil, err
			}
			return nil, &usageError{cmd: f.cmd, err: err}
		}
		rest := f.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// shrinkingH refuses svm-train's "-h 0" (or -h=1) in a command that
// spells shrinking --shrinking and takes -h for help: without it the 0
// would be a positional argument and the command would print its help and
// succeed without doing anything.
func (f *flagSet) shrinkingH(args []string) error {
	if f.Lookup("shrinking") == nil || f.Lookup("h") != nil {
		return nil
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "h" {
			continue
		}
		if !eq && i+1 < len(args) {
			val = args[i+1]
		}
		if val == "0" || val == "1" {
			return usagef(f.cmd, "-h %s: -h asks for help here; svm-train's shrinking option is --shrinking %s", val, val)
		}
	}
	return nil
}

// parseN is parse for a command that takes exactly n positional
// arguments, named in want ("DATA MODEL").
func (f *flagSet) parseN(args []string, stdout io.Writer, n int, want string) ([]string, error) {
	pos, err := f.parse(args, stdout)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		return nil, usagef(f.cmd, "want %d arguments (%s), got %d", n, want, len(pos))
	}
	return pos, nil
}
