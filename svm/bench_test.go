package svm

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkTrainVsLIBSVM trains on the seeded 5000 x 30 synthetic set
// (C = 512, gamma = 2^-5) with our trainer and with svm-train in the same
// run and reports the wall-time ratio ours/svm-train (target <= 1).
func BenchmarkTrainVsLIBSVM(b *testing.B) {
	svmTrain := libsvmTool(b, "svm-train")
	train := synthetic(5000, 30, 1)
	dir := b.TempDir()
	file := filepath.Join(dir, "train")
	writeProblemFile(b, train, file)
	p := DefaultParams()
	p.C, p.Gamma = 512, 0.03125
	var ours, theirs time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := Train(context.Background(), train, p); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(t0)
		t0 = time.Now()
		if out, err := exec.Command(svmTrain, "-q", "-c", "512", "-g", "0.03125", file, filepath.Join(dir, "m")).CombinedOutput(); err != nil {
			b.Fatalf("svm-train: %v %s", err, out)
		}
		theirs += time.Since(t0)
	}
	b.ReportMetric(ours.Seconds()/float64(b.N), "ours-s/op")
	b.ReportMetric(theirs.Seconds()/float64(b.N), "svm-train-s/op")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "ratio")
}
