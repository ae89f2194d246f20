package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/corpus"
	"github.com/fiasco-project/fiasco/warc"
)

// This file holds a test for each defect of issue #10: symbolic links,
// unbounded reads, silent truncation, outputs that are not atomic, a full
// disk, outputs read back as input, error logs that cannot be written,
// bad flag values, the progress bar in logs.

// jsonlInputs runs fiasco clean --format jsonl to stdout and returns the
// input of every line.
func jsonlInputs(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, errs := fiasco(t, append([]string{"clean", "--no-render", "-q", "--format", "jsonl"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ins []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var v struct{ Input, Error string }
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		if v.Error != "" {
			v.Input += "!"
		}
		ins = append(ins, v.Input)
	}
	return ins
}

// articlePath is the test article, absolute: tests change directory.
var articlePath, _ = filepath.Abs("../../testdata/article.html")

// articleDir writes copies of the test article into dir under names.
func articleDir(t *testing.T, dir string, names ...string) {
	t.Helper()
	page, err := os.ReadFile(articlePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCleanSymlinks: a directory of symbolic links, a mixed directory, a
// symbolic link to a directory without a trailing slash, a cycle; a file
// reached by two paths is cleaned once.
func TestCleanSymlinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	articleDir(t, dir, "pages/a.html", "pages/b.html", "mixed/own.html")
	os.MkdirAll("links", 0o755)
	os.Symlink("../pages/a.html", "links/a.html")
	os.Symlink("../pages/b.html", "links/b.html")
	os.Symlink("../pages/a.html", "mixed/linked.html")
	os.Symlink("..", "mixed/loop")
	os.Symlink("pages", "dirlink")
	for _, c := range []struct{ arg, want string }{
		{"links", "[links/a.html links/b.html]"},
		{"mixed", "[mixed/linked.html mixed/loop/dirlink/b.html mixed/own.html]"},
		{"dirlink", "[dirlink/a.html dirlink/b.html]"},
	} {
		if got := fmt.Sprint(jsonlInputs(t, c.arg)); got != c.want {
			t.Errorf("%s: pages %s, want %s", c.arg, got, c.want)
		}
	}
}

// TestHugeFile cleans a 1 GB file (sparse after its first 8.5 MB of HTML)
// and /dev/zero: reading stops at --max-bytes, memory stays bounded, and
// the cut is reported.
func TestHugeFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.html")
	var b bytes.Buffer
	b.WriteString("<html><head><title>Big</title></head><body>\n")
	for i := 0; b.Len() < 8<<20+512<<10; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d of a very long page, which goes on and on about the river, the bridge and the council, so that it is long enough to be a clean block of text on its own. %s</p>\n", i,
			strings.Repeat("Then the council discussed the new bridge, the budget of the coming year and the schools of the district at some length. ", 8))
	}
	if err := os.WriteFile(big, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	// The reference: the same page already cut at 8 MiB, cleaned in the
	// same run. The 1 GB file must cost about what its first 8 MiB cost.
	cut := filepath.Join(dir, "cut.html")
	if err := os.WriteFile(cut, b.Bytes()[:8<<20], 0o644); err != nil {
		t.Fatal(err)
	}
	ref := runBinary(t, nil, "clean", "--no-render", "--format", "jsonl", "-o", filepath.Join(dir, "ref.jsonl"), cut)
	if ref.code != 0 {
		t.Fatalf("reference run: exit %d; stderr:\n%s", ref.code, ref.stderr)
	}
	out := filepath.Join(dir, "out.jsonl")
	r := runBinary(t, nil, "clean", "--no-render", "--format", "jsonl", "-o", out, big)
	t.Logf("1 GB file: %.1f s, peak RSS %.0f MB (VmHWM); the 8 MiB page alone: %.1f s, %.0f MB; ratio %.2f",
		r.wall.Seconds(), r.hwmMB, ref.wall.Seconds(), ref.hwmMB, r.hwmMB/ref.hwmMB)
	if r.code != 0 || !strings.Contains(r.stderr, "1 truncated") || !strings.Contains(r.stderr, "big.html: truncated") {
		t.Errorf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	// Reading the whole file would add 1 GB; allow for GC timing only.
	if r.hwmMB > 1.5*ref.hwmMB+64 {
		t.Errorf("peak RSS %.0f MB for a page cut at 8 MiB; the cut page alone peaks at %.0f MB", r.hwmMB, ref.hwmMB)
	}
	line, _ := os.ReadFile(out)
	if !bytes.Contains(line, []byte(`"truncated":true`)) {
		t.Errorf("the JSONL line does not say truncated: %.200s", line)
	}
	r = runBinary(t, nil, "clean", "--no-render", "/dev/zero")
	if r.code != 1 || !strings.Contains(r.stderr, "/dev/zero: not a text file") {
		t.Errorf("/dev/zero: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// TestTruncationReported: a page cut at --max-bytes is reported in every
// output format and in the summary.
func TestTruncationReported(t *testing.T) {
	dir := t.TempDir()
	articleDir(t, dir, "in/a.html")
	in := filepath.Join(dir, "in", "a.html")
	cut := []string{"--no-render", "-q", "--max-bytes", "1500"}
	code, _, errs := fiasco(t, append([]string{"clean", in}, cut...)...)
	if code != 0 || !strings.Contains(errs, "a.html: truncated") {
		t.Errorf("one page to stdout: exit %d, stderr %q", code, errs)
	}
	for _, f := range []string{"cleaneval", "text", "html", "json"} {
		out := filepath.Join(dir, f)
		code, _, errs := fiasco(t, append([]string{"clean", "--format", f, "-o", out, in}, cut...)...)
		m, _ := os.ReadFile(filepath.Join(out, corpus.ManifestName))
		if code != 0 || !strings.Contains(errs, "1 truncated") || !bytes.Contains(m, []byte(`"truncated":true`)) {
			t.Errorf("%s: exit %d, stderr %q, manifest %s", f, code, errs, m)
		}
	}
	code, out, errs := fiasco(t, append([]string{"clean", "--format", "jsonl", in}, cut...)...)
	if code != 0 || !strings.Contains(out, `"truncated":true`) || !strings.Contains(errs, "1 truncated") {
		t.Errorf("jsonl: exit %d, stderr %q", code, errs)
	}
	code, out, errs = fiasco(t, append([]string{"clean", "--format", "wet", in}, cut...)...)
	if code != 0 || !strings.Contains(gunzipAll(t, out), "WARC-Truncated: length") || !strings.Contains(errs, "1 truncated") {
		t.Errorf("wet: exit %d, stderr %q", code, errs)
	}
}

func gunzipAll(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	r := warc.NewReader(strings.NewReader(s), warc.Options{})
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rec.Header {
			fmt.Fprintf(&b, "%s: %s\n", f.Name, f.Value)
		}
	}
}

// TestDiskFull fills a small tmpfs (in a mount namespace of its own) with
// JSONL and with a directory output: the run stops with exit status 1 and
// a message, leaves only whole lines and whole files, and, once there is
// room again, --resume finishes it with the outputs of an uninterrupted
// run.
func TestDiskFull(t *testing.T) {
	if out, err := exec.Command("unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt").CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs in a private mount namespace (unshare -m, needs root): %v %s", err, out)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writePages(t, in, 30)
	ref := filepath.Join(dir, "ref")
	fiascoBinary(t)
	for _, c := range []struct{ format, out string }{{"jsonl", "out.jsonl"}, {"text", "out"}} {
		t.Run(c.format, func(t *testing.T) {
			if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", c.format, "-o", filepath.Join(ref, c.out), in); code != 0 {
				t.Fatalf("reference: exit %d: %s", code, errs)
			}
			mnt := filepath.Join(t.TempDir(), "mnt")
			keep := filepath.Join(t.TempDir(), "keep")
			os.MkdirAll(mnt, 0o755)
			cmd := fmt.Sprintf(`set -u
mount -t tmpfs -o size=24k tmpfs %[1]s
%[2]s clean --no-render -q --format %[3]s -o %[1]s/%[4]s %[5]s; echo "rc=$?"
cp -a %[1]s/%[4]s %[6]s.full
mount -o remount,size=8m %[1]s
%[2]s clean --no-render -q --format %[3]s -o %[1]s/%[4]s --resume %[5]s; echo "rc=$?"
cp -a %[1]s/%[4]s %[6]s.final
umount %[1]s`, mnt, binPath, c.format, c.out, in, keep)
			out, err := exec.Command("unshare", "-m", "sh", "-c", cmd).CombinedOutput()
			if err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			s := string(out)
			if !strings.Contains(s, "rc=1") || !strings.Contains(s, "no space left on device") || !strings.Contains(s, "--resume to continue") || !strings.Contains(s, "rc=0") {
				t.Errorf("full disk, then resumed:\n%s", s)
			}
			checkWhole(t, keep+".full")
			if got, want := treeOf(t, keep+".final"), treeOf(t, filepath.Join(ref, c.out)); got != want {
				t.Errorf("resumed after a full disk: outputs differ from an uninterrupted run:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// checkWhole checks that an output left by a full disk holds whole lines,
// whole files and no temporary file.
func checkWhole(t *testing.T, path string) {
	t.Helper()
	filepath.Walk(path, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		switch {
		case strings.HasPrefix(fi.Name(), ".fiasco-tmp"):
			t.Errorf("temporary file left: %s", p)
		case strings.HasSuffix(p, ".jsonl") && len(data) > 0 && data[len(data)-1] != '\n':
			t.Errorf("%s ends inside a line", p)
		case len(data) == 0:
			t.Errorf("%s is empty", p)
		}
		return nil
	})
}

// treeOf lists the files below path (or the file) with their contents.
func treeOf(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(path, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(path, p)
		fmt.Fprintf(&b, "== %s\n%s", rel, data)
		return nil
	})
	return b.String()
}

// TestOutputInsideInput: outputs written inside the input folder are not
// read back on the next run.
func TestOutputInsideInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	articleDir(t, dir, "in/a.html", "in/b.html")
	os.WriteFile("in/empty.html", nil, 0o644)
	for range 2 {
		code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", "in/out", "in")
		if code != 3 || !strings.Contains(errs, "3 pages, 2 cleaned, 1 failed") {
			t.Errorf("exit %d: %s", code, errs)
		}
	}
	articleDir(t, dir, "in2/a.html", "in2/b.html")
	for range 2 {
		if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", "in2/out.jsonl", "--errors", "in2/errors.jsonl", "in2"); code != 0 {
			t.Errorf("exit %d: %s", code, errs)
		}
	}
	data, _ := os.ReadFile("in2/out.jsonl")
	if n := bytes.Count(data, []byte("\n")); n != 2 {
		t.Errorf("second JSONL run: %d lines, want 2 (out.jsonl not read):\n%s", n, data)
	}
}

// TestErrorLogUnwritable: an error log that cannot be written (a directory
// in its place, a path through a file) ends the run with exit status 1 and
// a message naming it.
func TestErrorLogUnwritable(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	articleDir(t, dir, "in/a.html")
	os.WriteFile(filepath.Join(in, "empty.html"), nil, 0o644)
	out := filepath.Join(dir, "out")
	os.MkdirAll(filepath.Join(out, "errors.jsonl", "x"), 0o755)
	code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", out, in)
	if code != 1 || !strings.Contains(errs, "errors.jsonl") {
		t.Errorf("errors.jsonl a directory: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--errors", "/dev/full", "-o", filepath.Join(dir, "out2"), in)
	if code != 1 || !strings.Contains(errs, "/dev/full") || !strings.Contains(errs, "no space left on device") {
		t.Errorf("error log on a full device: exit %d, stderr %q", code, errs)
	}
}

// TestFlagValues: bad values are errors naming the flag, not replaced.
func TestFlagValues(t *testing.T) {
	for _, c := range []struct{ args, msg string }{
		{"--scale 0", "--scale 0"},
		{"--scale -1", "--scale -1"},
		{"--width 0", "--width 0"},
		{"-o /dev/null", "-o /dev/null is a device; the cleaneval format writes one file per page"},
		{"--width 100000", "--width 100000 and --scale 0.5: render: Options.Width 100000"},
		{"--scale 4", "--width 1280 and --scale 4: render:"},
		{"--render-timeout 0s", "--render-timeout 0s"},
		{"--workers -1", "--workers -1"},
		{"--max-bytes 0", "--max-bytes 0"},
		{"--threshold NaN", "--threshold NaN"},
		{"--blocks", "--blocks needs --format jsonl"},
		{"--format jsonl --keep-dirs", "--keep-dirs needs"},
		{"--resume", "--resume needs -o"},
		{"--format pdf", "--format pdf"},
		{"-o out.txt", "-o out.txt: with --format cleaneval, -o is a directory"},
		{"--format json -o page.json", "redirect the standard output"},
		{"-o crawl.jsonl.gz", "give --format jsonl (or wet)"},
		{"--format wet -o x.txt", "-o x.txt names a text file: a WET file is gzip data"},
		{"--format wet -o x.warc", "-o x.warc: a WET file is gzip data, a member per record: give a name ending .gz (e.g. x.warc.wet.gz)"},
		{"--format wet -o crawl.wet", "give a name ending .gz (e.g. crawl.warc.wet.gz)"},
		{"-o -", "-o -: --format cleaneval writes a directory"},
		{"--format jsonl -o - --resume", "--resume needs -o FILE"},
		{"--format jsonl -o x.jsonl -i missing-list.txt", "-i missing-list.txt: no such file or directory"},
		{"--smooth NaN", `"NaN": want a switch cost`},
	} {
		code, _, errs := fiasco(t, append(append([]string{"clean"}, strings.Fields(c.args)...), "x.html")...)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("clean %s: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.msg)
		}
	}
	// The other commands that render check the same flags.
	for _, c := range []struct{ args, msg string }{
		{"train --data d -o m --scale 0", "--scale 0"},
		{"train --data d -o m -h 0", "svm-train's shrinking option is --shrinking 0"},
		{"eval --data d --cv 3 -h=1", "svm-train's shrinking option is --shrinking 1"},
		{"train --data d -o m --width -5", "--width -5"},
		{"train --data d -o m --threshold Inf", "--threshold +Inf"},
		{"train --data d -o m --max-blocks -1", "--max-blocks -1"},
		{"train --data d -o m --max-sv -1", "--max-sv -1"},
		{"train --data d -o m --max-sv 10 -t 0", "--max-sv cuts RBF models: not with -t 0"},
		{"train --data d -o m --stack 1", "--stack 1: want 0"},
		{"train --data d -o m --extra-pages 3", "give --extra DIR"},
		{"train --data d -o m --extra e --extra-pages -3", "--extra-pages -3"},
		{"train --data d -o m --extra d/", "--extra d/ is also a --data set"},
		{"train --data a/ds -o m --extra b/ds", "--extra b/ds and --data a/ds are both named ds"},
		{"eval --data d --nested 3,2 --stack 1", "want 0 (no second stage) or 2 to 20 folds"},
		{"eval --data d --stack 3", "--stack is for --cv"},
		{"eval --data d --nested 3,2 --render", "--render picks the embedded rendered model"},
		{"eval --data d --cv 3 --render", "--render picks the embedded rendered model"},
		{"train --data d -o m --features text,shapes", `"shapes" is neither a group`},
		{"inspect --render-timeout 0s x.html", "--render-timeout 0s"},
		{"serve --scale -2", "--scale -2"},
		{"eval --data d --width 0", "--width 0"},
		{"eval --data d --cv 1", "--cv 1: want 2 or more folds"},
		{"eval --data d --cv 3 --model m.fiasco", "--cv trains a model per fold"},
		{"clean --threshold abc x.html", `"abc" is not a number`},
		{"train --data d --data d/ -o m", "--data d/ is given twice"},
		{"eval --data a/ds --data b/ds --cv 3", "--data a/ds and b/ds are both named ds"},
		{"eval --data d --cv 0", "--cv 0: want 2 or more folds"},
		{"train --data d -o m --skip-pages x/1", "--skip-pages x/1 names no set read here (d)"},
		{"eval --data d --nested 3,2 --extra e --skip-pages x/*", "--skip-pages x/* names no set read here (d, e)"},
		{"eval --data d --cv 3 --max-blocks -1", "--max-blocks -1: want 0"},
		{"train --data d -o m --grid -c 4", "-c and --grid: the grid search chooses C and gamma"},
		{"train --data d -o m --grid -g 0.5", "-g and --grid"},
		{"features --data d -o /nonexistent-dir/x.libsvm", "-o /nonexistent-dir/x.libsvm: no such file or directory"},
		{"oracle --data d -o /dev/null/x", "-o /dev/null/x: not a directory"},
		{"train --data d -o m --extra e --extra e/", "--extra e/ is given twice"},
		{"eval --data d --nested 3,2 --extra e --extra ./e", "--extra ./e is given twice"},
		{"train --data d -o m --log2c 0,2,1", "--log2c sets the grid search: give --grid"},
		{"train --data d -o m --folds 3", "--folds sets the grid search"},
		{"train --data d -o m --grid --folds 1", "--folds 1: want 2 or more"},
		{"train --data d -o m --grid --log2g 1025,1025,1", `--log2g "1025,1025,1": 2^1025 is no usable value`},
		{"train --data d -o m --grid --log2c null --log2g null -c 4 -g 1", "--log2c null and --log2g null: nothing to search"},
		{"train --data d -o m --grid -t 0 --log2c null", "--log2c null with a linear kernel (-t 0): nothing to search"},
		{"train --data d -o m --grid --log2c -2000,-2000,1", `--log2c "-2000,-2000,1": 2^-2000 is no usable value`},
		{"train --data d -o m --grid -t 0 --log2g -4,-2,2", "--log2g: a linear kernel (-t 0) has no gamma"},
		{"train --data d -o m -t 0 -g 0.5", "-g: a linear kernel (-t 0) has no gamma"},
		{"train --data d -o m -d 5", "-d 5: only the polynomial kernel (-t 1) has a degree"},
		{"eval --data d --cv 2 -t 0 -r 1", "-r 1: only the polynomial and sigmoid kernels (-t 1, -t 3) have coef0"},
		{"eval --data d --nested 2,2 -t 0 --grid-gamma 0.1,0.2", "--grid-gamma: a linear kernel (-t 0) has no gamma"},
		{"grid -t 0 -log2g 1,3,1 x.libsvm", "-log2g: a linear kernel (-t 0) has no gamma"},
		{"grid -v 1 x.libsvm", "-v 1: want 2 or more folds"},
		{"svm predict -b 1 -threshold 0.5 x.libsvm m o", "-threshold with -b 1"},
		{"eval --data d --bootstrap 3", "--bootstrap 3: want 0 (no intervals) or 100 resamples or more"},
		{"compare --bootstrap 1 a.jsonl b.jsonl", "--bootstrap 1: want 100 or more"},
		{"train --data d -o d/html/1.html", "-o d/html/1.html lies in d/html: it would overwrite"},
		{"eval --data d --pages d/gold/1.txt", "--pages d/gold/1.txt lies in d/gold: it would overwrite"},
		{"eval --data d --nested 3,2 --extra e --blocks e/html/x.html", "--blocks e/html/x.html lies in e/html"},
		{"features --data d -o d/gold/2.txt", "-o d/gold/2.txt lies in d/gold"},
		{"features --data d -o x.libsvm --keywords 0", "--keywords 0: want 1 or more"},
		{"features --data d -o -", "-o -: fiasco features writes this to a file, not to standard output"},
		{"train --data d -o -", "-o -: fiasco train writes this to a file"},
		{"eval --data d --pages -", "--pages -: fiasco eval writes this to a file"},
		{"grid -png - x.libsvm", "-png -: fiasco grid writes this to a file"},
		{"inspect -o - x.html", "-o -: fiasco inspect writes this to a file"},
		{"train --data d -o m --cache-dir d/gold", "--cache-dir d/gold lies in d/gold: the cache would be read"},
		{"eval --data d --cache-dir d/html/cache", "--cache-dir d/html/cache lies in d/html"},
		{"train --data d -o m -b 1", "probability estimates are for fiasco svm train and predict"},
		{"eval --data d --cv 3 -b 1", "probability estimates are for fiasco svm train and predict"},
		{"eval --data d --model text", "--model text: no such file (the embedded models need no --model"},
		{"train --data d -o m --keywords 0", "--keywords 0: want 1 or more"},
		{"eval --data d --cv 3 --keywords -1", "--keywords -1: want 1 or more"},
		{"train --data d -o /nonexistent-dir/m", "-o /nonexistent-dir/m: no such file or directory"},
		{"train --data d -o .", "-o .: is a directory"},
		{"train --data d -o m --workers -2", "--workers -2"},
		{"eval --data d --workers -2", "--workers -2"},
		{"eval --data d --model m.fiasco -c 4", "-c is for training"},
		{"eval --data d -w1 2", "-w1 is for training"},
		{"eval --data d --features text", "--features is for training"},
		{"eval --data d --max-blocks 10", "--max-blocks is for training"},
		{"eval --data d --max-sv 10", "--max-sv is for training"},
		{"eval --data d --nested 3,2 --max-sv -2", "--max-sv -2"},
		{"eval --data d --nested 3,2 --no-render --blend 0.5", "--blend weighs a rendered model's values against the text model's, and no candidate feature set is visual"},
		{"eval --data d --cv 3 --no-render --rescue", "--rescue keeps prose that a rendered model drops, and --features names no visual feature"},
		{"eval --data d --nested 3,2 --blend 1.5", "want a weight from 0 to 1"},
		{"train --data d -o m --blend 2", `"2": want a weight from 0 to 1`},
		{"train --data d -o m --blend 0.5", "--blend weighs a model with visual features against the text model"},
		{"train --data d -o m --smooth 5", `"5": want a switch cost from 0 to 4`},
		{"eval --data d --nested 3,2 --grid-smooth 0,-1", "want a switch cost from 0 to 4"},
		{"eval --data d --nested 3,2 --smooth x", `"x": want a switch cost from 0 to 4`},
		{"eval --data d --grid-smooth 0,0.25", "--grid-smooth needs --nested or --by-set"},
		{"eval --data d --nested 3,2 --smooth 0.1 --grid-smooth 0,0.25", "--smooth and --grid-smooth: give one"},
		{"inspect --smooth -0.5 x.html", `"-0.5": want a switch cost from 0 to 4`},
		{"train --data d -o m --no-render --features visual", "--features visual needs rendered pages (vis_"},
		{"clean --no-render --model ../../classify/models/visual.fiasco ../../testdata/article.html", "uses visual features: it cannot run with --no-render"},
		{"clean --errors e.jsonl a.html b.html", "several pages need -o DIR"},
	} {
		code, _, errs := fiasco(t, strings.Fields(c.args)...)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.msg)
		}
	}
}

// TestOutputsNotInputs: an output named as a file the command reads
// (the model it scores, the data it scales or searches, the file its
// keywords come from) is refused before anything is written.
func TestOutputsNotInputs(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("+1 1:0.5\n-1 1:-0.5\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m, data, kw := file("m.fiasco"), file("x.libsvm"), file("k.libsvm")
	link := filepath.Join(dir, "link.fiasco")
	if err := os.Symlink(m, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"eval", "--data", "d", "--model", m, "--pages", m}, "--pages " + m + ": the command reads that file"},
		{[]string{"eval", "--data", "d", "--model", m, "--blocks", link}, "--blocks " + link + " is " + m + ", which the command reads"},
		{[]string{"eval", "--data", "d", "--versus", m, "--pages", m}, "the command reads that file"},
		{[]string{"features", "--data", "d", "--keywords-from", kw, "-o", kw}, "-o " + kw + ": the command reads that file"},
		{[]string{"svm", "scale", "-s", data, data}, "-s " + data + ": the command reads that file"},
		{[]string{"svm", "predict", data, m, m}, "OUTPUT " + m + ": the command reads that file"},
		{[]string{"svm", "train", data, data}, "MODEL " + data + ": the command reads that file"},
		{[]string{"grid", "-out", data, data}, "-out " + data + ": the command reads that file"},
	} {
		before, _ := os.ReadFile(c.args[len(c.args)-1])
		code, _, errs := fiasco(t, c.args...)
		after, _ := os.ReadFile(c.args[len(c.args)-1])
		if code != 2 || !strings.Contains(errs, c.msg) || !bytes.Equal(before, after) {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q and the file untouched", c.args, code, errs, c.msg)
		}
	}
}

// TestProgressLines: off a terminal, progress is a plain line every
// statusEvery (here every page), with pages per second, never a bar.
func TestProgressLines(t *testing.T) {
	defer func(d time.Duration) { statusEvery = d }(statusEvery)
	statusEvery = 0
	dir := t.TempDir()
	writePages(t, filepath.Join(dir, "in"), 3)
	code, _, errs := fiasco(t, "clean", "--no-render", "-o", filepath.Join(dir, "out"), filepath.Join(dir, "in"))
	if code != 0 || strings.Contains(errs, "\r") || strings.Count(errs, "pages/s") != 3 {
		t.Errorf("exit %d; stderr:\n%q", code, errs)
	}
}

// TestStreamOutputNamesDirectory: -o naming a directory (an existing one,
// or a path ending in a slash) for a one-file format is refused before
// anything is created.
func TestStreamOutputNamesDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ format, out string }{
		{"jsonl", filepath.Join(dir, "new") + "/"},
		{"wet", filepath.Join(dir, "new2") + "/"},
		{"jsonl", dir},
		{"jsonl", filepath.Join(dir, "new3") + "/."},
	} {
		code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", c.format, "-o", c.out, articlePath)
		if code != 2 || !strings.Contains(errs, "names a directory; the "+c.format+" format writes one file") {
			t.Errorf("--format %s -o %s: exit %d, stderr %q", c.format, c.out, code, errs)
		}
	}
	for _, d := range []string{"new", "new2", "new3"} {
		if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
			t.Errorf("%s was created", d)
		}
	}
}

