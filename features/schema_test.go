package features

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/blocks"
	"github.com/fiasco-project/fiasco/vision"
)

// TestSchema: every column has a name, no name is used twice, and the
// schema is the text columns, vision's fields, the layout columns and the
// context columns, in that order; visual names, and only they, start with
// vis_.
func TestSchema(t *testing.T) {
	if want := numText + len(vision.Fields) + numLayout + numContext; len(schema) != want {
		t.Fatalf("%d columns, want %d", len(schema), want)
	}
	seen := map[string]int{}
	for i, f := range schema {
		if f.Name == "" {
			t.Errorf("column %d has no name (a textSchema or layoutSchema entry missing?)", i)
		}
		if j, ok := seen[f.Name]; ok {
			t.Errorf("%q names columns %d and %d", f.Name, j, i)
		}
		seen[f.Name] = i
		if (f.Group == Visual) != strings.HasPrefix(f.Name, "vis_") {
			t.Errorf("column %d %q in group %d", i, f.Name, f.Group)
		}
		if c, err := Select([]string{f.Name}); err != nil || c[0] != i {
			t.Errorf("Select(%q) = %v, %v, want %d", f.Name, c, err, i)
		}
	}
	for k, f := range vision.Fields {
		if got := schema[visualCol+k]; got.Name != f.Name || got.Group != Visual {
			t.Errorf("vision.Fields[%d] %q: column %d is %+v", k, f.Name, visualCol+k, got)
		}
	}
	for k, f := range layoutSchema {
		if got := schema[layoutCol(k)]; got != f {
			t.Errorf("layout feature %q: column %d is %+v", f.Name, layoutCol(k), got)
		}
	}
	for k, f := range contextSchema {
		if got := schema[contextCol(k)]; got != f {
			t.Errorf("context feature %q: column %d is %+v", f.Name, contextCol(k), got)
		}
	}
	for c := colTagHeading; c <= colTagOther; c++ {
		if !strings.HasPrefix(schema[c].Name, "tag_") {
			t.Errorf("tag column %d is %q", c, schema[c].Name)
		}
	}
}

// distinctFeatures returns vision.Features of a found block with a
// different value in every numeric field (by reflection, so that a field
// added later gets one too) and the given box edges.
func distinctFeatures(left, top, right, bottom float64) vision.Features {
	var f vision.Features
	rv := reflect.ValueOf(&f).Elem()
	for k := 0; k < rv.NumField(); k++ {
		switch fv := rv.Field(k); fv.Kind() {
		case reflect.Float64:
			fv.SetFloat(0.01 * float64(k+1))
		case reflect.Int:
			fv.SetInt(int64(100 * (k + 1)))
		}
	}
	f.Found = true
	f.Left, f.Top, f.Right, f.Bottom = left, top, right, bottom
	f.Style = vision.Style{Weight: 700, Contrast: 7, Fixed: true}
	return f
}

// TestExtractVisual: what vision measured lands in the columns named by
// vision.Fields, and the layout columns are filled from the boxes.
func TestExtractVisual(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	bs := blocks.Find(doc)
	if len(bs) < 3 {
		t.Fatalf("%d blocks", len(bs))
	}
	vis := make([]vision.Features, len(bs)) // all but block 1 not found
	vis[1] = distinctFeatures(0.25, 0.4, 0.75, 0.6)
	x := vis[1]
	tab := Extract(bs, vis)
	row := tab.Values[1]
	col := func(name string) int { c, _ := Select([]string{name}); return c[0] }

	// Each field in its own column, with its own value.
	at := map[float64]string{}
	for k, f := range vision.Fields {
		got := row[visualCol+k]
		if got != f.Get(&x) {
			t.Errorf("%s = %v, want %v", f.Name, got, f.Get(&x))
		}
		if other, dup := at[got]; dup && got != 0 && got != 1 { // flags are 0 or 1
			t.Errorf("%s and %s both %v: two fields read the same measurement?", other, f.Name, got)
		}
		at[got] = f.Name
	}
	want := map[string]float64{
		"vis_found":        1,
		"vis_solidity1":    x.SolidityI,
		"vis_solidity2":    x.SolidityII,
		"vis_solidity3":    x.SolidityIII,
		"vis_relwidth":     x.RelWidth,
		"vis_headline":     x.Headline,
		"vis_x":            x.X,
		"vis_y":            x.Y,
		"vis_area":         x.Area,
		"vis_fontsize":     x.FontSizeRel,
		"vis_lines":        math.Log1p(float64(x.Lines)),
		"vis_col_overlap":  1, // the one found block is the main column
		"vis_col_offset":   0,
		"vis_outside":      0,
		"vis_col_density":  1,
		"vis_bold":         1,
		"vis_contrast":     math.Log(7) / math.Log(21),
		"vis_fixed":        1,
		"vis_first_screen": 0,
		"vis_screens":      math.Log1p(x.Screens),
	}
	for name, w := range want {
		if got := row[col(name)]; got != w {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	for i, r := range tab.Values {
		if i == 1 {
			continue
		}
		for c := visualCol; c < contextCol(0); c++ {
			if r[c] != 0 {
				t.Errorf("block %d not found but %s = %v", i, schema[c].Name, r[c])
			}
		}
	}
	// The text columns do not depend on the visual input.
	plain := Extract(bs, nil)
	for i := range bs {
		for c := 0; c < numText; c++ {
			if plain.Values[i][c] != tab.Values[i][c] {
				t.Errorf("block %d %s: %v without vision, %v with", i, schema[c].Name, plain.Values[i][c], tab.Values[i][c])
			}
		}
	}
}
