package load

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/fiasco-project/fiasco/internal/shared"
)

// localeDir holds the message catalogues (gettext .mo files) of the
// programs installed here: real text in many languages.
const localeDir = "/usr/share/locale"

// localeCases are the languages and the legacy charsets their pages were
// written in, for TestGuessLocales.
var localeCases = []struct {
	lang     string
	charsets []*charmap.Charmap
}{
	{"hu", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"pl", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"cs", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"sk", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"sl", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"hr", []*charmap.Charmap{charmap.Windows1250, charmap.ISO8859_2}},
	{"ro", []*charmap.Charmap{charmap.Windows1250}},
	{"tr", []*charmap.Charmap{charmap.Windows1254}},
	{"lt", []*charmap.Charmap{charmap.Windows1257}},
	{"lv", []*charmap.Charmap{charmap.Windows1257}},
	{"et", []*charmap.Charmap{charmap.Windows1252, charmap.Windows1257}},
	{"fr", []*charmap.Charmap{charmap.Windows1252}},
	{"de", []*charmap.Charmap{charmap.Windows1252}},
	{"es", []*charmap.Charmap{charmap.Windows1252}},
	{"pt", []*charmap.Charmap{charmap.Windows1252}},
	{"it", []*charmap.Charmap{charmap.Windows1252}},
	{"nl", []*charmap.Charmap{charmap.Windows1252}},
	{"sv", []*charmap.Charmap{charmap.Windows1252}},
	{"da", []*charmap.Charmap{charmap.Windows1252}},
	{"nb", []*charmap.Charmap{charmap.Windows1252}},
	{"fi", []*charmap.Charmap{charmap.Windows1252}},
	{"ca", []*charmap.Charmap{charmap.Windows1252}},
	{"is", []*charmap.Charmap{charmap.Windows1252}},
	{"sq", []*charmap.Charmap{charmap.Windows1252}},
	{"ru", []*charmap.Charmap{charmap.Windows1251, charmap.KOI8R}},
	{"uk", []*charmap.Charmap{charmap.Windows1251, charmap.KOI8U}},
	{"bg", []*charmap.Charmap{charmap.Windows1251}},
	{"el", []*charmap.Charmap{charmap.Windows1253, charmap.ISO8859_7}},
	{"ar", []*charmap.Charmap{charmap.Windows1256, charmap.ISO8859_6}},
	{"fa", []*charmap.Charmap{charmap.Windows1256}},
	{"he", []*charmap.Charmap{charmap.Windows1255}},
	{"th", []*charmap.Charmap{charmap.Windows874}},
}

var updateCounts = flag.Bool("update", false, "write latin_counts.go from the training half of the translations (TestGuessLocales) and testdata/latin/pages.tsv (TestLatinPages)")

// TestGuessLocales measures the statistical detector on real text of 32
// languages: the translations in the message catalogues under
// /usr/share/locale (skipped where a language has none). A translation
// goes to the training half or the test half by its hash; with -v the
// test prints the letter counts of the training half (latin.go's rho and
// shares) and, for the test half, how many pages of 200, 1,000 and 5,000
// characters of text, encoded in each charset without a declaration,
// decode to the same text (under the race detector, 40 pages of 1,000
// characters). Every language and charset must read right in
// at least 95% of the pages of 1,000 characters, but Estonian in
// windows-1257, which differs from windows-1252 only in š and ž, rare
// in Estonian.
func TestGuessLocales(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if _, err := os.Stat(filepath.Join(localeDir, "hu")); err != nil {
		t.Skipf("no message catalogues here: %v", err)
	}
	if *updateCounts {
		writeLatinCounts(t)
	}
	for _, c := range localeCases {
		limit := 0
		if raceEnabled {
			limit = 4000 // translations enough for the check
		}
		train, test := localeText(t, c.lang, limit)
		if len(test) < 100 {
			t.Logf("%s: %d translations, too few", c.lang, len(test))
			continue
		}
		if c.lang == "ro" {
			for i, s := range train {
				train[i] = roCedilla.Replace(s)
			}
		}
		t.Logf("%s training half: %s", c.lang, letterCounts(train))
		for _, cm := range c.charsets {
			name, _ := lookupName(cm)
			var row []string
			sizes, pages := []int{200, 1000, 5000}, 200
			if raceEnabled {
				sizes, pages = []int{1000}, 40 // the check only, in a tenth of the time
			}
			for _, size := range sizes {
				right := guessRight(c.lang, test, cm, size, pages)
				row = append(row, fmt.Sprintf("%5.1f%%", right))
				if size == 1000 && right < 95 && !(c.lang == "et" && cm == charmap.Windows1257) {
					t.Errorf("%s in %s: %.1f%% of 1,000-character pages read right", c.lang, name, right)
				}
			}
			t.Logf("%-3s %-13s %v characters: %s", c.lang, name, sizes, strings.Join(row, " "))
		}
	}
}

