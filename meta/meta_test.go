package meta

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fiasco-project/fiasco/load"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from the pages in testdata/")

// testURL is the URL every test page is read at; its host names the site
// of title.html.
const testURL = "https://www.examplenews.com/2024/01/story"

const golden = "testdata/golden.json"

// readPages returns the metadata of every testdata/*.html page, by file
// name, as FromPage reads it.
func readPages(t *testing.T) map[string]Meta {
	t.Helper()
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test pages: %v", err)
	}
	out := map[string]Meta{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := load.Bytes(f, data, load.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = FromPage(p, testURL)
	}
	return out
}

// TestGolden compares the metadata of every test page with
// testdata/golden.json (go test -update rewrites it).
func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(readPages(t)); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		var w map[string]Meta
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatalf("%s: %v", golden, err)
		}
		for name, m := range readPages(t) {
			if m != w[name] {
				t.Errorf("%s:\n got %+v\nwant %+v", name, m, w[name])
			}
		}
		if len(w) != len(readPages(t)) {
			t.Errorf("%s has %d pages, testdata %d (run go test -update)", golden, len(w), len(readPages(t)))
		}
	}
}

// TestSources checks, for each source, a field that a test page takes
// from it: the value and that the source is named.
func TestSources(t *testing.T) {
	pages := readPages(t)
	for _, c := range []struct {
		page, field string
		src         Source
		want        string
	}{
		{"jsonld.html", "title", JSONLD, "Harbour bridge reopens after & repairs"},
		{"jsonld.html", "author", JSONLD, "Ada Lovelace, Charles Babbage, Mary Somerville"},
		{"jsonld.html", "date", JSONLD, "2024-03-05T08:30:00+01:00"},
		{"jsonld.html", "site", JSONLD, "The Coastal Times"},
		{"jsonld.html", "language", HTMLLang, "en-GB"},
		{"jsonld-graph.html", "author", JSONLD, "Rosa Gardener"},      // by @id
		{"jsonld-graph.html", "site", JSONLD, "Green Fingers"},        // publisher by @id
		{"jsonld-graph.html", "date", JSONLD, "2023-11-20T09:00:00Z"}, // dateCreated
		{"jsonld-graph.html", "title", JSONLD, "Ten tips for winter gardening"},
		{"jsonld-array.html", "title", JSONLD, "Version 2.0 is out"}, // name
		{"jsonld-array.html", "author", JSONLD, "Tess Toolsmith"},    // a string
		{"jsonld-array.html", "date", JSONLD, "2022-06-03"},
		{"jsonld-array.html", "site", JSONLD, "Toolsmiths Weblog"},         // publisher as a string
		{"jsonld-broken.html", "title", JSONLD, "Council votes on budget"}, // raw line break read
		{"jsonld-broken.html", "date", OpenGraph, "2021-09-14"},            // JSON-LD's unreadable
		{"og.html", "title", OpenGraph, "Storm closes schools"},
		{"og.html", "site", OpenGraph, "Valley Courier"},
		{"og.html", "author", OpenGraph, "Pat Reporter"},
		{"og.html", "date", OpenGraph, "2019-01-28T06:15:00-05:00"},
		{"og.html", "language", OpenGraph, "en_US"},
		{"twitter.html", "title", Twitter, "Five startups to watch"},
		{"twitter.html", "description", Twitter, "Our pick of the month."},
		{"dc.html", "title", DublinCore, "Aussies need doubles win at Hopman Cup"},
		{"dc.html", "author", DublinCore, "Kim Tennis"},
		{"dc.html", "date", DublinCore, "2008-01-03"},
		{"dc.html", "site", DublinCore, "Australian Broadcasting Corporation"},
		{"metaname.html", "author", MetaName, "Jane Roe, John Doe"},
		{"metaname.html", "date", MetaName, "2008-01-16"},
		{"metaname.html", "site", MetaName, "Weser Kurier"},
		{"metaname.html", "language", MetaName, "de"},
		{"parsely.html", "date", MetaName, "2020-03-04T15:30:00Z"},
		{"parsely.html", "author", MetaName, "Lee Analyst"},
		{"microdata.html", "title", Microdata, "A better sourdough"},
		{"microdata.html", "author", Microdata, "Chef Crumb"},
		{"microdata.html", "date", Microdata, "2018-05-06"},
		{"microdata.html", "site", Microdata, "Kitchen Notes"},
		{"time.html", "date", TimeElement, "2016-10-12T18:05:00+02:00"},
		{"time-pubdate.html", "date", TimeElement, "2011-01-05"},
		{"relauthor.html", "author", RelAuthor, "Sam Writer"},
		{"title.html", "title", TitleElement, "Lighthouse keeper retires"},
		{"title.html", "site", TitleElement, "Example News"},
		{"wrapper.html", "title", Wrapper, "Wrapper title of the page"},
	} {
		m, ok := pages[c.page]
		if !ok {
			t.Errorf("no page %s", c.page)
			continue
		}
		var got string
		var src Source
		switch c.field {
		case "title":
			got, src = m.Title, m.From.Title
		case "author":
			got, src = m.Author, m.From.Author
		case "date":
			got, src = m.Date, m.From.Date
		case "site":
			got, src = m.Site, m.From.Site
		case "description":
			got, src = m.Description, m.From.Description
		case "language":
			got, src = m.Language, m.From.Language
		}
		if got != c.want || src != c.src {
			t.Errorf("%s %s: %q from %q, want %q from %q", c.page, c.field, got, src, c.want, c.src)
		}
	}
	if m := pages["empty.html"]; m != (Meta{}) {
		t.Errorf("empty.html: %+v, want nothing", m)
	}
	if m := pages["jsonld-broken.html"]; m.DateRaw != "2021-09-14" {
		t.Errorf("jsonld-broken.html: DateRaw %q", m.DateRaw)
	}
}

