package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestModelCommand: fiasco model describes the embedded models (their
// policy, threshold, SVMs and digest as package classify has them) and a
// model file, and names a file that is no model.
func TestModelCommand(t *testing.T) {
	code, stdout, stderr := fiasco(t, "model", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2*len(classify.Policies) {
		t.Fatalf("%d lines, want one per embedded model:\n%s", len(lines), stdout)
	}
	k := 0
	for _, p := range classify.Policies {
		for _, visual := range []bool{false, true} {
			m, err := classify.DefaultFor(p, visual)
			if err != nil {
				t.Fatal(err)
			}
			var got modelInfo
			if err := json.Unmarshal([]byte(lines[k]), &got); err != nil {
				t.Fatalf("line %d: %v", k+1, err)
			}
			k++
			d, _ := m.Digest()
			if got.Info.Policy != p || got.Visual != visual || got.Threshold != m.Threshold || got.Smooth != m.Smooth || got.Digest != d {
				t.Errorf("%s visual=%v: got %+v", p, visual, got)
			}
			if len(got.SVMs) == 0 || got.SVMs[0].Role != "english" || got.SVMs[0].SV != m.English.TotalSV() || len(got.SVMs[0].Features) != len(m.English.FeatureNames) {
				t.Errorf("%s visual=%v: SVMs %+v", p, visual, got.SVMs)
			}
			if (got.Floor > 0) != m.Floor {
				t.Errorf("%s visual=%v: floor share %g, model's floor %v", p, visual, got.Floor, m.Floor)
			}
		}
	}

	// A model file: the text of the same model.
	m, err := classify.DefaultFor(classify.PolicyCorpus, false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.fiasco")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = fiasco(t, "model", path)
	for _, want := range []string{path + "\n", "policy corpus;", "trained by: " + m.Info.Command,
		fmt.Sprintf("keeps blocks at threshold %g, smoothed at %g", m.Threshold, m.Smooth),
		fmt.Sprintf("SVM for pages whose text looks English: rbf, C %g, gamma %g; %d support vectors", m.Info.C, m.English.Gamma, m.English.TotalSV())} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d: output lacks %q:\n%s%s", code, want, stdout, stderr)
		}
	}

	// The model file given to clean as a page: refused, named.
	code, _, stderr = fiasco(t, "clean", "--no-render", path)
	if code != 1 || !strings.Contains(stderr, path+": a fiasco model file, not a page") {
		t.Errorf("clean MODEL: exit %d, stderr:\n%s", code, stderr)
	}

	// A file that is no model.
	code, _, stderr = fiasco(t, "model", "modelcmd.go")
	if code != 1 || !strings.Contains(stderr, "modelcmd.go: not a fiasco model") {
		t.Errorf("a Go file: exit %d, stderr:\n%s", code, stderr)
	}

	// Among others, a file that cannot be read is said and the rest are
	// described all the same.
	code, stdout, stderr = fiasco(t, "model", path, "modelcmd.go", path)
	if code != 3 || strings.Count(stdout, path+"\n") != 2 || !strings.Contains(stderr, "modelcmd.go: not a fiasco model") {
		t.Errorf("model, not a model, model: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