// roCedilla writes Romanian's ș and ț with the cedilla, as windows-1250
// has them.
var roCedilla = strings.NewReplacer("ș", "ş", "ț", "ţ", "Ș", "Ş", "Ț", "Ţ")

// guessRight returns the share of n pages of size characters of text,
// drawn from lines and encoded in cm, that load.Text decodes to the text.
func guessRight(lang string, lines []string, cm *charmap.Charmap, size, n int) float64 {
	fix := func(s string) string { return s }
	if lang == "ro" {
		fix = roCedilla.Replace
	}
	encode := func(s string) []byte { return encodeLossy(s, cm) }
	return readRight(lines, fix, func(s string) int { return len(s) }, encode, cm, size, n)
}

// readRight returns the share of n pages of text drawn from lines (each
// line changed by fix; size characters as length counts them), encoded
// by encode, that load.Text decodes as dec does.
func readRight(lines []string, fix func(string) string, length func(string) int, encode func(string) []byte, dec encoding.Encoding, size, n int) float64 {
	rng := rand.New(rand.NewSource(1))
	right := 0
	for range n {
		var sb strings.Builder
		sb.WriteString("<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n")
		for j, text := rng.Intn(len(lines)), 0; text < size; j = (j + 1) % len(lines) {
			s := fix(lines[j])
			sb.WriteString("<p>" + s + "</p>\n")
			text += length(s)
		}
		sb.WriteString("</body></html>\n")
		data := encode(sb.String())
		want, _ := dec.NewDecoder().Bytes(data)
		if got, _, _, err := Text(data); err == nil && got == string(want) {
			right++
		}
	}
	return 100 * float64(right) / float64(n)
}

// encodeLossy encodes s in cm, with ? for what cm cannot encode.
func encodeLossy(s string, cm *charmap.Charmap) []byte {
	var out []byte
	for _, r := range s {
		if b, ok := cm.EncodeRune(r); ok {
			out = append(out, b)
		} else {
			out = append(out, '?')
		}
	}
	return out
}

func lookupName(cm *charmap.Charmap) (string, encoding.Encoding) {
	for _, c := range latinCharsets {
		if c.enc == cm {
			return c.name, c.enc
		}
	}
	for _, m := range models {
		if m.enc == cm {
			return m.name, m.enc
		}
	}
	return cm.String(), cm
}

