package meta_test

import (
	"fmt"

	"github.com/fiasco-project/fiasco/load"
	"github.com/fiasco-project/fiasco/meta"
)

func Example() {
	page := `<html><head>
<title>Harbour bridge reopens | The Coastal Times</title>
<meta property="og:site_name" content="The Coastal Times">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "NewsArticle",
 "headline": "Harbour bridge reopens",
 "author": [{"@type": "Person", "name": "Ada Lovelace"}, "Charles Babbage"],
 "datePublished": "2024-03-05T08:30:00+01:00"}
</script>
</head><body><p>The bridge opened at dawn.</p></body></html>`
	p, err := load.Bytes("page.html", []byte(page), load.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := meta.FromPage(p, "https://coastal.example/bridge")
	fmt.Printf("title:  %s (%s)\n", m.Title, m.From.Title)
	fmt.Printf("author: %s (%s)\n", m.Author, m.From.Author)
	fmt.Printf("date:   %s (%s)\n", m.Date, m.From.Date)
	fmt.Printf("site:   %s (%s)\n", m.Site, m.From.Site)
	// Output:
	// title:  Harbour bridge reopens (json-ld)
	// author: Ada Lovelace, Charles Babbage (json-ld)
	// date:   2024-03-05T08:30:00+01:00 (json-ld)
	// site:   The Coastal Times (og)
}

// ParseDate normalises the dates pages write.
func ExampleParseDate() {
	for _, s := range []string{"2019-01-28T06:15:00-05:00", "Jan 16, 2008", "2013-10-21 12:00:00", "soon"} {
		d, ok := meta.ParseDate(s)
		fmt.Printf("%q -> %q %v\n", s, d, ok)
	}
	// Output:
	// "2019-01-28T06:15:00-05:00" -> "2019-01-28T06:15:00-05:00" true
	// "Jan 16, 2008" -> "2008-01-16" true
	// "2013-10-21 12:00:00" -> "2013-10-21" true
	// "soon" -> "" false
}
