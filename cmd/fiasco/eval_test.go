package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestWarnTrainedOn: eval warns, once per set, of a scored set that a
// model trained on, as --data or as --extra (recorded in Info, or for an
// older model only in its command), with the size of the sample taken of
// it, unless the set publishes a split and the other split is scored.
func TestWarnTrainedOn(t *testing.T) {
	dir := t.TempDir()
	split := filepath.Join(dir, "dragnet")
	if err := os.MkdirAll(filepath.Join(split, "split"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := &classify.Model{Info: classify.Info{
		Data:    []string{"../shared/data/cleaneval-en-dev"},
		Command: "fiasco train --data ../shared/data/cleaneval-en-dev --extra ../shared/data/l3s-gn1 --extra=" + split + " --extra-pages 100 --split training -o m.fiasco",
	}}
	recorded := &classify.Model{Info: classify.Info{
		Data:  []string{"/a/cleaneval-en-dev/"},
		Extra: []string{"/b/l3s-gn1", split}, ExtraPages: 0, Split: "training",
		Command: "fiasco train --data /a/cleaneval-en-dev/ --extra /b/l3s-gn1 --extra " + split + " --split training -o r.fiasco",
	}}
	for _, c := range []struct {
		models []*classify.Model
		dirs   []string
		split  string
		want   []string // the warnings' middles
	}{
		{[]*classify.Model{old}, []string{"/x/cleaneval-en-dev", "/x/krdwrd-canola"}, "", []string{"m trained on pages of a set named cleaneval-en-dev: its"}},
		{[]*classify.Model{old}, []string{"/y/l3s-gn1/"}, "test", []string{"m trained on a sample of 100 pages of a set named l3s-gn1"}},
		{[]*classify.Model{old}, []string{split}, "test", nil},
		{[]*classify.Model{old}, []string{split}, "training", []string{"m trained on a sample of 100 pages of a set named dragnet"}},
		{[]*classify.Model{old}, []string{split}, "", []string{"set named dragnet"}},
		{[]*classify.Model{recorded}, []string{"/y/l3s-gn1"}, "", []string{"m trained on pages of a set named l3s-gn1"}},
		{[]*classify.Model{recorded}, []string{split}, "test", nil},
		{[]*classify.Model{old, recorded}, []string{"/y/l3s-gn1", "/z/cleaneval-en-dev"}, "", []string{
			"m and v trained on pages of a set named l3s-gn1: their", "m and v trained on pages of a set named cleaneval-en-dev"}},
	} {
		var b bytes.Buffer
		warnTrainedOn(&b, []string{"m", "v"}[:len(c.models)], c.models, c.dirs, c.split)
		if n := strings.Count(b.String(), "warning:"); n != len(c.want) {
			t.Errorf("%v split %q: %d warnings, want %d:\n%s", c.dirs, c.split, n, len(c.want), b.String())
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%v split %q: no warning with %q:\n%s", c.dirs, c.split, w, b.String())
			}
		}
	}
}

// TestEvalCVHeader: eval --cv's header names what its folds' models do
// after the threshold, as the --model header does.
func TestEvalCVHeader(t *testing.T) {
	args := []string{"eval", "-q", "--no-render", "--data", "../../testdata/modern", "--cv", "2", "--bootstrap", "0"}
	code, out, errs := fiasco(t, append(args, "--smooth", "0.5", "--floor")...)
	if code != 0 || !strings.Contains(out, "threshold 0, smoothed at 0.5, prose floor at 0.25, seed 1") {
		t.Errorf("--smooth 0.5 --floor: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = fiasco(t, args...)
	if code != 0 || !strings.Contains(out, "threshold 0, seed 1") {
		t.Errorf("plain: exit %d\n%s%s", code, out, errs)
	}
}
