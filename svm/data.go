package svm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Problem is a labelled data set: dense rows of float64 features.
// All rows must have the same length. Labels are class labels; training
// needs exactly two distinct labels (see PositiveLabel).
type Problem struct {
	X [][]float64
	Y []float64
	// FeatureNames optionally names the columns; if set, it must have
	// one entry per column. It is copied into trained models.
	FeatureNames []string
	// W optionally weights the rows: row i's C is C (times its class's
	// weight) times W[i], as in LIBSVM's instance-weight variant
	// (libsvm-weights). A row of weight k trains as k copies of it
	// would. nil: every row weighs 1; otherwise one positive, finite
	// weight per row.
	W []float64
}

// NumFeatures is the row length (0 for an empty problem).
func (p *Problem) NumFeatures() int {
	if p == nil || len(p.X) == 0 {
		return 0
	}
	return len(p.X[0])
}

// Len is the number of rows.
func (p *Problem) Len() int {
	if p == nil {
		return 0
	}
	return len(p.X)
}

// Errors returned for bad input. They are wrapped with details; test
// with errors.Is.
var (
	ErrEmpty      = errors.New("svm: empty data set")
	ErrOneClass   = errors.New("svm: training data must contain two classes")
	ErrManyClass  = errors.New("svm: only two-class problems are supported")
	ErrNonFinite  = errors.New("svm: NaN or Inf in data")
	ErrDimensions = errors.New("svm: mismatched dimensions")
	// ErrStaleMeta is LoadModel's error for a model file whose sidecar
	// (MetaSuffix) was written for another model file: the model was
	// replaced (by svm-train, say) and the sidecar left behind.
	ErrStaleMeta = errors.New("svm: metadata belongs to a different model file (checksum mismatch)")
)

// Validate checks that the problem is usable for training: non-empty,
// rectangular, finite, with labels for every row and exactly two classes.
func (p *Problem) Validate() error {
	if p == nil || len(p.X) == 0 {
		return ErrEmpty
	}
	if len(p.Y) != len(p.X) {
		return fmt.Errorf("%w: %d rows but %d labels", ErrDimensions, len(p.X), len(p.Y))
	}
	d := len(p.X[0])
	if d == 0 {
		return fmt.Errorf("%w: rows have no features", ErrEmpty)
	}
	if p.FeatureNames != nil && len(p.FeatureNames) != d {
		return fmt.Errorf("%w: %d feature names for %d columns", ErrDimensions, len(p.FeatureNames), d)
	}
	if p.W != nil && len(p.W) != len(p.X) {
		return fmt.Errorf("%w: %d rows but %d weights", ErrDimensions, len(p.X), len(p.W))
	}
	for i, w := range p.W {
		if !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("svm: weight of row %d is %v, not a positive number", i, w)
		}
	}
	for i, row := range p.X {
		if len(row) != d {
			return fmt.Errorf("%w: row %d has %d features, row 0 has %d", ErrDimensions, i, len(row), d)
		}
		if err := finiteRow("row", i, row); err != nil {
			return err
		}
		if y := p.Y[i]; math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("%w: label of row %d is %v", ErrNonFinite, i, y)
		}
	}
	labels := distinctLabels(p.Y)
	switch {
	case len(labels) < 2:
		return fmt.Errorf("%w: all %d rows have label %g", ErrOneClass, len(p.Y), p.Y[0])
	case len(labels) > 2:
		return fmt.Errorf("%w: found %d labels %v", ErrManyClass, len(labels), labels)
	}
	return nil
}

// distinctLabels returns the labels in order of first appearance.
func distinctLabels(y []float64) []float64 {
	var out []float64
	for _, v := range y {
		found := false
		for _, l := range out {
			if l == v {
				found = true
				break
			}
		}
		if !found {
			out = append(out, v)
			if len(out) > 2 {
				break
			}
		}
	}
	return out
}

// PositiveLabel returns the label of the positive class of a two-label
// set: the larger of the two labels (+1 for -1/+1 data, 1 for 0/1 data).
func PositiveLabel(a, b float64) float64 { return math.Max(a, b) }

// ReadLIBSVM reads LIBSVM's sparse text format ("label idx:val idx:val
// ...", 1-based ascending indices) into a dense Problem whose width is the
// largest index seen (or minFeatures if that is larger). Empty lines are
// skipped; anything malformed is an error naming the line.
func ReadLIBSVM(r io.Reader, minFeatures int) (*Problem, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	type entry struct {
		idx []int
		val []float64
	}
	if minFeatures < 0 || minFeatures > 1<<24 {
		return nil, fmt.Errorf("svm: %d features: want 0 to %d", minFeatures, 1<<24)
	}
	var rows []entry
	var ys []float64
	maxIdx := minFeatures
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		y, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return nil, fmt.Errorf("svm: line %d: bad label %q", line, f[0])
		}
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("%w: line %d: label %q", ErrNonFinite, line, f[0])
		}
		var e entry
		prev := 0
		for _, tok := range f[1:] {
			if strings.HasPrefix(tok, "#") {
				break
			}
			k := strings.IndexByte(tok, ':')
			if k <= 0 {
				return nil, fmt.Errorf("svm: line %d: bad feature %q (want idx:val)", line, tok)
			}
			idx, err := strconv.Atoi(tok[:k])
			if err != nil || idx <= prev {
				return nil, fmt.Errorf("svm: line %d: bad or non-ascending index in %q", line, tok)
			}
			if idx > 1<<24 {
				return nil, fmt.Errorf("svm: line %d: index %d too large", line, idx)
			}
			v, err := strconv.ParseFloat(tok[k+1:], 64)
			if err != nil {
				return nil, fmt.Errorf("svm: line %d: bad value in %q", line, tok)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: line %d: %q", ErrNonFinite, line, tok)
			}
			prev = idx
			e.idx = append(e.idx, idx)
			e.val = append(e.val, v)
		}
		if prev > maxIdx {
			maxIdx = prev
		}
		rows = append(rows, e)
		ys = append(ys, y)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("svm: reading data: %w", err)
	}
	if len(rows) == 0 {
		return nil, ErrEmpty
	}
	if int64(len(rows))*int64(maxIdx) > 1<<31 {
		return nil, fmt.Errorf("svm: %d rows x %d features is too large for dense storage", len(rows), maxIdx)
	}
	p := &Problem{X: make([][]float64, len(rows)), Y: ys}
	flat := make([]float64, len(rows)*maxIdx)
	for i, e := range rows {
		row := flat[i*maxIdx : (i+1)*maxIdx : (i+1)*maxIdx]
		for k, idx := range e.idx {
			row[idx-1] = e.val[k]
		}
		p.X[i] = row
	}
	return p, nil
}

// WriteLIBSVM writes the problem in LIBSVM's sparse text format; zero
// features are omitted. Values are written with the shortest exact
// representation.
func WriteLIBSVM(w io.Writer, p *Problem) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for i, row := range p.X {
		buf = buf[:0]
		buf = strconv.AppendFloat(buf, p.Y[i], 'g', -1, 64)
		for j, v := range row {
			if v == 0 {
				continue
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// sortedLabels returns the distinct labels sorted ascending (helper for
// messages and tests).
func sortedLabels(y []float64) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, v := range y {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

// finiteRow reports the first NaN or infinite value of row, which is
// what's row number i (e.g. "row"), as ErrNonFinite.
func finiteRow(what string, i int, row []float64) error {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s %d feature %d is %v", ErrNonFinite, what, i, j, v)
		}
	}
	return nil
}
