package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/internal/shared"

	"github.com/fiasco-project/fiasco/svm"
)

func heartScale(t *testing.T) string {
	t.Helper()
	return shared.Path(t, "libsvm/heart_scale")
}

// runCmd runs fiasco CMD args in-process: CMD is "svm" or "grid".
func runCmd(t *testing.T, cmd string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(context.Background(), append([]string{cmd}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

const (
	svmCmd  = "svm"
	gridCmd = "grid"
)

func TestSVMTrainPredict(t *testing.T) {
	data := heartScale(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "m")
	code, out, errs := runCmd(t, svmCmd, "train", data, model)
	if code != 0 {
		t.Fatalf("train exit %d: %s", code, errs)
	}
	for _, want := range []string{"obj = -100.877288, rho = 0.424462", "Total nSV = 132"} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(model + svm.MetaSuffix); err != nil {
		t.Errorf("no sidecar: %v", err)
	}
	pred := filepath.Join(dir, "pred")
	code, out, errs = runCmd(t, svmCmd, "predict", data, model, pred)
	if code != 0 || !strings.Contains(out, "Accuracy = ") {
		t.Fatalf("predict exit %d: %s %s", code, out, errs)
	}
	lines, _ := os.ReadFile(pred)
	if n := strings.Count(string(lines), "\n"); n != 270 {
		t.Errorf("%d predictions, want 270", n)
	}
	// a higher threshold predicts fewer positives
	pred2 := filepath.Join(dir, "pred2")
	if code, _, errs = runCmd(t, svmCmd, "predict", "-threshold", "1", data, model, pred2); code != 0 {
		t.Fatal(errs)
	}
	lines2, _ := os.ReadFile(pred2)
	if strings.Count(string(lines2), "1\n")-strings.Count(string(lines2), "-1\n") >= strings.Count(string(lines), "1\n")-strings.Count(string(lines), "-1\n") {
		t.Error("-threshold 1 did not reduce positive predictions")
	}
	code, out, _ = runCmd(t, svmCmd, "train", "-v", "5", "-c", "2", data, model)
	if code != 0 || !strings.Contains(out, "Cross Validation Accuracy = ") {
		t.Errorf("train -v: %d %s", code, out)
	}
	// probability model
	if code, _, errs = runCmd(t, svmCmd, "train", "-b", "1", "-q", data, model); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs = runCmd(t, svmCmd, "predict", "-b", "1", data, model, pred); code != 0 {
		t.Fatal(errs)
	}
	lines, _ = os.ReadFile(pred)
	if !strings.HasPrefix(string(lines), "labels 1 -1\n") {
		t.Errorf("probability output starts %q", string(lines)[:20])
	}
}

func TestSVMBadUsage(t *testing.T) {
	data := heartScale(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	oneClass := filepath.Join(dir, "one")
	os.WriteFile(oneClass, []byte("1 1:0.5\n1 1:0.7\n"), 0o644)
	nan := filepath.Join(dir, "nan")
	os.WriteFile(nan, []byte("1 1:nan\n-1 1:0.7\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, 2, "Usage"},
		{[]string{"frobnicate"}, 2, "unknown subcommand"},
		{[]string{"train"}, 2, "want DATA and, optionally, MODEL"},
		{[]string{"train", data, "m", "extra"}, 2, "want DATA and, optionally, MODEL"},
		{[]string{"train", "-s", "1", data, filepath.Join(dir, "m")}, 2, "only C-SVC"},
		{[]string{"train", "-c", "0", data, filepath.Join(dir, "m")}, 2, "C must be positive"},
		{[]string{"train", empty, filepath.Join(dir, "m")}, 1, "empty"},
		{[]string{"train", oneClass, filepath.Join(dir, "m")}, 1, "two classes"},
		{[]string{"train", nan, filepath.Join(dir, "m")}, 1, "NaN"},
		{[]string{"predict", data, filepath.Join(dir, "missing"), filepath.Join(dir, "o")}, 1, "no such file"},
		{[]string{"scale", "-s", "a", "-r", "b", data}, 2, "cannot use"},
	} {
		code, _, errs := runCmd(t, svmCmd, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("fiasco svm %v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

func TestSVMScale(t *testing.T) {
	data := heartScale(t)
	dir := t.TempDir()
	rng := filepath.Join(dir, "range")
	code, out, errs := runCmd(t, svmCmd, "scale", "-l", "0", "-u", "1", "-s", rng, data)
	if code != 0 {
		t.Fatal(errs)
	}
	p, err := svm.ReadLIBSVM(strings.NewReader(out), 0)
	if err != nil || p.Len() != 270 {
		t.Fatalf("scaled output: %v", err)
	}
	for _, row := range p.X {
		for _, v := range row {
			if v < 0 || v > 1 {
				t.Fatalf("value %v outside [0,1]", v)
			}
		}
	}
	code, out2, errs := runCmd(t, svmCmd, "scale", "-r", rng, data)
	if code != 0 || out2 != out {
		t.Errorf("scale -r differs from scale -s (exit %d %s)", code, errs)
	}
}

func TestGridCommand(t *testing.T) {
	data := heartScale(t)
	dir := t.TempDir()
	pngPath, outPath := filepath.Join(dir, "h.png"), filepath.Join(dir, "t.out")
	code, out, errs := runCmd(t, gridCmd, "-log2c", "-1,3,2", "-log2g", "-5,-3,2", "-png", pngPath, "-out", outPath, data)
	if code != 0 {
		t.Fatalf("grid exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "6/6 pairs") {
		t.Errorf("no progress bar on stderr: %q", errs)
	}
	for _, want := range []string{"log2c=-1 log2g=-5 rate=", "best: log2c"} {
		if !strings.Contains(out, want) {
			t.Errorf("grid output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("heatmap: %v", err)
	}
	if b, _ := os.ReadFile(outPath); strings.Count(string(b), "\n") != 6 {
		t.Errorf("table file has %d lines, want 6", strings.Count(string(b), "\n"))
	}
	if code, out, _ := runCmd(t, gridCmd, "-h"); code != 0 || !strings.Contains(out, "-log2g") {
		t.Errorf("grid -h: exit %d, %q", code, out)
	}
	if code, _, _ := runCmd(t, gridCmd, "-log2c", "1,2", data); code != 2 {
		t.Errorf("bad -log2c: exit %d", code)
	}
	if strings.Contains(errs, "not scaled") {
		t.Errorf("heart_scale, scaled to [-1, 1], warned of as unscaled:\n%s", errs)
	}
	for _, f := range []string{"-c", "-g"} {
		if code, _, errs := runCmd(t, gridCmd, f, "0.5", data); code != 2 || !strings.Contains(errs, f+": the grid chooses") {
			t.Errorf("%s with the grid: exit %d, stderr %q", f, code, errs)
		}
	}
	// The table and the heatmap are written over a table and a picture
	// (the run above wrote them), never over another file, such as the
	// data named by mistake: refused before the search, the file intact.
	if code, _, errs := runCmd(t, gridCmd, "-q", "-log2c", "-1,1,2", "-log2g", "-5,-3,2", "-png", pngPath, "-out", outPath, data); code != 0 {
		t.Errorf("grid over its own table and heatmap: exit %d, stderr %q", code, errs)
	}
	copied := filepath.Join(dir, "copy.libsvm")
	orig, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, want string }{
		{"-png", "is no PNG picture"},
		{"-out", "is no grid table"},
	} {
		code, out, errs := runCmd(t, gridCmd, "-log2c", "-1,1,2", "-log2g", "-5,-3,2", c.flag, copied, data)
		if b, _ := os.ReadFile(copied); code != 2 || out != "" || !strings.Contains(errs, c.flag+" "+copied+": the file is there and "+c.want) || string(b) != string(orig) {
			t.Errorf("%s over a data file: exit %d, stdout %q, stderr %q; want 2 before the search, the file intact", c.flag, code, out, errs)
		}
	}
	missing := filepath.Join(dir, "no", "t.out")
	if code, out, errs := runCmd(t, gridCmd, "-out", missing, data); code != 1 || out != "" || !strings.Contains(errs, "-out "+missing) {
		t.Errorf("-out in a missing directory: exit %d, stdout %q, stderr %q; want 1 before any search", code, out, errs)
	}
	// A linear kernel has no gamma: its table has none, as svm-grid's
	// with -log2g null.
	code, out, errs = runCmd(t, gridCmd, "-q", "-t", "0", "-log2c", "-1,1,2", "-out", outPath, "-png", "null", data)
	if code != 0 {
		t.Fatalf("grid -t 0: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(outPath); !strings.HasPrefix(string(b), "log2c=-1 rate=") || strings.Contains(string(b)+out, "log2g") {
		t.Errorf("grid -t 0: table %q, stdout %q; want no log2g", b, out)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(strings.Fields(lines[len(lines)-1])) != 2 {
		t.Errorf("grid -t 0: last line %q, want \"C accuracy\"", lines[len(lines)-1])
	}
	// A file of unscaled values is searched, with a warning.
	raw := filepath.Join(dir, "raw")
	if err := os.WriteFile(raw, []byte("+1 1:0.5 2:120\n-1 1:0.25 2:3\n+1 1:0.75 2:99\n-1 1:0.5 2:7\n+1 1:1 2:80\n-1 1:0 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCmd(t, gridCmd, "-q", "-v", "2", "-log2c", "0,0,1", "-log2g", "0,0,1", "-out", "null", "-png", "null", raw)
	if code != 0 || !strings.Contains(errs, "is not scaled to [-1, 1] (feature 2 spans 1 to 120)") {
		t.Errorf("unscaled file: exit %d, stderr %q; want 0 and a warning", code, errs)
	}
}

// TestGridDefaultOutputs: without -out and -png, the table and heatmap
// are named after the data file and written to the current directory, as
// svm-grid writes its table, never beside the data (which may be
// read-only or shared).
func TestGridDefaultOutputs(t *testing.T) {
	dataDir, work := t.TempDir(), t.TempDir()
	data := filepath.Join(dataDir, "small")
	if err := os.WriteFile(data, []byte("+1 1:0.5 2:0.2\n-1 1:-0.25 2:-0.3\n+1 1:0.75 2:0.9\n-1 1:-0.5 2:-0.7\n+1 1:1 2:0.8\n-1 1:0 2:-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	code, _, errs := runCmd(t, gridCmd, "-q", "-v", "2", "-log2c", "0,1,1", "-log2g", "0,1,1", data)
	if code != 0 {
		t.Fatalf("grid: exit %d, %s", code, errs)
	}
	for _, name := range []string{"small.out", "small.png"} {
		if _, err := os.Stat(filepath.Join(work, name)); err != nil {
			t.Errorf("%s not in the current directory: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(dataDir, name)); err == nil {
			t.Errorf("%s written beside the data file", name)
		}
	}
}

func TestSVMFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	sf := addSVMFlags(fs, libsvmLetters)
	if err := fs.Parse(strings.Fields("-t 1 -d 2 -g 0.5 -r 0.25 -c 4 -w1 2 -w-1 3 -e 0.01 -m 50 -h 0 -b 1")); err != nil {
		t.Fatal(err)
	}
	p, err := sf.params()
	if err != nil {
		t.Fatal(err)
	}
	want := svm.Params{Kernel: svm.Poly, Degree: 2, Gamma: 0.5, Coef0: 0.25, C: 4, WeightPos: 2, WeightNeg: 3,
		Eps: 0.01, CacheMB: 50, Shrinking: false, Probability: true, Seed: 1, Threads: 1}
	if p != want {
		t.Errorf("params %+v\nwant %+v", p, want)
	}
	fs = flag.NewFlagSet("y", flag.ContinueOnError)
	sf = addSVMFlags(fs, libsvmLetters)
	fs.Parse(nil)
	if p, _ := sf.params(); p.Kernel != svm.RBF || p.C != 1 || !p.Shrinking || p.Eps != 0.001 {
		t.Errorf("defaults %+v", p)
	}
}

// TestSVMTrainAsSVMTrain: as svm-train, MODEL is optional (DATA's file
// name with .model, in the current directory), -v writes no model, more
// folds than rows is leave-one-out, and an error about the data names the
// file.
func TestSVMTrainAsSVMTrain(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	src := filepath.Join(t.TempDir(), "small.txt")
	rows := "+1 1:0.9 2:0.1\n+1 1:0.8 2:0.3\n+1 1:0.7 2:0.2\n-1 1:0.1 2:0.9\n-1 1:0.2 2:0.7\n-1 1:0.3 2:0.8\n"
	if err := os.WriteFile(src, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, svmCmd, "train", "-q", "-v", "10", src)
	if code != 0 || !strings.Contains(out, "Cross Validation Accuracy = 100%") || !strings.Contains(errs, "using 6 folds (leave-one-out") {
		t.Errorf("-v 10 on 6 rows: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("-v wrote %v", entries)
	}
	if code, _, errs := runCmd(t, svmCmd, "train", "-q", src); code != 0 {
		t.Fatalf("train without MODEL: exit %d: %s", code, errs)
	}
	for _, f := range []string{"small.txt.model", "small.txt.model" + svm.MetaSuffix} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("train without MODEL: %v", err)
		}
	}
	three := filepath.Join(t.TempDir(), "three.txt")
	os.WriteFile(three, []byte(rows+"2 1:0.5 2:0.5\n"), 0o644)
	if code, _, errs := runCmd(t, svmCmd, "train", "-q", three, "m"); code == 0 || !strings.Contains(errs, three+": ") {
		t.Errorf("three labels: exit %d, stderr %s; want an error naming %s", code, errs, three)
	}
}

// TestSVMLabelWeights: -wi weighs the class labelled i, as svm-train's
// does, whatever the labels: on heart_scale relabelled 1 (+1) and 2 (-1),
// -w1 2 and -w2 2 give svm-train's figures for the same options
// (Debian's svm-train 3.x on the same file: obj -139.494205, rho
// -0.180191, 134 SV; obj -124.969041, rho 0.538065, 126 SV), and a label
// no row has is warned of.
func TestSVMLabelWeights(t *testing.T) {
	data, err := os.ReadFile(heartScale(t))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "-1 "); ok {
			line = "2 " + rest
		} else if rest, ok := strings.CutPrefix(line, "+1 "); ok {
			line = "1 " + rest
		}
		b.WriteString(line)
	}
	h12 := filepath.Join(t.TempDir(), "h12")
	if err := os.WriteFile(h12, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "m")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-w1", "2"}, []string{"obj = -139.494205, rho = -0.180191", "Total nSV = 134"}},
		{[]string{"-w2=2"}, []string{"obj = -124.969041, rho = 0.538065", "Total nSV = 126"}},
		{[]string{"-w-1", "2"}, []string{"obj = -100.877288, rho = 0.424462", "WARNING: class label -1 specified in weight is not found"}},
	} {
		code, out, errs := runCmd(t, svmCmd, append(append([]string{"train"}, c.args...), h12, model)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errs, w) {
				t.Errorf("%v: output lacks %q:\n%s%s", c.args, w, out, errs)
			}
		}
	}
	for _, args := range [][]string{{"-w1"}, {"-w1", "x"}, {"-w2", "0"}} {
		if code, _, errs := runCmd(t, svmCmd, append(append([]string{"train"}, args...), h12, model)...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
}

// TestSVMPredictChecks: svm predict names a fiasco model given for a
// LIBSVM one, refuses data whose sidecar names fewer columns than the
// model has, and warns of raw rows for a model trained on scaled ones.
func TestSVMPredictChecks(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	// Scaled training rows of three columns, raw test rows of two.
	var train, raw strings.Builder
	for i := range 20 {
		y, v := 1, 0.5
		if i%2 == 0 {
			y, v = -1, -0.5
		}
		fmt.Fprintf(&train, "%d 1:%g 2:%g 3:%g\n", y, v, -v, float64(i%5)/5)
		fmt.Fprintf(&raw, "%d 1:%g 2:%g\n", y, 40*v, -40*v)
	}
	os.WriteFile(p("train"), []byte(train.String()), 0o644)
	os.WriteFile(p("raw"), []byte(raw.String()), 0o644)
	os.WriteFile(p("raw.json"), []byte(`{"features":["a","b"]}`), 0o644)
	os.WriteFile(p("raw3"), []byte(strings.ReplaceAll(raw.String(), "\n", " 3:0\n")), 0o644)
	if code, _, errs := runCmd(t, svmCmd, "train", "-q", p("train"), p("m")); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	code, _, errs := runCmd(t, svmCmd, "predict", p("raw"), p("m"), p("out"))
	if code != 1 || !strings.Contains(errs, "data has 2 features, model expects 3") {
		t.Errorf("two named columns for a three-column model: exit %d, %s", code, errs)
	}
	code, _, errs = runCmd(t, svmCmd, "predict", p("raw3"), p("m"), p("out"))
	if code != 0 || !strings.Contains(errs, "2 columns of "+p("raw3")+" lie beyond [-3, 3] (column 1 runs from -20 to 20)") {
		t.Errorf("raw rows: exit %d, %s", code, errs)
	}
	// Rows scaled with the training ranges go a little beyond [-1, 1]
	// where a test value lies beyond the training range: no warning.
	os.WriteFile(p("scaled"), []byte("1 1:1.35 2:-1.2 3:0.5\n-1 1:-0.5 2:0.5 3:0\n"), 0o644)
	code, _, errs = runCmd(t, svmCmd, "predict", p("scaled"), p("m"), p("out"))
	if code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("scaled rows a little beyond [-1, 1]: exit %d, %s", code, errs)
	}
	// One column far beyond: a test page beyond the training range in
	// that column, scaled as the training rows were: no warning.
	os.WriteFile(p("scaled1"), []byte("1 1:5 2:-0.2 3:0.5\n-1 1:-0.5 2:0.5 3:0\n"), 0o644)
	code, _, errs = runCmd(t, svmCmd, "predict", p("scaled1"), p("m"), p("out"))
	if code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("scaled rows with one column beyond [-3, 3]: exit %d, %s", code, errs)
	}
	code, _, errs = runCmd(t, svmCmd, "predict", "-q", p("raw3"), p("m"), p("out"))
	if code != 0 || errs != "" {
		t.Errorf("-q: exit %d, %q", code, errs)
	}
	gz := p("model.fiasco")
	os.WriteFile(gz, []byte("\x1f\x8b\x08\x00binary"), 0o644)
	code, _, errs = runCmd(t, svmCmd, "predict", p("raw3"), gz, p("out"))
	if code != 1 || !strings.Contains(errs, "gzip data, not a LIBSVM model file (a fiasco model?") || strings.Contains(errs, "binary") {
		t.Errorf("a gzip model: exit %d, %q", code, errs)
	}
}

// TestGridNull: -log2c null and -log2g null leave C or gamma out of the
// grid, as svm-grid does: the value is -c's or -g's (svm-train's
// default without), the table and the last line leave it out, and the
// accuracy is the one svm train -v gives with that value on the same
// folds.
func TestGridNull(t *testing.T) {
	data := heartScale(t)
	cvAcc := func(args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, svmCmd, append(append([]string{"train", "-v", "5"}, args...), data)...)
		_, acc, ok := strings.Cut(out, "Cross Validation Accuracy = ")
		if code != 0 || !ok {
			t.Fatalf("svm train -v: exit %d, %q %q", code, out, errs)
		}
		acc, _, _ = strings.Cut(acc, "%")
		return acc
	}
	for _, c := range []struct {
		args  []string
		table string // the table's first line starts so
		last  string // the last line: the searched value, then the accuracy
	}{
		{[]string{"-log2g", "null", "-log2c", "1,1,1"}, "log2c=1 rate=", "2 " + cvAcc("-c", "2")},
		{[]string{"-log2g", "NULL", "-g", "0.125", "-log2c", "1,1,1"}, "log2c=1 rate=", "2 " + cvAcc("-c", "2", "-g", "0.125")},
		{[]string{"-log2c", "null", "-log2g", "-3,-3,1"}, "log2g=-3 rate=", "0.125 " + cvAcc("-g", "0.125")},
		{[]string{"-log2c", "null", "-c", "4", "-log2g", "-3,-3,1"}, "log2g=-3 rate=", "0.125 " + cvAcc("-c", "4", "-g", "0.125")},
		{[]string{"-t", "0", "-log2g", "null", "-log2c", "1,1,1"}, "log2c=1 rate=", "2 " + cvAcc("-t", "0", "-c", "2")},
	} {
		code, out, errs := runCmd(t, gridCmd, append(append([]string{"-q", "-out", "null"}, c.args...), data)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || !strings.HasPrefix(out, c.table) || lines[len(lines)-1] != c.last {
			t.Errorf("grid %q: exit %d, stdout %q, stderr %q; want a table from %q and the last line %q", c.args, code, out, errs, c.table, c.last)
		}
	}
	// The value is -c's, exactly (not 2^log2(10)).
	if code, out, errs := runCmd(t, gridCmd, "-q", "-out", "null", "-log2c", "null", "-c", "10", "-log2g", "-3,-3,1", data); code != 0 || !strings.Contains(out, "best: C 10 (-log2c null)") {
		t.Errorf("-log2c null -c 10: exit %d, %q %q", code, out, errs)
	}
	if code, out, errs := runCmd(t, gridCmd, "-q", "-out", "null", "-log2g", "null", "-g", "3", "-log2c", "0,0,1", data); code != 0 || !strings.Contains(out, "gamma 3 (-log2g null)") {
		t.Errorf("-log2g null -g 3: exit %d, %q %q", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"-log2c", "null", "-log2g", "null"}, "nothing to search"},
		{[]string{"-t", "0", "-g", "2"}, "-g: a linear kernel (-t 0) has no gamma"},
		{[]string{"-log2g", "null", "-c", "2"}, "-c: the grid chooses C"},
		{[]string{"-log2c", "null", "-g", "2"}, "-g: the grid chooses gamma"},
		{[]string{"-log2g", "null", "-png", filepath.Join(t.TempDir(), "h.png")}, "a heatmap needs both"},
		{[]string{"-t", "0", "-log2g", "1,2,1"}, "-log2g: a linear kernel"},
	} {
		if code, _, errs := runCmd(t, gridCmd, append(c.args, data)...); code != 2 || !strings.Contains(errs, c.err) {
			t.Errorf("grid %q: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.err)
		}
	}
}

// TestNotLIBSVM: a model file, gzip data or JSON given where LIBSVM data
// is read (grid, svm train) is named for what it is, not read as data
// whose first label is garbage.
func TestNotLIBSVM(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.fiasco")
	if m, err := classify.Default(false); err != nil || m.Save(model) != nil {
		t.Fatalf("saving the embedded text model: %v", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("+1 1:0.5\n-1 1:-0.5\n"))
	zw.Close()
	data := filepath.Join(dir, "blocks.libsvm.gz")
	os.WriteFile(data, gz.Bytes(), 0o644)
	sidecar := filepath.Join(dir, "blocks.libsvm.json")
	os.WriteFile(sidecar, []byte(`{"features": ["a"]}`), 0o644)
	for path, want := range map[string]string{
		model:   "a fiasco model file, not data in LIBSVM format",
		data:    "gzip-compressed data (decompress it first), not data in LIBSVM format",
		sidecar: "JSON (a model's or a range file's sidecar?), not data in LIBSVM format",
	} {
		for _, args := range [][]string{{"grid", "-q", "-out", "null", "-png", "null", path}, {"svm", "train", path, filepath.Join(dir, "out.model")}} {
			if code, _, errs := fiasco(t, args...); code != 1 || !strings.Contains(errs, path+": "+want) {
				t.Errorf("%v: exit %d, stderr %q; want %q", args, code, errs, want)
			}
		}
	}
}

// TestGridMoreFoldsThanRows: -v beyond the rows is a usage error (exit
// 2), as train --grid's --folds and eval --cv's are.
func TestGridMoreFoldsThanRows(t *testing.T) {
	data := filepath.Join(t.TempDir(), "tiny.libsvm")
	os.WriteFile(data, []byte("+1 1:0.5\n-1 1:-0.5\n+1 1:0.25\n"), 0o644)
	if code, _, errs := fiasco(t, "grid", "-q", "-out", "null", "-png", "null", "-v", "5", data); code != 2 || !strings.Contains(errs, "-v 5: "+data+" holds 3 rows, fewer than the folds") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
