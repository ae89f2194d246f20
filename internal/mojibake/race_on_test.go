//go:build race

package mojibake

// raceEnabled: the race detector slows the catalogue test tenfold; it
// reads every eighth catalogue then.
const raceEnabled = true
