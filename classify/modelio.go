package classify

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// Format names the model file format: gzip-compressed JSON holding
// the metadata and, for each classifier, its SVM in LIBSVM's own text
// model format (readable by svm-predict once written to a file of its own).
const Format = "fiasco-model/1"

// FormatStacked is Format for a model with a second stage (Model.Stack):
// a fiasco that reads only Format refuses it instead of ignoring the
// stage.
const FormatStacked = "fiasco-model/2"

type modelFile struct {
	Format     string             `json:"format"`
	Visual     bool               `json:"visual"`
	Threshold  float64            `json:"threshold"`
	Floor      bool               `json:"floor,omitempty"`
	Blend      float64            `json:"blend,omitempty"`
	Smooth     float64            `json:"smooth,omitempty"`
	FloorShare float64            `json:"floor_share,omitempty"`
	Keywords   *features.Keywords `json:"keywords"`
	English    *svmFile           `json:"english"`
	Other      *svmFile           `json:"other,omitempty"`
	Stack      *svmFile           `json:"stack,omitempty"`
	Info       Info               `json:"info"`
}

type svmFile struct {
	Features []string    `json:"features"`
	Scaler   *svm.Scaler `json:"scaler"`
	LIBSVM   string      `json:"libsvm"`
}

// Write writes m in Format.
func (m *Model) Write(w io.Writer) error {
	f, err := m.file()
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return zw.Close()
}

// Digest returns a SHA-256 of what m decides by (its classifiers,
// scalers, keywords, threshold, smoothing, floor, blend and second
// stage), as hex: models that differ in any of it differ in their
// digests. Its Info (the command that trained it, the data, the counts)
// is left out: a model trained again as before, by another command
// line, has the same digest. It hashes the model's JSON, not its
// compressed file, so that it does not change with the compressor.
func (m *Model) Digest() (string, error) {
	f, err := m.file()
	if err != nil {
		return "", err
	}
	f.Info = Info{}
	return digest(f)
}

// DigestWithInfo is Digest with m's Info hashed too, as Digest was
// until 2026-11-30: outputs written then name their model by it.
func (m *Model) DigestWithInfo() (string, error) {
	f, err := m.file()
	if err != nil {
		return "", err
	}
	return digest(f)
}

