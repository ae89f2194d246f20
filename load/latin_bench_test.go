package load

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// BenchmarkGuessLatin: the statistical detector on a 64 KiB page of
// Hungarian in windows-1250 (latinGuess runs) against the same page's
// French in windows-1252 (all ASCII but the accents, as much non-ASCII).
func BenchmarkGuessLatin(b *testing.B) {
	for _, c := range []struct {
		name, text string
		enc        *charmap.Charmap
	}{
		{"hu-1250", "Az első részben a felhasználó könnyű és gyors módszert talál a fájlok kezelésére. ", charmap.Windows1250},
		{"fr-1252", "Dans la première partie, l'utilisateur trouve une méthode facile et rapide à gérer. ", charmap.Windows1252},
	} {
		page, _ := c.enc.NewEncoder().String("<html><body><p>" + strings.Repeat(c.text+"\n", 64<<10/len(c.text)) + "</p></body></html>")
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if _, _, _, err := Text([]byte(page)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
