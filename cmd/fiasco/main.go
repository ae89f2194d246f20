// Command fiasco removes boilerplate from web pages.
//
// Usage:
//
//	fiasco <command> [arguments]
//
// Run "fiasco help" for the list of commands. Each command lives in its own
// file of this package and registers itself in the commands table; cli.go
// holds what they share (flags and help, errors, exit status, signals).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
)

// command is one subcommand of the fiasco CLI.
type command struct {
	name    string
	summary string
	// run executes the command with its own arguments (without the
	// command name). It stops early when ctx is cancelled (a signal), and
	// returns nil, flag.ErrHelp after printing help, a *usageError, a
	// *failedError when some pages failed, or another error; main reports
	// it (see exitCode).
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("fiasco: duplicate command " + c.name) // programming error, not data
	}
	commands[c.name] = c
}

func main() {
	ctx, cancel, stop := withSignals(context.Background(), os.Stderr)
	stdout := &pipeWriter{w: os.Stdout, cancel: cancel}
	code := runMain(ctx, os.Args[1:], stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// runMain runs the command named by args[0] and returns the exit status,
// having reported any error on stderr.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := ""
	if len(args) > 0 {
		if _, ok := commands[args[0]]; ok {
			name = args[0]
		}
	}
	err := run(ctx, args, stdout, stderr)
	if pw, ok := stdout.(*pipeWriter); ok && (err == nil || errors.Is(err, flag.ErrHelp) || isQuiet(err)) {
		if werr := pw.writeErr(); werr != nil {
			// The command wrote its report (or its help) without
			// checking each write (eval, compare, grid, svm): it is
			// lost, which outweighs pages that failed.
			err = fmt.Errorf("writing standard output: %w", werr)
		}
	}
	return exitCode(ctx, name, err, stderr)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return &usageError{err: errors.New("no command given"), shown: true}
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, []string{"-h"}, stdout, stderr)
			}
			return usagef("", "unknown command %q", args[1])
		}
		usage(stdout)
		return nil
	case "version", "-version", "--version":
		printVersion(stdout)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usagef("", "unknown command %q", args[0])
	}
	tuneGC(c.name)
	return c.run(ctx, args[1:], stdout, stderr)
}

// batchGCPercent is the garbage collector's target (GOGC) for the
// commands that clean pages in batches (batchCommands): a page's garbage (the parsed
// document, tokens, feature rows) is short-lived and the live heap small
// (the models), so collecting at 200% instead of 100% growth halves the
// number of collections (bench/readability: fiasco's pages per CPU-second
// up by about a tenth). Memory: pipeline's BenchmarkBatchMemory peaks at
// 28 MB of heap instead of 16 on the CleanEval pages; a page cut at 8 MiB
// peaks at about 240 MB RSS instead of 220 (cmd/fiasco's TestHugeFile
// allows 350; at 400% it would take 360-430).
const batchGCPercent = 200

// batchCommands are the commands tuneGC applies to: clean, which streams
// pages through and keeps none. The commands that load data sets
// (features, eval, oracle, train, grid) hold every page's document or
// feature rows at once, a live heap that would grow with the target.
var batchCommands = map[string]bool{"clean": true}

// tuneGC sets the garbage collector's target for a batch command, unless
// the GOGC environment variable chooses one.
func tuneGC(name string) {
	if !batchCommands[name] {
		return
	}
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(batchGCPercent)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "fiasco removes boilerplate from web pages.")
	fmt.Fprintln(w, "\nUsage: fiasco <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"fiasco <command> -h\" (or \"fiasco help <command>\") for a command's options,")
	fmt.Fprintln(w, "\"fiasco --version\" for the version.")
	fmt.Fprint(w, exitHelp)
}

// exitHelp lists the exit statuses (cli.go's exitCode).
const exitHelp = `
Exit status:
  0         success
  1         the command failed (refused, or stopped: an output not written)
  2         the command line is wrong
  3         ran to the end, but some pages (or WARC stretches, model files)
            failed; each was reported, and the output holds the rest
            (clean of one input to stdout in a page format whose page
            fails, or that holds none: 1)
  130, 143  stopped by SIGINT, SIGTERM (clean --resume finishes the run)
  141       standard output closed by its reader
`

// revision is the commit a build without VCS information was made from
// (the Docker build's context has no .git), set with -ldflags
// "-X main.revision=...".
var revision string

// printVersion writes the module version and the VCS revision the binary
// was built from, as the Go toolchain recorded them (or revision).
func printVersion(w io.Writer) {
	version, path := "(unknown)", "github.com/fiasco-project/fiasco"
	var rev, when, modified string
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.Main.Path != "" {
			path = bi.Main.Path
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	fmt.Fprintf(w, "fiasco %s (%s)\n", version, path)
	if rev == "" && revision != "" {
		rev, modified = strings.TrimSuffix(revision, "-dirty"), strconv.FormatBool(strings.HasSuffix(revision, "-dirty"))
	}
	if rev != "" {
		var extra []string
		if when != "" {
			extra = append(extra, "committed "+when)
		}
		if modified == "true" {
			extra = append(extra, "with uncommitted changes")
		}
		line := "revision " + rev
		if len(extra) > 0 {
			line += " (" + strings.Join(extra, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	} else {
		fmt.Fprintln(w, "revision unknown (the binary holds no version control information: built outside a git checkout, or with -buildvcs=false)")
	}
	fmt.Fprintf(w, "built with %s for %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
