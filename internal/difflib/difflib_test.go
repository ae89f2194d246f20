package difflib

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestMatcherAgainstDifflib compares Matcher.Blocks with the matching blocks
// Python's difflib computed for the same random sequences
// (testdata/gen_difflib.py).
func TestMatcherAgainstDifflib(t *testing.T) {
	data, err := os.ReadFile("testdata/difflib.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		A, B []string
		M    [][3]int
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	popular := 0
	for n, c := range cases {
		got := Matcher{AutoJunk: true}.Blocks(c.A, c.B)
		want := make([]Match, len(c.M))
		for i, m := range c.M {
			want[i] = Match{m[0], m[1], m[2]}
		}
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("case %d (len %d, %d): got %v, want %v", n, len(c.A), len(c.B), got, want)
		}
		if len(c.B) >= 200 {
			popular++
		}
	}
	if popular == 0 {
		t.Error("no case exercises the popular-item rule")
	}
}

func TestMatcherSimple(t *testing.T) {
	a := []string{"x", "a", "b", "c", "y", "d"}
	b := []string{"a", "b", "c", "d", "z"}
	got := Matcher{}.Blocks(a, b)
	want := []Match{{1, 0, 3}, {5, 3, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := (Matcher{}).Blocks(nil, b); len(got) != 0 {
		t.Fatalf("empty a: %v", got)
	}
}

func BenchmarkMatcher20k(b *testing.B) {
	// A 20,000-word page against a 3,000-word gold taken from its middle.
	words := []string{"the", "of", "and", "a", "to", "in", "is", "home", "news", "login"}
	page := make([]string, 20000)
	seed := uint32(7)
	for i := range page {
		seed = seed*1664525 + 1013904223
		if seed>>28 < 6 {
			page[i] = words[seed>>24%10]
		} else {
			page[i] = "w" + string(rune('a'+seed>>20%26)) + string(rune('a'+seed>>10%26))
		}
	}
	gold := append([]string(nil), page[8000:11000]...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Matcher{AutoJunk: true}.Blocks(page, gold)
	}
}
