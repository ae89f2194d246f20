package classify

import (
	"errors"
	"fmt"

	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/svm"
)

// Model is a trained cleaner: the classifiers, the feature names they
// read (in order), the learned keywords and the decision threshold.
// The scaling factors travel inside each svm.Model (its Scaler).
type Model struct {
	// Visual reports whether the model reads visual features, so that pages
	// must be rendered.
	Visual bool
	// Threshold is the decision value at or above which a block is kept.
	Threshold float64
	Keywords  *features.Keywords
	// English classifies pages whose text looks English; Other, when not
	// nil, the rest (trained on the language-independent features only).
	English *svm.Model
	Other   *svm.Model
	// Stack, when not nil, is the second stage: it re-decides every block
	// from the first stage's values of the block and its neighbours (see
	// StackRows), and its decision values are the model's.
	Stack *svm.Model
	Info  Info
	// Text, for a visual model, is the text-and-structure model that
	// decides what the visual model cannot judge, rescues the prose it
	// drops and takes its share of a blend (package pipeline, Decide); nil means the embedded text model
	// of the model's policy. Training sets it (train.TrainOptions.Text),
	// so that cross-validation uses one trained on the same pages; model
	// files do not store it.
	Text *Model
	// Rescue, for a visual model, keeps the prose its text model is sure
	// of whatever the visual model says (pipeline.RescueMargin). Off by
	// default: it did not pass the project's rule for a change (RESULTS.md,
	// "The prose rescue"). Model files do not store it.
	Rescue bool
	// Blend, for a visual model, is the weight of its text model (Text)
	// in the decision of every block the visual model decides (all but
	// those the text model decides alone: below the capture, or on a page
	// whose rendering shows too little): the value is (1-Blend) times the
	// visual model's plus Blend times the text model's, shifted by the
	// difference of the two thresholds (package pipeline, Decide). 0, the
	// default, is the visual model alone; it did not pass the project's
	// rule for a change (RESULTS.md, "The rendered model blended with the
	// text model"). Model files store it; a fiasco from before Blend
	// reads such a file as the visual model alone, as one from before
	// Floor reads a floored model without its floor.
	Blend float64
	// Floor keeps every block of prose of a page that the model all but
	// empties (pipeline.FloorShare). Model files store it: the embedded
	// models of the corpus policy have it (RESULTS.md, "The prose floor", "A
	// floor at a tenth for the rendered model"); fiasco clean --floor and
	// --floor=false set it for a run.
	Floor bool
	// FloorShare is the share of a page's prose words below which the
	// floor keeps the page's prose (0: pipeline.FloorShare, a quarter).
	// The embedded rendered model has a tenth (RESULTS.md, "A floor at a
	// tenth for the rendered model"). Model files store it; a fiasco from
	// before FloorShare reads such a file with a quarter.
	FloorShare float64
	// Smooth is the switch cost of sequence smoothing (KeepSmooth): a
	// block is kept or dropped with its neighbours in document order where
	// their values outweigh its own distance from the threshold. 0, the
	// default, keeps each block on its own value. Model files store it; a
	// fiasco from before Smooth reads such a file without it.
	Smooth float64
}

// Info records how a model was made.
type Info struct {
	Command string `json:"command,omitempty"`
	// Policy is the annotation policy the gold labels were mapped to
	// (one of Policies; "" in models made before policies: corpus).
	Policy string   `json:"policy,omitempty"`
	Data   []string `json:"data,omitempty"`
	// Extra are the --extra sets trained on too, ExtraPages the size of
	// the sample taken of each (0: all), Split the --split of the sets
	// that publish one ("": whole). Models made before these were
	// recorded have them in Command only.
	Extra      []string `json:"extra,omitempty"`
	ExtraPages int      `json:"extra_pages,omitempty"`
	Split      string   `json:"split,omitempty"`
	Pages      int      `json:"pages"`
	Blocks     int      `json:"blocks"`
	Clean      int      `json:"clean_blocks"`
	C          float64  `json:"c"`
	Gamma      float64  `json:"gamma"`
	// Stack is the number of folds the second stage (Model.Stack) was
	// trained over; 0: no second stage.
	Stack int `json:"stack,omitempty"`
	// MaxSV is the size of the reduced set the SVMs were cut to where
	// they had more support vectors (train.TrainOptions.MaxSV); 0: none.
	MaxSV int    `json:"max_sv,omitempty"`
	Note  string `json:"note,omitempty"`
}

// Decide returns the decision value of every block of a page from its
// feature table; english says whether the page's text looks English (see
// features.Lang), which picks the classifier.
func (m *Model) Decide(t *features.Table, english bool) ([]float64, error) {
	if t == nil || len(t.Values) == 0 {
		return nil, nil
	}
	sm := m.English
	if !english && m.Other != nil {
		sm = m.Other
	}
	if sm == nil {
		return nil, errors.New("classify: model has no classifier")
	}
	cols, err := features.Select(sm.FeatureNames)
	if err != nil {
		return nil, fmt.Errorf("model does not fit this fiasco: %w", err)
	}
	rows := t.Columns(m.Keywords, cols)
	dec, err := sm.DecisionBatch(rows, 1)
	if err != nil || m.Stack == nil {
		return dec, err
	}
	return m.Stack.DecisionBatch(StackRows(dec, t), 1)
}

// FallbackMargin is how far below the threshold the best block of a page
// may be and still be kept when no block reaches the threshold: a page
// whose only text the model doubts (one paragraph, one long table cell
// unlike any block it was trained on) gives that text, not nothing. A
// block further below is boilerplate the model is sure of.
const FallbackMargin = 1.0

// Keep keeps the blocks whose decision value is at least threshold. When
// none is, it keeps the one block with the highest value if that value
// is within FallbackMargin of the threshold.
func Keep(score []float64, threshold float64) []bool {
	keep := make([]bool, len(score))
	kept := false
	for i, v := range score {
		keep[i] = v >= threshold
		kept = kept || keep[i]
	}
	if !kept {
		fallback(keep, score, threshold)
	}
	return keep
}
