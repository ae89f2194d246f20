// Package difflib finds the matching blocks of two word sequences exactly
// as Python's difflib.SequenceMatcher (isjunk=None) does. The CleanEval
// scorer (package score) and the gold alignment (package gold) both
// align words with it; it is tested against Python's output on random
// sequences (testdata/difflib.json, made by testdata/gen_difflib.py).
package difflib
