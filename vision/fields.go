package vision

import "math"

// Field is one per-block measurement that vision exports to the
// classifier's feature schema: package features makes one column of every
// entry of Fields, in order, named Name.
type Field struct {
	// Name is the column's name in the feature schema (and in the models
	// trained on it): never rename one that a model may use.
	Name string
	// Get returns the value of a found block. It returns 0 for a block
	// that was not found (whose Features are all zero); package features
	// writes zeros for those blocks without calling it.
	Get func(f *Features) float64
	// Style marks what the renderer read from the computed style
	// (Options.Style, Screen) rather than what was measured on the
	// screenshot. They are not in a trainer's default feature set (they
	// did not measure better; RESULTS.md): ask for them by name or
	// with the CLI's style group.
	Style bool
}

// Fields are the measurements of Features that become feature columns, in
// column order. Adding a visual feature means computing it into Features
// (measureBlock or pageFeatures) and adding its entry here; package
// features picks it up, and models that do not name it ignore it.
var Fields = []Field{
	{"vis_found", func(f *Features) float64 { return bool01(f.Found) }, false},
	{"vis_solidity1", func(f *Features) float64 { return f.SolidityI }, false},
	{"vis_solidity2", func(f *Features) float64 { return f.SolidityII }, false},
	{"vis_solidity3", func(f *Features) float64 { return f.SolidityIII }, false},
	{"vis_relwidth", func(f *Features) float64 { return f.RelWidth }, false},
	{"vis_headline", func(f *Features) float64 { return f.Headline }, false},
	{"vis_x", func(f *Features) float64 { return f.X }, false},
	{"vis_y", func(f *Features) float64 { return f.Y }, false},
	{"vis_area", func(f *Features) float64 { return f.Area }, false},
	{"vis_fontsize", func(f *Features) float64 { return f.FontSizeRel }, false},
	{"vis_lines", func(f *Features) float64 { return math.Log1p(float64(f.Lines)) }, false},
	// From the computed style the renderer read (Options.Style, Screen).
	{"vis_bold", func(f *Features) float64 { return bool01(f.Style.Weight >= 600) }, true},
	{"vis_contrast", func(f *Features) float64 { return contrastScore(f.Style.Contrast) }, true},
	{"vis_fixed", func(f *Features) float64 { return bool01(f.Style.Fixed) }, true},
	{"vis_first_screen", func(f *Features) float64 { return bool01(f.FirstScreen) }, true},
	{"vis_screens", func(f *Features) float64 { return math.Log1p(max(0, f.Screens)) }, true},
}

// contrastScore maps a contrast ratio (1..21) to [0, 1] on a log scale:
// 0 for none (or unknown), 1 for black on white.
func contrastScore(c float64) float64 {
	if !(c > 1) {
		return 0
	}
	return math.Min(1, math.Log(c)/math.Log(21))
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
