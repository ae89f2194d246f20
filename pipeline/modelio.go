package pipeline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// ModelFormat names the model file format: gzip-compressed JSON holding
// the metadata and, for each classifier, its SVM in LIBSVM's own text
// model format (readable by svm-predict once written to a file of its own).
const ModelFormat = "fiasco-model/1"

type modelFile struct {
	Format    string             `json:"format"`
	Visual    bool               `json:"visual"`
	Threshold float64            `json:"threshold"`
	Keywords  *features.Keywords `json:"keywords"`
	English   *svmFile           `json:"english"`
	Other     *svmFile           `json:"other,omitempty"`
	Info      Info               `json:"info"`
}

type svmFile struct {
	Features []string    `json:"features"`
	Scaler   *svm.Scaler `json:"scaler"`
	LIBSVM   string      `json:"libsvm"`
}

// Write writes m in ModelFormat.
func (m *Model) Write(w io.Writer) error {
	if m.English == nil {
		return errors.New("pipeline: model has no classifier")
	}
	f := modelFile{Format: ModelFormat, Visual: m.Visual, Threshold: m.Threshold, Keywords: m.Keywords, Info: m.Info}
	var err error
	if f.English, err = encodeSVM(m.English); err != nil {
		return err
	}
	if m.Other != nil {
		if f.Other, err = encodeSVM(m.Other); err != nil {
			return err
		}
	}
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return zw.Close()
}

// Save writes m to path.
func (m *Model) Save(path string) error {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// LoadModel reads a model file written by Save.
func LoadModel(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := ReadModel(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ReadModel parses a model in ModelFormat. It checks that every feature the
// model names exists in this build and that the SVM widths agree, so a
// model from another version fails here with a clear error.
func ReadModel(r io.Reader) (*Model, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a fiasco model (%v)", err)
	}
	var f modelFile
	dec := json.NewDecoder(zr)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a fiasco model (%v)", err)
	}
	if f.Format != ModelFormat {
		return nil, fmt.Errorf("model format %q, this fiasco reads %q", f.Format, ModelFormat)
	}
	if f.English == nil {
		return nil, errors.New("model has no classifier")
	}
	m := &Model{Visual: f.Visual, Threshold: f.Threshold, Keywords: f.Keywords, Info: f.Info}
	if m.English, err = decodeSVM(f.English, "english"); err != nil {
		return nil, err
	}
	if f.Other != nil {
		if m.Other, err = decodeSVM(f.Other, "other"); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func encodeSVM(m *svm.Model) (*svmFile, error) {
	var b strings.Builder
	if err := m.WriteLIBSVM(&b); err != nil {
		return nil, err
	}
	return &svmFile{Features: m.FeatureNames, Scaler: m.Scaler, LIBSVM: b.String()}, nil
}

func decodeSVM(f *svmFile, which string) (*svm.Model, error) {
	m, err := svm.ReadLIBSVMModel(strings.NewReader(f.LIBSVM))
	if err != nil {
		return nil, fmt.Errorf("%s classifier: %w", which, err)
	}
	n := len(f.Features)
	if n == 0 {
		return nil, fmt.Errorf("%s classifier: no feature names", which)
	}
	if _, err := features.Select(f.Features); err != nil {
		return nil, fmt.Errorf("%s classifier: %w", which, err)
	}
	if err := m.Widen(n); err != nil {
		return nil, fmt.Errorf("%s classifier: %w", which, err)
	}
	if f.Scaler == nil || len(f.Scaler.Min) != n || len(f.Scaler.Max) != n {
		return nil, fmt.Errorf("%s classifier: scaling factors missing or not for %d features", which, n)
	}
	m.FeatureNames, m.Scaler = f.Features, f.Scaler
	return m, nil
}
