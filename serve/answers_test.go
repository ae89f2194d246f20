package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBatchSentWhole: a client that sends its whole batch before it
// reads a byte of the answers (Python's http.client, requests, urllib)
// gets every answer, when they are far more than the connection's
// buffers hold: the batch reads on while its answers wait in the batch
// buffer. Before the buffer, the batch stopped reading once the buffers
// were full and the client, still sending, waited on it until the write
// time-out.
func TestBatchSentWhole(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t), Workers: 1, WriteTimeout: 5 * time.Second})
	page := "<html><body><pre>" + strings.Repeat("A line of text in a preformatted block.\n", 2500) + "</pre></body></html>"
	const lines = 100
	var body bytes.Buffer
	for i := range lines {
		line, _ := json.Marshal(map[string]any{"id": i, "html": page})
		body.Write(append(line, '\n'))
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A deadlock waits for the deadline; a batch that flows takes seconds
	// alone, a minute or more on a machine busy with other work.
	conn.SetDeadline(time.Now().Add(5 * time.Minute))
	head := fmt.Sprintf("POST /clean/batch?render=off&format=html HTTP/1.1\r\nHost: fiasco\r\nContent-Length: %d\r\n\r\n", body.Len())
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(body.Bytes()); err != nil {
		t.Fatalf("sending the batch (%d bytes): %v", body.Len(), err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	n, size := 0, 0
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Status != 200 {
			t.Fatalf("answer %d: %.200s (%v)", n+1, sc.Bytes(), err)
		}
		n++
		size += len(sc.Bytes())
	}
	if n != lines || resp.Trailer.Get("Fiasco-Batch") != "complete" {
		t.Errorf("%d answers of %d (%v), trailer %q; want all and complete", n, lines, sc.Err(), resp.Trailer.Get("Fiasco-Batch"))
	}
	if size < 8<<20 {
		t.Errorf("the answers hold %d bytes: too few to fill the connection's buffers", size)
	}
}

// TestAnswerQueue: lines come out in order; put waits while the queue
// holds its budget, but a line fits an empty queue whatever its size;
// get waits for a line, and ends once the queue is closed and empty.
func TestAnswerQueue(t *testing.T) {
	q := newAnswerQueue(10)
	q.put([]byte("0123456789abc")) // larger than the budget: fits, alone
	if q.full() {
		t.Error("full with no put waiting")
	}
	put := make(chan struct{})
	go func() {
		q.put([]byte("x"))
		close(put)
	}()
	select {
	case <-put:
		t.Fatal("put did not wait for a full queue")
	case <-time.After(50 * time.Millisecond):
	}
	if !q.full() {
		t.Error("a put waits, and the queue is not full")
	}
	if b, ok := q.get(); !ok || string(b) != "0123456789abc" {
		t.Fatalf("get: %q %v", b, ok)
	}
	<-put
	q.close()
	if b, ok := q.get(); !ok || string(b) != "x" {
		t.Fatalf("get after close: %q %v, want the line left", b, ok)
	}
	if _, ok := q.get(); ok {
		t.Fatal("get on a closed, empty queue returned a line")
	}
}

// TestBatchHTTP10: a batch asked for over HTTP/1.0, which has no
// trailers, is answered without announcing one, its lines whole.
func TestBatchHTTP10(t *testing.T) {
	srv := start(t, Config{Text: textCleaner(t)})
	for _, proto := range []string{"HTTP/1.0", "HTTP/1.1"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(time.Minute))
		body := `{"id":"a","html":"<p>A paragraph of a page, in a sentence or two of running text.</p>"}` + "\n"
		fmt.Fprintf(conn, "POST /clean/batch?render=off&format=text %s\r\nHost: fiasco\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", proto, len(body), body)
		raw, err := io.ReadAll(conn) // the connection closes after the answer (Connection: close)
		conn.Close()
		head, got, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
		announced := bytes.Contains(head, []byte("\r\nTrailer: Fiasco-Batch"))
		if err != nil || !bytes.HasPrefix(head, []byte(proto+" 200")) || !bytes.Contains(got, []byte(`"id":"a"`)) || announced != (proto == "HTTP/1.1") {
			t.Errorf("%s: Trailer announced %v, answer %q (%v)", proto, announced, raw, err)
		}
	}
}
