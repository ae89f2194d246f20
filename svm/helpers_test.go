package svm

import (
	"os"
	"os/exec"
	"testing"
)

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
