package mojibake

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/fiasco-project/fiasco/internal/shared"
)

var cases = []struct{ in, want string }{
	// Through windows-1252, as browsers and most programs decode it.
	{"Israelâ€™s top tier", "Israel’s top tier"},
	{"cutsâ€”to the", "cuts—to the"},
	{"â€œPersian Gulfâ€\u009d", "“Persian Gulf”"},
	{"the same wayâ€¦ the people", "the same way… the people"},
	{"RÃ©sumÃ©, franÃ§ais, espaÃ±ol, portuguÃªs", "Résumé, français, español, português"},
	{"Â© The Vancouver Sun", "© The Vancouver Sun"},
	{"Â£790million, 1Â½ hours, news Â»", "£790million, 1½ hours, news »"},
	{"ï»¿Title", "Title"},   // a byte-order mark shows nothing
	{"fooâ€‹bar", "foobar"}, // nor does a zero-width space
	{" Ã\u00a0 la", " à la"},
	{"I ðŸ˜€ it", "I 😀 it"},
	// Through ISO-8859-1: C1 controls.
	{"a leg up â\u0080\u0094 in debt", "a leg up — in debt"},
	{"I â\u0099¥ David", "I ♥ David"},
	{"Åº\u0084", "Åº„"}, // no sequence: the control alone
	{"Ä\u0081", "ā"},
	// Windows-1252 read as ISO-8859-1.
	{"Britain\u0092s defence", "Britain’s defence"},
	{"2010\u00962012", "2010–2012"},
	{"Â\u0092", "Â’"},
	{"\u0084Dal\u009aí\u0085\u0093", "„Další…“"},
	{"OPCIÓ\u0085 \u0084-o MARGÓ\u0094 \u0084Spaß\u0093 \u0093IRMÃ\u0094", "OPCIÓ… „-o MARGÓ” „Spaß“ “IRMÃ”"},
	{"line1\u0085line2", "line1…line2"},
	{"kept \u0081 \u009d", "kept \u0081 \u009d"}, // undefined in windows-1252
	// Words of other scripts, whole.
	{"ÐŸÑ€Ð¸Ð²ÐµÑ‚ Ð¼Ð¸Ñ€", "Привет мир"},
	{"Ð\u009fÑ\u0080Ð¸Ð²ÐµÑ\u0082", "Привет"},
	{"Î•Î»Î»Î·Î½Î¹ÎºÎ¬", "Ελληνικά"},
	{"ä¸\u00adæ–‡ç½‘ç«™", "中文网站"},
	{"sÃ»r, ESPAÃ‘A", "sûr, ESPAÑA"},
	{"TiranÃ« KYLLÃ„ SKRAMMAÃ‘ INFORMACIÃ“: 8Ã—10 M.Ã–.", "Tiranë KYLLÄ SKRAMMAÑ INFORMACIÓ: 8×10 M.Ö."},
	{"ÐŸÑ€Ð¸Ð²ÐµÑ‚\u00a0Ð¼Ð¸Ñ€ «ÐŸÑ€Ð¸Ð²ÐµÑ‚»", "Привет\u00a0мир «Привет»"},
	{"ä¸\u00adæ–‡“ç½‘ç«™", "中文“网站"},
	// Text that only looks like it.
	{"«AMANHÃ», “IRMÔ, NÃ… e SÃ–", "«AMANHÃ», “IRMÔ, NÃ… e SÃ–"},
	{"KYLLÄ”, PÅ”, SPÄ“", "KYLLÄ”, PÅ”, SPÄ“"},
	{"NEPÂLBHÂSHÂ\u00a0; HÂLÂ” “TÂ” “Hâlâ…” hâlâ\u00a0» KŘÍŽ×\u00a0", "NEPÂLBHÂSHÂ\u00a0; HÂLÂ” “TÂ” “Hâlâ…” hâlâ\u00a0» KŘÍŽ×\u00a0"},
	{"SÃO PAULO, IRMÃ\u00a0SÃ", "SÃO PAULO, IRMÃ\u00a0SÃ"},
	{"ÂGE, château, naïve, Œuvre, €5, —", "ÂGE, château, naïve, Œuvre, €5, —"},
	{"â€ 1", "â€ 1"},
	{"Ã", "Ã"},
	{"â", "â"},
	{"", ""},
	{"plain ASCII", "plain ASCII"},
	{"invalid \xff bytes Ã©", "invalid \xff bytes é"},
	// A text that writes the repair's word too shows the mojibake on
	// purpose: those words stay, the others are repaired.
	{"Why do I see Ã© instead of é?", "Why do I see Ã© instead of é?"},
	{"My database shows CafÃ© instead of Café.", "My database shows CafÃ© instead of Café."},
	{"“CafÃ©” is Café read wrongly; RÃ©sumÃ© is mended", "“CafÃ©” is Café read wrongly; Résumé is mended"},
	{"Israelâ€™s and Israel’s", "Israelâ€™s and Israel’s"},
	{"Café and CafÃ©s", "Café and Cafés"}, // another word
	// Far apart in a long text (a page's gold, read whole): repaired.
	{"don’t " + strings.Repeat("and so on ", 30) + "donâ€™t", "don’t " + strings.Repeat("and so on ", 30) + "don’t"},
}

