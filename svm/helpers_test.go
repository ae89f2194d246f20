package svm

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// sharedData locates ../shared/data relative to the module root.
func sharedData(t testing.TB, rel string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	p := filepath.Join(root, "..", "shared", "data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s not found: %v", p, err)
	}
	return p
}

func readProblemFile(t testing.TB, path string) *Problem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ReadLIBSVM(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// libsvmTool returns the path of a LIBSVM binary or skips.
func libsvmTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (Debian package libsvm-tools): skipping LIBSVM comparison", name)
	}
	return p
}
