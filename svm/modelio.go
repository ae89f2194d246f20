package svm

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

var kernelFileNames = map[KernelType]string{Linear: "linear", Poly: "polynomial", RBF: "rbf", Sigmoid: "sigmoid"}

// WriteLIBSVM writes the model in LIBSVM's text model format, which
// svm-predict reads. Numbers are written with 17 significant digits
// (support vector values exactly), so svm-predict reproduces our
// decision values.
func (m *Model) WriteLIBSVM(w io.Writer) error {
	if err := m.check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "svm_type c_svc\nkernel_type %s\n", kernelFileNames[m.Kernel])
	if m.Kernel == Poly {
		fmt.Fprintf(bw, "degree %d\n", m.Degree)
	}
	if m.Kernel != Linear {
		fmt.Fprintf(bw, "gamma %s\n", fmtG17(m.Gamma))
	}
	if m.Kernel == Poly || m.Kernel == Sigmoid {
		fmt.Fprintf(bw, "coef0 %s\n", fmtG17(m.Coef0))
	}
	fmt.Fprintf(bw, "nr_class 2\ntotal_sv %d\nrho %s\n", len(m.SV), fmtG17(m.Rho))
	fmt.Fprintf(bw, "label %s %s\n", fmtLabel(m.Labels[0]), fmtLabel(m.Labels[1]))
	if m.HasProb {
		fmt.Fprintf(bw, "probA %s\nprobB %s\n", fmtG17(m.ProbA), fmtG17(m.ProbB))
	}
	fmt.Fprintf(bw, "nr_sv %d %d\nSV\n", m.NSV[0], m.NSV[1])
	var buf []byte
	for i, sv := range m.SV {
		buf = strconv.AppendFloat(buf[:0], m.Coef[i], 'g', 17, 64)
		buf = append(buf, ' ')
		for j, v := range sv {
			if v == 0 {
				continue
			}
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			buf = append(buf, ' ')
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// fmtLabel writes labels as LIBSVM does (%d); our labels are integers
// in practice, others are written exactly.
func fmtLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<31 {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// check verifies internal consistency (also applied to parsed models).
func (m *Model) check() error {
	if len(m.SV) != len(m.Coef) {
		return fmt.Errorf("svm: model has %d support vectors but %d coefficients", len(m.SV), len(m.Coef))
	}
	if m.NSV[0] < 0 || m.NSV[1] < 0 || m.NSV[0]+m.NSV[1] != len(m.SV) {
		return fmt.Errorf("svm: model nr_sv %v does not add up to %d support vectors", m.NSV, len(m.SV))
	}
	if _, ok := kernelFileNames[m.Kernel]; !ok {
		return fmt.Errorf("svm: model has unknown kernel %d", m.Kernel)
	}
	if m.Labels[0] == m.Labels[1] {
		return fmt.Errorf("svm: model labels must differ, got %v", m.Labels)
	}
	if m.Kernel == RBF && !(m.Gamma > 0 && !math.IsInf(m.Gamma, 0)) {
		// exp(-gamma |x-y|^2) with gamma <= 0 measures no likeness:
		// svm-train writes the gamma it used, always positive.
		return fmt.Errorf("svm: model gamma %v: an RBF kernel's is a positive number", m.Gamma)
	}
	for i, sv := range m.SV {
		if len(sv) != m.NumFeatures {
			return fmt.Errorf("svm: support vector %d has %d features, model %d", i, len(sv), m.NumFeatures)
		}
	}
	return nil
}

// ReadLIBSVMModel parses a LIBSVM text model of a two-class C-SVC.
// Its width is the largest feature index among the support vectors.
func ReadLIBSVMModel(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r)
	m := &Model{Degree: 3}
	var nrClass, totalSV = -1, -1
	seen := map[string]bool{}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("svm: model file: "+format, a...)
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			if err == io.EOF {
				return nil, bad("no SV section")
			}
			return nil, err
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		key := f[0]
		if seen[key] {
			return nil, bad("duplicate %q", key)
		}
		seen[key] = true
		args := f[1:]
		nums := func(n int) ([]float64, error) {
			if len(args) != n {
				return nil, bad("%s: want %d values, got %d", key, n, len(args))
			}
			out := make([]float64, n)
			for i, a := range args {
				v, err := strconv.ParseFloat(a, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad("%s: bad number %q", key, a)
				}
				out[i] = v
			}
			return out, nil
		}
		var v []float64
		switch key {
		case "svm_type":
			if len(args) != 1 || args[0] != "c_svc" {
				return nil, bad("only svm_type c_svc is supported, got %q", strings.Join(args, " "))
			}
		case "kernel_type":
			found := false
			for k, name := range kernelFileNames {
				if len(args) == 1 && args[0] == name {
					m.Kernel, found = k, true
				}
			}
			if !found {
				return nil, bad("unsupported kernel_type %q", strings.Join(args, " "))
			}
		case "degree":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			if v[0] != math.Trunc(v[0]) || v[0] < 0 || v[0] > 1000 {
				return nil, bad("bad degree %g", v[0])
			}
			m.Degree = int(v[0])
		case "gamma":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			m.Gamma = v[0]
		case "coef0":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			m.Coef0 = v[0]
		case "nr_class":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			if v[0] != 2 {
				return nil, bad("only two-class models are supported, nr_class %g", v[0])
			}
			nrClass = 2
		case "total_sv":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			if v[0] < 0 || v[0] != math.Trunc(v[0]) || v[0] > 1<<31 {
				return nil, bad("bad total_sv %g", v[0])
			}
			totalSV = int(v[0])
		case "rho":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			m.Rho = v[0]
		case "label":
			if v, err = nums(2); err != nil {
				return nil, err
			}
			m.Labels = [2]float64{v[0], v[1]}
		case "probA", "probB":
			if v, err = nums(1); err != nil {
				return nil, err
			}
			if key == "probA" {
				m.ProbA = v[0]
			} else {
				m.ProbB = v[0]
			}
			m.HasProb = seen["probA"] && seen["probB"]
		case "nr_sv":
			if v, err = nums(2); err != nil {
				return nil, err
			}
			for i := range 2 {
				if v[i] < 0 || v[i] != math.Trunc(v[i]) || v[i] > 1<<31 {
					return nil, bad("bad nr_sv %v", args)
				}
				m.NSV[i] = int(v[i])
			}
		case "SV":
			if nrClass != 2 || totalSV < 0 || !seen["rho"] || !seen["label"] || !seen["nr_sv"] || !seen["kernel_type"] {
				return nil, bad("header incomplete before SV (need kernel_type, nr_class, total_sv, rho, label, nr_sv)")
			}
			if err := m.readSVs(br, totalSV); err != nil {
				return nil, err
			}
			if err := m.check(); err != nil {
				return nil, err
			}
			return m, nil
		default:
			return nil, bad("unknown keyword %.40q", key)
		}
	}
}

func (m *Model) readSVs(br *bufio.Reader, total int) error {
	type sparse struct {
		idx []int
		val []float64
	}
	svs := make([]sparse, 0, min(total, 1<<16))
	maxIdx := 0
	for n := 0; n < total; n++ {
		line, err := br.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			return fmt.Errorf("svm: model file: %d support vectors expected, found %d", total, n)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return fmt.Errorf("svm: model file: empty support vector line %d", n+1)
		}
		c, err := strconv.ParseFloat(f[0], 64)
		if err != nil || math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("svm: model file: bad coefficient %q", f[0])
		}
		var s sparse
		prev := 0
		for _, tok := range f[1:] {
			k := strings.IndexByte(tok, ':')
			if k <= 0 {
				return fmt.Errorf("svm: model file: bad feature %q", tok)
			}
			idx, err := strconv.Atoi(tok[:k])
			if err != nil || idx <= prev || idx > 1<<20 {
				return fmt.Errorf("svm: model file: bad or non-ascending index in %q", tok)
			}
			v, err := strconv.ParseFloat(tok[k+1:], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("svm: model file: bad value in %q", tok)
			}
			prev = idx
			s.idx, s.val = append(s.idx, idx), append(s.val, v)
		}
		maxIdx = max(maxIdx, prev)
		svs = append(svs, s)
		m.Coef = append(m.Coef, c)
	}
	if int64(maxIdx)*int64(len(svs)) > 1<<28 {
		return fmt.Errorf("svm: model file: %d support vectors x %d features is too large", len(svs), maxIdx)
	}
	m.NumFeatures = maxIdx
	m.SV = make([][]float64, len(svs))
	for i, s := range svs {
		row := make([]float64, maxIdx)
		for k, idx := range s.idx {
			row[idx-1] = s.val[k]
		}
		m.SV[i] = row
	}
	return nil
}

