package classify_test

import (
	"fmt"

	"github.com/fiasco-project/fiasco/classify"
)

// Default loads the embedded text model, the one "fiasco clean
// --no-render" uses. It reads no visual features, so pages need not be
// rendered; it has a classifier for English pages and one on the
// language-independent features for the rest, and Decide picks one by
// the page's language. The figures below change only when the model is
// retrained.
func ExampleDefault() {
	m, err := classify.Default(false)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("visual:", m.Visual)
	fmt.Println("English classifier:", len(m.English.FeatureNames), "features")
	if m.Other != nil {
		fmt.Println("other languages:", len(m.Other.FeatureNames), "features")
	}
	// Output:
	// visual: false
	// English classifier: 49 features
	// other languages: 44 features
}

// Keep turns decision values into kept blocks; a model's Threshold is the
// cut it was trained with.
func ExampleKeep() {
	fmt.Println(classify.Keep([]float64{-1.3, -0.5, 0.2}, -0.5))
	// No block reaches the threshold: the best is kept, being within
	// FallbackMargin of it; on the second page none is.
	fmt.Println(classify.Keep([]float64{-2.1, -0.9, -1.2}, -0.5))
	fmt.Println(classify.Keep([]float64{-2.1, -1.9, -1.6}, -0.5))
	// Output:
	// [false true true]
	// [false true false]
	// [false false false]
}
