package corpus

import "github.com/fiasco-project/fiasco/internal/lang"

// Lang guesses the language of a text: an ISO 639-1 code, or "" when the
// text is too short or no language stands out. A text of 20 letters or
// more, most of them in a script one language has to itself, is that
// language (ja: kana among them, else zh for Han; ko, el, he, th, ka,
// hy); else its function words decide among en, de, fr, es, it, nl, pt,
// pl, ru, uk, ar and fa (Russian and Ukrainian by their letters where
// the words they share leave them tied). It is a guess for filtering a corpus, not a
// language identifier: other languages are "". JSON Lines' "lang", a
// WET record's WARC-Identified-Content-Language and the json format's
// "lang" are this guess of the page's kept text.
func Lang(text string) string { return lang.Guess(text) }
