// Package corpus is where pages come from and where their clean text goes
// when fiasco cleans a corpus: input sources (files, directories, lists of
// paths, compressed pages, WARC archives) as a stream of pipeline.Input,
// and output sinks (one file per page, JSON Lines, WET) that a killed run
// can resume.
//
// # Inputs
//
// [Source.Inputs] turns command-line arguments into a stream, read as the
// batch asks for pages, so memory stays bounded whatever the size of the
// input. A file is one page, judged by its name and first bytes: a WARC
// file (WARC/1.0 or 1.1, plain, gzip per record or as a whole, or zstd
// per record or as a whole, with the dictionary frame a .warc.zst file may
// start with; named .warc, .warc.gz or .warc.zst, or starting with "WARC/"
// after line ends, decompressed) is read record by record; an ARC file is
// an error; gzip- and zstd-compressed pages are decompressed; anything
// else is a page. A directory stands for every
// non-hidden file below it in the order of their sorted paths; symbolic
// links are followed, each directory is entered once (so cycles end), and
// the run's own outputs are skipped (Options.Exclude; Stats.OwnOutputs
// names them), as are files whose
// names say they are no page (style sheets, scripts, images, fonts,
// media, documents, archives, JSON Lines: Stats.NotPages) and the outputs
// of earlier runs (directories, Stats.OutputDirs; JSONL and WET files,
// Stats.OutputFiles). A file met a second time (named twice, by
// another path or link, or in a directory walked and as an argument) is
// read once; Stats.Repeated names the others. A path that does not
// exist, a broken link or an unreadable directory is an Input with Err set,
// which the batch reports as a failed page: the run goes on.
//
// Every page is read through a limit of Options.MaxBytes+1 bytes (never
// whole), so that a page cut at the limit is reported truncated and
// /dev/zero is read up to the limit and fails as binary (NUL bytes only).
//
// Of a WARC file, the response records holding an HTML page (by the HTTP
// Content-Type, sniffed when that says too little) with a 2xx status are
// pages: their HTTP body with transfer and content codings removed, their
// WARC-Target-URI as URL, their HTTP Content-Type (and so its charset) for
// loading, and their WARC-Record-ID; a 206 (Partial Content) is a page
// marked truncated. So are resource records whose Content-Type is HTML
// (a page kept without its HTTP exchange, as warcit keeps a folder of
// files): their block is the page. Other records, and HTML responses
// with an empty body, are counted by reason in [Stats]. An archive that
// ends inside a record, or whose gzip data is corrupt, ends with an Input
// whose Err says so. With Options.Resources,
// the non-HTML responses of a WARC file are indexed by URL first (an
// [Archive]), so that the renderer can take a page's style sheets, images
// and fonts from the archive.
//
// # Outputs
//
// [Open] opens a run's outputs as a [Sink]: a directory of one file per
// page (the export formats, JSON with the page's metadata and notes as
// pipeline.Result.Write writes it) with a manifest (manifest.jsonl: input →
// output, or its error); a JSON Lines file or stream (jsonl: one object per
// input: input (its name; FILE#OFFSET for a WARC record), url,
// warc_record_id, warc_date, http_status (a WARC response's HTTP status
// code), title, author, date, site (the page's
// metadata, package meta; author, date and site only when known), lang
// ([Lang]: a guess among 20 languages, "" for others), charset, truncated, text, render_error when the text model cleaned the
// page because rendering it failed, unseen_blocks, smoothed_blocks,
// floored, frames (for a page without text, the pages its frames or
// inline frames load), and optionally blocks (with their unseen, smoothed,
// floor, fallback and never_kept),
// or error, with damage where it is of damage in a WARC file); or a
// WET file (wet: a warcinfo record and
// one gzip member per page holding a conversion record with WARC-Refers-To
// naming the response record, as Common Crawl's). Failed pages are also
// appended to an error log ([ErrorLog]) as they happen.
//
// # Crash safety and resuming
//
// Every per-page file is written to a temporary file and renamed into
// place. Stream outputs, the manifest and the error log are appended one
// whole entry (line, gzip member) per write, and a failed write is undone,
// so a run killed at any moment, even by SIGKILL, leaves whole entries and
// at most a part of the last. The sink is fed in input order
// (pipeline.BatchOptions.Ordered), so what a run finished is a prefix of
// its inputs. A rerun with Resume cuts the partial entry and, walking the
// inputs and the recorded identities ([Identity]: WARC-Record-ID, else
// the input's name) in step, skips that prefix ([Resume]); the outputs end
// up with exactly the entries of an uninterrupted run. Pages a signal
// interrupted are recorded as such in the error log and cleaned on
// resume. The run's [Settings] (OutputOptions.Settings) are kept beside
// the output, and a resumed run with others is refused before any output
// is touched, so that no output mixes two runs' answers; among them the
// inputs as they were spelled ([InputsSetting], under "inputs"), so that
// a resume given the same file spelled another way, or fewer or more
// inputs, is refused too.
package corpus
