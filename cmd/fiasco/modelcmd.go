package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
)

func init() {
	register(&command{
		name:    "model",
		summary: "describe a model: how it was trained, its settings and its features",
		run:     runModel,
	})
}

const modelHelp = `usage: fiasco model [--json] [MODEL ...]

Describes each MODEL file (as train writes it, and as --model reads it):
the command that trained it, its policy and data, the pages and blocks it
learned from, its SVMs (kernel, C, gamma, support vectors), the cut
(threshold, smoothing, prose floor, blend) that fiasco clean applies, its
features and its digest (a run's settings file, .NAME.settings.json or
DIR/.fiasco-settings.json, names its model by the first 16 digits, where
the run's flags, --threshold, --smooth, --floor, --floor-share or
--blend, left the model as it is). Without
MODEL, the four embedded models: the corpus policy's text and rendered
ones, and the article policy's. Text goes to standard output, one block
per model; --json writes one JSON object per line instead.`

// modelInfo is what fiasco model says of one model.
type modelInfo struct {
	Model     string         `json:"model"` // the file, or "embedded: ..."
	Info      classify.Info  `json:"info"`
	Visual    bool           `json:"visual"`
	Threshold float64        `json:"threshold"`
	Smooth    float64        `json:"smooth,omitempty"`
	Floor     float64        `json:"floor_share,omitempty"` // the prose floor's share; 0: no floor
	Blend     float64        `json:"blend,omitempty"`
	SVMs      []modelSVMInfo `json:"svms"`
	Digest    string         `json:"digest"`
}

// modelSVMInfo describes one of a model's SVMs.
type modelSVMInfo struct {
	Role     string   `json:"role"` // english, other, stack
	Kernel   string   `json:"kernel"`
	Gamma    float64  `json:"gamma,omitempty"`
	SV       int      `json:"support_vectors"`
	Features []string `json:"features"`
}

func runModel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("model", modelHelp)
	asJSON := fs.Bool("json", false, "write one JSON object per model")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	n := 0
	show := func(name string, m *classify.Model) error {
		in, err := describeModel(name, m)
		if err != nil {
			return err
		}
		if *asJSON {
			b, err := json.Marshal(in)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s\n", b)
		} else {
			if n > 0 {
				fmt.Fprintln(stdout)
			}
			writeModelInfo(stdout, in)
		}
		n++
		return nil
	}
	if len(pos) == 0 {
		for _, p := range classify.Policies {
			for _, visual := range []bool{false, true} {
				m, err := classify.DefaultFor(p, visual)
				if err != nil {
					return err
				}
				kind := "text"
				if visual {
					kind = "rendered"
				}
				if err := show(fmt.Sprintf("embedded: the %s policy's %s model", p, kind), m); err != nil {
					return err
				}
			}
		}
	}
	// Each file is described as it is read; one that cannot be read is
	// said on stderr and the others are described all the same (exit
	// status 1 at the end, as fiasco clean's failed pages).
	failed := 0
	for _, path := range pos {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := classify.Load(path)
		if err == nil {
			if err = show(path, m); err != nil {
				err = fmt.Errorf("%s: %w", path, err)
			}
		}
		if err != nil {
			if len(pos) == 1 {
				return err // classify.Load names the file
			}
			fmt.Fprintf(stderr, "fiasco model: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		return &failedError{n: failed, what: "model files"}
	}
	return nil
}

// describeModel is what fiasco model says of m, named name.
func describeModel(name string, m *classify.Model) (modelInfo, error) {
	d, err := m.Digest()
	if err != nil {
		return modelInfo{}, err
	}
	in := modelInfo{Model: name, Info: m.Info, Visual: m.Visual, Threshold: m.Threshold, Smooth: m.Smooth, Blend: m.Blend, Digest: d}
	if in.Info.Policy == "" {
		in.Info.Policy = classify.PolicyCorpus
	}
	if m.Floor {
		in.Floor = pipeline.FloorShareOf(m)
	}
	for _, s := range []struct {
		role string
		m    *svm.Model
	}{{"english", m.English}, {"other", m.Other}, {"stack", m.Stack}} {
		if s.m == nil {
			continue
		}
		si := modelSVMInfo{Role: s.role, Kernel: s.m.Kernel.String(), SV: s.m.TotalSV(), Features: s.m.FeatureNames}
		if s.m.Kernel != svm.Linear {
			si.Gamma = s.m.Gamma
		}
		in.SVMs = append(in.SVMs, si)
	}
	return in, nil
}

// svmRoles says what each of a model's SVMs decides.
var svmRoles = map[string]string{
	"english": "pages whose text looks English",
	"other":   "other pages (language-independent features)",
	"stack":   "the second stage, over the first's values",
}

func writeModelInfo(w io.Writer, in modelInfo) {
	fmt.Fprintf(w, "%s\n", in.Model)
	kind := "text and structure (no rendering)"
	if in.Visual {
		kind = "visual features: pages are rendered"
	}
	fmt.Fprintf(w, "  policy %s; %s\n", in.Info.Policy, kind)
	if in.Info.Command != "" {
		fmt.Fprintf(w, "  trained by: %s\n", in.Info.Command)
	}
	if len(in.Info.Data) > 0 {
		line := "  data: " + strings.Join(in.Info.Data, ", ")
		if len(in.Info.Extra) > 0 {
			sample := ""
			if in.Info.ExtraPages > 0 {
				sample = fmt.Sprintf(", a sample of at most %d pages of each", in.Info.ExtraPages)
			}
			line += fmt.Sprintf("; extra: %s%s", strings.Join(in.Info.Extra, ", "), sample)
		}
		if in.Info.Split != "" {
			line += fmt.Sprintf(" (split %s)", in.Info.Split)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "  learned from %s, %s (%d clean)\n", plural(in.Info.Pages, "page"), plural(in.Info.Blocks, "block"), in.Info.Clean)
	cut := fmt.Sprintf("  keeps blocks at threshold %g", in.Threshold)
	if in.Smooth > 0 {
		cut += fmt.Sprintf(", smoothed at %g", in.Smooth)
	}
	if in.Floor > 0 {
		cut += fmt.Sprintf(", the prose floor at %g", in.Floor)
	}
	if in.Blend > 0 {
		cut += fmt.Sprintf(", blended with the text model at %g", in.Blend)
	}
	fmt.Fprintln(w, cut)
	for _, s := range in.SVMs {
		params := s.Kernel
		if in.Info.C > 0 && s.Role != "stack" { // the second stage has C of its own (train.StackParams), not recorded
			params += fmt.Sprintf(", C %g", in.Info.C)
		}
		if s.Gamma > 0 {
			params += fmt.Sprintf(", gamma %g", s.Gamma)
		}
		reduced := ""
		if in.Info.MaxSV > 0 {
			reduced = fmt.Sprintf(" (reduced-set limit %d, --max-sv)", in.Info.MaxSV)
		}
		fmt.Fprintf(w, "  SVM for %s: %s; %s%s\n", svmRoles[s.Role], params, plural(s.SV, "support vector"), reduced)
		fmt.Fprintf(w, "    %d features: %s\n", len(s.Features), strings.Join(s.Features, " "))
	}
	if in.Info.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", in.Info.Note)
	}
	fmt.Fprintf(w, "  digest %s\n", in.Digest)
}
