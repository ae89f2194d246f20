package load

// A declaration that lies: a page in windows-1251 whose <meta> (or whose
// server's header, Apache's AddDefaultCharset ISO-8859-1) names Latin-1,
// a KOI8-R page that names windows-1251 (Russian servers recoded pages
// between the two and left the <meta> as it was). Decoded as declared,
// such a page is mojibake from its first word ("Íîâîñòè", "оПЧПУФЙ").
// The statistical detector overrules a declaration only where the bytes
// leave no doubt: the declared charset is one the detector models, the
// detector picks another of another script or family (not one Latin
// charset for another), and that one's reading of enough non-ASCII bytes
// scores well (minLieMean) and by a wide margin (minLieLead) above the
// declared one's (whose letters are not those of the languages written
// in it, or in the wrong case).

const (
	// minLieHigh is the fewest non-ASCII bytes in the detector's sample
	// from which a declaration may be overruled.
	minLieHigh = 40
	// minLieMean is the least mean score per non-ASCII character of the
	// charset that overrules a declaration, and minLieLead the least by
	// which it beats the declared charset's.
	minLieMean = 1.0
	minLieLead = 0.75
)

// modelOf returns the detector's model of the charset named name (a
// canonical WHATWG name), nil where it has none.
func modelOf(name string) *model {
	for _, m := range models {
		if m.name == name {
			return m
		}
	}
	return nil
}

// overrule returns the statistical detector's choice for data where c,
// a declared charset, is contradicted by the bytes, and c otherwise.
func overrule(data []byte, st u8stats, c choice) choice {
	if c.enc == nil { // UTF-8, checked against the bytes already
		return c
	}
	dm := modelOf(c.name)
	if dm == nil {
		return c
	}
	if st.valid > 0 && st.mostlyUTF8() {
		return c // guess's UTF-8, which decl took or refused already
	}
	s := sample(data)
	if countHigh(s) < minLieHigh {
		return c
	}
	enc, name, ok := guessSample(s)
	if !ok || name == c.name || enc == nil || LatinCharset(name) && LatinCharset(c.name) {
		return c
	}
	gm := modelOf(name)
	if gm == nil {
		return c
	}
	d, g := dm.evaluate(s), gm.evaluate(s)
	if g.mean < minLieMean || g.mean < d.mean+minLieLead || g.distinct < minDistinct {
		return c
	}
	return choice{enc: enc, name: name, source: SourceGuess, declared: c.declared, unsupported: c.unsupported}
}
