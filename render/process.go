package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// silentExit is chromedp's error for a browser that exited before
// printing its DevTools address, when it printed nothing at all.
const silentExit = "chrome failed to start:"

// discardf drops a message chromedp would log.
func discardf(string, ...any) {}

// errStartTimeout is the cause of a start that Options.StartTimeout ended.
var errStartTimeout = errors.New("start timeout")

// start starts a browser (or connects to the remote one) and waits until
// it answers over DevTools, at most Options.StartTimeout and as long as
// ctx allows. A browser that does not answer in time is killed, with every
// process it started, and its profile directory removed.
func (b *Browser) start(ctx context.Context) (*instance, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, b.opt.StartTimeout, errStartTimeout)
	defer cancel()
	inst := &instance{spare: make(chan *tab, 1), idle: make(chan *tab, 64)}
	var allocCtx context.Context
	if b.opt.RemoteURL != "" {
		allocCtx, inst.allocCancel = remote.NewAllocator(context.Background(), b.opt.RemoteURL)
	} else {
		sweepProfiles()
		dir, err := os.MkdirTemp("", profilePrefix)
		if err != nil {
			return nil, fmt.Errorf("user data dir: %w", err)
		}
		if inst.owner, err = claimProfile(dir); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("user data dir: %w", err)
		}
		inst.userDataDir = dir
		opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(b.exec), chromedp.UserDataDir(dir), chromedp.ModifyCmdFunc(ownGroup)}
		for _, f := range Flags {
			name, val, hasVal := cut(f[2:], '=')
			if hasVal {
				opts = append(opts, chromedp.Flag(name, val))
			} else {
				opts = append(opts, chromedp.Flag(name, true))
			}
		}
		allocCtx, inst.allocCancel = chromedp.NewExecAllocator(context.Background(), opts...)
	}
	var root context.Context
	root, inst.stop = context.WithCancel(allocCtx)
	// chromedp logs what goes wrong on the DevTools connection through the
	// log package ("writing message: write |1: file already closed" when
	// the browser has exited); a library must not write to the process's
	// output, and what matters reaches the caller as an action's error.
	inst.ctx, inst.cancel = chromedp.NewContext(root, chromedp.WithErrorf(discardf))
	// Start the browser now, bounded by ctx (Do on a root context starts it).
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(inst.ctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = context.Cause(ctx)
		if errors.Is(err, errStartTimeout) {
			err = fmt.Errorf("no answer over DevTools within %v (Options.StartTimeout)", b.opt.StartTimeout)
		}
		inst.kill() // ends Do
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	if err != nil {
		inst.shutdown()
		if b.opt.RemoteURL != "" {
			return nil, fmt.Errorf("connect to %s: %w", b.opt.RemoteURL, err)
		}
		if strings.TrimSpace(err.Error()) == silentExit {
			// chromedp quotes what the browser printed; say so when that
			// was nothing, rather than end the message on a colon.
			return nil, fmt.Errorf("start %s: it exited without printing a DevTools address or anything else (is it a Chromium binary?)", b.exec)
		}
		return nil, fmt.Errorf("start %s: %w", b.exec, err)
	}
	return inst, nil
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// kill ends the browser, and every process left of a local one.
func (inst *instance) kill() {
	inst.noteGroups() // before the browser's death orphans its children
	inst.stop()       // chromedp kills the browser's process
	if inst.userDataDir != "" {
		killLeftovers(inst.userDataDir, inst.groups)
	}
	inst.cancelOnce.Do(inst.cancel) // waits for chromedp to let go of the browser
}

// shutdown ends the instance once all its Render calls finished: it ends
// the browser and every process left of it, and removes its profile
// directory.
func (inst *instance) shutdown() error {
	inst.once.Do(func() {
		inst.wg.Wait()
		for {
			select {
			case t := <-inst.spare:
				t.close()
				continue
			case t := <-inst.idle:
				t.close()
				continue
			default:
			}
			break
		}
		// Before allocCancel, which waits for the browser's output pipe to
		// close: a leftover child can hold it open.
		inst.kill()
		inst.allocCancel() // waits for the process to exit
		if inst.userDataDir != "" {
			inst.shutdownError = removeProfile(inst.userDataDir)
		}
		if inst.owner != nil {
			inst.owner.Close()
		}
	})
	return inst.shutdownError
}

// profilePrefix begins the name of a local browser's profile directory in
// the system's temporary directory.
const profilePrefix = "fiasco-chromium-"

// removeProfile removes a local browser's profile directory and the
// directory Chromium made in the system's temporary directory for its
// singleton socket (org.chromium.Chromium.XXXXXX, which the profile's
// SingletonSocket link points into). A browser that exits cleanly
// removes that one itself; a killed one, as every one is here, leaves it
// behind, one per browser started.
func removeProfile(dir string) error {
	var err error
	if target, lerr := os.Readlink(filepath.Join(dir, "SingletonSocket")); lerr == nil {
		// Only a directory of the singleton's kind right in the
		// temporary directory: org.chromium.Chromium.XXXXXX, or
		// com.google.Chrome.XXXXXX for Google Chrome.
		sock := filepath.Dir(target)
		base := filepath.Base(sock)
		if filepath.IsAbs(sock) && filepath.Dir(sock) == filepath.Clean(os.TempDir()) &&
			(strings.HasPrefix(base, "org.chromium.") || strings.HasPrefix(base, "com.google.Chrome.")) {
			err = removeAll(sock)
		}
	}
	return errors.Join(err, removeAll(dir))
}