func digest(f *modelFile) (string, error) {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// file returns m as its file's JSON object.
func (m *Model) file() (*modelFile, error) {
	if m.English == nil {
		return nil, errors.New("pipeline: model has no classifier")
	}
	if err := checkBlend(m.Blend, m.Visual); err != nil {
		return nil, err
	}
	if err := CheckSmooth(m.Smooth); err != nil {
		return nil, fmt.Errorf("model %w", err)
	}
	if err := CheckFloorShare(m.FloorShare); err != nil {
		return nil, fmt.Errorf("model %w", err)
	}
	f := modelFile{Format: Format, Visual: m.Visual, Threshold: m.Threshold, Floor: m.Floor, FloorShare: m.FloorShare, Blend: m.Blend, Smooth: m.Smooth, Keywords: m.Keywords, Info: m.Info}
	var err error
	if f.English, err = encodeSVM(m.English); err != nil {
		return nil, err
	}
	if m.Other != nil {
		if f.Other, err = encodeSVM(m.Other); err != nil {
			return nil, err
		}
	}
	if m.Stack != nil {
		f.Format = FormatStacked
		if f.Stack, err = encodeSVM(m.Stack); err != nil {
			return nil, err
		}
	}
	return &f, nil
}

// Save writes m to path.
func (m *Model) Save(path string) error {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Load reads a model file written by Save.
func Load(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// MaxModelBytes bounds the decompressed size of a model file that [Read]
// accepts. The embedded default models are a few MiB; a file that
// decompresses to more is refused before it is held in memory (a gzip
// bomb).
const MaxModelBytes = 256 << 20

// maxModelBytes is the limit in force: MaxModelBytes, lowered by tests.
var maxModelBytes int64 = MaxModelBytes

// errTooLarge is returned by capReader past its limit.
var errTooLarge = errors.New("model too large")

// capReader reads at most n bytes of r, then fails with errTooLarge.
type capReader struct {
	r io.Reader
	n int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		// One byte more tells a stream of exactly n bytes from a longer one.
		var b [1]byte
		if k, err := c.r.Read(b[:]); k > 0 {
			return 0, errTooLarge
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	k, err := c.r.Read(p)
	c.n -= int64(k)
	return k, err
}

// Read parses a model in Format. It checks that every feature the
// model names exists in this build and that the SVM widths agree, so a
// model from another version fails here with a clear error.
//
// The file must be exactly one gzip member: Read decompresses it to its
// end, so that gzip's CRC-32 and length of the JSON are verified, and
// refuses a corrupt stream, reserved header flags, a checksum or length
// that does not match, data after the member, anything but white space
// after the JSON, and a file that decompresses to more than
// [MaxModelBytes].
func Read(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r) // a ByteReader: gzip reads no further than its member
	// RFC 1952: a decoder must refuse reserved flags (bits 5-7 of byte 3);
	// compress/gzip ignores them.
	if h, _ := br.Peek(4); len(h) == 4 && h[0] == 0x1f && h[1] == 0x8b && h[3]&0xe0 != 0 {
		return nil, errors.New("corrupt model file (reserved gzip header flags set)")
	}
	if h, _ := br.Peek(len("svm_type ")); string(h) == "svm_type " {
		return nil, errors.New("not a fiasco model: a LIBSVM model (fiasco svm train's or svm-train's), which fiasco svm predict takes; a cleaning model comes from fiasco train")
	}
	if h, _ := br.Peek(64); bytes.HasPrefix(bytes.TrimLeft(h, " \t\r\n"), []byte("{")) {
		return nil, errors.New("not a fiasco model: JSON, not gzip-compressed (a model file is gzip-compressed JSON; a model unpacked with gunzip can be packed again with gzip)")
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("not a fiasco model (%v)", err)
	}
	zr.Multistream(false)
	body := &capReader{r: zr, n: maxModelBytes}
	var f modelFile
	dec := json.NewDecoder(body)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, tooLarge()
		}
		// Corruption often shows as bad JSON first; the gzip checksum,
		// checked at the end of the stream, names the cause.
		if _, zerr := io.Copy(io.Discard, body); zerr != nil {
			return nil, corrupt(zerr)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, corrupt(err)
		}
		return nil, fmt.Errorf("not a fiasco model (%v)", err)
	}
	// The rest of the stream: white space only, read to its end, which
	// verifies the checksum and the length.
	if err := onlySpace(io.MultiReader(dec.Buffered(), body)); err != nil {
		return nil, corrupt(err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		if err == nil {
			return nil, errors.New("corrupt model file: data after the compressed model")
		}
		return nil, err
	}
	if f.Format != Format && f.Format != FormatStacked {
		return nil, fmt.Errorf("model format %q, this fiasco reads %q and %q", f.Format, Format, FormatStacked)
	}
	switch {
	case f.Format == FormatStacked && f.Stack == nil:
		return nil, fmt.Errorf("model format %q names a second stage, but the file has none", f.Format)
	case f.Format != FormatStacked && f.Stack != nil:
		return nil, fmt.Errorf("model format %q has no second stage, but the file holds one (format %q)", f.Format, FormatStacked)
	}
	if f.English == nil {
		return nil, errors.New("model has no classifier")
	}
	if err := checkBlend(f.Blend, f.Visual); err != nil {
		return nil, err
	}
	if err := CheckSmooth(f.Smooth); err != nil {
		return nil, fmt.Errorf("model %w", err)
	}
	if err := CheckFloorShare(f.FloorShare); err != nil {
		return nil, fmt.Errorf("model %w", err)
	}
	m := &Model{Visual: f.Visual, Threshold: f.Threshold, Floor: f.Floor, FloorShare: f.FloorShare, Blend: f.Blend, Smooth: f.Smooth, Keywords: f.Keywords, Info: f.Info}
	if m.English, err = decodeSVM(f.English, "english"); err != nil {
		return nil, err
	}
	if f.Other != nil {
		if m.Other, err = decodeSVM(f.Other, "other"); err != nil {
			return nil, err
		}
	}
	if f.Stack != nil {
		if m.Stack, err = decodeSVM(f.Stack, "stack"); err != nil {
			return nil, err
		}
	}
	if !m.Visual {
		// A model cleaned without rendering would read zeros for these.
		for _, c := range []*svm.Model{m.English, m.Other, m.Stack} {
			if c == nil {
				continue
			}
			for _, n := range c.FeatureNames {
				if features.IsVisual(n) {
					return nil, fmt.Errorf("model marked without visual features (\"visual\": false) reads %q, a visual feature: the file is inconsistent", n)
				}
			}
		}
	}
	return m, nil
}

// checkBlend refuses a blend (Model.Blend) outside 0 to 1, or on a model
// without visual features, which has no text model to blend with.
func checkBlend(blend float64, visual bool) error {
	switch {
	case !(blend >= 0 && blend <= 1):
		return fmt.Errorf("model blend %v: want a weight from 0 to 1", blend)
	case blend > 0 && !visual:
		return fmt.Errorf("model blend %v on a model without visual features: only a visual model blends its values with a text model's", blend)
	}
	return nil
}

// tooLarge names the limit.
func tooLarge() error {
	return fmt.Errorf("not a fiasco model: it decompresses to more than %d MiB, the limit (classify.MaxModelBytes): %w", maxModelBytes>>20, errTooLarge)
}

// errTrailing reports data after the model's JSON.
var errTrailing = errors.New("data after the model")

// onlySpace reads r to its end and fails if it holds anything but JSON
// white space.
func onlySpace(r io.Reader) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return errTrailing
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// corrupt words an error met while decompressing a model.
func corrupt(err error) error {
	if errors.Is(err, errTooLarge) {
		return tooLarge()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("corrupt model file: truncated (%v)", err)
	}
	return fmt.Errorf("corrupt model file (%v)", err)
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
	if which == "stack" {
		if !slices.Equal(f.Features, StackFeatures) {
			return nil, fmt.Errorf("second stage reads %v, this fiasco computes %v", f.Features, StackFeatures)
		}
	} else if _, err := features.Select(f.Features); err != nil {
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

// IsModelFile reports whether the file at path looks like a model file
// written by Save: gzip-compressed JSON whose "format" is a fiasco
// model's. It reads no more than the file's first 64 KiB (a few KiB in
// practice), so that a command can refuse, before any work, to write
// another kind of output over a model, or a model over another kind of
// file. A file that
// does not exist is none (false, nil).
func IsModelFile(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(io.LimitReader(f, 64<<10))
	if err != nil {
		return false, nil // not gzip: no model
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(zr, head)
	head = bytes.TrimLeft(head[:n], " \t\r\n")
	i := bytes.Index(head, []byte(`"format"`))
	if len(head) == 0 || head[0] != '{' || i < 0 {
		return false, nil
	}
	rest := bytes.TrimLeft(head[i+len(`"format"`):], " \t\r\n:")
	return bytes.HasPrefix(rest, []byte(`"fiasco-model/`)), nil
}
