package testkit

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Browser starts Debian's chromium, headless, for one test. It skips the
// test when chromium is not installed, except under CI (.ci/run installs
// it), where it fails.
func Browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed, and CI must test pages in a real browser (.ci/run installs it)")
		}
		t.Skip("chromium is not installed (apt-get install chromium): skipping the browser test")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1920, 1080),
		chromedp.Flag("disable-gpu", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first Run starts the browser, bound to ctx (not to a shorter one).
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// BrowserHang bounds each Browse: far beyond what a starved browser
// takes, it is reached only by a hang. A test asserts what the page
// shows and in which order, never how fast.
const BrowserHang = 2 * time.Minute

// Browse runs actions in the browser of ctx (waits among them last until
// what they wait for happens), failing the test only after BrowserHang.
func Browse(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, BrowserHang)
	defer cancel()
	if err := chromedp.Run(c, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
