package main

import (
	"fmt"
	"strings"

	"github.com/fiasco-project/fiasco/features"
)

// featureSet resolves a --features value: a comma-separated list of group
// names (linguistic, keyword, structural, visual, context, candidate; text = the
// first three; all; the aliases shape, style and record) and feature names, each
// of which a leading "-" turns into an exclusion ("text,shape,-vis_x":
// the text and shape features but vis_x; "all,-context"). Exclusions
// apply after every inclusion, whatever their place in the list, and a
// list of exclusions alone is rejected. "" means nil: the trainer's
// default.
func featureSet(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	seen := map[string]bool{}
	drop := map[string]bool{}
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		into := seen
		if name, ok := strings.CutPrefix(tok, "-"); ok {
			tok, into = strings.TrimSpace(name), drop
		}
		names, err := featureToken(tok)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			into[n] = true
		}
	}
	// Keep the schema's order, so that the same set always gives the same model.
	var ordered []string
	for _, f := range features.All() {
		if seen[f.Name] && !drop[f.Name] {
			ordered = append(ordered, f.Name)
		}
	}
	if len(ordered) == 0 {
		return nil, fmt.Errorf("--features %q leaves no feature: name what to keep as well as what to drop (e.g. text,-dup_text)", s)
	}
	return ordered, nil
}

// featureToken resolves one name of a --features list: an alias, a group
// or a feature.
func featureToken(tok string) ([]string, error) {
	groups := map[string]features.Group{
		"linguistic": features.Linguistic, "keyword": features.Keyword,
		"structural": features.Structural, "visual": features.Visual, "context": features.Context,
		"candidate": features.Candidate,
		"text":      features.Linguistic | features.Keyword | features.Structural,
		"all":       features.Linguistic | features.Keyword | features.Structural | features.Visual | features.Context,
	}
	if list, ok := featureAliases[tok]; ok {
		return list, nil
	}
	if g, ok := groups[tok]; ok {
		return features.Names(g, true), nil
	}
	if _, err := features.Select([]string{tok}); err != nil {
		return nil, fmt.Errorf("--features: %q is neither a group (linguistic, keyword, structural, record, visual, style, shape, context, candidate, text, all) nor a feature", tok)
	}
	return []string{tok}, nil
}

// articleFeatures is train's (and features') default set under the
// article policy: the context columns added, the record columns left out,
// as the embedded article models (RESULTS.md, "Records").
const articleFeatures = "text,context,-record"

// featureAliases name sets of features within a group: of the visual
// group, style, what the renderer reads from the computed style of a
// block's text and where it lies (vision.Style, Features.Screens), and
// shape, the measurements of the screenshot and the layout (FIASCO's, and
// what the models before the style readings used); of the structural
// group, record, the columns of the repeated structure around a block
// (features' records.go), which the article models do without.
var featureAliases = func() map[string][]string {
	a := map[string][]string{"record": features.RecordNames()}
	for _, n := range features.Names(features.Visual, true) {
		if features.IsStyle(n) {
			a["style"] = append(a["style"], n)
		} else {
			a["shape"] = append(a["shape"], n)
		}
	}
	return a
}()

// needsRender reports whether training on feats (nil: the default set,
// text and structure, as the default models) needs rendered pages.
func needsRender(noRender bool, feats []string) bool {
	if noRender || feats == nil {
		return false
	}
	for _, n := range feats {
		if strings.HasPrefix(n, "vis_") {
			return true
		}
	}
	return false
}

// featuresHelp documents --features (train, eval).
const featuresHelp = "features to train on: groups (linguistic, keyword, structural (record: its columns of the repeated structure around a block), visual = shape + style, context, candidate (columns kept for measurement, in no other group: depth, depth_rel), text, all) and names, comma-separated, a leading - dropping one (text,shape,-vis_x) (default: text; train --policy article: text,context,-record); visual ones render the pages"

// checkRenderFeatures rejects visual features with --no-render.
func checkRenderFeatures(noRender bool, flagValue string, feats []string, cmd string) error {
	if !noRender {
		return nil
	}
	for _, n := range feats {
		if strings.HasPrefix(n, "vis_") {
			return usagef(cmd, "--features %s needs rendered pages (%s is a visual feature): drop --no-render", flagValue, n)
		}
	}
	return nil
}
