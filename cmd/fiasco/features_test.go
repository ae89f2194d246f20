package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/features"
)

// riverPages is a small data set whose clean text is about rivers and
// whose boilerplate is a menu and a copyright line; with empty, the gold of
// its last page holds no clean word.
func riverPages(topic string, empty bool) map[string][2]string {
	pages := map[string][2]string{}
	for i := 1; i <= 4; i++ {
		html := fmt.Sprintf(`<html><body><ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li><li><a href="/c">Contact us</a></li></ul>
<h1>Story %d about %s</h1><p>The %s flows through the valley and farmers water their fields with it every summer, page %d.</p>
<p>Fishermen say the %s was cleaner when they were young, and the town agrees.</p><div>Copyright 2026 Example Ltd. All rights reserved.</div></body></html>`, i, topic, topic, i, topic)
		gold := fmt.Sprintf("URL: http://x/%d\n<h>Story %d about %s\n<p>The %s flows through the valley and farmers water their fields with it every summer, page %d.\n<p>Fishermen say the %s was cleaner when they were young, and the town agrees.\n", i, i, topic, topic, i, topic)
		if empty && i == 4 {
			gold = "URL: http://x/4\n"
		}
		pages[fmt.Sprint(i)] = [2]string{html, gold}
	}
	return pages
}

