package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestWarnTrainedOn: eval warns of a scored set that the model trained on,
// as --data or as --extra in its recorded command, unless the set
// publishes a split and the other split is scored.
func TestWarnTrainedOn(t *testing.T) {
	dir := t.TempDir()
	split := filepath.Join(dir, "dragnet")
	if err := os.MkdirAll(filepath.Join(split, "split"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &classify.Model{Info: classify.Info{
		Data:    []string{"../shared/data/cleaneval-en-dev"},
		Command: "fiasco train --data ../shared/data/cleaneval-en-dev --extra ../shared/data/l3s-gn1 --extra=" + split + " --split training -o m.fiasco",
	}}
	for _, c := range []struct {
		dirs  []string
		split string
		want  []string // the sets warned of
	}{
		{[]string{"/x/cleaneval-en-dev", "/x/krdwrd-canola"}, "", []string{"cleaneval-en-dev"}},
		{[]string{"/y/l3s-gn1/"}, "test", []string{"l3s-gn1"}},
		{[]string{split}, "test", nil},
		{[]string{split}, "training", []string{"dragnet"}},
		{[]string{split}, "", []string{"dragnet"}},
	} {
		var b bytes.Buffer
		warnTrainedOn(&b, "m.fiasco", m, c.dirs, c.split)
		if n := strings.Count(b.String(), "warning:"); n != len(c.want) {
			t.Errorf("%v split %q: %d warnings, want %d:\n%s", c.dirs, c.split, n, len(c.want), b.String())
		}
		for _, set := range c.want {
			if !strings.Contains(b.String(), "m.fiasco was trained on pages of a set named "+set+":") {
				t.Errorf("%v split %q: no warning of %s:\n%s", c.dirs, c.split, set, b.String())
			}
		}
	}
}
