package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
)

// Encoded is what a Sink's Encode leaves in pipeline.Outcome.Value: the
// bytes to write and what the summary needs, the page's Result dropped.
type Encoded struct {
	Data      []byte
	Truncated bool   // the page was cut (load.Page.Truncated)
	Cut       string // where it was cut first (load.Page.Cut)
	// RenderError is why the page was not rendered and the text model
	// cleaned it (pipeline.Result.RenderErr); "" when it was not.
	RenderError string
	// Empty reports a cleaned page of which no block was kept: its
	// output holds no text.
	Empty bool
	// Unseen and UnseenAll are pipeline.Result.Unseen: the blocks the
	// rendering could not show, which the text model decided.
	Unseen    int
	UnseenAll bool
	// Floored is pipeline.Result.Floored: the prose floor kept blocks.
	Floored bool
}

// encoded is what Encode leaves of r: everything but the bytes.
func encoded(r *pipeline.Result) Encoded {
	n, all := r.Unseen()
	return Encoded{Truncated: r.Page.Truncated, Cut: r.Page.Cut, RenderError: r.RenderErrText(), Empty: keptNone(r), Unseen: n, UnseenAll: all, Floored: r.Floored()}
}

// summary is what the summary needs of an outcome: what Encode left, or
// the same read off its Result; nothing for a failed page.
func summary(o pipeline.Outcome) Encoded {
	if e, ok := o.Value.(*Encoded); ok {
		return *e
	}
	if o.Err != nil || o.Result == nil {
		return Encoded{}
	}
	return encoded(o.Result)
}

// Floored reports whether the prose floor kept blocks of an outcome's
// page (pipeline.Result.Floored), from its Result or from what Encode
// left.
func Floored(o pipeline.Outcome) bool { return summary(o).Floored }

// Unseen reports an outcome's blocks that the rendering could not show
// and the text model decided (pipeline.Result.Unseen), from its Result
// or from what Encode left.
func Unseen(o pipeline.Outcome) (n int, all bool) {
	e := summary(o)
	return e.Unseen, e.UnseenAll
}

// Empty reports whether an outcome's page was cleaned to no text (no
// block kept), from its Result or from what Encode left.
func Empty(o pipeline.Outcome) bool { return summary(o).Empty }

func keptNone(r *pipeline.Result) bool {
	for _, k := range r.Keep {
		if k {
			return false
		}
	}
	return true
}

// Identity is what a resumed run knows an input by: its WARC-Record-ID
// when it comes from a WARC file, else its name.
func Identity(in pipeline.Input) string {
	if in.RecordID != "" {
		return in.RecordID
	}
	return in.Name
}

// Truncated reports whether an outcome's page was cut, from its Result or
// from what Encode left.
func Truncated(o pipeline.Outcome) bool { return summary(o).Truncated }

// Cut says where an outcome's page was cut first (load.Page.Cut: a
// load.Cut* value), from its Result or from what Encode left.
func Cut(o pipeline.Outcome) string { return summary(o).Cut }

// RenderError reports why an outcome's page was cleaned by the text model
// for want of a rendering (pipeline.Cleaner.TextFallback), from its Result
// or from what Encode left; "" when it was not.
func RenderError(o pipeline.Outcome) string { return summary(o).RenderError }

