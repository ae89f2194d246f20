package svm

import "sync"

// rowPool recycles cache columns between trainings (grid search and
// cross-validation train many models of the same size); the cache's
// limit counts only the columns it holds.
var rowPool sync.Pool

func getRow(n int) []float32 {
	if v, ok := rowPool.Get().(*[]float32); ok && cap(*v) >= n {
		return (*v)[:n]
	}
	return make([]float32, n)
}

func putRow(b []float32) {
	if cap(b) > 0 {
		rowPool.Put(&b)
	}
}

// release returns all columns to the pool; the cache is unusable after.
func (c *cache) release() {
	for i := range c.heads {
		putRow(c.heads[i].data)
		c.heads[i].data = nil
	}
}

// cache is LIBSVM's LRU kernel cache: one (possibly partial) column of Q
// per solver index, evicted least recently used first once the size
// limit is reached. Sizes are counted in float32 entries, with the same
// per-row overhead LIBSVM charges, so a limit of M megabytes holds about
// as many entries as svm-train -m M does.
type cache struct {
	heads []cacheHead // l heads plus the LRU sentinel at index l
	size  int64       // free entries
	limit int64       // total entries allowed
	peak  int64       // most entries ever in use (for tests)
}

type cacheHead struct {
	prev, next int32
	data       []float32 // data[:n] is valid
	n          int32
}

const cacheHeadBytes = 32 // LIBSVM's sizeof(head_t) on 64-bit

func newCache(l int, bytes int64) *cache {
	size := bytes / 4
	size -= int64(l) * cacheHeadBytes / 4
	if size < 2*int64(l) {
		size = 2 * int64(l) // room for two columns at least
	}
	c := &cache{heads: make([]cacheHead, l+1), size: size, limit: size}
	c.heads[l].prev, c.heads[l].next = int32(l), int32(l)
	return c
}

func (c *cache) lruDelete(h int32) {
	hd := &c.heads[h]
	c.heads[hd.prev].next = hd.next
	c.heads[hd.next].prev = hd.prev
}

func (c *cache) lruInsert(h int32) {
	root := int32(len(c.heads) - 1)
	hd := &c.heads[h]
	hd.next = root
	hd.prev = c.heads[root].prev
	c.heads[hd.prev].next = h
	c.heads[root].prev = h
}

// getData returns the cached column for index with room for length
// entries and the position from which entries still have to be filled
// (>= length if none).
func (c *cache) getData(index int, length int) ([]float32, int) {
	h := int32(index)
	hd := &c.heads[h]
	if hd.n > 0 {
		c.lruDelete(h)
	}
	start := int(hd.n)
	more := int64(length) - int64(hd.n)
	if more > 0 {
		root := int32(len(c.heads) - 1)
		for c.size < more {
			old := c.heads[root].next
			c.lruDelete(old)
			od := &c.heads[old]
			c.size += int64(od.n)
			putRow(od.data)
			od.data = nil
			od.n = 0
		}
		if cap(hd.data) >= length {
			hd.data = hd.data[:length]
		} else {
			nd := getRow(length)
			copy(nd, hd.data[:hd.n])
			putRow(hd.data)
			hd.data = nd
		}
		c.size -= more
		hd.n = int32(length)
		if used := c.limit - c.size; used > c.peak {
			c.peak = used
		}
	} else {
		start = length
	}
	c.lruInsert(h)
	return hd.data[:hd.n], start
}

// swapIndex exchanges solver indices i and j in every cached column,
// dropping columns that hold only one of the two (as LIBSVM does).
func (c *cache) swapIndex(i, j int) {
	if i == j {
		return
	}
	hi, hj := &c.heads[i], &c.heads[j]
	if hi.n > 0 {
		c.lruDelete(int32(i))
	}
	if hj.n > 0 {
		c.lruDelete(int32(j))
	}
	hi.data, hj.data = hj.data, hi.data
	hi.n, hj.n = hj.n, hi.n
	if hi.n > 0 {
		c.lruInsert(int32(i))
	}
	if hj.n > 0 {
		c.lruInsert(int32(j))
	}
	if i > j {
		i, j = j, i
	}
	root := int32(len(c.heads) - 1)
	for h := c.heads[root].next; h != root; {
		hd := &c.heads[h]
		next := hd.next
		if int(hd.n) > i {
			if int(hd.n) > j {
				hd.data[i], hd.data[j] = hd.data[j], hd.data[i]
			} else {
				c.lruDelete(h)
				c.size += int64(hd.n)
				putRow(hd.data)
				hd.data = nil
				hd.n = 0
			}
		}
		h = next
	}
}
