package classify

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestIsModelFile: a saved model is one; gzip-compressed JSON of another
// kind, plain text, an empty file and a missing one are not.
func TestIsModelFile(t *testing.T) {
	dir := t.TempDir()
	m, err := Default(false)
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.fiasco")
	if err := m.Save(model); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"format": "something-else/1"}`))
	zw.Close()
	files := map[string][]byte{"other.json.gz": gz.Bytes(), "text.txt": []byte("+1 1:0.5\n"), "empty": nil}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]bool{"m.fiasco": true, "other.json.gz": false, "text.txt": false, "empty": false, "missing": false} {
		got, err := IsModelFile(filepath.Join(dir, name))
		if got != want || err != nil {
			t.Errorf("%s: %v, %v; want %v", name, got, err, want)
		}
	}
}