// Line is one line of the JSONL output: a cleaned page, or with Error set,
// a page that failed (then only Input, URL, WARCRecordID, WARCDate and
// HTTPStatus are set).
// Title (always set for a cleaned page), Author, Date and Site are the
// page's metadata (pipeline.Doc.Meta, package meta); Author, Date and Site
// are omitted when the page does not give them.
type Line struct {
	Input        string `json:"input"`
	URL          string `json:"url"`
	WARCRecordID string `json:"warc_record_id,omitempty"`
	// WARCDate is a WARC record's WARC-Date, when the crawler fetched
	// the page (RFC 3339, UTC); Date is the page's own date.
	WARCDate string `json:"warc_date,omitempty"`
	// HTTPStatus is a WARC response's HTTP status code (not 2xx only
	// with --any-status).
	HTTPStatus int         `json:"http_status,omitempty"`
	Title      *string     `json:"title,omitempty"`
	Author     string      `json:"author,omitempty"`
	Date       string      `json:"date,omitempty"`
	Site       string      `json:"site,omitempty"`
	Lang       *string     `json:"lang,omitempty"`
	Charset    *string     `json:"charset,omitempty"`
	Truncated  *bool       `json:"truncated,omitempty"`
	Text       *string     `json:"text,omitempty"`
	Blocks     []LineBlock `json:"blocks,omitempty"`
	// RenderError: rendering the page failed and the text model cleaned
	// it (pipeline.Result.RenderErr).
	RenderError string `json:"render_error,omitempty"`
	// UnseenBlocks: blocks the rendering could not show (below the
	// capture of a very tall page, or all of a page that renders all but
	// blank), which the text model decided (pipeline.Result.Unseen).
	UnseenBlocks int `json:"unseen_blocks,omitempty"`
	// SmoothedBlocks: how many blocks sequence smoothing gave the other
	// label than their own values would (pipeline.Result.Smoothed).
	SmoothedBlocks int `json:"smoothed_blocks,omitempty"`
	// Floored: the prose floor kept blocks of prose the threshold dropped
	// (pipeline.Result.Floored).
	Floored bool `json:"floored,omitempty"`
	// Frames: a page without text whose frames or inline frames load
	// other pages, which hold its text (pipeline.Doc.Frames), resolved
	// against URL where it is absolute.
	Frames []string `json:"frames,omitempty"`
	Error  string   `json:"error,omitempty"`
	// Damage: Error is of damage in a WARC file, not of a page (Damaged).
	Damage bool `json:"damage,omitempty"`
}

// LineBlock is a block of a page in the JSONL output (with --blocks).
type LineBlock struct {
	ID    int     `json:"id"`
	Label string  `json:"label"` // clean or dirty
	Type  string  `json:"type"`  // p, h or l, as export.KeptTypes
	Value float64 `json:"value"` // the decision value, six decimals
	// Unseen: the rendering could not show the block and the text model
	// decided it (pipeline.Result.UnseenBlocks); Smoothed: sequence
	// smoothing gave it the other label than its own value would
	// (pipeline.Result.Smoothed); Floor: the prose floor kept it
	// (pipeline.Result.Floor); Fallback: the page would keep nothing, and
	// it is its best block, within classify.FallbackMargin of the
	// threshold (pipeline.Result.Fallback). Each only when true.
	Unseen   bool `json:"unseen,omitempty"`
	Smoothed bool `json:"smoothed,omitempty"`
	Floor    bool `json:"floor,omitempty"`
	Fallback bool `json:"fallback,omitempty"`
	// NeverKept is why a rule dropped the block whatever its value
	// ("box", "ad label", "stamp", "byline", "legal": pipeline.NeverKept); only
	// when one did.
	NeverKept string `json:"never_kept,omitempty"`
	Text      string `json:"text"`
}

// WARCDate is the warc_date of output and error records: in's WARC-Date,
// as RFC 3339 in UTC to the nanosecond, or "" for an input that is not a
// WARC record.
func WARCDate(in pipeline.Input) string {
	if in.RecordID == "" || in.Date.IsZero() {
		return ""
	}
	return in.Date.UTC().Format(time.RFC3339Nano)
}

