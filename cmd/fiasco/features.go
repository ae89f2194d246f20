package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/features"
	"github.com/fiasco-project/fiasco/gold"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/svm"
	"github.com/fiasco-project/fiasco/train"
)

func init() {
	register(&command{
		name:    "features",
		summary: "write the labelled feature vectors of gold data in LIBSVM format",
		run:     runFeatures,
	})
}

// featureSidecar describes the rows of a features file.
type featureSidecar struct {
	Features []string           `json:"features"`
	Keywords *features.Keywords `json:"keywords"`
	// Policy is the gold policy the labels and keywords follow (absent
	// in sidecars written before it was recorded).
	Policy string `json:"policy,omitempty"`
	// KeywordsFrom is the --keywords-from file, "" where the keywords
	// were learned from these rows' own labels (nil in sidecars written
	// before it was recorded).
	KeywordsFrom *string      `json:"keywords_from,omitempty"`
	Rows         []featureRow `json:"rows"`
}

// ownKeywordsNote returns a note for the svm commands when data is a
// features file (it has fiasco features' sidecar) whose kw_* columns were
// learned from its own labels, and "" otherwise. Scored as a test set,
// such a file's figures are too good: its keyword columns know its labels.
func ownKeywordsNote(data string) string {
	sc, ok := readSidecarHead(data)
	if !ok || sc.KeywordsFrom == nil || *sc.KeywordsFrom != "" {
		return ""
	}
	for _, f := range sc.Features {
		if strings.HasPrefix(f, "kw_") {
			return fmt.Sprintf("note: the kw_* columns of %s were learned from its own labels (its sidecar %s); "+
				"as a test set it scores too well: write it with fiasco features --keywords-from TRAINING.libsvm",
				data, filepath.Base(data)+".json")
		}
	}
	return ""
}

// sidecarHead is what the svm commands read of a features file's sidecar
// (DATA.json): the two fields only, its rows running to megabytes.
type sidecarHead struct {
	Features     []string `json:"features"`
	KeywordsFrom *string  `json:"keywords_from"`
}

// readSidecarHead reads the sidecar of the features file data; ok is
// false where it has none, or one that is no sidecar.
func readSidecarHead(data string) (sc sidecarHead, ok bool) {
	js, err := os.ReadFile(data + ".json")
	if err != nil {
		return sc, false
	}
	return sc, json.Unmarshal(js, &sc) == nil
}

type featureRow struct {
	Set   string  `json:"set"`
	Page  string  `json:"page"`
	Block int     `json:"block"`
	Share float64 `json:"gold_share"`
}

const featuresCmdHelp = `usage: fiasco features --data DIR [--data DIR...] -o BLOCKS.libsvm

Writes one line per text block of the gold data in LIBSVM's data format
(label +1 clean, -1 dirty; features unscaled, indices from 1 in the order of
the sidecar BLOCKS.libsvm.json, which also names the page and block of every
row and holds the keywords learned from the data and the policy). The
columns are fiasco train's by default (text; under --policy article
text,context,-record; --visual adds every visual feature); --features picks others,
as train's does. fiasco grid, svm-scale, svm-train and svm-grid read the
file as it is. fiasco train scales every column to [-1, 1] before it
trains: to tune C and gamma for it, scale the file first (fiasco svm
scale) and search the scaled file (see fiasco grid -h).

For a test file scored by a model trained on another, take the training
file's keywords instead of learning the test data's own (the kw_* columns
would otherwise know the test labels):

  fiasco features --data train/ -o train.libsvm
  fiasco features --data test/ --keywords-from train.libsvm -o test.libsvm

The sidecar records which (keywords_from); fiasco svm scale -r and svm
predict note a file whose keywords were learned from its own labels.

A page that fails to load is named on stderr and has no rows; the files
are still written, and the exit status is then 3.`

