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
}
