package arch

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/fiasco-project/fiasco"

// imports returns, for every directory of the module that holds non-test
// Go files, the module packages those files import.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
				return filepath.SkipDir // a module of its own (bench/readability)
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if dep, ok := strings.CutPrefix(path, module+"/"); ok {
				out[rel] = append(out[rel], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	return root
}

// TestImportsPointDown fails when a package imports one of its own layer
// or a later one, or when a package has no place in Layers.
func TestImportsPointDown(t *testing.T) {
	layer := map[string]int{}
	for i, l := range Layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	pkgs := imports(t, moduleRoot(t))
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages", len(pkgs))
	}
	for p, deps := range pkgs {
		if p == "internal/arch" {
			continue
		}
		lp, ok := layer[p]
		if !ok {
			t.Errorf("package %s has no place in arch.Layers (internal/arch/doc.go) and ARCHITECTURE.md", p)
			continue
		}
		for _, d := range deps {
			ld, ok := layer[d]
			switch {
			case !ok:
				t.Errorf("%s imports %s, which has no place in arch.Layers", p, d)
			case ld >= lp:
				t.Errorf("%s (layer %d) imports %s (layer %d): imports must point down the pipeline (ARCHITECTURE.md)", p, lp, d, ld)
			}
		}
	}
}

// TestRuleCatchesViolations checks the checker: a stage importing the
// orchestrator, and an unplaced package, are reported.
func TestRuleCatchesViolations(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("features/f.go", "package features\nimport _ \""+module+"/pipeline\"\n")
	write("pipeline/p.go", "package pipeline\n")
	got := imports(t, dir)
	if d := got["features"]; len(d) != 1 || d[0] != "pipeline" {
		t.Fatalf("imports of features = %v", d)
	}
	layer := map[string]int{}
	for i, l := range Layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	if layer["features"] >= layer["pipeline"] {
		t.Error("features is not below pipeline in Layers")
	}
}

// TestFiascoDoesNotLinkGolearn keeps golearn and gonum (the decision-tree
// baselines' dependencies) out of the fiasco binary.
func TestFiascoDoesNotLinkGolearn(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	cmd := exec.Command(goBin, "list", "-deps", module+"/cmd/fiasco")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "golearn") || strings.HasPrefix(p, "gonum.org/") {
			t.Errorf("cmd/fiasco depends on %s", p)
		}
	}
}
