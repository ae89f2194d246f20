// Command fiasco removes boilerplate from web pages.
//
// Usage:
//
//	fiasco <command> [arguments]
//
// Run "fiasco help" for the list of commands. Each command lives in its own
// file of this package and registers itself in the commands table.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of the fiasco CLI.
type command struct {
	name    string
	summary string
	// run executes the command with its own arguments (without the
	// command name). It returns the process exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("fiasco: duplicate command " + c.name) // programming error, not data
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "fiasco: unknown command %q; run \"fiasco help\"\n", args[0])
		return 2
	}
	return c.run(args[1:], stdout, stderr)
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
	fmt.Fprintln(w, "\nRun \"fiasco <command> -h\" for a command's options.")
}

// parseArgs parses flags placed anywhere among the positional arguments
// (fiasco inspect PAGE -o PAGE.png), as LIBSVM's tools and most users
// expect; "--" ends the flags. It returns the positional arguments.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
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
