//go:build unix

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"arbiter/internal/testkit"

	"github.com/chromedp/chromedp"
)

// pipedConsole is the built `arbiter console` with its standard input a
// pipe and its output kept, for tests that drive it line by line.
type pipedConsole struct {
	t   *testing.T
	in  io.WriteCloser
	out *testkit.Buffer
}

// startPipedConsole starts the console as alice in dir with env; it is
// stopped (its input closed) when the test ends.
func startPipedConsole(t *testing.T, bin, dir string, env ...string) *pipedConsole {
	t.Helper()
	cmd := exec.Command(bin, "console", "--user", "alice")
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "ARBITER_TOKEN=", "DATA_DIR="+filepath.Join(dir, "data"), "ENGINE_WORKERS=1", "NO_COLOR=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Dir = dir
	c := &pipedConsole{t: t, out: &testkit.Buffer{}}
	cmd.Stdout, cmd.Stderr = c.out, c.out
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.in = in
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return c
}

// send types a line.
func (c *pipedConsole) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("console input: %v", err)
	}
}

// waitMatch waits until the output matches re, failing after a generous
// bound, and returns the first match's groups.
func (c *pipedConsole) waitMatch(what string, re *regexp.Regexp) []string {
	c.t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(c.out.String()); m != nil {
			return m
		}
	}
	c.t.Fatalf("timed out waiting for %s; the console wrote:\n%s", what, c.out.String())
	return nil
}

// gameOver is the console's line that a game ended.
var gameOver = regexp.MustCompile(`(wins: |Draw: |Game over, no result: )[^\n]*`)

var servingAt = regexp.MustCompile(`Serving the play page, the programs' API and the live wall at (http://\S+):`)

// TestConsoleServesThePlayPage starts the console with API_ADDR, asks
// /board link:true and plays a whole game against the bot by clicking on
// the play page in a real browser, as the page marks the pieces that can
// move and their targets.
func TestConsoleServesThePlayPage(t *testing.T) {
	ctx := testkit.Browser(t)
	bin := buildArbiter(t)
	c := startPipedConsole(t, bin, t.TempDir(), "API_ADDR=127.0.0.1:0", "BOT_MOVE_TIME=100ms")
	c.waitMatch("the address served", servingAt)
	c.send("/play game:sixes level:1 options:turns=8")
	c.send("/board link:true")
	link := c.waitMatch("the board's link", regexp.MustCompile(`(http://\S+/play/\S+)`))[1]
	testkit.Browse(t, ctx, "open the board", chromedp.Navigate(link),
		chromedp.Click("#open", chromedp.ByQuery), chromedp.WaitVisible("#board svg", chromedp.ByQuery))

	status := func() string {
		var s string
		testkit.Browse(t, ctx, "the status", chromedp.Poll(
			`(s => s.startsWith("Your move") || s.startsWith("Game over"))(document.getElementById("status").textContent)`,
			nil, chromedp.WithPollingInterval(20*time.Millisecond)),
			chromedp.Text("#status", &s, chromedp.ByQuery))
		return s
	}
	clicks := 0
	for s := status(); !strings.HasPrefix(s, "Game over"); s = status() {
		if clicks > 100 {
			t.Fatalf("the game goes on after %d moves clicked", clicks)
		}
		var version string
		testkit.Browse(t, ctx, "move "+fmt.Sprint(clicks),
			chromedp.AttributeValue("#board", "data-version", &version, nil, chromedp.ByQuery),
			chromedp.Click("#board rect.cell.movable", chromedp.ByQuery),
			chromedp.Click("#board rect.cell.target", chromedp.ByQuery))
		var choices int
		testkit.Browse(t, ctx, "choices", chromedp.Evaluate(`document.querySelectorAll("#choices:not([hidden]) button").length`, &choices))
		if choices > 0 {
			testkit.Browse(t, ctx, "choose", chromedp.Click("#choices button", chromedp.ByQuery))
		}
		testkit.Browse(t, ctx, "the move taken", chromedp.Poll(
			fmt.Sprintf(`document.getElementById("board").dataset.version !== %q`, version), nil, chromedp.WithPollingInterval(20*time.Millisecond)))
		clicks++
	}
	out := c.waitMatch("the result in the console", gameOver)
	t.Logf("%d moves clicked; the console says %q", clicks, out[0])
	if clicks < 4 {
		t.Fatalf("the game ended after %d clicked moves; a game of Sixes of 8 turns takes 4:\n%s", clicks, c.out.String())
	}

	// /wall on: the wall is served at the link it gives.
	c.send("/wall on")
	wall := c.waitMatch("the wall's link", regexp.MustCompile(`(http://\S+/wall/[^/\s]+/)`))[1]
	testkit.Browse(t, ctx, "open the wall", chromedp.Navigate(wall), chromedp.WaitReady("body", chromedp.ByQuery))
	var title string
	testkit.Browse(t, ctx, "the wall's title", chromedp.Title(&title))
	if !strings.Contains(title, "Arbiter") {
		t.Errorf("the wall's link shows %q", title)
	}
}

