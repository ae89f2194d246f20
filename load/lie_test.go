package load

import (
	"fmt"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// TestDeclarationOverruled: a declared charset that the bytes contradict
// beyond doubt (Russian in windows-1251 declared Latin-1, KOI8-R declared
// windows-1251, as Russian servers recoded pages and left the <meta>) is
// overruled by the detector, the declaration kept in Page.Declared; a
// declaration the bytes bear out, or one Latin charset named for
// another, stands.
func TestDeclarationOverruled(t *testing.T) {
	const ru = "Вчера в центре города прошёл большой праздник, на который пришли тысячи жителей и гостей. " +
		"Организаторы сообщили, что тёплая погода и новая программа вечерних концертов привлекли посетителей со всей области."
	const fr = "Le café crème et la crème brûlée ont été servis aux invités après le long dîner, près de la rivière. " +
		"Les élèves étaient très fiers de leur première fête à l'école, où tout le monde a chanté et dansé."
	const pl = "Wczoraj w centrum miasta odbył się wielki festyn, na który przyszły tysiące mieszkańców i gości. " +
		"Organizatorzy powiedzieli, że ciepła pogoda i nowy program wieczornych koncertów przyciągnęły odwiedzających."
	page := func(meta string, enc encoding.Encoding, text string) []byte {
		body, err := enc.NewEncoder().String(text)
		if err != nil {
			t.Fatal(err)
		}
		return []byte(fmt.Sprintf(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=%s"><title>t</title></head><body><p>%s</p></body></html>`, meta, body))
	}
	for _, c := range []struct {
		name, meta string
		enc        encoding.Encoding
		text       string
		want       string // the charset decoded with
		source     string
	}{
		{"windows-1251 declared Latin-1", "iso-8859-1", charmap.Windows1251, ru, "windows-1251", SourceGuess},
		{"KOI8-R declared windows-1251", "windows-1251", charmap.KOI8R, ru, "koi8-r", SourceGuess},
		{"windows-1251 declared KOI8-R", "koi8-r", charmap.Windows1251, ru, "windows-1251", SourceGuess},
		{"windows-1251 declared so", "windows-1251", charmap.Windows1251, ru, "windows-1251", SourceMeta},
		{"KOI8-R declared so", "koi8-r", charmap.KOI8R, ru, "koi8-r", SourceMeta},
		{"French declared Latin-1", "iso-8859-1", charmap.Windows1252, fr, "windows-1252", SourceMeta},
		{"Polish in windows-1250 declared ISO-8859-2", "iso-8859-2", charmap.Windows1250, pl, "iso-8859-2", SourceMeta},
	} {
		p, err := Bytes(c.name, page(c.meta, c.enc, c.text), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Encoding != c.want || p.EncodingSource != c.source {
			t.Errorf("%s: decoded as %s (%s), want %s (%s)", c.name, p.Encoding, p.EncodingSource, c.want, c.source)
		}
		if c.source == SourceGuess && p.Declared == "" {
			t.Errorf("%s: the declaration is not kept in Declared", c.name)
		}
	}
}