func sidecarKeywords(t *testing.T, path string) *features.Keywords {
	t.Helper()
	data, err := os.ReadFile(path + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var sc featureSidecar
	if err := json.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	return sc.Keywords
}

// TestFeaturesKeywordsFrom: a test file's keyword columns can use the
// training file's keywords (from its sidecar, or from a model) instead of
// being learned from the test labels; a file holding none is refused by
// name. A page whose gold holds no clean word is warned of.
func TestFeaturesKeywordsFrom(t *testing.T) {
	trainDir, testDir, out := t.TempDir(), t.TempDir(), t.TempDir()
	writeGoldSet(t, trainDir, riverPages("river", false))
	writeGoldSet(t, testDir, riverPages("canal", true))
	trainFile := filepath.Join(out, "train.libsvm")
	if code, _, errs := fiasco(t, "features", "-q", "--data", trainDir, "-o", trainFile); code != 0 {
		t.Fatalf("features (training): exit %d: %s", code, errs)
	}
	trainKW := sidecarKeywords(t, trainFile)
	if trainKW == nil || trainKW.Clean["river"] == 0 {
		t.Fatalf("training keywords %+v: want river among the clean ones", trainKW)
	}

	own := filepath.Join(out, "own.libsvm")
	code, _, errs := fiasco(t, "features", "-q", "--data", testDir, "-o", own)
	if code != 0 {
		t.Fatalf("features (test, own keywords): exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "1 page without a clean word in the gold ("+filepath.Base(testDir)+"/4)") {
		t.Errorf("no warning of the page with empty gold in:\n%s", errs)
	}
	if kw := sidecarKeywords(t, own); reflect.DeepEqual(kw, trainKW) {
		t.Fatalf("the test set learned the training set's keywords %+v: the test is void", kw)
	}

	model := filepath.Join(out, "m.fiasco")
	if code, _, errs := fiasco(t, "train", "-q", "--no-render", "--data", trainDir, "-o", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	for _, from := range []string{trainFile, trainFile + ".json", model} {
		got := filepath.Join(out, "test.libsvm")
		if code, _, errs := fiasco(t, "features", "-q", "--data", testDir, "--keywords-from", from, "-o", got); code != 0 {
			t.Fatalf("--keywords-from %s: exit %d: %s", from, code, errs)
		}
		if kw := sidecarKeywords(t, got); !reflect.DeepEqual(kw, trainKW) {
			t.Errorf("--keywords-from %s: keywords %+v, want the training file's %+v", from, kw, trainKW)
		}
		// The rows differ from those with the test set's own keywords.
		a, _ := os.ReadFile(got)
		b, _ := os.ReadFile(own)
		if string(a) == string(b) {
			t.Errorf("--keywords-from %s: the rows are those of the test set's own keywords", from)
		}
	}

	// Scaling or predicting a file whose keywords are its own notes it;
	// one with the training file's keywords does not.
	rng := filepath.Join(out, "train.range")
	if code, _, errs := fiasco(t, "svm", "scale", "-s", rng, trainFile); code != 0 {
		t.Fatalf("svm scale -s: exit %d: %s", code, errs)
	}
	svmModel := filepath.Join(out, "train.model")
	if code, _, errs := fiasco(t, "svm", "train", "-q", trainFile, svmModel); code != 0 {
		t.Fatalf("svm train: exit %d: %s", code, errs)
	}
	for _, f := range []string{own, filepath.Join(out, "test.libsvm")} {
		wantNote := f == own
		_, _, scaleErrs := fiasco(t, "svm", "scale", "-r", rng, f)
		_, _, predErrs := fiasco(t, "svm", "predict", f, svmModel, filepath.Join(out, "pred"))
		for cmd, errs := range map[string]string{"svm scale -r": scaleErrs, "svm predict": predErrs} {
			if got := strings.Contains(errs, "learned from its own labels"); got != wantNote {
				t.Errorf("%s %s: note of own keywords %v, want %v; stderr %q", cmd, filepath.Base(f), got, wantNote, errs)
			}
		}
	}

	if code, _, errs := fiasco(t, "features", "-q", "--data", testDir, "--keywords", "50", "--keywords-from", trainFile, "-o", filepath.Join(out, "x.libsvm")); code != 2 || !strings.Contains(errs, "give one") {
		t.Errorf("--keywords with --keywords-from: exit %d, stderr %q; want a usage error", code, errs)
	}
	broken := filepath.Join(out, "broken.libsvm")
	os.WriteFile(broken, []byte("+1 1:0.5\n"), 0o644)
	os.WriteFile(broken+".json", []byte(`{"features": [`), 0o644)
	junk := filepath.Join(out, "junk.json")
	os.WriteFile(junk, []byte(`{"features":["len_chars"],"keywords":null}`), 0o644)
	gold := filepath.Join(testDir, "gold", "1.txt")
	for from, named := range map[string]string{junk: junk, gold: gold, filepath.Join(out, "missing"): "missing", broken: broken + ".json"} {
		code, _, errs := fiasco(t, "features", "-q", "--data", testDir, "--keywords-from", from, "-o", filepath.Join(out, "x.libsvm"))
		if code == 0 || !strings.Contains(errs, "--keywords-from") || !strings.Contains(errs, named) {
			t.Errorf("--keywords-from %s: exit %d, stderr %q; want an error naming the file", from, code, errs)
		}
	}
}

// TestFeaturesColumns: features writes fiasco train's columns by default
// (under --policy article the context ones added, the record ones left
// out), --features picks
// others as train's does, the sidecar records the policy, and keywords of
// another policy, visual --features with --no-render and an -o that would
// be another file's sidecar are refused.
func TestFeaturesColumns(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	writeGoldSet(t, dir, riverPages("river", false))
	sidecar := func(path string) featureSidecar {
		t.Helper()
		var sc featureSidecar
		data, err := os.ReadFile(path + ".json")
		if err == nil {
			err = json.Unmarshal(data, &sc)
		}
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	text, _ := featureSet("text")
	textCtx, _ := featureSet(articleFeatures) // text,context,-record
	for _, c := range []struct {
		args   []string
		want   []string
		policy string
	}{
		{nil, text, "corpus"},
		{[]string{"--policy", "article"}, textCtx, "article"},
		{[]string{"--no-render", "--features", "text,-kw_odds"}, slices.DeleteFunc(slices.Clone(text), func(n string) bool { return n == "kw_odds" }), "corpus"},
	} {
		f := filepath.Join(out, "b.libsvm")
		args := append([]string{"features", "-q", "--data", dir, "-o", f}, c.args...)
		if code, _, errs := fiasco(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		sc := sidecar(f)
		if !reflect.DeepEqual(sc.Features, c.want) || sc.Policy != c.policy {
			t.Errorf("%v: columns %v under %q, want %v under %q", c.args, sc.Features, sc.Policy, c.want, c.policy)
		}
	}
	corpus := filepath.Join(out, "corpus.libsvm")
	if code, _, errs := fiasco(t, "features", "-q", "--data", dir, "-o", corpus); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct{ args, msg string }{
		{"--policy article --keywords-from " + corpus, "learned under --policy corpus"},
		{"--no-render --features text,shape", "needs rendered pages"},
		{"--visual --features text", "--visual adds the visual features"},
	} {
		args := append([]string{"features", "-q", "--data", dir, "-o", filepath.Join(out, "x.libsvm")}, strings.Fields(c.args)...)
		if code, _, errs := fiasco(t, args...); code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.msg)
		}
	}
	if code, _, errs := fiasco(t, "features", "-q", "--data", dir, "-o", corpus+".json"); code != 2 || !strings.Contains(errs, "the sidecar is written to") {
		t.Errorf("-o a sidecar's name: exit %d, stderr %q", code, errs)
	}
	if sc := sidecar(corpus); sc.Features == nil {
		t.Error("the sidecar was overwritten")
	}
	// A sidecar that cannot be written: refused before any work, and no
	// rows are left without their sidecar.
	blocked := filepath.Join(out, "blocked.libsvm")
	if err := os.Mkdir(blocked+".json", 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := fiasco(t, "features", "-q", "--data", dir, "-o", blocked); code != 2 || !strings.Contains(errs, "its sidecar") {
		t.Errorf("a sidecar that is a directory: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(blocked); err == nil {
		t.Error("rows were written without their sidecar")
	}
}

// TestFeaturesUnmatchedGold: a page whose gold is another text (a gold
// file swapped or misnamed) is named in a warning: not one of its blocks
// is labelled clean although the gold holds many words.
func TestFeaturesUnmatchedGold(t *testing.T) {
	dir := t.TempDir()
	pages := riverPages("river", false)
	p := pages["2"]
	p[1] = "URL: http://x/2\n<h>Baking bread at home\n<p>Mix the flour, water, salt and yeast, knead the dough for ten minutes and let it rise in a warm kitchen until it doubles in size.\n"
	pages["2"] = p
	writeGoldSet(t, dir, pages)
	code, _, errs := fiasco(t, "features", "-q", "--data", dir, "-o", filepath.Join(t.TempDir(), "f.libsvm"))
	if code != 0 {
		t.Fatalf("features: exit %d: %s", code, errs)
	}
	want := "1 page whose gold (20 words or more) matches under a tenth of its words in the page (" + filepath.Base(dir) + "/2)"
	if !strings.Contains(errs, want) {
		t.Errorf("no warning %q in:\n%s", want, errs)
	}
}
