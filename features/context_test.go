package features

import (
	"strings"
	"testing"
)

// TestContext checks every context column on a small news page with a
// menu, an article, a comment section and a footer.
func TestContext(t *testing.T) {
	bs := parseFile(t, "testdata/article.html")
	tab := Extract(bs, nil)
	get := func(prefix, name string) float64 {
		t.Helper()
		return column(t, bs, tab, prefix, name)
	}
	for _, c := range []struct {
		block, feature string
		want           float64
	}{
		{"The new bridge", "ctx_dense_in", 1},
		{"The mayor", "ctx_dense_in", 1},
		{"Work on the bridge", "ctx_dense_in", 1},
		{"The mayor", "ctx_dense_dist", 0},
		{"Copyright", "ctx_dense_in", 0},
		{"The new bridge", "ctx_top_parent", 1},
		{"About time", "ctx_top_parent", 0},
		{"River bridge opens", "ctx_title_share", 1}, // river, bridge, opens, ten, years all in the title
		{"The mayor", "ctx_comment_marker", 0},
		{"Posted by Ann", "ctx_comment_marker", 1},
		{"The mayor", "ctx_after_comments", 0},
		{"3 Comments", "ctx_after_comments", 1},
		{"About time", "ctx_after_comments", 1},
		{"Copyright", "ctx_after_comments", 1},
		{"About time", "ctx_comment_attr", 1},
		{"The mayor", "ctx_comment_attr", 0},
	} {
		if got := get(c.block, c.feature); got != c.want {
			t.Errorf("%q: %s = %v, want %v", c.block, c.feature, got, c.want)
		}
	}
	// The copyright line is the second block after the run: log1p(2) or more.
	if d := get("Copyright", "ctx_dense_dist"); d < 1 {
		t.Errorf("Copyright: ctx_dense_dist = %v, want log1p of 2 blocks or more", d)
	}
	if s := get("About time", "ctx_title_share"); s > 0.2 {
		t.Errorf("comment: ctx_title_share = %v, want about 0", s)
	}
	// The menu's "Comment" link, before the run of text, opens no
	// comment section.
	if v := get("Comment", "ctx_after_comments"); v != 0 {
		t.Errorf("menu link: ctx_after_comments = %v, want 0", v)
	}
	// A title given (as package meta reads it) replaces <title>.
	tab = ExtractTitled(bs, nil, "Mayor thanks builders")
	c, _ := Select([]string{"ctx_title_share"})
	for i, b := range bs {
		if strings.HasPrefix(b.Text, "River bridge opens") && tab.Values[i][c[0]] != 0 {
			t.Errorf("heading: ctx_title_share = %v under another title, want 0", tab.Values[i][c[0]])
		}
	}
}

func TestCommentSection(t *testing.T) {
	for s, want := range map[string]bool{
		"12 comments": true, "comments (3)": true, "leave a reply": true, "3 responses to “bridge”": true,
		"panel discussion on the new bridge": false, "no comment from the mayor": false, "comment": true,
	} {
		if got := commentSection(s); got != want {
			t.Errorf("commentSection(%q) = %v, want %v", s, got, want)
		}
	}
}