// TestEmptyOutputsReported: a page with no text says so on stderr, and a
// batch's summary counts the pages cleaned to no text, so that a corpus
// builder can find them.
func TestEmptyOutputsReported(t *testing.T) {
	dir := t.TempDir()
	blank := filepath.Join(dir, "in", "blank.html")
	articleDir(t, dir, "in/a.html")
	if err := os.WriteFile(blank, []byte("<html><body><div id=app></div></body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in", "empty.html"), nil, 0o644); err != nil { // fails: not counted
		t.Fatal(err)
	}
	code, out, errs := fiasco(t, "clean", "--no-render", blank)
	if code != 0 || out != "" || !strings.Contains(errs, "blank.html: no text found") {
		t.Errorf("one blank page: exit %d, output %q; stderr:\n%s", code, out, errs)
	}
	frames := filepath.Join(dir, "frames.html")
	if err := os.WriteFile(frames, []byte(`<html><frameset rows="10%,90%"><frame src="top.html"><frame src="body.html"></frameset></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = fiasco(t, "clean", "--no-render", frames)
	if code != 0 || out != "" || !strings.Contains(errs, "frames.html: no text found: its text is in the pages its frames load (top.html, body.html); clean those") {
		t.Errorf("a frameset: exit %d, output %q; stderr:\n%s", code, out, errs)
	}
	// A page whose blocks are all boilerplate, cut at a threshold no block
	// reaches: a threshold set by hand turns the text model's prose floor
	// off, so that a higher threshold never keeps more.
	code, out, errs = fiasco(t, "clean", "--no-render", "--threshold", "100", articlePath)
	if code != 0 || out != "" || !strings.Contains(errs, "no text kept (") {
		t.Errorf("nothing kept: exit %d, output %q; stderr:\n%s", code, out, errs)
	}
	// With --floor, the article's prose stays, and stderr says why.
	code, out, errs = fiasco(t, "clean", "--no-render", "--floor", "--format", "text", "--threshold", "100", articlePath)
	if code != 0 || !strings.Contains(out, "Police closed two streets") || strings.Contains(out, "Log in") || !strings.Contains(errs, "the prose floor kept all of it") {
		t.Errorf("nothing kept but the floor: exit %d, output %q; stderr:\n%s", code, out, errs)
	}
	// The floor keeps all prose, which the article policy does not.
	if code, _, errs = fiasco(t, "clean", "--no-render", "--policy", "article", "--floor", articlePath); code != 2 || !strings.Contains(errs, "article policy") {
		t.Errorf("--policy article --floor: exit %d, stderr:\n%s; want a usage error", code, errs)
	}
	for _, format := range []string{"jsonl", "wet", "text"} {
		o := outputIn(dir, "out", format)
		code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--format", format, "-o", o, filepath.Join(dir, "in"))
		if code != 3 || !strings.Contains(errs, "3 pages, 2 cleaned, 1 failed, 1 with no text kept") {
			t.Errorf("batch, %s: exit %d; stderr:\n%s", format, code, errs)
		}
	}
}

// TestOutputDirNamedLikeFile: an -o of a per-page format that exists as a
// directory is taken whatever its name; one that does not is refused
// where its name is a file's (TestFlagValues).
func TestOutputDirNamedLikeFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out.txt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{dir, dir + string(filepath.Separator)} {
		if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "-o", o, "testdata/article.html"); code != 0 {
			t.Fatalf("-o %s: exit %d: %s", o, code, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "article.txt")); err != nil {
		t.Errorf("no page written into the directory: %v", err)
	}
}

// TestResumeOddNames: files whose names are not UTF-8 or hold line
// breaks resume, in every output, from a finished run and from one cut
// short: the outputs record such names as JSON and WET headers can (%XX
// for a byte that is not UTF-8, as --keep-dirs names the output, so that
// names that differ there are recorded apart; a space for a line break),
// and resuming compares names so, and with U+FFFD for such a byte as
// outputs written before 2026-12-02 hold them.
func TestResumeOddNames(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("such names are not allowed on Windows")
	}
	page, err := os.ReadFile(articlePath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	for _, n := range []string{"a\nWARC-Type: x.html", "b\rx.html", "c\xff\xfe.html", "c\xfe\xff.html", "d.html"} {
		if err := os.WriteFile(filepath.Join(in, n), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"jsonl", "wet", "text"} {
		out := outputIn(dir, "out", format)
		if code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--format", format, "-o", out, in); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		code, _, errs := fiasco(t, "clean", "--no-render", "-q", "--resume", "--format", format, "-o", out, in)
		if code != 0 || !strings.Contains(errs, "--resume: 5 pages done by an earlier run, skipped") {
			t.Errorf("%s resumed when finished: exit %d: %s", format, code, errs)
		}
		if format != "jsonl" {
			continue
		}
		full, _ := os.ReadFile(out)
		if !strings.Contains(string(full), `c%FF%FE.html"`) || !strings.Contains(string(full), `c%FE%FF.html"`) {
			t.Errorf("names not UTF-8 not recorded as %%XX:\n%s", full)
		}
		// As written before: U+FFFD for each such byte.
		legacy := strings.NewReplacer("%FF%FE", "\ufffd\ufffd", "%FE%FF", "\ufffd\ufffd").Replace(string(full))
		if err := os.WriteFile(out, []byte(legacy), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--resume", "--format", format, "-o", out, in)
		if code != 0 || !strings.Contains(errs, "--resume: 5 pages done by an earlier run, skipped") {
			t.Errorf("%s written with U+FFFD, resumed: exit %d: %s", format, code, errs)
		}
		if err := os.WriteFile(out, full, 0o644); err != nil {
			t.Fatal(err)
		}
		// Cut short after two pages: the resumed run writes the rest.
		lines := strings.SplitAfter(string(full), "\n")
		if err := os.WriteFile(out, []byte(lines[0]+lines[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs = fiasco(t, "clean", "--no-render", "-q", "--resume", "--format", format, "-o", out, in)
		if got, _ := os.ReadFile(out); code != 0 || string(got) != string(full) {
			t.Errorf("%s resumed after two pages: exit %d: %s\ngot:\n%s\nwant:\n%s", format, code, errs, got, full)
		}
	}
}

// TestOutputDash: -o - is the standard output, as - is the standard
// input, not a file named "-".
func TestOutputDash(t *testing.T) {
	code, out, errs := fiasco(t, "clean", "--no-render", "-q", "--format", "jsonl", "-o", "-", articlePath)
	if code != 0 || !strings.HasPrefix(out, `{"input":`) || !strings.Contains(errs, "output in standard output") {
		t.Errorf("exit %d, stdout %.80q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat("-"); err == nil {
		os.Remove("-")
		t.Error("-o - wrote a file named -")
	}
}

// outputIn is the -o of a run in dir for format: NAME.jsonl, NAME.wet.gz
// (WET is gzip), or the directory NAMEdir of a per-page format.
func outputIn(dir, name, format string) string {
	switch format {
	case "jsonl":
		return filepath.Join(dir, name+".jsonl")
	case "wet":
		return filepath.Join(dir, name+".wet.gz")
	}
	return filepath.Join(dir, name+"dir")
}

// TestFullDeviceNotResumed: a run whose output is a device that fails
// every write (/dev/full) stops, and says to rerun it: a device is not
// resumed, so --resume is no advice there.
func TestFullDeviceNotResumed(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	code, _, errs := fiasco(t, "clean", "--no-render", "--format", "jsonl", "-o", "/dev/full", "../../testdata/article.html", "../../testdata/walk.html")
	if code != 1 || !strings.Contains(errs, "no space left on device") || !strings.Contains(errs, "a device or pipe cannot be resumed") || strings.Contains(errs, "with --resume to continue") {
		t.Errorf("-o /dev/full: exit %d, stderr:\n%s", code, errs)
	}
}
