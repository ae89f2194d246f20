package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRemote starts a Chromium of its own with a DevTools port, as a
// container would run it, and renders through Options.RemoteURL.
func TestRemote(t *testing.T) {
	bin, err := FindChromium()
	if err != nil {
		t.Skipf("skipping: no Chromium binary found: %v", err)
	}
	// Not t.TempDir: Chromium's helper processes may still write to the
	// profile for a moment after the browser dies, which fails TempDir's
	// cleanup. The browser runs in a process group of its own, killed
	// whole, and the profile is removed with retries.
	dir, err := os.MkdirTemp("", "fiasco-remote-")
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, Flags...), "--remote-debugging-port=0", "--user-data-dir="+dir, "about:blank")
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		for i := 0; i < 50 && removeProfile(dir) != nil; i++ { // its singleton directory in TMPDIR too
			time.Sleep(100 * time.Millisecond)
		}
	})
	// Chromium writes the port and the browser's path to DevToolsActivePort.
	var ws string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if lines := strings.Fields(string(b)); err == nil && len(lines) == 2 {
			ws = "ws://127.0.0.1:" + lines[0] + lines[1]
			break
		}
	}
	if ws == "" {
		t.Fatal("Chromium wrote no DevToolsActivePort")
	}
	b := newBrowser(t, Options{RemoteURL: ws})
	if b.ExecPath() != "" {
		t.Errorf("remote browser has exec path %q", b.ExecPath())
	}
	for i := 0; i < 2; i++ {
		res, err := b.Render(context.Background(), readTestdata(t, "blocks.html"), testColors, RenderOptions{Highlight: true})
		if err != nil {
			t.Fatal(err)
		}
		checkBlocks(t, res, testColors)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	// Still running (not a zombie): Close disconnects, the browser stays.
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if i := strings.LastIndexByte(string(stat), ')'); err == nil && i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
		t.Errorf("Close ended the remote browser")
	}
}
