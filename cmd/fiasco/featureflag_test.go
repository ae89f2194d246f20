package main

import (
	"slices"
	"testing"

	"github.com/fiasco-project/fiasco/features"
)

// The aliases name existing visual features, and shape and style together
// are the visual group.
func TestFeatureAliases(t *testing.T) {
	shape, err := featureSet("shape")
	if err != nil {
		t.Fatal(err)
	}
	style, err := featureSet("style")
	if err != nil {
		t.Fatal(err)
	}
	both, err := featureSet("shape,style")
	if err != nil {
		t.Fatal(err)
	}
	if len(both) != len(shape)+len(style) {
		t.Errorf("shape and style overlap: %v, %v", shape, style)
	}
	if visual := features.Names(features.Visual, true); !slices.Equal(both, visual) {
		t.Errorf("shape,style = %v\nvisual group = %v", both, visual)
	}
	// The embedded visual models' columns are shape's.
	want := []string{"vis_found", "vis_solidity1", "vis_solidity2", "vis_solidity3", "vis_relwidth", "vis_headline",
		"vis_x", "vis_y", "vis_area", "vis_fontsize", "vis_lines", "vis_col_overlap", "vis_col_offset", "vis_outside", "vis_col_density"}
	if !slices.Equal(shape, want) {
		t.Errorf("shape = %v, want %v", shape, want)
	}
	if !slices.Equal(style, []string{"vis_bold", "vis_contrast", "vis_fixed", "vis_first_screen", "vis_screens"}) {
		t.Errorf("style = %v", style)
	}
}
