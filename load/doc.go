// Package load reads web pages: raw bytes of any charset, or CleanEval input
// files, decoded to UTF-8 and parsed with golang.org/x/net/html.
//
// # Input
//
// [File], [Reader] and [Bytes] take one page. A CleanEval input file wraps
// the page in <text id="URL" title=".." encoding="..">...</text>; the wrapper
// is removed, id and title (decoded with the page's charset, character
// references resolved) go to Page.URL and Page.Title, and the encoding
// attribute is a hint for the charset chain ("unset" and other unknown
// labels are ignored). Page.Address is the address the page's head gives
// itself (link rel=canonical, else meta property=og:url, else base href;
// absolute http or https only), for telling which site a page is from.
//
// # Charset chain
//
// The first link that applies decides; Page.EncodingSource names it:
//
//  1. "bom": a UTF-8, UTF-16LE, UTF-16BE, UTF-32LE or UTF-32BE byte-order
//     mark (browsers read UTF-32's little-endian mark as UTF-16LE, showing
//     NUL characters; fiasco reads the text). UTF-16 without a mark is
//     recognised by its NUL bytes ("guess": a fifth of its units with a
//     zero byte at one parity and at most a tenth at the other, or a
//     tenth and four times fewer; markup and hardly any control
//     characters).
//  2. "utf-8": the bytes are valid UTF-8 and hold non-ASCII characters. This
//     beats any declaration: a page declared iso-8859-1 whose bytes are
//     valid UTF-8 is UTF-8 (legacy text almost never forms valid UTF-8).
//  3. "header": the charset of Options.ContentType (an HTTP header value,
//     read leniently where mime.ParseMediaType refuses it, as browsers
//     read "text/html;; charset=x"), unless it is a single-byte charset and the bytes are UTF-8 but for
//     a few stray bytes (3 valid multi-byte sequences or more, twice as
//     many as stray bytes): a server's default (Apache's AddDefaultCharset
//     ISO-8859-1) over a UTF-8 page with a pasted windows-1252 quote.
//     A header naming UTF-16 is taken where the bytes read as UTF-16
//     markup (Chinese text with too few ASCII units for the NUL bytes
//     to tell).
//     The chain then goes on: a wrapper or meta that declares UTF-8, or
//     the detector, says UTF-8; a <meta> that declares a single-byte
//     charset over such bytes still decides, as it did (the page's own
//     word, and the training pages, which have no header, read as before).
//  4. "wrapper": the CleanEval wrapper's encoding attribute.
//  5. "meta": <meta charset>, <meta http-equiv="Content-Type" content=..>
//     anywhere in the head (the head is tokenised to its end, up to 1 MiB,
//     not only its first 1024 bytes, and within those 1024 bytes past a
//     <div> or </head> too, as a browser's prescan reads it), or an
//     <?xml encoding=..?> declaration. hz-gb-2312, which the Encoding
//     Standard maps to its replacement decoder, is decoded as HZ.
//     A declaration (3 to 5) that the bytes contradict beyond doubt gives
//     way to the detector of 7 ("guess", the declaration kept in
//     Page.Declared; since 2026-12-02): where the declared charset is one
//     the detector models, the detector picks one of another script or
//     family (not one Latin charset for another), over 40 non-ASCII bytes
//     or more of its sample, scoring 1 or more a character and 0.75 more
//     than the declared one. Russian in windows-1251 declared iso-8859-1,
//     and KOI8-R declared windows-1251 (Russian servers recoded pages and
//     left the <meta> as it was), are decoded as they are written; none of
//     the 2,339 pages of the five data sets changes.
//  6. "ascii": no byte above 0x7F; decoded as UTF-8, but for ISO-2022-JP,
//     told by its ESC $ B or ESC $ @ ("guess").
//  7. "guess": a statistical detector. Bytes that are mostly valid UTF-8
//     (at least as many valid multi-byte sequences as stray bytes) are
//     UTF-8. Otherwise the lines holding non-ASCII bytes (up to 64 KiB) are
//     decoded with windows-1252, windows-1250, iso-8859-2, windows-1251,
//     koi8-r, koi8-u, windows-1253, iso-8859-7, windows-1256, iso-8859-6,
//     windows-1255, windows-874, shift_jis, euc-jp, gbk, big5 and euc-kr,
//     and each
//     decoded character is scored against a small model of the charset's
//     languages: common characters in frequency order, their script,
//     undecodable bytes and C1 controls, and context (an accented letter
//     standing alone or between two more accented letters, Cyrillic,
//     Greek, Arabic, Hebrew or Thai inside a Latin word, an upper-case
//     letter after a lower-case one in a word, a combining mark after no
//     letter, Thai written against its rules: a leading vowel before no
//     consonant, a mark after a leading vowel, two tone marks, a digit
//     in a word). Thai's model holds its twenty most frequent characters
//     only, and a Thai, Arabic or Hebrew guess gives way to a CJK charset
//     that decodes the sample with hardly a fault (one, as a character
//     cut at the end gives, or one in twenty): these alphabets read the
//     byte pairs of CJK text as plausible letters.
//     windows-1252 wins unless another charset leads it clearly: mean
//     score +0.25; total +3, totals being the mean times the sample's
//     non-ASCII bytes (so that a two-byte charset is not behind for
//     decoding half as many characters); three distinct common
//     characters. Where that is a Latin charset (windows-1252,
//     windows-1250, iso-8859-2), the Latin charsets are weighed again,
//     windows-1254 (Turkish) and windows-1257 (Baltic) with them, each as
//     the text of the languages written in it: a naive Bayes model of
//     their letters (how many are not ASCII, the share of each, and
//     whether it follows a vowel, a consonant or no letter; a word
//     counted once), so that Hungarian's ő (windows-1250) is not taken
//     for Portuguese õ (windows-1252), nor Danish æ for Polish ć. windows-1252 wins
//     unless another leads it by a likelihood ratio of e^6 and reads the
//     sample differently. How well this guesses is measured on the
//     shared data sets and on text of 36 languages (RESULTS.md, "load";
//     TestGuessLocales, TestGuessCJKLocales). Charsets not listed here
//     (windows-1258, ISO-2022-KR) are not guessed.
//  8. "default": windows-1252.
//
// Labels are resolved with the WHATWG Encoding Standard's table, so
// iso-8859-1 and us-ascii mean windows-1252 and gb2312 means gbk. A
// declaration of UTF-8 is skipped when the bytes contradict it (no valid
// sequence, or more stray bytes than valid sequences); a declaration of
// UTF-16 on bytes that are not UTF-16 means UTF-8, as in browsers.
// Page.Declared keeps the first declared charset either way (it is not
// read where a byte-order mark or valid UTF-8 decides first). Stray bytes in text
// decoded as UTF-8 are read as windows-1252, so pages patched together from
// UTF-8 and legacy parts stay readable; the decoded text is always valid
// UTF-8. A multi-byte character cut off at the very end of the input
// (a page cut by its crawler or at Options.MaxBytes) is dropped, in every
// charset, and so is a "<" or "</" that ends it (a tag cut off there). A
// page refused as binary that declares a charset this package cannot
// decode (UTF-32 without a mark, ISO-2022-KR) names that charset in its
// error.
//
// # Resource guards
//
// Input beyond Options.MaxBytes (default 8 MiB) is not read and the page is
// cut there; a page with more than Options.MaxTags start tags (default
// 200,000; those in comments and in scripts, styles and other raw text
// do not count) is cut before the next one; Page.Truncated reports either. A
// page nested deeper than the parser's limit of 512 open elements is
// flattened: start tags beyond a depth of 256 (then 64) are dropped, their
// text kept, and Page.Flattened counts them. A page whose formatting
// elements (<b>, <i>, <font>, ...; not <a>) are left open in such numbers
// that the parser, which reopens every open one after each block's end,
// would multiply them (more than 100 active at once, or over two million
// reopened, estimated by following the parser's open elements and its
// list of active formatting elements through the tags; on the five data
// sets at most 14 and 69) loses those elements' tags, their text kept,
// and Page.FormattingDropped says so: a 1.2 MB page of 400
// unclosed <b>s ran the parser out of memory, and a forum page of 520
// unclosed <font>s nested too deep to parse. An empty page is an error
// wrapping [ErrEmpty]; a binary file (a known magic number, or more than 5%
// control bytes in the first 16 KiB) one wrapping [ErrBinary]; a fiasco
// model file (its JSON, decompressed) one wrapping [ErrModel]; errors name
// the page. Loading time and memory grow linearly with the page
// (guard_test.go; figures in RESULTS.md).
//
// # Repairs
//
// A <title> whose end tag is missing (a page cut or spliced by its
// crawler, a misspelt </titel>) makes the rest of the page the title's
// text and leaves the body empty, in Chromium as in the parser. When the
// parsed document has an HTML title whose text holds markup, the
// tokenizer finds that title in the input (so that "<title>" inside a
// comment, a script or an attribute is not taken for one); if its text
// runs to the end of the input, or is at least 256 bytes long, the title
// is closed at its first '<' that starts markup, as browsers before HTML5
// did, the page is parsed again and Page.TitleClosed reports it. A page
// spliced into a script keeps that script's text in its title. Eight of
// L3S-GN1's 621 pages need the repair; without it they have no text
// blocks at all (RESULTS.md).
//
// A page that a browser parses as XML (Options.ContentType
// application/xhtml+xml, or without one a name ending in .xhtml or .xht)
// has its self-closing tags of elements that are not void read as XML
// reads them: <script src="a.js"/> is a script and its end, not a script
// whose text is the rest of the page. Pages served as text/html are
// parsed as HTML whatever their DOCTYPE says, as browsers parse them.
//
// # Example
//
// The examples load a page in windows-1251 declared by <meta>, read a file
// and tell an empty page by its error, unwrap a CleanEval input file, and
// pass an HTTP charset.
package load
