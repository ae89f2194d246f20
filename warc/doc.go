// Package warc reads WARC 1.0 and 1.1 files (and the drafts before them,
// WARC/0.17 and 0.18, as ClueWeb09 has) and writes WARC/1.1 records,
// such as the conversion records of WET files. Beside the standard library
// it uses klauspost/compress (zstd) and andybalholm/brotli.
//
// # Reading
//
// NewReader reads a plain WARC file, a gzip one (one gzip member per
// record, the usual .warc.gz layout, or a whole file compressed as one
// member), or a zstd one (.warc.zst, after IIPC's "Zstandard Compression
// for WARC Files 1.0": a frame per record or one for the file, with the
// dictionary of a dictionary frame at its start, as Archive Team writes
// its crawls; the dictionary may be in zstd's format, compressed, or raw
// content). A zstd frame that asks for a window of more than 64 MiB
// (zstd --long=27 and up) is refused as corrupt data (ErrZstd), as is one
// made with a zstd-format dictionary but without its ID (--no-dictID),
// which the warc-zstd specification rules out. Reader.Next returns the records in order, of every type
// (warcinfo, request, response, revisit, metadata, resource, conversion,
// continuation, or any other), so a caller can count those it skips.
//
// Reading streams: memory stays bounded whatever the size of the file or of
// a record. A record's block is an io.Reader limited to its Content-Length
// (Record.Block); what the caller leaves unread is skipped by the next
// Next. Options.MaxPayload caps what a caller can read of a payload, and
// Record.Truncated reports the cut. The named fields are kept in
// Record.Header, in file order, looked up case-insensitively; the common
// ones are also parsed into Record fields.
//
// For a response record holding an HTTP response (Content-Type
// application/http), Record.HTTP parses the status line and header and
// gives the body with chunked transfer coding and gzip, deflate, br or zstd
// content coding removed; other content codings (compress), or two codings
// stacked, give ErrUnsupportedEncoding for that record. HTTPResponse.Charset is the
// charset parameter of the HTTP Content-Type, and HTTPResponse.IsHTML (or
// the function IsHTML) judges whether the payload is an HTML page, sniffing
// the body when the Content-Type says too little.
//
// Every record reports Record.Offset, the file offset it starts at (for a
// compressed file, the offset of its gzip member or zstd frame), so reading can resume there
// (see Options.StartOffset).
//
// # Errors
//
// Next returns io.EOF at the end of the input. Any other error is an *Error
// naming the input, the record's offset and, if it was read, its
// WARC-Record-ID; it wraps ErrTruncated (input ending inside a record, its
// header, or its gzip member or zstd frame), ErrMalformed (a header that
// is not WARC syntax, or a Content-Length that runs past the record's
// gzip member or zstd frame into a member that starts a record, or, in
// a plain file or one compressed as a whole, past a blank line and a
// WARC version line to bytes that end no record or past the end of the
// input: the next record is not swallowed), ErrGzip or ErrZstd (corrupt compressed data) or an
// I/O error of the underlying reader. Such errors end the reading: Next
// returns the same error again, unless Reader.Resync moves past damage
// within the file (ErrGzip, ErrZstd, ErrMalformed) to the next place a
// record may start.
// Errors of Record.HTTP and of reading an HTTP body (ErrNotHTTP,
// ErrBadHTTP, ErrUnsupportedEncoding) concern one record only. No input
// makes the package panic or loop.
//
// # Writing
//
// NewWriter writes WARC/1.1 records, each ended by CRLF CRLF and, if asked,
// gzipped as its own member: WriteWarcinfo for the leading warcinfo record,
// WriteConversion for the text of a page (a WET record, with
// WARC-Refers-To naming the response record and a sha1 base32
// WARC-Block-Digest as in Common Crawl), and WriteRecord for any other.
// Every record gets WARC-Type, WARC-Record-ID (a random UUID URN; see
// Writer.Rand), WARC-Date (the time passed in, UTC, RFC 3339),
// Content-Length and, when given, Content-Type.
//
// Neither side writes to standard output or keeps state between files; a
// Reader or a Writer is for one goroutine at a time.
package warc
