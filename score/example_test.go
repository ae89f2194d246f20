package score_test

import (
	"fmt"

	"github.com/fiasco-project/fiasco/score"
)

// Score compares a cleaner's output with the gold standard, both in
// CleanEval's format. The output misses the list item and keeps a line of
// navigation: 9 of its 12 words are right (precision), and 9 of the 10
// gold words were found (recall). The segment markers are scored apart:
// 2 of the 3 output markers match the gold ones.
func ExampleScore() {
	cleaned := `URL: http://example.com/
<h> Rain in Spain
<p> The rain falls on the plain.
<p> Home | News`
	gold := `URL: http://example.com/
<h> Rain in Spain
<p> The rain falls on the plain.
<l> Madrid`

	r := score.Score(cleaned, gold, score.Options{})
	fmt.Printf("words: %d of %d matched, %d in gold\n", r.Matched, r.OutWords, r.GoldWords)
	fmt.Printf("P %.1f R %.1f F %.1f\n", 100*r.P, 100*r.R, 100*r.F)
	fmt.Printf("segments: P %.1f R %.1f F %.1f\n", 100*r.TagP, 100*r.TagR, 100*r.TagF)
	// Output:
	// words: 9 of 12 matched, 10 in gold
	// P 75.0 R 90.0 F 81.8
	// segments: P 66.7 R 66.7 F 66.7
}

// Micro pools the words of all pages before computing P, R and F, so long
// pages weigh more; Macro averages the figures of the pages. Here a page
// of eight words is perfect and one of two words all wrong.
func ExampleMicro() {
	rs := []score.Result{
		score.Score("<p> one two three four five six seven eight", "<p> one two three four five six seven eight", score.Options{}),
		score.Score("<p> alpha beta", "<p> gamma delta", score.Options{}),
	}
	micro, macro := score.Micro(rs), score.Macro(rs)
	fmt.Printf("micro F %.1f over %d pages\n", 100*micro.F, micro.Pages)
	fmt.Printf("macro F %.1f over %d pages\n", 100*macro.F, macro.Pages)
	// Output:
	// micro F 80.0 over 2 pages
	// macro F 50.0 over 2 pages
}

// Tokens shows what Score compares: the URL line is gone and each
// segment marker is a token of its own.
func ExampleTokens() {
	fmt.Printf("%q\n", score.Tokens("URL: http://example.com/\n<p>Rain in<h>Spain\n", score.Options{}))
	// Output:
	// ["<p>" "Rain" "in" "<h>" "Spain"]
}
