package difflib

import "sort"

// Match is a run of equal items: a[A:A+Size] == b[B:B+Size].
type Match struct {
	A, B, Size int
}

// Matcher finds matching blocks between two sequences the way Python's
// difflib.SequenceMatcher (with isjunk=None) does: the longest common run
// first, then recursively left and right of it. With AutoJunk, an item that
// occurs more than len(b)/100+1 times in a b of at least 200 items is
// "popular": it cannot start a match but may extend one, as in difflib.
type Matcher struct {
	AutoJunk bool
}

// Blocks returns the matching blocks of a and b in increasing order, adjacent
// blocks merged, without difflib's final sentinel.
func (m Matcher) Blocks(a, b []string) []Match {
	ia, ib, n := intern(a, b)
	return m.blocksInt(ia, ib, n)
}

// intern maps the strings of a and b to small integers 0..n-1.
func intern(a, b []string) ([]int32, []int32, int) {
	ids := make(map[string]int32, len(b))
	conv := func(s []string) []int32 {
		out := make([]int32, len(s))
		for i, w := range s {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
			}
			out[i] = id
		}
		return out
	}
	ib := conv(b)
	ia := conv(a)
	return ia, ib, len(ids)
}

type matcher struct {
	a, b []int32
	b2j  [][]int32 // positions in b of each item, nil for popular items
	prev []int32   // j2len of the previous row, indexed by j+1
	cur  []int32
}

func (m Matcher) blocksInt(a, b []int32, n int) []Match {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	s := &matcher{a: a, b: b, b2j: make([][]int32, n)}
	for j, x := range b {
		s.b2j[x] = append(s.b2j[x], int32(j))
	}
	if m.AutoJunk && len(b) >= 200 {
		ntest := len(b)/100 + 1
		for x, js := range s.b2j {
			if len(js) > ntest {
				s.b2j[x] = nil
			}
		}
	}
	s.prev = make([]int32, len(b)+1)
	s.cur = make([]int32, len(b)+1)

	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, len(a), 0, len(b)}}
	var found []Match
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x := s.longest(q.alo, q.ahi, q.blo, q.bhi)
		if x.Size == 0 {
			continue
		}
		found = append(found, x)
		if q.alo < x.A && q.blo < x.B {
			queue = append(queue, span{q.alo, x.A, q.blo, x.B})
		}
		if x.A+x.Size < q.ahi && x.B+x.Size < q.bhi {
			queue = append(queue, span{x.A + x.Size, q.ahi, x.B + x.Size, q.bhi})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].A != found[j].A {
			return found[i].A < found[j].A
		}
		return found[i].B < found[j].B
	})
	var out []Match
	for _, x := range found {
		if n := len(out); n > 0 && out[n-1].A+out[n-1].Size == x.A && out[n-1].B+out[n-1].Size == x.B {
			out[n-1].Size += x.Size
			continue
		}
		out = append(out, x)
	}
	return out
}

// longest is difflib's find_longest_match without a junk function.
func (s *matcher) longest(alo, ahi, blo, bhi int) Match {
	a, b := s.a, s.b
	besti, bestj, best := alo, blo, 0
	// prev[j+1] holds the length of the run ending at a[i-1], b[j]; only the
	// entries touched in the previous row are non-zero.
	var touchedPrev, touchedCur []int32
	for i := alo; i < ahi; i++ {
		js := s.b2j[a[i]]
		if len(js) > 8 && int(js[0]) < blo {
			// skip the positions before blo (difflib scans them)
			js = js[sort.Search(len(js), func(k int) bool { return int(js[k]) >= blo }):]
		}
		for _, j32 := range js {
			j := int(j32)
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := s.prev[j] + 1 // prev[j] is the run ending at b[j-1]
			s.cur[j+1] = k
			touchedCur = append(touchedCur, int32(j+1))
			if int(k) > best {
				besti, bestj, best = i-int(k)+1, j-int(k)+1, int(k)
			}
		}
		for _, t := range touchedPrev {
			s.prev[t] = 0
		}
		s.prev, s.cur = s.cur, s.prev
		touchedPrev, touchedCur = touchedCur, touchedPrev[:0]
	}
	for _, t := range touchedPrev {
		s.prev[t] = 0
	}
	// Extend with equal items on both sides (popular items included, as
	// difflib does: they are not junk).
	for besti > alo && bestj > blo && a[besti-1] == b[bestj-1] {
		besti, bestj, best = besti-1, bestj-1, best+1
	}
	for besti+best < ahi && bestj+best < bhi && a[besti+best] == b[bestj+best] {
		best++
	}
	return Match{besti, bestj, best}
}
