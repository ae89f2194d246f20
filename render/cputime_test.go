package render

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// treeCPU returns the CPU time (user+system) used so far by the process pid
// and all its live descendants, with the children they reaped, from /proc
// (Linux; 0 elsewhere). USER_HZ is taken as 100.
func treeCPU(pid int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil || pid == 0 {
		return 0
	}
	parent := map[int]int{}
	ticks := map[int]int64{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
		if len(f) < 15 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		parent[p] = pp
		var t int64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			v, _ := strconv.ParseInt(f[k], 10, 64)
			t += v
		}
		ticks[p] = t
	}
	var total int64
	for p, t := range ticks {
		for q := p; q != 0; q = parent[q] {
			if q == pid {
				total += t
				break
			}
			if _, ok := parent[q]; !ok {
				break
			}
		}
	}
	return time.Duration(total) * 10 * time.Millisecond
}

// selfCPU returns the CPU time of this process.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