// Widen pads the model's support vectors (and scaler) with zero features
// up to n features, for LIBSVM data whose largest index exceeds the
// model's (svm-predict treats absent features as 0). It fails for models
// with feature names or if n is smaller than the model's width.
func (m *Model) Widen(n int) error {
	if n == m.NumFeatures {
		return nil
	}
	if n < m.NumFeatures {
		return fmt.Errorf("%w: cannot narrow model from %d to %d features", ErrDimensions, m.NumFeatures, n)
	}
	if m.FeatureNames != nil {
		return fmt.Errorf("%w: model has %d named features, data has %d", ErrDimensions, m.NumFeatures, n)
	}
	for i, sv := range m.SV {
		m.SV[i] = append(sv, make([]float64, n-len(sv))...)
	}
	if m.Scaler != nil {
		k := n - len(m.Scaler.Min)
		m.Scaler.Min = append(m.Scaler.Min, make([]float64, k)...)
		m.Scaler.Max = append(m.Scaler.Max, make([]float64, k)...)
	}
	m.NumFeatures = n
	return nil
}

// MetaSuffix is appended to a model's path for its metadata sidecar.
const MetaSuffix = ".meta.json"

// meta is the sidecar written beside the LIBSVM model file.
type meta struct {
	Format       string    `json:"format"`
	ModelSHA256  string    `json:"model_sha256"`
	NumFeatures  int       `json:"num_features"`
	FeatureNames []string  `json:"feature_names,omitempty"`
	Threshold    float64   `json:"threshold"`
	Scaler       *Scaler   `json:"scaler,omitempty"`
	Params       *metaInfo `json:"training,omitempty"`
}

