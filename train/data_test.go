package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeSet writes a data set of n small pages with CleanEval gold into
// dir/name and returns its path.
func writeSet(t *testing.T, dir, name string, n int) string {
	t.Helper()
	root := filepath.Join(dir, name)
	for _, sub := range []string{"html", "gold"} {
		if err := os.MkdirAll(filepath.Join(root, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		text := fmt.Sprintf("Page %d tells a short story about the river and the town that grew beside it over many years.", i)
		page := fmt.Sprintf("<html><body><ul><li><a href=/>Home</a></li></ul><p>%s</p></body></html>", text)
		gold := fmt.Sprintf("URL: http://example.org/%d\n<p> %s\n", i, text)
		if err := os.WriteFile(filepath.Join(root, "html", fmt.Sprintf("p%02d.html", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "gold", fmt.Sprintf("p%02d.txt", i)), []byte(gold), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func ids(ex []*Example) []string {
	var out []string
	for _, e := range ex {
		out = append(out, e.Set+"/"+e.ID)
	}
	return out
}

// TestLoadSample: DataOptions.Sample takes a seeded sample of each set,
// the same pages for the same seed, in the sets' order.
func TestLoadSample(t *testing.T) {
	dir := t.TempDir()
	a, b := writeSet(t, dir, "a", 12), writeSet(t, dir, "b", 3)
	load := func(seed uint64) []string {
		ex, err := LoadData(context.Background(), []string{a, b}, DataOptions{Sample: 5, SampleSeed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return ids(ex)
	}
	one, again := load(1), load(1)
	if !slices.Equal(one, again) {
		t.Errorf("seed 1 sampled %v, then %v", one, again)
	}
	count := map[string]int{}
	for _, id := range one {
		count[filepath.Dir(id)]++
	}
	if count["a"] != 5 || count["b"] != 3 {
		t.Errorf("sampled %v: want 5 pages of a and all 3 of b", one)
	}
	if !slices.IsSorted(one) {
		t.Errorf("sample %v is not in the sets' page order", one)
	}
	differ := false
	for seed := uint64(2); seed < 6 && !differ; seed++ {
		differ = !slices.Equal(load(seed), one)
	}
	if !differ {
		t.Error("seeds 2 to 5 all sampled the pages of seed 1")
	}
}

// TestSplitChecks: a split that lists IDs without a page warns, naming
// them; a page in two splits is refused.
func TestSplitChecks(t *testing.T) {
	dir := t.TempDir()
	set := writeSet(t, dir, "s", 4)
	if err := os.MkdirAll(filepath.Join(set, "split"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(set, "split", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("training.txt", "p00\np01\nnope1.html\nnope2\n")
	write("test.txt", "p02\np03")
	var warned []string
	ex, err := LoadData(context.Background(), []string{set}, DataOptions{Split: "training", OnWarning: func(m string) { warned = append(warned, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ex); !slices.Equal(got, []string{"s/p00", "s/p01"}) {
		t.Errorf("training split: %v", got)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `split "training" lists 2 pages with no html/<id>.html and gold/<id>.* pair (nope1, nope2)`) {
		t.Errorf("warnings %q", warned)
	}
	write("test.txt", "p02\np03\np01\n")
	_, err = LoadData(context.Background(), []string{set}, DataOptions{Split: "test"})
	if err == nil || !strings.Contains(err.Error(), `page p01 is in split "test" and in training.txt`) {
		t.Errorf("a page in both splits: %v", err)
	}
}
