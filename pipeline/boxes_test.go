package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// TestBoxes: with every block above the threshold, the blocks of a box
// named for what it holds are dropped, and only they: each case's
// blocks whose text starts with "Box" are dropped, the others kept.
func TestBoxes(t *testing.T) {
	article := `<p>The council met on Tuesday to approve the budget for the coming year, after a long debate.</p>`
	long := strings.Repeat("Box words fill the archive of the newsletter here. ", 34) // 306 words
	for _, c := range []struct{ name, body string }{
		{"newsletter", `<div class="newsletter-signup"><h3>Box: get our newsletter</h3><p>Box: every Friday, the week's best stories in your inbox.</p></div>`},
		{"BEM element", `<div class="c-newsletter"><p class="c-newsletter__text">Box: sign up today.</p></div>`},
		{"author bio", `<section class="author-bio"><p>Box: Jane Doe writes about cities and the people who run them.</p></section>`},
		{"camel case", `<div id="aboutAuthor"><p>Box: Jane Doe has covered the council since 2010.</p></div>`},
		{"comment form", `<div id="respond" class="comment-respond"><h3>Box: Leave a Reply</h3><p>Box: Your email address will not be published.</p></div>`},
		{"teasers", `<aside><div class="related-posts"><p>Box: Ten parks to visit this summer</p></div></aside>`},
		{"recommended teasers", `<div class="recommended_stories"><p>Box: The mayor's new plan</p></div>`},
		{"vendor", `<div class="OUTBRAIN"><p>Box: You may like these stories from around the web.</p></div>`},
		{"most popular", `<div id="most-popular"><ol><li>Box: Storm closes the bridge</li><li>Box: Schools reopen</li></ol></div>`},
		{"pagination", `<nav class="pagination"><a href="/2">Box: Next page</a></nav>`},
		{"nested below a box", `<div class="login-box"><div><div><p>Box: Log in to comment.</p></div></div></div>`},
		// Not boxes.
		{"related alone", `<div class="related"><p>See also the report of the year before.</p></div>`},
		{"a state: recommended", `<div class="comment recommended"><p>I agree with every word of this, well said.</p></div>`},
		{"a state: subscription", `<div class="subscription-required"><p>Members voted for the plan by a wide margin.</p></div>`},
		{"taxonomy", `<div class="post tag-newsletter category-login"><p>Members voted for the plan by a wide margin.</p></div>`},
		{"too long", `<div class="newsletter-archive"><p>` + strings.ReplaceAll(long, "Box", "Old") + `</p></div>`},
		{"content element", `<main class="newsletter"><p>The issue of this week is about parks.</p></main>`},
		{"above the content", `<div class="newsletter-page"><article><p>The issue of this week is about parks.</p></article></div>`},
		{"empty box", `<div class="newsletter"></div><p>The issue of this week is about parks.</p>`},
	} {
		page := `<html><body>` + article + c.body + `</body></html>`
		d, err := Prepare(context.Background(), c.name+".html", []byte(page), PrepareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := make([]float64, len(d.Blocks))
		for i := range s {
			s[i] = 1
		}
		for i, b := range d.Blocks {
			if got, want := NeverKept(d, i), strings.HasPrefix(b.Text, "Box"); (got == "box") != want {
				t.Errorf("%s: NeverKept(block %q) = %q", c.name, b.Text, got)
			}
		}
		for _, m := range []*classify.Model{nil, {}, {Smooth: 0.25}} {
			keep := Keep(m, d, s, 0)
			for i, b := range d.Blocks {
				if want := !strings.HasPrefix(b.Text, "Box"); keep[i] != want {
					t.Errorf("%s (model %v): block %q kept %v, want %v", c.name, m, b.Text, keep[i], want)
				}
			}
		}
	}
}

func TestNeverKeptRange(t *testing.T) {
	d, err := Prepare(context.Background(), "ad.html", []byte(`<body><p>The council met on Tuesday.</p><div>Advertisement</div></body>`), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"", "ad label", ""} {
		if got := NeverKept(d, i); got != want {
			t.Errorf("NeverKept(%d) = %q, want %q", i, got, want)
		}
	}
	if got := NeverKept(nil, 0); got != "" {
		t.Errorf("NeverKept(nil, 0) = %q", got)
	}
}