// JSONLine encodes o as one line of "fiasco clean --format jsonl" output,
// newline included; withBlocks adds every block (--blocks).
func JSONLine(o *pipeline.Outcome, withBlocks bool) ([]byte, error) {
	if o.Err == nil && o.Result == nil {
		return nil, emptyOutcome(o.Input.Name)
	}
	in := o.Input
	l := Line{Input: RecordedName(in.Name), URL: in.URL, WARCRecordID: in.RecordID, HTTPStatus: in.HTTPStatus}
	l.WARCDate = WARCDate(in)
	if o.Err != nil {
		l.Error, l.Damage = o.Err.Error(), IsDamage(o.Err)
	} else {
		r := o.Result
		p := r.Page
		if l.URL == "" {
			l.URL = p.URL
		}
		text := strings.TrimSuffix(r.Text(), "\n")
		title := r.Meta.Title
		if title == "" {
			title = PageTitle(r)
		}
		lang, charset, trunc := Lang(text), p.Encoding, p.Truncated
		l.Title, l.Lang, l.Charset, l.Truncated, l.Text = &title, &lang, &charset, &trunc, &text
		l.Author, l.Date, l.Site = r.Meta.Author, r.Meta.Date, r.Meta.Site
		l.RenderError = r.RenderErrText()
		l.UnseenBlocks, _ = r.Unseen()
		for _, x := range r.Smoothed {
			if x {
				l.SmoothedBlocks++
			}
		}
		l.Floored = r.Floored()
		l.Frames = resolveAll(l.URL, r.Frames)
		if withBlocks {
			l.Blocks = lineBlocks(r)
		}
	}
	return encodeLine(l)
}

// encodeLine encodes v as one JSON line, newline included, with <, > and &
// as they read (a page's text, a message naming a tag).
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// resolveAll resolves refs against base where base is an absolute URL,
// and returns refs as they are otherwise, and any it cannot resolve.
func resolveAll(base string, refs []string) []string {
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() || len(refs) == 0 {
		return refs
	}
	out := make([]string, len(refs))
	for i, ref := range refs {
		out[i] = ref
		if u, err := b.Parse(ref); err == nil {
			out[i] = u.String()
		}
	}
	return out
}

func lineBlocks(r *pipeline.Result) []LineBlock {
	types, texts := export.KeptTypes(r.Blocks, func(i int) bool { return r.Keep[i] }), export.BlockTexts(r.Blocks)
	unseen := r.UnseenBlocks()
	never := r.NeverKept()
	fallback := r.Fallback()
	out := make([]LineBlock, len(r.Blocks))
	for i, b := range r.Blocks {
		lb := LineBlock{ID: b.ID, Label: "dirty", Type: string(types[i]), Text: texts[i]}
		lb.Unseen = unseen != nil && unseen[i]
		lb.Smoothed = r.Smoothed != nil && r.Smoothed[i]
		lb.Floor = r.Floor != nil && r.Floor[i]
		lb.Fallback = fallback != nil && fallback[i]
		if i < len(never) {
			lb.NeverKept = never[i]
		}
		if r.Keep[i] {
			lb.Label = "clean"
		}
		if i < len(r.Score) {
			lb.Value = math.Round(r.Score[i]*1e6) / 1e6
		}
		out[i] = lb
	}
	return out
}

// PageTitle returns the page's title: the CleanEval wrapper's, else the
// text of its <title> element, white space collapsed. JSONLine takes the
// title of the page's metadata (package meta) and falls back to this one
// only for a Result without metadata.
func PageTitle(r *pipeline.Result) string {
	if r.Page.Title != "" {
		return strings.Join(strings.Fields(r.Page.Title), " ")
	}
	var find func(n *html.Node) string
	find = func(n *html.Node) string {
		if n.Type == html.ElementNode && n.DataAtom == atom.Title {
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			return strings.Join(strings.Fields(b.String()), " ")
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			return ""
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if t := find(c); t != "" {
				return t
			}
		}
		return ""
	}
	if r.Page.Doc == nil {
		return ""
	}
	return find(r.Page.Doc)
}

// emptyOutcome is the error of an outcome of the page name with neither
// a result nor an error: a caller's mistake, which the sinks record as
// the page's failure rather than panic on.
func emptyOutcome(name string) error {
	return fmt.Errorf("%s: corpus: an outcome with neither a result nor an error", name)
}
