package gold

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSetName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cleaneval-en-dev")
	if err := os.MkdirAll(filepath.Join(dir, "html"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "html"))
	for _, c := range []struct{ dir, want string }{
		{"..", "cleaneval-en-dev"},
		{"../", "cleaneval-en-dev"},
		{".", "html"},
		{"../html/..", "cleaneval-en-dev"},
		{dir, "cleaneval-en-dev"},
		{dir + "/", "cleaneval-en-dev"},
		{"/work/shared/data/dragnet", "dragnet"},
	} {
		if got := SetName(c.dir); got != c.want {
			t.Errorf("SetName(%q) = %q, want %q", c.dir, got, c.want)
		}
	}
}
