// Package score scores cleaned pages against gold standards as the
// CleanEval community scorer does (cleaneval.py v1.0, (c) 2008 Stefan Evert).
//
// # The reference, and where this package differs
//
// cleaneval.py normalises both texts: it deletes every line that starts
// with "URL" (after optional white space), turns control characters into
// spaces, puts each segment marker <p>, <h>, <l> (any case) on a token of
// its own, and splits at white space. It aligns the two word sequences with
// Python's difflib.SequenceMatcher (autojunk on) and counts the words in
// "equal" blocks as true positives; a "replace" block counts as deleted
// (false positive) plus inserted (false negative) words. Precision, recall
// and F follow; segment markers are tokens like any other word, and the
// markers among the matched tokens give the segment P/R/F.
//
// [Tokens] and [Score] do the same (internal/difflib is a port of difflib's
// get_matching_blocks, tested against Python on random sequences), with
// these differences: empty tokens (which re.split yields at leading or
// trailing white space, matching each other) are not produced; a leading
// byte-order mark is dropped; ASCII mode drops every non-ASCII character.
// Options.Tags chooses whether markers count as words (the reference) or
// are dropped before the word alignment; segment figures always come from
// the alignment with markers. An empty output against an empty gold
// standard scores P = R = F = 1 (the reference gets there by its empty
// tokens); otherwise an empty side gives 0.
//
// [Micro] sums counts over pages and computes P, R, F from the sums;
// [Macro] averages the per-page ratios.
//
// # Example
//
// The examples score a cleaned page against its gold text, pool pages with
// [Micro] and [Macro], and show the tokens that [Score] compares.
package score
