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

// A leading "-" drops a feature or a group, wherever it stands in the list.
func TestFeatureExclusion(t *testing.T) {
	shape, err := featureSet("shape")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{"shape,-vis_x", slices.DeleteFunc(slices.Clone(shape), func(n string) bool { return n == "vis_x" })},
		{"-vis_x,shape", slices.DeleteFunc(slices.Clone(shape), func(n string) bool { return n == "vis_x" })},
		{"text,shape,-text", shape},
		{"shape,-shape,vis_y", nil},
		{" shape , -vis_found ", shape[1:]},
		{"shape, - vis_found", shape[1:]},
	} {
		got, err := featureSet(tc.spec)
		if tc.want == nil {
			if err == nil {
				t.Errorf("featureSet(%q) = %v, want an error (nothing left)", tc.spec, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("featureSet(%q): %v", tc.spec, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("featureSet(%q) = %v, want %v", tc.spec, got, tc.want)
		}
	}
	for _, bad := range []string{"-", "text,-nosuch", "-text"} {
		if got, err := featureSet(bad); err == nil {
			t.Errorf("featureSet(%q) = %v, want an error", bad, got)
		}
	}
}

// The record alias names the record columns, which the text group holds
// and the article policy's default leaves out.
func TestRecordAlias(t *testing.T) {
	rec, err := featureSet("record")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"rec_prose", "rec_link", "rec_count", "rec_words"}; !slices.Equal(rec, want) {
		t.Errorf("record = %v, want %v", rec, want)
	}
	text, err := featureSet("text")
	if err != nil {
		t.Fatal(err)
	}
	noRec, err := featureSet("text,-record")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rec {
		if !slices.Contains(text, n) || slices.Contains(noRec, n) {
			t.Errorf("%s: in text %v, in text,-record %v; want true, false", n, slices.Contains(text, n), slices.Contains(noRec, n))
		}
	}
	if len(noRec) != len(text)-len(rec) {
		t.Errorf("text,-record has %d features, text %d: want %d fewer", len(noRec), len(text), len(rec))
	}
}
