// Package warc reads WARC 1.0 and 1.1 files and writes WARC/1.1 records,
// such as the conversion records of WET files. It uses the standard library
// only.
//
// # Reading
//
// NewReader reads a plain WARC file, or a gzip one: one gzip member per
// record (the usual .warc.gz layout), or a whole file compressed as one
// member. Reader.Next returns the records in order, of every type
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
// gzip file, the offset of its gzip member), so reading can resume there
// (see Options.StartOffset).
//
// # Errors
//
// Next returns io.EOF at the end of the input. Any other error is an *Error
// naming the input, the record's offset and, if it was read, its
// WARC-Record-ID; it wraps ErrTruncated (input ending inside a record, its
// header, or its gzip member), ErrMalformed (a header that is not WARC
// syntax), ErrGzip (corrupt gzip data) or an I/O error of the underlying
// reader. Such errors end the reading: Next returns the same error again,
// unless Reader.Resync moves past damage within the file (ErrGzip,
// ErrMalformed) to the next place a record may start.
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
