package classify_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
)

func defaultText(t *testing.T) *classify.Model {
	t.Helper()
	m, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestModelRoundTrip(t *testing.T) {
	m := defaultText(t)
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := classify.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile("../testdata/article.html")
	d, err := pipeline.Prepare(context.Background(), "article.html", data, pipeline.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s1, err1 := m.Decide(d.Table, d.English)
	s2, err2 := m2.Decide(d.Table, d.English)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			t.Fatalf("block %d: decision %v before and %v after a save/load", i, s1[i], s2[i])
		}
	}
}

func TestReadModelErrors(t *testing.T) {
	if _, err := classify.Read(strings.NewReader("not a model")); err == nil || !strings.Contains(err.Error(), "not a fiasco model") {
		t.Errorf("garbage: err = %v", err)
	}
	libsvm := "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 1:0.5\n"
	if _, err := classify.Read(strings.NewReader(libsvm)); err == nil || !strings.Contains(err.Error(), "a LIBSVM model") {
		t.Errorf("a LIBSVM model: err = %v, want it named", err)
	}
	// A model unpacked with gunzip: JSON, named as such.
	if _, err := classify.Read(strings.NewReader("\n{\"format\": \"fiasco-model\"}")); err == nil || !strings.Contains(err.Error(), "JSON, not gzip-compressed") {
		t.Errorf("an unpacked model: err = %v, want it named", err)
	}
	// A model naming a feature this build does not know.
	m := defaultText(t)
	saved := m.English.FeatureNames
	names := append([]string(nil), saved...)
	names[0] = "feature_from_the_future"
	m.English.FeatureNames = names
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	m.English.FeatureNames = saved
	_, err := classify.Read(&buf)
	if err == nil || !strings.Contains(err.Error(), "feature_from_the_future") {
		t.Errorf("unknown feature: err = %v", err)
	}
}
