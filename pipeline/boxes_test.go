package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
)

// prepared prepares page (name in errors).
func prepared(t *testing.T, name, page string) *Doc {
	t.Helper()
	d, err := Prepare(context.Background(), name+".html", []byte(page), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ones is a decision value of 1 for each of n blocks: every block well
// above a threshold of 0.
func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// TestBoxes: with every block above the threshold, the blocks of a box
// named for what it holds are dropped, and only they: each case's
// blocks whose text starts with "Box" are dropped (NeverKept names them
// boxes), the others kept.
func TestBoxes(t *testing.T) {
	article := `<p>The council met on Tuesday to approve the budget for the coming year, after a long debate.</p>`
	words := func(n int) string { return strings.Repeat("Old ", n) } // n words of a box's text
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
		{"300 words", `<div class="newsletter"><p>Box ` + words(299) + `</p></div>`},
		{"named box, heading of other words", `<div id="newsletter"><h3>Box: Get the Friday briefing</h3><p>Box: our picks, every week.</p></div>`},
		// Not boxes.
		{"related alone", `<div class="related"><p>See also the report of the year before.</p></div>`},
		{"a state: recommended", `<div class="comment recommended"><p>I agree with every word of this, well said.</p></div>`},
		{"a state: subscription", `<div class="subscription-required"><p>Members voted for the plan by a wide margin.</p></div>`},
		{"taxonomy", `<div class="post tag-newsletter category-login"><p>Members voted for the plan by a wide margin.</p></div>`},
		{"301 words", `<div class="newsletter-archive"><p>` + words(301) + `</p></div>`},
		{"content element", `<main class="newsletter"><p>The issue of this week is about parks.</p></main>`},
		{"above the content", `<div class="newsletter-page"><article><p>The issue of this week is about parks.</p></article></div>`},
		{"body", `</body><body class="page-newsletter"><p>The issue of this week is about parks.</p>`},
		{"empty box", `<div class="newsletter"></div><p>The issue of this week is about parks.</p>`},
		{"heading anchor", `<h2 id="login">Login</h2><p>Send your token in the header of every request.</p><h2 id="h-how-to-sign-up">How to sign up</h2>`},
		{"section anchor", `<section id="pagination"><h2>Pagination</h2><p>Lists return fifty items and a link to the next page.</p></section>`},
		{"div section anchor", `<div class="section" id="sign-up"><h3>Sign up for an account</h3><p>Accounts are free for students.</p></div>`},
		{"RDoc method", `<div class="method"><div class="title method-title" id="method-i-respond_to"><b>respond_to</b>(*mimes)</div><p>Picks the block for the format the request asks for.</p></div>`},
		{"Sphinx function", `<dl class="py method"><dt class="sig" id="requests.Session.login"><span>login</span>(user)</dt><dd><p>Logs the user in.</p></dd></dl>`},
		{"respond in a word", `<div class="respond-quickly"><p>We answer within a day.</p></div>`},
		{"method anchor", `<section class="detail" id="login(java.lang.String,char[])"><h3>login</h3><p>Logs the user in and returns a session.</p></section>`},
		{"WordPress post", `<div id="product-12" class="product type-product post-12 status-publish product_cat-email-newsletter-templates newsletter"><h1>Weekly letter template</h1><p>A template for a weekly letter to your readers, in three colours.</p></div>`},
		{"WordPress entry", `<div class="post-9 newsletter type-newsletter hentry"><p>The issue of this week is about parks.</p></div>`},
	} {
		d := prepared(t, c.name, `<html><body>`+article+c.body+`</body></html>`)
		never := NeverKept(d)
		for i, b := range d.Blocks {
			want := strings.HasPrefix(b.Text, "Box")
			if got := neverAt(never, i) == "box"; got != want {
				t.Errorf("%s: NeverKept(block %q) = %q", c.name, b.Text, neverAt(never, i))
			}
		}
		for _, m := range []*classify.Model{nil, {}, {Smooth: 0.25}, {Floor: true}} {
			keep := Keep(m, d, ones(len(d.Blocks)), 0)
			for i, b := range d.Blocks {
				if want := !strings.HasPrefix(b.Text, "Box"); keep[i] != want {
					t.Errorf("%s (model %+v): block %q kept %v, want %v", c.name, m, b.Text, keep[i], want)
				}
			}
		}
	}
}

func neverAt(why []string, i int) string {
	if i < len(why) {
		return why[i]
	}
	return ""
}

// TestBoxesBeforeFloor: the blocks a rule never keeps count for nothing
// before the smoothing, the fallback and the floor. An author's bio the
// model likes, on a page whose article it doubts, neither stops the
// floor (which keeps the article's prose) nor is kept or marked by it;
// nor does it hold a neighbour kept through the smoothing; and the
// fallback keeps the page's best block outside the box.
func TestBoxesBeforeFloor(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body>`)
	for _, p := range []string{
		"The council met on Tuesday to approve the budget for the coming year, after a long debate.",
		"Members voted for the plan by a wide margin, and the mayor thanked them for their work.",
		"The new bridge over the river will open in spring, two years later than first planned.",
		"Residents asked whether the works would close the road during the summer season of visitors.",
		"The mayor promised a public meeting before any final decision about the money is taken.",
	} {
		b.WriteString("<p>" + p + "</p>")
	}
	b.WriteString(`<div>Share this story</div><div class="author-bio"><p>Jane Doe writes about cities and the people who run them, and has covered the council for The Gazette since 2010, after ten years at the town hall herself.</p></div></body></html>`)
	d := prepared(t, "bio", b.String())
	n := len(d.Blocks)
	bio, share := n-1, n-2
	if !strings.HasPrefix(d.Blocks[bio].Text, "Jane Doe") || d.Blocks[share].Text != "Share this story" {
		t.Fatalf("last blocks: %q, %q", d.Blocks[share].Text, d.Blocks[bio].Text)
	}
	s := make([]float64, n)
	for i := range s {
		s[i] = -2 // the article, far below the threshold
	}
	s[share], s[bio] = -1.5, 1 // the share line beyond the fallback's margin
	keep, _, floor := keepFloor(&classify.Model{Floor: true}, d, s, 0)
	for i := range n {
		if want := i < share; keep[i] != want || (floor != nil && floor[i]) != want {
			t.Errorf("floor: block %d (%q) kept %v, floor %v; want %v", i, d.Blocks[i].Text, keep[i], floor != nil && floor[i], want)
		}
	}
	// A kept paragraph, the share line a little below the threshold, the
	// bio: kept, the bio would keep the share line through the smoothing.
	sm := slices.Clone(s)
	sm[share-1], sm[share] = 1, -0.2
	keep, smoothed, _ := keepFloor(&classify.Model{Smooth: 0.5}, d, sm, 0)
	if keep[share] || keep[bio] || !keep[share-1] || smoothed != nil {
		t.Errorf("smoothing: the paragraph kept %v, the share line %v, the bio %v; smoothed %v", keep[share-1], keep[share], keep[bio], smoothed)
	}
	s[0] = -0.5 // the best block outside the box, within the fallback's margin
	if keep := Keep(&classify.Model{}, d, s, 0); !slices.Equal(keep, append([]bool{true}, make([]bool, n-1)...)) {
		t.Errorf("fallback: %v, want the first paragraph alone", keep)
	}
}

func TestNeverKeptAdLabel(t *testing.T) {
	d := prepared(t, "ad", `<body><p>The council met on Tuesday.</p><div>Advertisement</div></body>`)
	if got := NeverKept(d); !slices.Equal(got, []string{"", "ad label"}) {
		t.Errorf("NeverKept = %q", got)
	}
	if got := NeverKept(prepared(t, "plain", `<body><p>The council met on Tuesday.</p></body>`)); got != nil {
		t.Errorf("NeverKept of a page without such blocks = %q, want nil", got)
	}
	if got := NeverKept(nil); got != nil {
		t.Errorf("NeverKept(nil) = %q", got)
	}
}