func TestParseDate(t *testing.T) {
	for in, want := range map[string]string{
		"2024-03-05T08:30:00+01:00":            "2024-03-05T08:30:00+01:00",
		"2024-03-05T08:30:00.123Z":             "2024-03-05T08:30:00Z",
		"2024-03-05T08:30+0100":                "2024-03-05T08:30:00+01:00",
		"2024-03-05T08:30:00+0100":             "2024-03-05T08:30:00+01:00",
		"2024-03-05T08:30:00":                  "2024-03-05",
		"2012/07/24T14:41:54+00:00":            "2012-07-24T14:41:54Z",
		"2013-10-21 12:00:00":                  "2013-10-21",
		"  2013-10-21 ":                        "2013-10-21",
		"Mon, 02 Jan 2006 15:04:05 GMT":        "2006-01-02T15:04:05Z",
		"Mon Jul 23 21:11:10 PDT 2012":         "2012-07-23", // zone unknown: the day
		"Jan 16, 2008":                         "2008-01-16",
		"Jan. 16, 2008":                        "2008-01-16",
		"Sept 3, 2019":                         "2019-09-03",
		"January 5, 2011":                      "2011-01-05",
		"5 January 2011":                       "2011-01-05",
		"05.01.2011":                           "2011-01-05",
		"20120724":                             "2012-07-24",
		"June 3, 2022 4:05 PM":                 "2022-06-03",
		"2008-1-08 20:05":                      "2008-01-08",
		"December 31, 2007 11:14:48 MST":       "2007-12-31",
		"Saturday 12 January 2008":             "2008-01-12",
		"Wednesday, 16th January 2008":         "2008-01-16",
		"Wednesday, October 31, 2012, 5:03 PM": "2012-10-31",
		"7/18/2012 11:52:00 AM":                "2012-07-18",
		"18/7/2012":                            "2012-07-18",
		"08/09/2012":                           "", // day and month unclear
		"02/30/2012":                           "",
		"9:22 AM":                              "",
		"7 months ago":                         "",
		"3000-01-01":                           "",
		"yesterday":                            "",
		"":                                     "",
	} {
		got, ok := ParseDate(in)
		if got != want || ok != (want != "") {
			t.Errorf("ParseDate(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestSplitSite(t *testing.T) {
	for _, c := range []struct{ title, site, host, want, dropped string }{
		{"Story | Site", "Site", "", "Story", "Site"},
		{"Site - Story", "site", "", "Story", "Site"},
		{"A - B - The Site", "The Site", "", "A - B", "The Site"},
		{"Story - NYTimes.com", "The New York Times", "nytimes.com", "Story", "NYTimes.com"},
		{"Story - Wired", "", "wired.com", "Story", "Wired"},
		{"Story - Other", "Site", "wired.com", "Story - Other", ""},
		{"Site", "Site", "", "Site", ""},
		{"Pros - cons", "", "", "Pros - cons", ""},
	} {
		got, dropped := splitSite(c.title, c.site, c.host)
		if got != c.want || dropped != c.dropped {
			t.Errorf("splitSite(%q, %q, %q) = %q, %q; want %q, %q", c.title, c.site, c.host, got, dropped, c.want, c.dropped)
		}
	}
}

// TestBadJSONLD: JSON-LD that is broken, huge, deep or of the wrong shape
// is skipped, and the page's other sources still count.
func TestBadJSONLD(t *testing.T) {
	deep := strings.Repeat("[", 5000) + `{"@type":"Article","headline":"deep"}` + strings.Repeat("]", 5000)
	huge := `{"@type":"Article","headline":"huge","x":"` + strings.Repeat("a", MaxJSONLD) + `"}`
	wide := "[" + strings.Repeat(`{"@type":"Thing"},`, MaxJSONLDNodes) + `{"@type":"Article","headline":"late"}]`
	for _, ld := range []string{
		"", "{", "null", "[]", `"a string"`, "42", `{"@type": 7}`, `{"@type":"Article","headline":{"x":1},"author":[[["x"]]]}`,
		`{"@type":"Article","author":{"@id":"#nobody"}}`, `{"@graph": {"@graph": null}}`, deep, huge, wide,
		"\x00\xff\xfe", `{"@type":"Article","headline":"a"} trailing garbage`,
	} {
		page := `<html><head><title>Fallback</title><script type="application/ld+json">` + ld + `</script></head><body></body></html>`
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		m := Extract(doc, "")
		if m.Title != "Fallback" && m.Title != "a" {
			t.Errorf("JSON-LD %.40q: title %q", ld, m.Title)
		}
	}
}

func TestAuthorName(t *testing.T) {
	for in, want := range map[string]string{
		"Jane Roe":                     "Jane Roe",
		"By Jane Roe":                  "Jane Roe",
		"BY JANE ROE":                  "JANE ROE",
		"View all posts by Jane Roe":   "Jane Roe",
		"Byron Bay":                    "Byron Bay",
		"By":                           "By",
		"https://facebook.com/janeroe": "",
		"www.janeroe.example":          "",
		"@janeroe":                     "",
		"/authors/jane-roe":            "",
		"Google+":                      "",
		"Google Profile":               "",
		"About the author":             "",
	} {
		if got := authorName(in); got != want {
			t.Errorf("authorName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMarkupTitle: a <title> without its end tag swallows the page; only
// its first line is the title.
func TestMarkupTitle(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<html><head><title>Golfer wins title (The Times)\n<script>x()</script></head><body><p>text</p></body></html>"))
	if m := Extract(doc, ""); m.Title != "Golfer wins title (The Times)" {
		t.Errorf("title %q", m.Title)
	}
}

// TestUnreadDate: a date that ParseDate cannot read is kept in DateRaw
// only, and a later source's readable date wins.
func TestUnreadDate(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<body><time datetime="on Tuesday July 24, @07:29AM">on Tuesday</time></body>`))
	m := Extract(doc, "")
	if m.Date != "" || m.DateRaw != "on Tuesday July 24, @07:29AM" || m.From.Date != TimeElement {
		t.Errorf("date %q, raw %q from %q", m.Date, m.DateRaw, m.From.Date)
	}
	doc, _ = html.Parse(strings.NewReader(`<head><meta name="date" content="last week"></head><body><time datetime="2012-07-24">Tuesday</time></body>`))
	if m := Extract(doc, ""); m.Date != "2012-07-24" || m.DateRaw != "2012-07-24" || m.From.Date != TimeElement {
		t.Errorf("date %q, raw %q from %q", m.Date, m.DateRaw, m.From.Date)
	}
}

func TestNil(t *testing.T) {
	if m := Extract(nil, ""); m != (Meta{}) {
		t.Errorf("Extract(nil) = %+v", m)
	}
	if m := FromPage(nil, ""); m != (Meta{}) {
		t.Errorf("FromPage(nil) = %+v", m)
	}
}

// TestLongValue: values are cut to MaxValue bytes on a rune boundary.
func TestLongValue(t *testing.T) {
	title := strings.Repeat("é", MaxValue)
	doc, _ := html.Parse(strings.NewReader("<title>" + title + "</title>"))
	m := Extract(doc, "")
	if len(m.Title) > MaxValue || !strings.HasPrefix(title, m.Title) || len(m.Title) < MaxValue-1 {
		t.Errorf("title of %d bytes", len(m.Title))
	}
}

func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.html")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			return
		}
		m := Extract(doc, "http://example.com/")
		for _, v := range []string{m.Title, m.Author, m.Date, m.Site, m.Description, m.Language} {
			if len(v) > MaxValue*(MaxAuthors+1) {
				t.Errorf("value of %d bytes", len(v))
			}
		}
	})
}

// TestInvisibleDropped: characters that show nothing go from the values
// as package preclean strips them from the text.
func TestInvisibleDropped(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<head><title>Bundes\u00adverfassungs\u00adgericht\u200b urteilt</title>" +
		`<meta name="author" content="Anna` + "\u200b" + ` Schmidt"><meta property="og:site_name" content="Tages` + "\u00ad" + `zeitung"></head>`))
	m := Extract(doc, "")
	if m.Title != "Bundesverfassungsgericht urteilt" || m.Author != "Anna Schmidt" || m.Site != "Tageszeitung" {
		t.Errorf("title %q, author %q, site %q", m.Title, m.Author, m.Site)
	}
}

// TestMojibakeRepaired: the values are repaired as package preclean
// repairs the text, so that a title matches its heading.
func TestMojibakeRepaired(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<head><title>RÃ©sumÃ© of Israelâ€™s tech scene</title>" +
		`<meta name="author" content="FranÃ§ois MÃ¼ller"><meta property="og:site_name" content="Le Monde â` + "\u0080\u0094" + ` Tech"></head>`))
	m := Extract(doc, "")
	if m.Title != "Résumé of Israel’s tech scene" || m.Author != "François Müller" || m.Site != "Le Monde — Tech" {
		t.Errorf("title %q, author %q, site %q", m.Title, m.Author, m.Site)
	}
}
