package svm

import (
	"context"
	"errors"
	"github.com/fiasco-project/fiasco/internal/shared"
	"math"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := func() *Problem {
		return &Problem{X: [][]float64{{0, 1}, {1, 0}, {1, 1}}, Y: []float64{1, -1, 1}}
	}
	cases := []struct {
		name string
		mod  func(p *Problem)
		want error
	}{
		{"empty", func(p *Problem) { p.X, p.Y = nil, nil }, ErrEmpty},
		{"no features", func(p *Problem) { p.X = [][]float64{{}, {}, {}} }, ErrEmpty},
		{"one class", func(p *Problem) { p.Y = []float64{1, 1, 1} }, ErrOneClass},
		{"three classes", func(p *Problem) { p.Y = []float64{1, 2, 3} }, ErrManyClass},
		{"NaN feature", func(p *Problem) { p.X[1][0] = math.NaN() }, ErrNonFinite},
		{"Inf feature", func(p *Problem) { p.X[2][1] = math.Inf(-1) }, ErrNonFinite},
		{"NaN label", func(p *Problem) { p.Y[0] = math.NaN() }, ErrNonFinite},
		{"ragged rows", func(p *Problem) { p.X[1] = []float64{1} }, ErrDimensions},
		{"label count", func(p *Problem) { p.Y = p.Y[:2] }, ErrDimensions},
		{"names", func(p *Problem) { p.FeatureNames = []string{"a"} }, ErrDimensions},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := good()
			c.mod(p)
			_, err := Train(ctx, p, DefaultParams())
			if !errors.Is(err, c.want) {
				t.Fatalf("Train error = %v, want %v", err, c.want)
			}
			if _, err := CrossValidate(ctx, p, DefaultParams(), 2, 1); err == nil {
				t.Error("CrossValidate accepted bad input")
			}
			if _, err := GridSearch(ctx, p, DefaultParams(), GridOptions{Log2C: []float64{0}, Log2G: []float64{0}, Folds: 2}); err == nil {
				t.Error("GridSearch accepted bad input")
			}
		})
	}
	if _, err := Train(ctx, good(), DefaultParams()); err != nil {
		t.Fatalf("good problem rejected: %v", err)
	}
	bad := DefaultParams()
	bad.C = 0
	if _, err := Train(ctx, good(), bad); err == nil || !strings.Contains(err.Error(), "C must be positive") {
		t.Errorf("C=0: %v", err)
	}
	var zero Params
	if err := zero.Validate(); err == nil {
		t.Error("zero Params accepted")
	}
}

func TestPredictBadRows(t *testing.T) {
	p := readProblemFile(t, shared.Path(t, "libsvm/heart_scale"))
	m, err := Train(context.Background(), p, DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decision(make([]float64, 12)); !errors.Is(err, ErrDimensions) {
		t.Errorf("short row: %v", err)
	}
	row := append([]float64(nil), p.X[0]...)
	row[3] = math.Inf(1)
	if _, err := m.Predict(row); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf row: %v", err)
	}
	if _, err := m.Probability(p.X[0]); err == nil {
		t.Error("probability without Platt model")
	}
	if _, err := m.DecisionBatch([][]float64{p.X[0], {1}}, 2); !errors.Is(err, ErrDimensions) {
		t.Errorf("batch: %v", err)
	}
}

// TestDecisionBatchPanic: a panic on one of DecisionBatch's worker
// goroutines (here a Model built by hand with fewer coefficients than
// support vectors, which LoadModel refuses) is returned as an error, with
// its stack; with one worker it is the caller's, on its own goroutine.
func TestDecisionBatchPanic(t *testing.T) {
	m := &Model{Kernel: Linear, NumFeatures: 1, Labels: [2]float64{1, -1}, NSV: [2]int{1, 1}, SV: [][]float64{{1}, {-1}}, Coef: []float64{1}}
	rows := [][]float64{{1}, {2}, {3}, {4}}
	if _, err := m.DecisionBatch(rows, 2); err == nil || !strings.Contains(err.Error(), "index out of range") || !strings.Contains(err.Error(), "fanOut") {
		t.Errorf("2 workers: error %v, want the panic with its stack", err)
	}
	recovered := func() (r any) {
		defer func() { r = recover() }()
		m.DecisionBatch(rows, 1)
		return nil
	}()
	if recovered == nil {
		t.Error("1 worker: the caller recovered no panic")
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, in := range []string{
		"",
		"\n\n",
		"x 1:2\n",
		"1 1:a\n",
		"1 2:1 1:1\n",
		"1 0:1\n",
		"1 1:nan\n",
		"1 1:inf\n",
		"1 1\n",
		"inf 1:1\n",
	} {
		if _, err := ReadLIBSVM(strings.NewReader(in), 0); err == nil {
			t.Errorf("ReadLIBSVM(%q) accepted", in)
		}
	}
	p, err := ReadLIBSVM(strings.NewReader("+1 2:0.5 4:-1 # comment\n-1 1:3\n"), 5)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 0.5, 0, -1, 0}, {3, 0, 0, 0, 0}}
	for i := range want {
		for j := range want[i] {
			if p.X[i][j] != want[i][j] {
				t.Fatalf("row %d = %v, want %v", i, p.X[i], want[i])
			}
		}
	}
	var sb strings.Builder
	if err := WriteLIBSVM(&sb, p); err != nil {
		t.Fatal(err)
	}
	if got := sb.String(); got != "1 2:0.5 4:-1\n-1 1:3\n" {
		t.Errorf("WriteLIBSVM = %q", got)
	}
}