// letterCounts gives the share of non-ASCII letters among the Latin
// letters of lines (rho) and of each among them, per mille, as latin.go
// writes them.
func letterCounts(lines []string) string {
	counts := map[rune]int{}
	ascii, other := 0, 0
	for _, s := range lines {
		for _, r := range s {
			switch {
			case r < 0x80 && unicode.IsLetter(r):
				ascii++
			case r >= 0x80 && unicode.IsLetter(r) && unicode.Is(unicode.Latin, r):
				counts[unicode.ToLower(r)]++
				other++
			}
		}
	}
	if other == 0 {
		return fmt.Sprintf("%d ASCII letters, no other Latin letter", ascii)
	}
	rs := make([]rune, 0, len(counts))
	for r := range counts {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		return counts[rs[i]] > counts[rs[j]] || counts[rs[i]] == counts[rs[j]] && rs[i] < rs[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "rho %.1f,", 1000*float64(other)/float64(ascii+other))
	for _, r := range rs {
		if v := 1000 * float64(counts[r]) / float64(other); v >= 1.5 {
			fmt.Fprintf(&b, " %c%.0f", r, v)
		}
	}
	return b.String()
}

var (
	placeholderRE = regexp.MustCompile(`%[-+ #0-9.]*[a-zA-Z]|\$\{?\w+\}?|<[^>]*>|&\w+;|\\[nt]`)
	spaceRE       = regexp.MustCompile(`\s+`)
)

// localeText reads the translations of every catalogue of lang (or of the
// first ones that hold limit, if limit > 0), cleaned of placeholders and
// markup, those of 20 bytes or more once each, split in two halves by
// their FNV-1a hash.
func localeText(t *testing.T, lang string, limit int) (train, test []string) {
	files, _ := filepath.Glob(filepath.Join(localeDir, lang, "LC_MESSAGES", "*.mo"))
	sort.Strings(files)
	seen := map[string]bool{}
	for _, f := range files {
		if limit > 0 && len(seen) >= limit {
			break
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Logf("%s: %v", f, err)
			continue
		}
		for _, s := range shared.MoTranslations(data) {
			if !utf8.ValidString(s) {
				continue // a catalogue in a legacy charset
			}
			s = strings.TrimSpace(spaceRE.ReplaceAllString(placeholderRE.ReplaceAllString(s, " "), " "))
			if len(s) < 20 || seen[s] {
				continue
			}
			seen[s] = true
			h := fnv.New32a()
			h.Write([]byte(s))
			if h.Sum32()%2 == 0 {
				train = append(train, s)
			} else {
				test = append(test, s)
			}
		}
	}
	return train, test
}

// writeLatinCounts counts the letters of the training half of each
// language of latinAlphabets and writes latin_counts.go.
func writeLatinCounts(t *testing.T) {
	names := make([]string, 0, len(latinAlphabets))
	for name := range latinAlphabets {
		names = append(names, name)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./load -run TestGuessLocales -update; DO NOT EDIT.\n\npackage load\n\n")
	b.WriteString("// latinCounts are the letters of the translations in the message\n// catalogues under /usr/share/locale of a Debian system, the half of\n// them TestGuessLocales does not test on: for each language, ASCII\n// letters, other Latin letters, and each letter of its alphabet after a\n// vowel, a consonant and no letter.\n")
	b.WriteString("var latinCounts = map[string]langCount{\n")
	for _, name := range names {
		train, _ := localeText(t, name, 0)
		if len(train) < 100 {
			t.Fatalf("%s: %d translations, too few to count", name, len(train))
		}
		alphabet := map[rune]bool{}
		for _, r := range latinAlphabets[name] {
			alphabet[r] = true
		}
		c := langCount{letters: map[rune][3]int{}}
		for _, s := range train {
			if name == "ro" {
				s = roCedilla.Replace(s)
			}
			prev := ' '
			for _, r := range s {
				switch {
				case r < 0x80 && unicode.IsLetter(r):
					c.ascii++
				case r >= 0x80 && unicode.IsLetter(r) && unicode.Is(unicode.Latin, r):
					c.other++
					if lr := unicode.ToLower(r); alphabet[lr] {
						k := c.letters[lr]
						switch {
						case !unicode.IsLetter(prev):
							k[prevNone]++
						case isVowel(prev):
							k[prevVowel]++
						default:
							k[prevConsonant]++
						}
						c.letters[lr] = k
					}
				}
				prev = r
			}
		}
		fmt.Fprintf(&b, "\t%q: {ascii: %d, other: %d, letters: map[rune][3]int{", name, c.ascii, c.other)
		for _, r := range latinAlphabets[name] {
			k := c.letters[r]
			fmt.Fprintf(&b, "%q: {%d, %d, %d}, ", r, k[0], k[1], k[2])
		}
		b.WriteString("}},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("latin_counts.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log("wrote latin_counts.go")
}

// TestLatinPages reads the pages of testdata/latin: web pages (news,
// blog, shop and forum pages, many a title and a line) in 24 languages
// and their legacy charsets, without a declaration, written for the
// second weighing of the Latin charsets (latin.go). pages.tsv says of
// each whether its text is read right (as decoding it with its charset
// gives it); the test fails where that changes, and -update writes the
// file anew. With -v it prints the count.
func TestLatinPages(t *testing.T) {
	const list = "testdata/latin/pages.tsv"
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	right, n := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 3 {
			t.Fatalf("%s: bad line %q", list, line)
		}
		page, err := os.ReadFile(filepath.Join("testdata/latin", col[0]))
		if err != nil {
			t.Fatal(err)
		}
		enc, err := htmlindex.Get(col[1])
		if err != nil {
			t.Fatalf("%s: %v", col[0], err)
		}
		want, err := enc.NewDecoder().Bytes(page)
		if err != nil {
			t.Fatal(err)
		}
		got, cs, _, err := Text(page)
		verdict := "wrong"
		if err == nil && got == string(want) {
			verdict = "right"
			right++
		}
		n++
		if verdict != col[2] && !*updateCounts {
			t.Errorf("%s (%s): read %s as %s, pages.tsv says %s", col[0], col[1], verdict, cs, col[2])
		}
		out.WriteString(col[0] + "\t" + col[1] + "\t" + verdict + "\n")
	}
	t.Logf("%d of %d pages read right", right, n)
	if *updateCounts {
		if err := os.WriteFile(list, []byte(strings.TrimSuffix(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
