// Package serve is fiasco's HTTP service: pages in, clean text out, with
// the answers of the command line.
//
// # Contract
//
// The service cleans the bytes it is sent and nothing else: it never
// fetches a URL it is given (the url parameter is a label), and a render
// makes no network request (package render blocks every request but the
// page's own, which it serves from memory).
//
//	POST /clean          the body is the page's bytes (raw HTML in any
//	                     charset, or a CleanEval <text ...> file; gzip- or
//	                     zstd-compressed, with or without Content-Encoding
//	                     saying so, as fiasco clean reads them). The answer
//	                     is exactly what `fiasco clean -` prints for those
//	                     bytes on standard input with the same options
//	                     (but for a render_error's wording, which says
//	                     where the time ran out: a warm browser's service
//	                     and a cold start's command meet a time limit in
//	                     different places). A WARC file is refused
//	                     (415): fiasco clean reads it record by record,
//	                     the service one page at a time.
//	POST /clean/batch    JSON Lines in, one page per line; JSON Lines out,
//	                     one answer per input line that is not blank (each
//	                     names its line), written as pages finish.
//	GET  /healthz        200 while the service and its Chromium are alive,
//	                     503 otherwise and while shutting down.
//	GET  /metrics        Prometheus text format: requests, pages, errors,
//	                     latency per stage, queue and memory.
//
// Query parameters of both POST endpoints:
//
//	format     cleaneval (default), text, html, json as `fiasco clean
//	           --format` (json with the page's kept text and its notes:
//	           charset, threshold, truncated, render_error,
//	           unseen_blocks, smoothed_blocks, floored; the blocks'
//	           unseen, smoothed, floor, fallback and never_kept);
//	           jsonl: the line `fiasco clean --format jsonl` prints for
//	           the page (url, title, lang, charset, text ...).
//	render     auto (default), on, off (`fiasco clean --no-render`).
//	           auto is what `fiasco clean` does by default
//	           (classify.RendersByDefault): the rendered model under the
//	           corpus policy, the text model under the article policy,
//	           and the text model on a service started without a
//	           browser (`fiasco serve --no-render`; without Chromium
//	           `fiasco serve` does not start); on renders (`--render`).
//	threshold  a decision value, as `fiasco clean --threshold`.
//	rescue     on: keep the prose the text model is sure of whatever the
//	           rendered model says, as `fiasco clean --rescue`; off
//	           (default); true, false, 1 and 0 too, as for floor. A request cleaned by the text model with it is
//	           answered 400.
//	floor      on or off: the prose floor (pipeline.Cleaner.Floor), as
//	           `fiasco clean --floor` and `--floor=false`; absent: the
//	           model's own (the corpus policy's models have it), but
//	           off with a threshold, as on the command line. on with
//	           policy=article is answered 400.
//	policy     what to keep: corpus (default: the text a linguistic corpus
//	           wants, as CleanEval's annotators) or article (the main
//	           article only), as `fiasco clean --policy`.
//	url        the page's URL: printed in the URL line of the cleaneval
//	           format and in json's url (it replaces a CleanEval wrapper's
//	           id). Never fetched.
//	name       the page's name in json output and in errors (default: the
//	           url, else "-", as the command line names standard input).
//
// An answer's headers say how it was made: X-Fiasco-Render (on, off; on
// a batch, sent before any page is cleaned, how its pages are to be
// cleaned: each line's "render" says how its page was),
// X-Fiasco-Blocks and X-Fiasco-Kept (blocks found, kept), and
// X-Fiasco-Truncated: true for a page cut at a size limit, and
// X-Fiasco-Unseen-Blocks for a rendered page with blocks the rendering
// could not show, which the text model decided (pipeline.Result.Unseen),
// and X-Fiasco-Floored: true where the prose floor kept the page's prose
// (pipeline.Result.Floored), and X-Fiasco-Note where the page gave no
// text, saying why as fiasco clean says it on standard error (a batch
// line's note). These two headers and X-Fiasco-Render-Error are ASCII:
// a character beyond it (in a frame's address, say), and "%", is written
// as the %XX bytes of its UTF-8, as in a URL; a batch line's fields keep
// it. A page without a text block is not rendered
// (X-Fiasco-Render: off).
//
// A render that fails sets off a probe of the browser, as /healthz does
// (one at a time; a page rendered in the last 5 s proves the browser
// alive, unless a render failed since: fiasco_chromium_up is then 0
// until a render or a probe succeeds):
// HealthRecycleAfter failed probes in a row end the browser
// (Config.Recycle), so that one that hangs is replaced without a
// /healthz call. A probe counts as failed when its render fails or has
// not answered a tenth past its time limit (a browser stopped hard,
// SIGSTOP, holds a render past its context); while the browser holds
// that render, a probe fails at once without another. A render that
// runs out of its time limit, drawing the page or waiting for the
// browser, is not tried again.
//
// Every answer has X-Content-Type-Options: nosniff, and an html answer
// Content-Security-Policy: sandbox: the pruned page keeps its elements'
// attributes (onclick, ...), which a browser opening it must not run, and
// not in the service's origin.
//
// A Content-Type request header with a charset parameter is the HTTP
// charset of the page (the command line has no such hint, so send none to
// compare answers). Unknown parameters are an error (400), so that a typo
// does not silently change the answer; so are a query that does not parse
// (a ';' between parameters, a bad %-escape) and an option given empty
// ("threshold=": leave it out for the default; url and name may be
// empty).
//
// A batch line is a JSON object with "html" (the page as a string) or
// "data" (its bytes in base64, which may be gzip- or zstd-compressed),
// and optionally "url", "name", "id" (any JSON value, echoed back,
// also with the error of a line refused for another field) and
// "content_type" (the page's HTTP Content-Type header, whose charset is
// taken as a /clean request's is);
// any other field is an error of that line, as an unknown query parameter
// is of a request.
// Its answer line carries "line" (1-based input line), "id", "url",
// "name", "status" (the HTTP status /clean would have given), "render"
// ("on" or "off"), "render_error" (see Errors), "unseen_blocks" and
// "floored" (as X-Fiasco-Unseen-Blocks and X-Fiasco-Floored), and "output" (the answer as text; for json and
// jsonl "page", the answer as an object) or "error". A line that is not
// valid JSON, or too long, gets an error answer and the batch goes on; a
// batch of no lines is answered with none. The response's trailer
// Fiasco-Batch says "complete" when every line read was answered, or why
// the batch stopped (an HTTP/1.0 client gets no trailer: its answer is
// not chunked, and ends when the connection closes).
//
// # Errors
//
// Errors are JSON objects {"error": "...", "status": N}, those that Go's
// HTTP server answers itself before any handler too (431 for headers over
// 64 KiB, 400 for a malformed request, 417, 501 and 505; see conn.go),
// and each has its access log line, a 408 for headers that came too
// slowly too: 505 for HTTP/2's preface sent without TLS ("PRI *", curl
// --http2-prior-knowledge), 400 for another request for "*" (OPTIONS *
// aside, which Go's server answers 200 itself); 400 for an empty
// body, an unknown format, policy, render mode or parameter, a bad
// threshold, a corrupt compressed body or one that is not what its
// Content-Encoding says (gzip said, zstd sent); 404 for a path other than /clean, /clean/batch,
// /healthz and /metrics (taken in its clean form: //clean and /clean/ are
// /clean, not redirected); 405 for a wrong method (with an Allow header); 408
// when the body does
// not arrive in Config.ReadTimeout (a slow client); 413 for a body over
// Config.MaxBody, sent or decompressed; 415 for binary data, a
// Content-Encoding other than gzip or zstd or more than one, any Content-Encoding on
// a batch (its lines' data may hold compressed pages) and a batch sent
// whole (with a Content-Length) that is gzip or zstd data, and a
// multipart body (a form upload: its part headers would be cleaned as the
// page), and on /clean a body whose Content-Type is JSON's (a batch's
// lines); 400 for a batch sent whole that starts as an HTML page (posted
// to /clean/batch instead of /clean); 422 for a page
// that cannot be cleaned (nesting too deep, too many blocks); 501 for render=on on a service without a
// browser; 502 when Chromium fails on the page (one retry first, for a
// browser that died and restarts or a renderer process that crashed,
// killed for memory say, which is noticed at once) with render=on, 504 when the rendering
// runs out of the renderer's own time limit (no retry: it would take as
// long); with render=auto such a page (after the retry that fails too,
// or at once for a render out of time) is cleaned by the text model, as
// fiasco clean does by default: 200, X-Fiasco-Render off, and the failure in the
// X-Fiasco-Render-Error header (a batch line's "render_error"; a json or
// jsonl answer's render_error); 503 with Retry-After when the queue is
// full, the service is shutting down or serves Config.MaxConns
// connections already; 504 when the page is not done in
// Config.Timeout.
//
// An answer 200 is gzip-compressed for a client whose Accept-Encoding
// takes gzip (a batch's lines flushed through the compressor one by one);
// other answers, and answers to other clients, go as they are. Every
// answer carries Vary: Accept-Encoding.
//
// With Config.AccessLog, Config.Log gets a line per request answered:
// method, path, query, status, body bytes (before compression), milliseconds, the client's
// address (a proxy's, behind one) and the X-Fiasco headers of a cleaned
// page, or the error's kind and message; /healthz and /metrics only when
// not answered 200.
//
// # Limits
//
// Config.Workers pages are cleaned at once; up to Config.Queue more
// requests wait for a worker, and beyond that a request is answered 503 at
// once, with Retry-After: the time the requests admitted take at the mean
// time of a page so far, or, when batches hold every place, until the
// first batch is expected to end (as long as the batches that ended took
// on average; before one ended, twice its time so far), 1 to 60 s. A
// page's body (/clean) is read before its
// request takes a place, so that a slow upload holds none, and the place
// is given up once the page is cleaned, before the answer is written, so
// that a client slow to read holds none either (its answer, up to the
// page's output, waits in memory: MaxConns of them at most); a batch
// takes its place when it starts, and its lines are read as they come.
// A batch's answers wait for its client in a buffer of
// Config.BatchBuffer bytes while the batch reads on, so that a client
// that sends the whole batch before it reads (Python's http.client)
// gets its answers; each batch has its own (Workers + Queue batches:
// that many times BatchBuffer at most). A request answered without
// its body being read (a refusal; a GET with a body) reads the body's
// rest for 2 s at most and closes its connection. What
// bounds the bodies being read is Config.MaxConns: connections served at
// once. One more closes the connection idle longest (between two
// keep-alive requests, or accepted with nothing sent yet) or, none idle,
// is answered 503, Retry-After: 1, as soon as its request's headers are
// read (not its body), and closed (fiasco_rejected_total{reason=
// "connections"}, an access log line; one that sends no request within
// 2 s, or comes while MaxConns others are being refused, is closed
// without an answer), so /clean bodies being read take about MaxConns ×
// MaxBody bytes at most. A batch line may be
// MaxLine(Config.MaxBody) bytes long: room for a page of MaxBody bytes
// written as a JSON string with many \u00XX escapes. A request whose
// client went away is counted and logged as 499, a batch too: one whose
// answers cannot be written, or whose connection ends inside its body.
// Where no answer was begun, the 499 is written as well, as a JSON error:
// a client that half-closed its connection after its request looks gone
// and is cancelled, but may still read, and must not take the empty 200
// a handler that writes nothing would give; a /healthz it half-closed
// on is 499 too, since the probe's cancellation says nothing of Chromium. A batch is one request in that count and cleans
// up to Workers of its pages at once. A body (a batch: each line) must
// arrive within Config.ReadTimeout, else 408 (a batch: the line cut is
// answered 408, once, the trailer says the batch was interrupted after
// the line before, and the connection closes after the answer, since
// the rest of the body could not be told from a next request); headers too, and within 10 s
// at most: a client whose headers do not end in time (a slowloris) is
// answered 408 and the connection is closed. The answer must be taken
// within Config.WriteTimeout (a batch's lines: each within it, counted
// from the later of its turn and the last page line read).
//
// # Shutting down
//
// [Server.Serve] returns when its context is cancelled (cmd/fiasco cancels
// it on SIGTERM and SIGINT): the listener closes at once (a health check
// then cannot connect), idle connections close at once too (a client's
// next request on a kept-alive one fails, as on any closed connection:
// it reconnects and is refused; a POST that arrived in full as the
// shutdown began is answered 503 and its connection closed), and
// requests under way (batches included) finish. Config.ShutdownTimeout bounds it all: requests still running in
// its last part (half of it, at most 5 s) are cancelled and answered 503,
// a batch's lines that still come too, and every connection is closed by
// its end; then Serve returns and the caller closes the cleaners (and with
// them Chromium).
package serve
