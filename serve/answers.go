package serve

import "sync"

// answerQueue holds a batch's answer lines between the pages' goroutines
// and the one writer, up to a budget of bytes: a client that sends its
// whole batch before it reads the answers (Python's http.client, requests
// and urllib do) fills the connection's buffers with the first answers,
// and without a queue the pages would wait on the writer, the batch would
// stop reading, and the client would wait on the batch until the write
// time-out. Within the budget the batch reads on while its answers wait.
type answerQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	lines   [][]byte
	size    int64 // bytes held
	max     int64
	closed  bool
	waiting int // puts waiting for room
}

func newAnswerQueue(max int64) *answerQueue {
	q := &answerQueue{max: max}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// put adds a line, waiting while the queue holds max bytes or more (one
// line always fits in an empty queue, whatever its size).
func (q *answerQueue) put(line []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.size > 0 && q.size+int64(len(line)) > q.max {
		q.waiting++
		q.cond.Wait()
		q.waiting--
	}
	q.lines = append(q.lines, line)
	q.size += int64(len(line))
	q.cond.Broadcast()
}

// close ends the queue once it is empty: get then returns false. No put
// may follow.
func (q *answerQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// get returns the oldest line, waiting for one; false once the queue is
// closed and empty.
func (q *answerQueue) get() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.lines) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.lines) == 0 {
		return nil, false
	}
	line := q.lines[0]
	q.lines[0] = nil
	q.lines = q.lines[1:]
	q.size -= int64(len(line))
	q.cond.Broadcast()
	return line, true
}

// full reports whether the queue holds its budget: a put waits for room.
func (q *answerQueue) full() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting > 0
}
