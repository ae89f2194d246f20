package render

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ownGroup makes the browser the leader of a process group of its own, so
// that every process it starts, with or without --user-data-dir on its
// command line (a wrapper script's children), can be killed with it. As
// chromedp does by default, the kernel kills the browser when the thread
// that started it ends with our process.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// proc is a process of the system, as /proc shows it.
type proc struct {
	pid, pgid int
	zombie    bool
}

// procs calls f for every process but ours.
func procs(f func(p proc)) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 3 {
			continue
		}
		pgid, _ := strconv.Atoi(fields[2])
		f(proc{pid: pid, pgid: pgid, zombie: fields[0] == "Z"})
	}
}

// usesDir reports whether process pid has --user-data-dir=dir on its
// command line.
func usesDir(pid int, dir string) bool {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return false
	}
	want := []byte("--user-data-dir=" + dir)
	for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
		if bytes.Equal(arg, want) {
			return true
		}
	}
	return false
}

// processGroups returns the process groups led by a live process that runs
// with dir as its profile: the browser's group (see ownGroup).
func processGroups(dir string) map[int]bool {
	groups := map[int]bool{}
	own := syscall.Getpgrp()
	procs(func(p proc) {
		if !p.zombie && p.pgid == p.pid && p.pgid != own && p.pgid > 1 && usesDir(p.pid, dir) {
			groups[p.pgid] = true
		}
	})
	return groups
}

// killLeftovers kills what is left of a browser that ran with dir as its
// profile: the members of the process groups it led (groups, from
// processGroups while it ran) and every process with dir on its command
// line (Chromium passes --user-data-dir to its helpers, which can outlive
// the browser for a moment). It looks again until a few looks in a row
// find nothing alive, as a helper can fork just as the browser dies.
func killLeftovers(dir string, groups map[int]bool) {
	deadline := time.Now().Add(2 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		n := 0
		procs(func(p proc) {
			if !p.zombie && (groups[p.pgid] || usesDir(p.pid, dir)) {
				syscall.Kill(p.pid, syscall.SIGKILL)
				n++
			}
		})
		if n == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}

// removeAll removes dir, trying again for a moment: a helper that was
// just killed can still have created a file in it.
func removeAll(dir string) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return err
}
