package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		code, out, errs := fiasco(t, arg)
		if code != 0 || !strings.HasPrefix(out, "fiasco ") || !strings.Contains(out, "built with go") {
			t.Errorf("fiasco %s: exit %d, stdout %q, stderr %q", arg, code, out, errs)
		}
	}
}

// TestHelp asks every command for help in every spelling: the help goes
// to stdout and the exit status is 0.
func TestHelp(t *testing.T) {
	var cmds [][]string
	for name := range commands {
		cmds = append(cmds, []string{name})
	}
	cmds = append(cmds, []string{"svm", "train"}, []string{"svm", "predict"}, []string{"svm", "scale"})
	for _, cmd := range cmds {
		for _, h := range []string{"-h", "--help", "-help"} {
			args := append(append([]string{}, cmd...), h)
			code, out, errs := fiasco(t, args...)
			if code != 0 || errs != "" || !strings.Contains(strings.ToLower(out), "usage") {
				t.Errorf("fiasco %s: exit %d, stdout %q, stderr %q; want 0 and usage on stdout", strings.Join(args, " "), code, out, errs)
			}
			if cmd[0] != "svm" && !strings.Contains(out, "Options:") {
				t.Errorf("fiasco %s: help lists no options:\n%s", strings.Join(args, " "), out)
			}
		}
		if len(cmd) == 1 {
			if code, out, _ := fiasco(t, "help", cmd[0]); code != 0 || out == "" {
				t.Errorf("fiasco help %s: exit %d, stdout %q", cmd[0], code, out)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		if code, out, _ := fiasco(t, args...); code != 0 || !strings.Contains(out, "Commands:") {
			t.Errorf("fiasco %q: exit %d, stdout %q", args, code, out)
		}
	}
	if code, _, errs := fiasco(t); code != 2 || !strings.Contains(errs, "Commands:") {
		t.Errorf("fiasco without a command: exit %d, stderr %q; want 2 and the commands", code, errs)
	}
}

// TestShrinkingFlag: LIBSVM's -h keeps its letter in the commands that
// mirror LIBSVM; train and eval spell it --shrinking, and -h is help.
func TestShrinkingFlag(t *testing.T) {
	for _, cmd := range []string{"train", "eval"} {
		code, out, _ := fiasco(t, cmd, "-h")
		if code != 0 || !strings.Contains(out, "-shrinking") || !strings.Contains(out, "--shrinking 0|1 here") {
			t.Errorf("fiasco %s -h: exit %d; help does not explain --shrinking:\n%s", cmd, code, out)
		}
		// -h with a value is not LIBSVM's shrinking option here, nor help
		// that would exit 0 having done nothing: a usage error.
		if code, out, errs := fiasco(t, cmd, "-h", "0", "--data", "x"); code != 2 || out != "" || !strings.Contains(errs, "--shrinking 0") {
			t.Errorf("fiasco %s -h 0: exit %d, stdout %q, stderr %q; want 2 and --shrinking named", cmd, code, out, errs)
		}
	}
	for _, c := range []struct {
		letters bool
		args    string
		want    bool
	}{
		{fiascoNames, "--shrinking 0", false},
		{fiascoNames, "--shrinking=false", false},
		{fiascoNames, "--shrinking 1", true},
		{fiascoNames, "", true},
		{libsvmLetters, "-h 0", false},
		{libsvmLetters, "", true},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		sf := addSVMFlags(fs, c.letters)
		if err := fs.Parse(strings.Fields(c.args)); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		p, err := sf.params()
		if err != nil || p.Shrinking != c.want {
			t.Errorf("%q: shrinking %v (%v), want %v", c.args, p.Shrinking, err, c.want)
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	addSVMFlags(fs, fiascoNames)
	if err := fs.Parse([]string{"--shrinking", "2"}); err == nil {
		t.Error("--shrinking 2 accepted")
	}
}

// TestExitCodes checks the error shape: one message on stderr naming the
// command, and the exit status by kind of error.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nonsense"}, 2, `fiasco: unknown command "nonsense"`},
		{[]string{"clean", "--frobnicate"}, 2, "fiasco clean: flag provided but not defined: -frobnicate"},
		{[]string{"train", "-o", "m", "--data"}, 2, "fiasco train: flag needs an argument: -data"},
		{[]string{"train", "-o", "m"}, 2, "give --data DIR"},
		{[]string{"train", "--data", dir}, 2, "give -o MODEL"},
		{[]string{"train", "--no-render", "--features", "visual", "--data", dir, "-o", "m"}, 2, "drop --no-render"},
		{[]string{"train", "--folds-by", "site", "--data", dir, "-o", "m"}, 2, "--folds-by deals the folds of --grid and --stack"},
		{[]string{"train", "--grid", "--folds-by", "domain", "--data", dir, "-o", "m"}, 2, "want page or site"},
		{[]string{"train", "--floor-share", "0.1", "--data", dir, "-o", "m"}, 2, "(give --floor)"},
		{[]string{"train", "--floor", "--floor-share", "1", "--data", dir, "-o", "m"}, 2, "1: want a share above 0 and below 1"},
		{[]string{"clean", "--floor-share", "-0.1", "x.html"}, 2, "-0.1: want a share above 0 and below 1"},
		{[]string{"clean", "--floor-share", "0", "x.html"}, 2, "0: want a share above 0 and below 1 (--floor=false turns the floor off)"},
		{[]string{"clean", "--policy", "article", "--floor-share", "0.3", "../../testdata/walk.html"}, 2, "the article policy has no prose floor"},
		{[]string{"eval", "--no-render", "--cv", "2", "--floor-share", "0.3", "--data", dir}, 2, "give --floor too"},
		{[]string{"eval", "--data", dir, "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"inspect", "a.html"}, 2, "give -o PAGE.png"},
		{[]string{"oracle", "--data", filepath.Join(dir, "none")}, 1, "none: no such directory"},
		{[]string{"clean", "--render", "--chromium", filepath.Join(dir, "no-chromium"), filepath.Join(dir, "x.html")}, 1, "--chromium " + filepath.Join(dir, "no-chromium")},
		{[]string{"clean", "--policy", "article", "--render", "--chromium", filepath.Join(dir, "no-chromium"), filepath.Join(dir, "x.html")}, 1, "--chromium " + filepath.Join(dir, "no-chromium")},
		// The corpus policy renders by default (classify.RendersByDefault): a browser named
		// and missing is an error; the article policy's default is the text model, no browser.
		{[]string{"clean", "--chromium", filepath.Join(dir, "no-chromium"), filepath.Join(dir, "x.html")}, 1, "--chromium " + filepath.Join(dir, "no-chromium")},
		{[]string{"clean", "--policy", "article", "--chromium", filepath.Join(dir, "no-chromium"), filepath.Join(dir, "x.html")}, 0, ""},
		{[]string{"clean", "--render", "--no-render", filepath.Join(dir, "x.html")}, 2, "--render and --no-render contradict"},
		{[]string{"clean", "--no-render", "-", "-"}, 2, "standard input (-) is named 2 times"},
		{[]string{"clean", "--no-render", "-o", filepath.Join(dir, "x.html"), filepath.Join(dir, "x.html")}, 2, "is a file; the cleaneval format writes one file per page"},
		{[]string{"clean", "--no-render", "--format", "wet", "-o", filepath.Join(dir, "x.jsonl"), filepath.Join(dir, "x.html")}, 2, "names a JSON file: give --format jsonl"},
		{[]string{"clean", "--no-render", "--format", "jsonl", "-o", filepath.Join(dir, "x.jsonl.zst"), filepath.Join(dir, "x.html")}, 2, "names a compression fiasco does not write: JSON Lines under a name ending .gz"},
		{[]string{"clean", "--no-render", "--format", "jsonl", "-o", filepath.Join(dir, "x.warc.wet.gz"), filepath.Join(dir, "x.html")}, 2, "names a WARC or WET file: give --format wet"},
		{[]string{"clean", "--no-render", "-i", "-", "-"}, 2, "standard input (-) is named 2 times"},
		{[]string{"clean", "--render", "--model", "m.fiasco", filepath.Join(dir, "x.html")}, 2, "--render picks an embedded model"},
	} {
		if c.args[0] == "clean" {
			os.WriteFile(filepath.Join(dir, "x.html"), []byte("<p>x</p>"), 0o644)
		}
		code, _, errs := fiasco(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("fiasco %q: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
		if strings.Contains(errs, "Options.") {
			t.Errorf("fiasco %q: message names Go fields: %q", c.args, errs)
		}
		if n := strings.Count(errs, "\n"); c.code == 2 && n > 2 {
			t.Errorf("fiasco %q: %d lines on stderr, want the message and a pointer to help:\n%s", c.args, n, errs)
		}
	}
}

// TestInterruptedInProcess cancels a batch before it starts: every page
// gets an "interrupted" record and none is printed one by one.
func TestInterruptedInProcess(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	for _, n := range []string{"a", "b", "c"} {
		os.WriteFile(filepath.Join(in, n+".html"), []byte("<p>Some text of page "+n+".</p>"), 0o644)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&signalError{sig: 15})
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	code := runMain(ctx, []string{"clean", "--no-render", "-q", "-o", out, in}, &stdout, &stderr)
	if code != 143 {
		t.Errorf("exit %d, want 143; stderr:\n%s", code, stderr.String())
	}
	recs := readErrRecords(t, filepath.Join(out, "errors.jsonl"))
	if len(recs) != 3 {
		t.Fatalf("%d error records, want 3", len(recs))
	}
	for _, r := range recs {
		if !strings.Contains(r.Error, "interrupted by SIGTERM") {
			t.Errorf("record %+v does not say interrupted", r)
		}
	}
	if !strings.Contains(stderr.String(), "3 interrupted") || strings.Count(stderr.String(), "\n") != 2 {
		t.Errorf("stderr: want the summary and the interruption, got\n%s", stderr.String())
	}
}

// TestRepeatedNotes: a note of a kind (here: truncated) is printed for a
// few pages, then once that later pages are not named; the summary
// counts them all.
func TestRepeatedNotes(t *testing.T) {
	page, err := os.ReadFile("../../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	for i := range 6 {
		os.WriteFile(filepath.Join(in, fmt.Sprintf("p%d.html", i)), page, 0o644)
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--max-bytes", "2000", "--format", "jsonl", "-o", filepath.Join(t.TempDir(), "o.jsonl"), in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	named := 0
	for i := range 6 {
		if strings.Contains(errs, fmt.Sprintf("p%d.html: ", i)) {
			named++
		}
	}
	if named != maxRepeats || strings.Count(errs, "more pages truncated are not named here") != 1 || !strings.Contains(errs, "6 truncated") {
		t.Errorf("%d pages named, want %d, then one line for the rest:\n%s", named, maxRepeats, errs)
	}
}

// TestRepeatedErrors: pages failing with the same error are named a few
// times on stderr, then counted; errors.jsonl lists them all.
func TestRepeatedErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	for i := 0; i < 8; i++ {
		os.WriteFile(filepath.Join(in, fmt.Sprintf("empty%d.html", i)), nil, 0o644)
	}
	out := filepath.Join(dir, "out")
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", out, in)
	if code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	if n := strings.Count(errs, "empty page"); n != maxRepeats+1 {
		t.Errorf("the error is printed %d times, want %d and a count:\n%s", n, maxRepeats+1, errs)
	}
	if !strings.Contains(errs, fmt.Sprintf("%d more pages failed the same way", 8-maxRepeats)) {
		t.Errorf("no count of the other pages:\n%s", errs)
	}
	if recs := readErrRecords(t, filepath.Join(out, "errors.jsonl")); len(recs) != 8 {
		t.Errorf("%d error records, want 8", len(recs))
	}
}

// TestNameWithLineBreak: a batch's message about a page whose file name
// holds a line break shows the name quoted and says what went wrong.
func TestNameWithLineBreak(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "bad\nname.html"), nil, 0o644); err != nil {
		t.Skipf("this file system takes no line break in a name: %v", err)
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "-o", filepath.Join(dir, "out"), in)
	want := strconv.Quote(filepath.Join(in, "bad\nname.html")) + ": empty page"
	if code != 3 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant a line with %s", code, errs, want)
	}
}

// TestRenderFalse: --render=false is --no-render (the text model, no
// browser sought), not the corpus policy's default, which renders where
// Chromium is (in CI it is: the rendered model cuts at another threshold).
func TestRenderFalse(t *testing.T) {
	tm, err := classify.DefaultFor(classify.PolicyCorpus, false)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := fiasco(t, "clean", "--render=false", "--format", "json", "../../testdata/article.html")
	if code != 0 || !strings.Contains(out, fmt.Sprintf(`"threshold": %g,`, tm.Threshold)) || strings.Contains(errs, "Chromium") {
		t.Errorf("--render=false: exit %d, stderr %q; want the text model's threshold %g", code, errs, tm.Threshold)
	}
	if code, _, errs := fiasco(t, "clean", "--render", "--render=false", "../../testdata/article.html"); code != 2 || !strings.Contains(errs, "contradict") {
		t.Errorf("--render --render=false: exit %d, stderr %q", code, errs)
	}
}
