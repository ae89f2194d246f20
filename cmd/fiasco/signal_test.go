package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fiasco-project/fiasco/pipeline"
)

// readErrRecords reads an errors.jsonl file.
func readErrRecords(t *testing.T, path string) []errRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []errRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r errRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		recs = append(recs, r)
	}
	return recs
}

var (
	buildOnce sync.Once
	binDir    string // removed by TestMain
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// fiascoBinary builds the fiasco command once per test run.
func fiascoBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fiasco-cli-test-")
		if err != nil {
			buildErr = err
			return
		}
		binDir, binPath = dir, filepath.Join(dir, "fiasco")
		// go test puts its own GOROOT/bin first on the test's PATH.
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// profiles returns the Chromium profiles (fiasco-chromium-*) in dir.
func profiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "fiasco-chromium-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// processesUsing returns the pids of live processes whose command line
// mentions dir (Chromium and its children carry --user-data-dir=...).
func processesUsing(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmd, []byte(dir)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// checkNoLeftovers fails t if Chromium left a profile in tmp or a process
// using one.
func checkNoLeftovers(t *testing.T, tmp string) {
	t.Helper()
	if p := profiles(t, tmp); len(p) > 0 {
		t.Errorf("Chromium profiles left behind: %v", p)
	}
	// The browser is waited for before fiasco exits; give the kernel a
	// moment to reap children that were killed with it.
	deadline := time.Now().Add(2 * time.Second)
	for {
		pids := processesUsing(tmp)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes still using %s: %v", tmp, pids)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// writePages writes n small pages of their own to dir.
func writePages(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>Page %d</title></head><body>\n", i)
		b.WriteString(`<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/login">Log in</a></div>` + "\n")
		fmt.Fprintf(&b, "<h1>Report number %d from the riverside</h1>\n", i)
		for p := 0; p < 6; p++ {
			fmt.Fprintf(&b, "<p>Paragraph %d of page %d tells of the council meeting, where the members discussed the new bridge, the budget of the coming year and the schools of the district at some length.</p>\n", p, i)
		}
		b.WriteString(`<ul><li><a href="/a">Most read one</a></li><li><a href="/b">Most read two</a></li></ul>` + "\n")
		b.WriteString("<div class=\"footer\">Copyright 2026 Riverside Gazette. Privacy. Terms of use.</div></body></html>\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("page%02d.html", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startRendered starts fiasco with args and TMPDIR set to a fresh
// directory, which it returns.
func startRendered(t *testing.T, stdout *os.File, args ...string) (*exec.Cmd, string, *bytes.Buffer) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(fiascoBinary(t), args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, tmp, &stderr
}

// waitExit waits at most limit for cmd to end and returns its exit status.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration, stderr *bytes.Buffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("fiasco did not end within %v of the signal; stderr:\n%s", limit, stderr)
		return -1
	}
}

// TestSignalDuringRenderedBatch sends SIGTERM (and SIGINT, twice) to
// fiasco clean -o while it renders a batch of pages in Chromium: fiasco
// must end within 5 s with 128+signal, leave no Chromium profile or
// process, and write an error record for every page that has no output.
func TestSignalDuringRenderedBatch(t *testing.T) {
	needChromium(t)
	const pages = 40
	in := filepath.Join(t.TempDir(), "in")
	writePages(t, in, pages)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(signalName(c.sig), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cmd, tmp, stderr := startRendered(t, nil, "clean", "--render", "-q", "--workers", "1", "--format", "text", "-o", out, in)
			// Wait for the first cleaned page: Chromium is up and rendering.
			deadline := time.Now().Add(90 * time.Second)
			for {
				if m, _ := filepath.Glob(filepath.Join(out, "*.txt")); len(m) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no page cleaned within 90 s; stderr:\n%s", stderr)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if len(profiles(t, tmp)) == 0 {
				t.Error("no Chromium profile in TMPDIR while rendering: the test does not see it")
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if c.sig == syscall.SIGINT {
				// Again at once, as timeout(1) and terminals do: the
				// same request, not a demand to quit without cleaning up.
				time.Sleep(10 * time.Millisecond)
				cmd.Process.Signal(c.sig)
			}
			code := waitExit(t, cmd, 5*time.Second, stderr)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			checkNoLeftovers(t, tmp)

			outputs, _ := filepath.Glob(filepath.Join(out, "*.txt"))
			recs := readErrRecords(t, filepath.Join(out, "errors.jsonl"))
			if len(outputs)+len(recs) != pages {
				t.Errorf("%d outputs + %d error records, want %d pages", len(outputs), len(recs), pages)
			}
			if len(recs) == 0 {
				t.Errorf("no page was interrupted (%d outputs): the signal came too late to test anything", len(outputs))
			}
			done := map[string]bool{}
			for _, o := range outputs {
				done[strings.TrimSuffix(filepath.Base(o), ".txt")] = true
			}
			for _, r := range recs {
				name := strings.TrimSuffix(filepath.Base(r.Input), ".html")
				if done[name] {
					t.Errorf("%s has both an output and an error record", r.Input)
				}
				done[name] = true
				if !strings.Contains(r.Error, "interrupted by "+signalName(c.sig)) {
					t.Errorf("record %+v does not say interrupted by %s", r, signalName(c.sig))
				}
			}
			if len(done) != pages {
				t.Errorf("%d pages accounted for, want %d", len(done), pages)
			}
			summary := fmt.Sprintf("%d pages, %d cleaned, 0 failed, %d interrupted", pages, len(outputs), len(recs))
			if !strings.Contains(stderr.String(), summary) || !strings.Contains(stderr.String(), "interrupted by "+signalName(c.sig)) {
				t.Errorf("stderr lacks %q and the interruption:\n%s", summary, stderr)
			}
		})
	}
}

// TestBrokenStdout cleans a rendered page into a pipe whose reader has
// gone (fiasco clean page.html | head -1, after head ended): fiasco exits
// 141 quietly and still closes Chromium and removes its profile.
func TestBrokenStdout(t *testing.T) {
	needChromium(t)
	in := filepath.Join(t.TempDir(), "in")
	writePages(t, in, 1)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd, tmp, stderr := startRendered(t, w, "clean", "--render", filepath.Join(in, "page00.html"))
	w.Close()
	code := waitExit(t, cmd, 90*time.Second, stderr)
	if code != 141 {
		t.Errorf("exit %d, want 141; stderr:\n%s", code, stderr)
	}
	if stderr.Len() > 0 {
		t.Errorf("messages for a reader that has gone:\n%s", stderr)
	}
	checkNoLeftovers(t, tmp)
}

// TestInterruptedWithoutLog: where a batch has no error log (its output
// is standard output), the pages a signal kept from being cleaned are
// named on stderr, the first maxRepeats of them, and the rest counted.
func TestInterruptedWithoutLog(t *testing.T) {
	var w bytes.Buffer
	l := newFailureLog(&w, "fiasco clean", newStatus(&w, "fiasco clean", true), nil)
	n := maxRepeats + 2
	for i := range n {
		in := pipeline.Input{Name: fmt.Sprintf("crawl.warc.gz#%d", i), URL: fmt.Sprintf("http://x.example/%d", i)}
		if err := l.interrupted(in, "interrupted by SIGINT before the page was cleaned"); err != nil {
			t.Fatal(err)
		}
	}
	l.summary()
	got := w.String()
	if c := strings.Count(got, ": interrupted by SIGINT before the page was cleaned (http://x.example/"); c != maxRepeats {
		t.Errorf("%d pages named, want %d:\n%s", c, maxRepeats, got)
	}
	if !strings.Contains(got, "crawl.warc.gz#0: interrupted") || !strings.Contains(got, "2 more pages interrupted before they were cleaned, not named") {
		t.Errorf("stderr:\n%s", got)
	}
}
