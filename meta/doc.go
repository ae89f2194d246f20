// Package meta reads what a web page says about itself: its title,
// author, publication date and site name, and its description and
// language, from the metadata that publishers put in pages for search
// engines and social networks.
//
// # Contract
//
// [Extract] takes the document as package load parses it, before preclean
// drops <script> (where JSON-LD lives) and <meta> elements, and the page's
// URL if known. It returns a [Meta] and never fails: JSON-LD that is not
// JSON (after dropping comment and CDATA markers and reading raw line
// breaks in strings as spaces) is skipped, values are white space
// collapsed and cut to [MaxValue] bytes, and the JSON-LD read is bounded
// ([MaxJSONLD], [MaxJSONLDTotal], [MaxJSONLDNodes]). It does not change
// the document and writes nothing. [FromPage] is Extract on a load.Page,
// with the CleanEval wrapper's title as the last resort.
//
// # Sources
//
// Each field is taken from the first source in its list that gives it;
// [Meta].From names the source:
//
//	title:       json-ld, og, twitter, dc, meta, itemprop, title (wrapper)
//	author:      json-ld, og, dc, meta, itemprop, rel-author
//	date:        json-ld, og, dc, meta, itemprop, time
//	site:        json-ld, og, dc, meta, itemprop, then the title's suffix
//	             naming the URL's host (From.Site: the title's source)
//	description: json-ld, og, twitter, dc, meta
//	language:    html-lang, meta, dc, og, json-ld
//
// The sources are:
//
//   - json-ld ([JSONLD]): <script type="application/ld+json">, an object,
//     an array, or objects in @graph (or mainEntity). Articles (every
//     @type ending in Article, BlogPosting, LiveBlogPosting, Report,
//     Review, SocialMediaPosting, DiscussionForumPosting) come before web
//     pages (@type ending in Page): headline, else name; author (a string,
//     an object with name or givenName and familyName, an @id reference to
//     one, or an array of these); datePublished, else dateCreated;
//     publisher's name, else a WebSite's name; description; inLanguage.
//   - og ([OpenGraph]): og:title, og:site_name, og:description, og:locale,
//     article:published_time, article:author (when it is a name, not a
//     profile URL).
//   - twitter ([Twitter]): twitter:title, twitter:description.
//   - dc ([DublinCore]): DC.title, DC.creator, DC.date (.issued,
//     .created), DC.publisher, DC.description, DC.language, and the same
//     under dcterms (dcterms.issued, dcterms.created, dcterms.abstract).
//   - meta ([MetaName]): <meta name> title, headline, author, byl, date,
//     pubdate, publish-date, published, sailthru.date, parsely-pub-date and
//     the like (collect.go lists them), application-name and publisher for
//     the site, description, and http-equiv content-language.
//   - itemprop ([Microdata]): headline, author (its itemprop=name when it
//     is an item), datePublished (content or datetime), publisher's name.
//   - time ([TimeElement]): <time pubdate>, else the first <time
//     datetime> inside <article>, else the first one in the page.
//   - rel-author ([RelAuthor]): the text of <a rel="author">.
//   - title ([TitleElement]): the first <title>.
//
// A <meta> is read by its property and its name attributes alike. Author
// values lose a leading "By "; URLs, @handles and link texts such as
// "Google+ Profile" are no authors. The authors of one source in the head
// (json-ld, og, dc, meta) are joined with ", "; of itemprop and
// rel-author, which also mark the authors of comments, the first counts.
// For the date, the first value in order that [ParseDate] reads wins (a
// JSON-LD date that it cannot read gives way to a meta tag's that it
// can), so Meta.Date is always RFC 3339 or YYYY-MM-DD; Meta.DateRaw keeps
// the page's string, also of a date that none reads. A <title> holding
// markup (its end tag was missing) keeps its first line. The title's
// " | Site" suffix or "Site | " prefix (also with -, –, —, ::, ·, » or :)
// is dropped when it names the site or the URL's host; with no site named
// otherwise, a suffix naming the host becomes the site.
//
// # Tutorial
//
// Load a page and read its metadata before cleaning it:
//
//	p, err := load.Bytes("page.html", data, load.Options{})
//	if err != nil {
//		return err
//	}
//	m := meta.FromPage(p, "https://example.com/story")
//	fmt.Println(m.Title, m.Author, m.Date, m.Site)
//
// package pipeline does this for every page (pipeline.Doc.Meta), and the
// JSON and JSON Lines outputs carry title, author, date and site.
package meta
