//go:build race

package svm

// raceEnabled shortens the slowest tests under the race detector.
const raceEnabled = true
