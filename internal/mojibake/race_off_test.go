//go:build !race

package mojibake

const raceEnabled = false
