package svm_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fiasco-project/fiasco/svm"
)

// Train an RBF SVM on raw rows, as svm-scale, svm-grid, svm-train and
// svm-predict would: scale to [-1, 1], choose C and gamma by
// cross-validation, train, save and load the model, decide.
func Example() {
	ctx := context.Background()
	// Two features on very different scales; the class is "inside the ring".
	prob := &svm.Problem{FeatureNames: []string{"x", "y_in_thousands"}}
	for i := -6; i <= 6; i++ {
		for j := -6; j <= 6; j++ {
			x, y := float64(i), float64(j)*1000
			label := -1.0
			if i*i+j*j <= 16 {
				label = 1
			}
			prob.X = append(prob.X, []float64{x, y})
			prob.Y = append(prob.Y, label)
		}
	}
	sc, err := svm.FitScaler(prob.X, -1, 1)
	if err != nil {
		log.Fatal(err)
	}
	scaled, err := sc.TransformProblem(prob)
	if err != nil {
		log.Fatal(err)
	}
	res, err := svm.GridSearch(ctx, scaled, svm.DefaultParams(), svm.GridOptions{
		Log2C: []float64{1, 3, 5}, Log2G: []float64{-1, 1, 3}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	p := svm.DefaultParams()
	p.C, p.Gamma = res.Best.C, res.Best.Gamma
	m, err := svm.Train(ctx, scaled, p)
	if err != nil {
		log.Fatal(err)
	}
	m.Scaler = sc // the model now takes raw rows

	dir, err := os.MkdirTemp("", "svm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model")
	if err := m.Save(path); err != nil { // LIBSVM's model file and path.meta.json
		log.Fatal(err)
	}
	m2, err := svm.LoadModel(path)
	if err != nil {
		log.Fatal(err)
	}
	for _, row := range [][]float64{{0, 0}, {1, -2000}, {6, 6000}} {
		d, err := m2.Decision(row)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v inside: %v\n", row, d > m2.Threshold)
	}
	fmt.Printf("cross-validation accuracy above 90%%: %v\n", res.Best.Accuracy > 0.9)
	// Output:
	// [0 0] inside: true
	// [1 -2000] inside: true
	// [6 6000] inside: false
	// cross-validation accuracy above 90%: true
}