type metaInfo struct {
	Obj  float64 `json:"obj"`
	Iter int     `json:"iter"`
	NBSV int     `json:"nbsv"`
}

const metaFormat = "fiasco-svm-meta/1"

// Save writes the LIBSVM model to path and our metadata (feature count
// and names, threshold, scaling, a checksum of the model file) to
// path+MetaSuffix.
func (m *Model) Save(path string) error {
	var buf bytes.Buffer
	if err := m.WriteLIBSVM(&buf); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	md := meta{Format: metaFormat, ModelSHA256: hex.EncodeToString(sum[:]), NumFeatures: m.NumFeatures,
		FeatureNames: m.FeatureNames, Threshold: m.Threshold, Scaler: m.Scaler,
		Params: &metaInfo{Obj: m.Obj, Iter: m.Iter, NBSV: m.NBSV}}
	js, err := json.MarshalIndent(md, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(path+MetaSuffix, append(js, '\n'), 0o644)
}

// LoadModel reads a model saved by Save. A plain LIBSVM model (from
// svm-train) without a sidecar loads too, without names or scaling; one
// whose sidecar is another model's is ErrStaleMeta (LoadLIBSVMModel reads
// it without).
func LoadModel(path string) (*Model, error) {
	data, m, err := readModelFile(path)
	if err != nil {
		return nil, err
	}
	js, err := os.ReadFile(path + MetaSuffix)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := m.applyMeta(js, data); err != nil {
		return nil, fmt.Errorf("%s: %w", path+MetaSuffix, err)
	}
	return m, nil
}

// LoadLIBSVMModel reads the LIBSVM model file at path as svm-predict
// does, ignoring any sidecar: no feature names, scaling or threshold.
func LoadLIBSVMModel(path string) (*Model, error) {
	_, m, err := readModelFile(path)
	return m, err
}

// readModelFile reads the LIBSVM model file at path: its bytes and the
// model they hold.
func readModelFile(path string) ([]byte, *Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return nil, nil, fmt.Errorf("%s: svm: gzip data, not a LIBSVM model file (a fiasco model? fiasco clean and eval take it with --model)", path)
	}
	m, err := ReadLIBSVMModel(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, m, nil
}

func (m *Model) applyMeta(js, modelText []byte) error {
	var md meta
	if err := json.Unmarshal(js, &md); err != nil {
		return fmt.Errorf("svm: bad metadata: %w", err)
	}
	if md.Format != metaFormat {
		return fmt.Errorf("svm: metadata format %q, want %q", md.Format, metaFormat)
	}
	sum := sha256.Sum256(modelText)
	if md.ModelSHA256 != hex.EncodeToString(sum[:]) {
		return ErrStaleMeta
	}
	if md.NumFeatures < m.NumFeatures {
		return fmt.Errorf("%w: metadata says %d features, support vectors use %d", ErrDimensions, md.NumFeatures, m.NumFeatures)
	}
	if err := m.Widen(md.NumFeatures); err != nil {
		return err
	}
	if md.FeatureNames != nil && len(md.FeatureNames) != md.NumFeatures {
		return fmt.Errorf("%w: %d feature names for %d features", ErrDimensions, len(md.FeatureNames), md.NumFeatures)
	}
	if md.Scaler != nil && (len(md.Scaler.Min) != md.NumFeatures || len(md.Scaler.Max) != md.NumFeatures) {
		return fmt.Errorf("%w: scaler has %d features, model %d", ErrDimensions, len(md.Scaler.Min), md.NumFeatures)
	}
	m.FeatureNames, m.Threshold, m.Scaler = md.FeatureNames, md.Threshold, md.Scaler
	if md.Params != nil {
		m.Obj, m.Iter, m.NBSV = md.Params.Obj, md.Params.Iter, md.Params.NBSV
	}
	return nil
}

// CheckFeatures verifies that data with the given column names fits the
// model: same count and, if the model has names, the same names in the
// same order. The error names the first difference.
func (m *Model) CheckFeatures(names []string) error {
	if len(names) != m.NumFeatures {
		return fmt.Errorf("%w: data has %d features, model expects %d", ErrDimensions, len(names), m.NumFeatures)
	}
	if m.FeatureNames == nil {
		return nil
	}
	for i, n := range names {
		if n != m.FeatureNames[i] {
			return fmt.Errorf("%w: feature %d is %q in the data but %q in the model", ErrDimensions, i+1, n, m.FeatureNames[i])
		}
	}
	return nil
}