func TestRepair(t *testing.T) {
	for _, c := range cases {
		if got := Repair(c.in); got != c.want {
			t.Errorf("Repair(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// garble returns the UTF-8 encoding of s read as windows-1252 (bytes it
// leaves undefined as their C1 controls, as the WHATWG decoder reads
// them) or, with latin1, as ISO-8859-1.
func garble(s string, latin1 bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		r := rune(s[i])
		if !latin1 {
			if d := charmap.Windows1252.DecodeByte(s[i]); d != utf8.RuneError {
				r = d
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// promised returns what the package doc promises Repair gives for g,
// the garbling of the one character r, after a letter (afterLetter) or
// not, and before a letter: r (nothing where r shows nothing) where g is
// a sequence with the evidence the doc names, else g with its lone C1
// controls read as windows-1252.
func promised(r rune, g string, afterLetter bool) string {
	runes := []rune(g)
	lead, second := runes[0], runes[1]
	ok := false
	switch {
	case afterLetter && (second == '\u00A0' || second == 0xA0):
		// A lead that may end a word, before a no-break space.
	case strings.ContainsFunc(g, isC1):
		ok = r >= 0xA0 && r <= 0x17F || r >= 0x386 && r <= 0x3CE || r >= 0x400 && r <= 0x45F ||
			r >= 0x5D0 && r <= 0x5EA || r >= 0x621 && r <= 0x64A || r >= 0x2000 && r <= 0x2BFF ||
			r >= 0x3000 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7A3 || r >= 0x1F000 && r <= 0x1FAFF || r == 0xFEFF
	case lead == 'Â', lead == 'Ã', lead == 'â', r == 0xFEFF, lead == 'ð' && second == 'Ÿ':
		ok = true
	}
	if ok {
		if r == 0xAD || r == 0x200B || r == 0x2060 || r == 0xFEFF {
			return ""
		}
		return string(r)
	}
	return strings.Map(func(c rune) rune {
		if isC1(c) && fromC1[c-0x80] != 0 {
			return fromC1[c-0x80]
		}
		return c
	}, g)
}

// TestRepairRoundTrip garbles every character up to U+1FFFF both ways
// (x/text's windows-1252 the reference), between letters and between
// spaces, and checks that Repair gives what the package doc promises.
func TestRepairRoundTrip(t *testing.T) {
	bad := 0
	for r := rune(0x80); r <= 0x1FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF || isC1(r) {
			continue // a control is no text to garble
		}
		for _, latin1 := range []bool{false, true} {
			g := garble(string(r), latin1)
			for _, ctx := range [][2]string{{"x", "y"}, {" ", " "}} {
				want := ctx[0] + promised(r, g, ctx[0] == "x") + ctx[1]
				if got := Repair(ctx[0] + g + ctx[1]); got != want {
					if bad++; bad < 20 {
						t.Errorf("U+%04X through %s: Repair(%q) = %q, want %q", r, map[bool]string{false: "windows-1252", true: "ISO-8859-1"}[latin1], ctx[0]+g+ctx[1], got, want)
					}
				}
			}
		}
	}
}

// TestRepairCleanText checks Repair on the translations of this
// machine's message catalogues (GNU .mo files; some two million on
// Debian, in every language it ships) three ways: as written and in
// capitals, where nothing may change but the few that hold mojibake
// themselves (left out of the other two views), and, where windows-1252 can write them, read as ISO-8859-1
// (C1 controls for its quotation marks, dashes and "š"), where Repair
// must give back the translation. It fails where more than one in
// 100,000 of any of the three goes wrong, and lists every one.
func TestRepairCleanText(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	files, _ := filepath.Glob("/usr/share/locale/*/LC_MESSAGES/*.mo")
	if len(files) < 100 {
		t.Skipf("%d message catalogues in /usr/share/locale: too few to check", len(files))
	}
	enc := charmap.Windows1252.NewEncoder()
	var total, upper, cp, changed, changedUpper, wrong int
	for i, f := range files {
		if raceEnabled && i%8 != 0 {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lang := filepath.Base(filepath.Dir(filepath.Dir(f)))
		for _, s := range shared.MoTranslations(data) {
			if !utf8.ValidString(s) {
				continue
			}
			total++
			if r := Repair(s); r != s {
				changed++
				t.Logf("%s: %q -> %q", lang, s, r)
				continue // mojibake itself, in every view
			}
			if u := strings.ToUpper(s); u != s {
				upper++
				if r := Repair(u); r != u {
					changedUpper++
					t.Logf("%s, in capitals: %q -> %q", lang, u, r)
				}
			}
			if b, err := enc.Bytes([]byte(s)); err == nil && strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) {
				cp++
				g := garble(string(b), true)
				if r := Repair(g); r != s {
					wrong++
					t.Logf("%s, windows-1252 read as ISO-8859-1: %q -> %q, want %q", lang, g, r, s)
				}
			}
		}
	}
	t.Logf("%d catalogues: %d translations, %d changed; %d in capitals, %d changed; %d in windows-1252 read as ISO-8859-1, %d not given back",
		len(files), total, changed, upper, changedUpper, cp, wrong)
	for _, c := range []struct {
		what     string
		bad, all int
	}{{"translations changed", changed, total}, {"in capitals changed", changedUpper, upper}, {"read as ISO-8859-1 not given back", wrong, cp}} {
		if c.bad*100000 > c.all {
			t.Errorf("%d of %d %s: more than 1 in 100,000", c.bad, c.all, c.what)
		}
	}
}

func TestRepairNoCopy(t *testing.T) {
	s := strings.Repeat("Plain text, with château, naïve and ÂGE — “quoted”. ", 100)
	if n := testing.AllocsPerRun(10, func() { _ = Repair(s) }); n != 0 {
		t.Errorf("Repair of clean text allocates %v times", n)
	}
}

// BenchmarkRepair measures Repair on clean and on garbled text against a
// reference in the same run: strings.ToValidUTF8 on the same text, one
// pass over its bytes.
func BenchmarkRepair(b *testing.B) {
	clean := strings.Repeat("Plain text, with château, naïve and ÂGE — “quoted”. ", 200)
	bad := garble(clean, false)
	cases := []struct{ name, s string }{{"clean", clean}, {"garbled", bad}}
	// Runs of mojibake characters that fail at their end, which a first
	// version read again from each of their characters (quadratic): 100
	// KB and 1 MB, the time should grow tenfold.
	// "Ã©x" repeated: many repairs in one word without a space, which a
	// first version of dropWritten read again from each (quadratic).
	for _, unit := range []string{"Ã", "Â\u0080", "ä¸\u00ad", "Ã©x"} {
		for _, size := range []int{100_000, 1_000_000} {
			cases = append(cases, struct{ name, s string }{
				fmt.Sprintf("run%q/%dKB", unit, size/1000), strings.Repeat(unit, size/len(unit)) + "Ã"})
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for range b.N {
				_ = Repair(c.s)
			}
		})
		b.Run(c.name+"/reference", func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for range b.N {
				_ = strings.ToValidUTF8(c.s, "\uFFFD")
			}
		})
	}
}

// FuzzRepair: no panic, valid UTF-8 stays valid, and text without C1
// controls and without a character of U+00C2..U+00F4 comes back as it
// is.
func FuzzRepair(f *testing.F) {
	for _, c := range cases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Repair(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Repair(%q) = %q: not UTF-8", s, got)
		}
		if suspect(s, 0) < 0 && got != s {
			t.Fatalf("Repair(%q) = %q: changed text with nothing to repair", s, got)
		}
	})
}