// TestConsoleBridge runs `arbiter bridge` against the console's own API
// with a real program (arbiter engine): /token new gives the token, the
// bridge connects with it in ARBITER_TOKEN, and its program plays a whole
// game against the bot, started with /play program:true.
func TestConsoleBridge(t *testing.T) {
	bin := buildArbiter(t)
	dir := t.TempDir()
	c := startPipedConsole(t, bin, dir, "API_ADDR=127.0.0.1:0", "BOT_MOVE_TIME=100ms")
	url := c.waitMatch("the address served", servingAt)[1]
	c.send("/token new")
	m := c.waitMatch("the token", regexp.MustCompile(`(arb_[A-Za-z0-9_-]+)[\s\S]*ARBITER_TOKEN`))
	if strings.Contains(c.out.String(), "--token TOKEN") {
		t.Errorf("/token new tells to pass the token on the command line:\n%s", c.out.String())
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bridge := exec.CommandContext(ctx, bin, "bridge", "--server", url, "--", bin, "engine", "--level", "1")
	bridge.Env = append(os.Environ(), "ARBITER_TOKEN="+m[1])
	bridge.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var bridgeOut testkit.Buffer
	bridge.Stdout, bridge.Stderr = &bridgeOut, &bridgeOut
	if err := bridge.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-bridge.Process.Pid, syscall.SIGTERM)
		_ = bridge.Wait()
	}()
	for end := time.Now().Add(time.Minute); !strings.Contains(bridgeOut.String(), "connected to"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the bridge did not connect:\n%s", bridgeOut.String())
		}
	}
	c.send("/play game:sixes level:1 program:true options:turns=8")
	c.waitMatch("the game's result", gameOver)
	out := c.out.String()
	if strings.Contains(out, "No program is connected") {
		t.Errorf("the console says no program is connected while the bridge is:\n%s", out)
	}
	if n := strings.Count(bridgeOut.String(), ", playing "); n < 2 {
		t.Errorf("the program played %d moves:\n%s\nthe bridge wrote:\n%s", n, out, bridgeOut.String())
	}
}

// TestActivityHowToOnOneMachine: docs/how-to/activity.md has a section for
// one machine with the console, giving the steps TestConsoleServesThePlayPage
// takes: API_ADDR, /play, /board link:true, the page's Open the board
// button, and /wall on.
func TestActivityHowToOnOneMachine(t *testing.T) {
	raw, err := os.ReadFile("../docs/how-to/activity.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## On one machine, with the console\n")
	section, _, _ = strings.Cut(section, "\n## ")
	if !ok {
		t.Fatal("docs/how-to/activity.md has no section for one machine with the console")
	}
	for _, step := range []string{"API_ADDR=localhost:8080 ./arbiter console", "/play game:sixes", "/board link:true", "**Open the board**", "/wall on", "/token new"} {
		if !strings.Contains(section, step) {
			t.Errorf("the one-machine section of activity.md lacks %q", step)
		}
	}
}