func runFeatures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("features", featuresCmdHelp)
	var df dataFlags
	df.add(fs)
	out := fs.String("o", "", "output file (required)")
	visual := fs.Bool("visual", false, "render pages and add every visual feature (shape and style) to the default columns")
	featFlag := fs.String("features", "", "the columns: groups (linguistic, keyword, structural (record: its columns of the repeated structure around a block), visual = shape + style, context, candidate (columns kept for measurement, in no other group: depth, depth_rel), text, all) and names, comma-separated, a leading - dropping one (text,shape,-vis_x), as fiasco train's --features (default: train's: text; under --policy article text,context,-record); visual ones render the pages")
	noRender := fs.Bool("no-render", false, "never render pages: visual --features are an error")
	rf := &renderFlags{}
	rf.add(fs.FlagSet)
	keywords := fs.Int("keywords", 100, "clean and dirty keywords to learn")
	kwFrom := fs.String("keywords-from", "", "take the keywords from this file instead of learning them: a features file (its .json sidecar) or a model (.fiasco)")
	quiet := fs.Bool("q", false, "no progress bar")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := renderUnused(fs, *noRender, stderr); err != nil {
		return err
	}
	if err := noArgs(fs, pos); err != nil {
		return err
	}
	if *out == "" {
		return usagef("features", "no output: give -o BLOCKS.libsvm")
	}
	if strings.HasSuffix(*out, ".json") {
		return usagef("features", "-o %s: the sidecar is written to -o's name plus .json; give the rows a name of their own (e.g. -o blocks.libsvm)", *out)
	}
	kwIn := []string{*kwFrom}
	if *kwFrom != "" && !strings.HasSuffix(*kwFrom, ".fiasco") {
		kwIn = append(kwIn, *kwFrom+".json") // a features file's keywords are in its sidecar
	}
	for _, o := range []string{*out, *out + ".json"} {
		if err := checkNotInput("features", "-o", o, df.dirs, kwIn...); err != nil {
			return err
		}
	}
	if *keywords < 1 {
		return usagef("features", "--keywords %d: want 1 or more", *keywords)
	}
	if err := checkWritable(*out); err != nil {
		return usagef("features", "-o %s: %v", *out, err)
	}
	if err := checkWritable(*out + ".json"); err != nil {
		return usagef("features", "-o %s: its sidecar %s: %v", *out, *out+".json", err)
	}
	if err := checkOutKind("features", "-o", *out, false); err != nil {
		return err
	}
	if *visual && (*featFlag != "" || *noRender) {
		return usagef("features", "--visual adds the visual features to the default columns: with --features name them there (e.g. text,shape); with --no-render leave it out")
	}
	names, err := featureSet(*featFlag)
	if err != nil {
		return &usageError{cmd: "features", err: err}
	}
	if names == nil { // train's default columns
		spec := "text"
		if df.policy == gold.Article {
			spec = articleFeatures
		}
		if *visual {
			spec += ",visual"
		}
		if names, err = featureSet(spec); err != nil {
			return err
		}
	}
	if err := checkRenderFeatures(*noRender, *featFlag, names, "features"); err != nil {
		return err
	}
	if err := df.check(); err != nil {
		return err
	}
	var kw *features.Keywords
	if *kwFrom != "" {
		if fs.given("keywords") != "" {
			return usagef("features", "--keywords N learns N keywords and --keywords-from takes them from a file: give one")
		}
		var policy string
		if kw, policy, err = readKeywords(*kwFrom); err != nil {
			return err
		}
		if policy != "" && policy != df.policy.String() {
			return usagef("features", "--keywords-from %s: its keywords were learned under --policy %s, these rows are labelled under %s: give --policy %s, or keywords of this policy", *kwFrom, policy, df.policy, policy)
		}
	}
	var prep pipeline.PrepareOptions
	if needsRender(false, names) {
		v, stop, err := rf.visualizer(ctx, "drop --visual or the visual --features")
		if err != nil {
			return err
		}
		defer stop()
		prep.Visual = v
	}
	ex, err := df.load(ctx, prep, *quiet, stderr)
	if err != nil {
		return err
	}
	prob, side, err := featureRows(ex, names, *keywords, kw)
	if err != nil {
		return err
	}
	side.Policy = df.policy.String()
	side.KeywordsFrom = kwFrom
	if err := writeOutput(*out, func(w io.Writer) error { return svm.WriteLIBSVM(w, prob) }); err != nil {
		return err
	}
	js, err := json.MarshalIndent(side, "", " ")
	if err == nil {
		err = writeFile(*out+".json", append(js, '\n'))
	}
	if err != nil {
		// Rows without their sidecar are rows whose columns no one can
		// name: none.
		if fi, serr := os.Stat(*out); serr == nil && fi.Mode().IsRegular() && os.Remove(*out) == nil {
			return fmt.Errorf("%w (%s removed: its rows are no use without their sidecar)", err, *out)
		}
		return fmt.Errorf("%w (%s holds rows without their sidecar)", err, *out)
	}
	fmt.Fprintf(stderr, "fiasco features: %d rows x %d features in %s (sidecar %s)\n",
		prob.Len(), len(names), *out, filepath.Base(*out)+".json")
	return df.done(nil, stderr)
}

