package serve

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/fiasco-project/fiasco/export"
)

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func postEncoded(t *testing.T, url string, body []byte, encoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp, b.Bytes()
}

// TestCompressedBody: a gzip- or zstd-compressed page, with or without
// Content-Encoding saying so, gets the answer of the page itself (what
// fiasco clean prints for the compressed file); other encodings, a body
// that is not what its encoding says and a page that decompresses beyond
// MaxBody are refused with the statuses of the contract.
func TestCompressedBody(t *testing.T) {
	srv := start(t, Config{MaxBody: 1 << 20})
	page := readFile(t, article)
	exp := want(t, textCleaner(t), page, export.CleanEval)
	zenc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zst := zenc.EncodeAll(page, nil)
	gz := gzipped(t, page)
	for _, c := range []struct {
		what, encoding string
		body           []byte
	}{
		{"gzip, no header", "", gz},
		{"gzip", "gzip", gz},
		{"x-gzip", "x-gzip", gz},
		{"zstd, no header", "", zst},
		{"zstd", "zstd", zst},
		{"identity", "identity", page},
	} {
		resp, got := postEncoded(t, srv.url+"/clean", c.body, c.encoding)
		if resp.StatusCode != 200 || !bytes.Equal(got, exp) {
			t.Errorf("%s: status %d, answer\n%s\nwant\n%s", c.what, resp.StatusCode, trunc(got), trunc(exp))
		}
	}
	bomb := gzipped(t, bytes.Repeat([]byte("<p>x</p>"), 1<<18)) // 2 MiB in, a few KiB sent
	for _, c := range []struct {
		what, encoding string
		body           []byte
		status         int
		says           string
	}{
		{"brotli", "br", page, 415, `"br" is not supported`},
		{"gzip said, plain sent", "gzip", page, 400, "not gzip data"},
		{"gzip said, zstd sent", "gzip", zst, 400, "not gzip data"},
		{"zstd said, gzip sent", "zstd", gz, 400, "not zstd data"},
		{"two codings", "gzip, zstd", gz, 415, "one coding at most"},
		{"corrupt gzip", "", gz[:len(gz)/2], 400, "decompressing the body"},
		{"decompresses too large", "gzip", bomb, 413, "decompresses to more than"},
	} {
		resp, body := postEncoded(t, srv.url+"/clean", c.body, c.encoding)
		if msg := errorOf(t, c.what, resp, body, c.status); !strings.Contains(msg, c.says) {
			t.Errorf("%s: message %q does not say %q", c.what, msg, c.says)
		}
	}

	// A batch is read as sent: a compressed one is refused, not misread.
	req, _ := http.NewRequest("POST", srv.url+"/clean/batch", bytes.NewReader(gzipped(t, []byte(`{"html": "<p>x</p>"}`+"\n"))))
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	errorOf(t, "batch, Content-Encoding gzip", resp, body.Bytes(), 415)

	// A batch line's data may be compressed.
	in := fmt.Sprintf(`{"id": 1, "data": %q}`+"\n"+`{"id": 2, "data": %q}`+"\n",
		base64.StdEncoding.EncodeToString(gz), base64.StdEncoding.EncodeToString(bomb))
	_, lines := postBatch(t, srv.url+"/clean/batch", strings.NewReader(in))
	if len(lines) != 2 {
		t.Fatalf("%d answer lines, want 2", len(lines))
	}
	for _, l := range lines {
		switch string(l.ID) {
		case "1":
			if l.Status != 200 || l.Output == nil || *l.Output != string(exp) {
				t.Errorf("batch, gzip data: status %d, error %q", l.Status, l.Error)
			}
		case "2":
			if l.Status != 413 || !strings.Contains(l.Error, "line 2") {
				t.Errorf("batch, data decompressing too large: status %d, error %q", l.Status, l.Error)
			}
		}
	}
}
