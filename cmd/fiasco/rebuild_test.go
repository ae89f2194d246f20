package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestDefaultModelsRebuild runs the README's command for each embedded
// model named in $FIASCO_REBUILD_MODELS (e.g. "text" or "text visual";
// unset: skipped, as the commands take minutes) from the repository root,
// as the README says, and checks that the model it writes is the embedded
// one but for Info.Command (which names its output): the README promises
// that the same data and options give the same model. CI runs it for the
// text model (.ci/run).
func TestDefaultModelsRebuild(t *testing.T) {
	names := strings.Fields(os.Getenv("FIASCO_REBUILD_MODELS"))
	if len(names) == 0 {
		t.Skip("FIASCO_REBUILD_MODELS not set (e.g. FIASCO_REBUILD_MODELS=text): the rebuilds take minutes")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "../shared/data/cleaneval-en-dev")); err != nil {
		t.Skipf("../shared/data is absent: %v", err)
	}
	cmds, err := readmeTrainCommands(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, name := range names {
		args, ok := cmds[name]
		if !ok {
			t.Errorf("README.md has no command writing classify/models/%s.fiasco", name)
			continue
		}
		out := filepath.Join(t.TempDir(), name+".fiasco")
		for i, a := range args {
			if a == "classify/models/"+name+".fiasco" && i > 0 && args[i-1] == "-o" {
				args[i] = out
			}
		}
		code, _, errs := fiasco(t, args...)
		if code != 0 {
			t.Errorf("%s: fiasco %s: exit %d: %s", name, strings.Join(args, " "), code, errs)
			continue
		}
		got, err := classify.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := classify.Load(filepath.Join("classify/models", name+".fiasco"))
		if err != nil {
			t.Fatal(err)
		}
		got.Info.Command, want.Info.Command = "", ""
		gd, err1 := got.Digest()
		wd, err2 := want.Digest()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if gd != wd {
			t.Errorf("%s: the README's command gives another model than the embedded one (%d pages, %d blocks, %d clean; embedded: %d, %d, %d): retrain it with that command",
				name, got.Info.Pages, got.Info.Blocks, got.Info.Clean, want.Info.Pages, want.Info.Blocks, want.Info.Clean)
		}
	}
}

// readmeTrainCommands reads the first sh block after "## Rebuilding the
// default models" of the README: its VAR="..." lines, and its "go run
// ./cmd/fiasco train" lines, by the model name their -o writes, as the
// arguments after "go run ./cmd/fiasco" with the variables expanded (as
// the shell splits them: a variable's value at white space, '...' quoted
// words whole).
func readmeTrainCommands(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	cmds := map[string][]string{}
	assign := regexp.MustCompile(`^([A-Z0-9]+)="([^"]*)"$`)
	out := regexp.MustCompile(`-o classify/models/([a-z-]+)\.fiasco`)
	section, block := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Rebuilding the default models"
		case section && strings.HasPrefix(line, "```"):
			if block {
				return cmds, nil
			}
			block = strings.HasPrefix(line, "```sh")
		case block:
			if m := assign.FindStringSubmatch(line); m != nil {
				vars[m[1]] = m[2]
				continue
			}
			rest, ok := strings.CutPrefix(line, "go run ./cmd/fiasco ")
			m := out.FindStringSubmatch(line)
			if !ok || m == nil {
				continue
			}
			words := shellWords(rest)
			var args []string
			for _, w := range words {
				if v, ok := strings.CutPrefix(w, "$"); ok {
					args = append(args, shellWords(vars[v])...)
					continue
				}
				args = append(args, strings.ReplaceAll(w, "~", os.Getenv("HOME")))
			}
			cmds[m[1]] = args
		}
	}
	return cmds, sc.Err()
}

// shellWords splits s at white space, keeping '...' quoted words whole
// (without the quotes).
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			in = true
		case !quoted && (r == ' ' || r == '\t'):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