// featureRows builds the rows of ex with the columns names, with the
// keywords kw, or, when kw is nil, k keywords learned from ex.
func featureRows(ex []*train.Example, names []string, k int, kw *features.Keywords) (*svm.Problem, *featureSidecar, error) {
	if kw == nil {
		var err error
		if kw, err = train.LearnKeywords(ex, k); err != nil {
			return nil, nil, err
		}
	}
	cols, err := features.Select(names)
	if err != nil {
		return nil, nil, err
	}
	prob := &svm.Problem{FeatureNames: names}
	side := &featureSidecar{Features: names, Keywords: kw}
	for _, e := range ex {
		prob.X = append(prob.X, features.Project(e.Doc.Table.Rows(kw), cols)...)
		prob.Y = append(prob.Y, e.Labels()...)
		for i := range e.Doc.Blocks {
			side.Rows = append(side.Rows, featureRow{Set: e.Set, Page: e.ID, Block: i, Share: e.Share[i]})
		}
	}
	return prob, side, nil
}

// readKeywords reads the keywords of a features file (from its sidecar:
// path itself when it ends in .json, else path + ".json" where there is
// one) or of a model file, and the policy they were learned under ("" where
// the file does not say).
func readKeywords(path string) (*features.Keywords, string, error) {
	side := path
	if filepath.Ext(path) != ".json" {
		side = path + ".json"
		if _, err := os.Stat(side); err != nil {
			m, err := classify.Load(path)
			if err != nil {
				return nil, "", fmt.Errorf("--keywords-from %s: neither a model nor a features file with its sidecar (%s): %w", path, filepath.Base(side), err)
			}
			if m.Keywords == nil {
				return nil, "", fmt.Errorf("--keywords-from %s: the model holds no keywords", path)
			}
			return m.Keywords, m.Info.Policy, nil
		}
	}
	data, err := os.ReadFile(side)
	if err != nil {
		return nil, "", fmt.Errorf("--keywords-from: %w", err)
	}
	var sc featureSidecar
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, "", fmt.Errorf("--keywords-from %s: not a features sidecar: %w", side, err)
	}
	if sc.Features == nil {
		return nil, "", fmt.Errorf("--keywords-from %s: not a features sidecar (no features list)", side)
	}
	if sc.Keywords == nil || len(sc.Keywords.Clean)+len(sc.Keywords.Dirty) == 0 {
		return nil, "", fmt.Errorf("--keywords-from %s: the sidecar holds no keywords", side)
	}
	return sc.Keywords, sc.Policy, nil
}
