package svm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Scaler maps each feature linearly from [Min[j], Max[j]] (learned on
// training data) to [Lower, Upper], exactly as svm-scale does. Features
// that were constant in training (Min == Max) map to 0, like svm-scale's
// omitted features. Values outside the training range extrapolate, as
// with svm-scale, unless Clip is set.
type Scaler struct {
	Lower, Upper float64
	Min, Max     []float64
	// Clip clamps every scaled value to [Lower, Upper]: a value beyond the
	// training range reads as the range's end. An RBF model decides a row
	// far from all its support vectors by its bias alone, so without
	// clipping one column far outside the training range can decide the
	// row whatever the others say. FitScaler leaves it off; svm-scale's
	// range files (WriteRange, ReadRange) do not carry it.
	Clip bool `json:"Clip,omitempty"`
}

// FitScaler learns per-feature minima and maxima from X.
func FitScaler(X [][]float64, lower, upper float64) (*Scaler, error) {
	if len(X) == 0 || len(X[0]) == 0 {
		return nil, ErrEmpty
	}
	if !(lower < upper) || math.IsInf(lower, 0) || math.IsInf(upper, 0) {
		return nil, fmt.Errorf("svm: scaling needs lower < upper, got %g, %g", lower, upper)
	}
	d := len(X[0])
	s := &Scaler{Lower: lower, Upper: upper, Min: make([]float64, d), Max: make([]float64, d)}
	for j := range s.Min {
		s.Min[j], s.Max[j] = math.Inf(1), math.Inf(-1)
	}
	for i, row := range X {
		if len(row) != d {
			return nil, fmt.Errorf("%w: row %d has %d features, row 0 has %d", ErrDimensions, i, len(row), d)
		}
		if err := finiteRow("row", i, row); err != nil {
			return nil, err
		}
		for j, v := range row {
			s.Min[j] = math.Min(s.Min[j], v)
			s.Max[j] = math.Max(s.Max[j], v)
		}
	}
	return s, nil
}

// NumFeatures is the number of features the scaler was fitted on.
func (s *Scaler) NumFeatures() int { return len(s.Min) }

// Transform returns a scaled copy of x.
func (s *Scaler) Transform(x []float64) ([]float64, error) {
	return s.transformInto(nil, x)
}

// transformInto is Transform writing into dst when it has room.
func (s *Scaler) transformInto(dst, x []float64) ([]float64, error) {
	if len(x) != len(s.Min) {
		return nil, fmt.Errorf("%w: row has %d features, scaler has %d", ErrDimensions, len(x), len(s.Min))
	}
	if cap(dst) < len(x) {
		dst = make([]float64, len(x))
	}
	out := dst[:len(x)]
	for j, v := range x {
		out[j] = s.scale1(j, v)
	}
	return out, nil
}

func (s *Scaler) scale1(j int, v float64) float64 {
	lo, hi := s.Min[j], s.Max[j]
	switch {
	case lo == hi:
		return 0
	case v == lo:
		return s.Lower
	case v == hi:
		return s.Upper
	}
	r := s.Lower + (s.Upper-s.Lower)*(v-lo)/(hi-lo)
	if s.Clip {
		r = min(max(r, s.Lower), s.Upper)
	}
	return r
}

// TransformProblem returns a scaled copy of p (labels and names shared).
func (s *Scaler) TransformProblem(p *Problem) (*Problem, error) {
	out := &Problem{X: make([][]float64, len(p.X)), Y: p.Y, FeatureNames: p.FeatureNames, W: p.W}
	for i, row := range p.X {
		r, err := s.Transform(row)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		out.X[i] = r
	}
	return out, nil
}

// WriteRange writes svm-scale's range file ("x", "lower upper", then
// "index min max" for each non-constant feature).
func (s *Scaler) WriteRange(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "x\n%s %s\n", fmtG17(s.Lower), fmtG17(s.Upper))
	for j := range s.Min {
		if s.Min[j] != s.Max[j] {
			fmt.Fprintf(bw, "%d %s %s\n", j+1, fmtG17(s.Min[j]), fmtG17(s.Max[j]))
		}
	}
	return bw.Flush()
}

func fmtG17(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }

// ReadRange reads an svm-scale range file. The scaler gets
// max(numFeatures, largest index in the file) features; features not
// listed are constant (scaled to 0), as with svm-scale -r.
func ReadRange(r io.Reader, numFeatures int) (*Scaler, error) {
	sc := bufio.NewScanner(r)
	var lines [][]string
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 {
			lines = append(lines, f)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(lines) < 2 || len(lines[0]) != 1 {
		return nil, fmt.Errorf("svm: range file: missing header")
	}
	if lines[0][0] == "y" {
		return nil, fmt.Errorf("svm: range file: y scaling is not supported")
	}
	if lines[0][0] != "x" {
		return nil, fmt.Errorf("svm: range file: first line must be \"x\", got %q", lines[0][0])
	}
	num := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("svm: range file: bad number %q", s)
		}
		return v, nil
	}
	if len(lines[1]) != 2 {
		return nil, fmt.Errorf("svm: range file: second line must be \"lower upper\"")
	}
	s := &Scaler{}
	var err error
	if s.Lower, err = num(lines[1][0]); err != nil {
		return nil, err
	}
	if s.Upper, err = num(lines[1][1]); err != nil {
		return nil, err
	}
	if !(s.Lower < s.Upper) {
		return nil, fmt.Errorf("svm: range file: lower %g not below upper %g", s.Lower, s.Upper)
	}
	type ent struct {
		idx      int
		min, max float64
	}
	var ents []ent
	d := numFeatures
	for _, f := range lines[2:] {
		if len(f) != 3 {
			return nil, fmt.Errorf("svm: range file: bad line %q", strings.Join(f, " "))
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil || idx < 1 || idx > 1<<24 {
			return nil, fmt.Errorf("svm: range file: bad index %q", f[0])
		}
		var e ent
		e.idx = idx
		if e.min, err = num(f[1]); err != nil {
			return nil, err
		}
		if e.max, err = num(f[2]); err != nil {
			return nil, err
		}
		ents = append(ents, e)
		d = max(d, idx)
	}
	s.Min, s.Max = make([]float64, d), make([]float64, d)
	for _, e := range ents {
		s.Min[e.idx-1], s.Max[e.idx-1] = e.min, e.max
	}
	return s, nil
}
