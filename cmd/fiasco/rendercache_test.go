package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRendererID: the cache key names the browser by its version; a
// --version that fails once (as on a loaded machine) is asked again
// rather than replaced by the path, which would change every key.
func TestRendererID(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	browser := filepath.Join(dir, "browser")
	// The first call fails, later ones print a version.
	script := "#!/bin/sh\nif [ -e " + count + " ]; then echo 'FakeChrome 1.2.3'; exit 0; fi\ntouch " + count + "\nexit 1\n"
	if err := os.WriteFile(browser, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	rf := &renderFlags{chromium: browser}
	if got := rendererID(context.Background(), rf); got != "FakeChrome 1.2.3" {
		t.Errorf("rendererID = %q, want the version from the second try", got)
	}
	// A browser that never answers is named by its path.
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := rendererID(context.Background(), rf); got != browser {
		t.Errorf("rendererID = %q, want the path %q", got, browser)
	}
	// A remote browser is named by its DevTools URL.
	if got := rendererID(context.Background(), &renderFlags{remote: "ws://host:9222"}); got != "remote ws://host:9222" {
		t.Errorf("rendererID = %q", got)
	}
}
