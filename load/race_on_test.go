//go:build race

package load

// raceEnabled: the tests run under the race detector, which makes the
// detector's measurement (TestGuessLocales) some ten times slower.
const raceEnabled = true
