package classify_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
)

// A model with a second stage: Decide returns the second stage's values
// of StackRows over the first stage's; the file says FormatStacked and
// reads back to the same decisions; a first-stage-only reader's format
// and a stage with other columns are refused.
func TestStackedModel(t *testing.T) {
	base, err := classify.Default(false)
	if err != nil {
		t.Fatal(err)
	}
	stack := &svm.Model{Kernel: svm.RBF, Gamma: 0.5, NumFeatures: len(classify.StackFeatures), Labels: [2]float64{1, -1},
		Rho: 0.1, FeatureNames: classify.StackFeatures, NSV: [2]int{1, 1}}
	stack.SV = [][]float64{make([]float64, len(classify.StackFeatures)), make([]float64, len(classify.StackFeatures))}
	stack.SV[0][0], stack.SV[1][0] = 1, -1 // "own value high" vs "low"
	stack.Coef = []float64{1, -1}
	lo, hi := make([]float64, len(classify.StackFeatures)), make([]float64, len(classify.StackFeatures))
	for j := range lo {
		lo[j], hi[j] = -10, 10
	}
	stack.Scaler = &svm.Scaler{Lower: -1, Upper: 1, Min: lo, Max: hi}
	m := *base
	m.Stack = stack

	tab := pageTable(t)
	first, err := base.Decide(tab, true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := stack.DecisionBatch(classify.StackRows(first, tab), 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Decide(tab, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("block %d: Decide %v, second stage %v", i, got[i], want[i])
		}
	}

	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := classify.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Stack == nil {
		t.Fatal("second stage lost in the file")
	}
	again, err := back.Decide(tab, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(again[i]-got[i]) > 1e-9 {
			t.Fatalf("block %d: %v after reading back, %v before", i, again[i], got[i])
		}
	}

	// The same JSON under the first-stage format, and a stage reading
	// other columns, are refused.
	for _, c := range []struct{ from, to, msg string }{
		{classify.FormatStacked, classify.Format, "second stage"},
		{`"stack_log_tokens"`, `"stack_other"`, "second stage reads"},
	} {
		bad := rewriteModel(t, buf.Bytes(), c.from, c.to)
		if _, err := classify.Read(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s -> %s: err %v, want one naming %q", c.from, c.to, err, c.msg)
		}
	}
}

// pageTable is the feature table of testdata/article.html.
func pageTable(t *testing.T) *features.Table {
	t.Helper()
	data, err := os.ReadFile("../testdata/article.html")
	if err != nil {
		t.Fatal(err)
	}
	d, err := pipeline.Prepare(context.Background(), "article.html", data, pipeline.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d.Table
}

// gunzip returns the JSON of a model file.
func gunzip(t *testing.T, file []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	js, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// rewriteModel replaces from by to in a model file's JSON.
func rewriteModel(t *testing.T, file []byte, from, to string) []byte {
	t.Helper()
	js := gunzip(t, file)
	if !bytes.Contains(js, []byte(from)) {
		t.Fatalf("model JSON has no %s", from)
	}
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(bytes.Replace(js, []byte(from), []byte(to), 1))
	zw.Close()
	return out.Bytes()
}
